package parse_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// deploymentWithEnv returns a Deployment manifest whose container has n env
// entries, in YAML or in JSON.
func deploymentWithEnv(n int, asJSON bool) []byte {
	var sb strings.Builder
	if asJSON {
		sb.WriteString(`{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "labels": {"app": "web"}},` +
			`"spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}}, "template": {"metadata": {"labels": {"app": "web"}},` +
			`"spec": {"containers": [{"name": "web", "image": "nginx:1.25", "env": [`)
		for i := range n {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(`{"name": "VAR_` + strconv.Itoa(i) + `", "value": "value-` + strconv.Itoa(i) + `"}`)
		}
		sb.WriteString(`]}]}}}}`)
		return []byte(sb.String())
	}
	sb.WriteString("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app: web\nspec:\n  replicas: 3\n" +
		"  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n" +
		"    spec:\n      containers:\n      - name: web\n        image: nginx:1.25\n        env:\n")
	for i := range n {
		sb.WriteString("        - name: VAR_" + strconv.Itoa(i) + "\n          value: \"value-" + strconv.Itoa(i) + "\"\n")
	}
	return []byte(sb.String())
}

func benchmarkDocument(b *testing.B, data []byte) {
	benchmarkWith(b, data, parse.Document)
}

func benchmarkWith(b *testing.B, data []byte, read func([]byte) (value.Value, error)) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := read(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDeployment1000EnvYAML parses a YAML Deployment with 1000 env
// entries.
func BenchmarkDeployment1000EnvYAML(b *testing.B) {
	benchmarkDocument(b, deploymentWithEnv(1000, false))
}

// BenchmarkDeployment1000EnvJSON parses the same Deployment written as
// JSON.
func BenchmarkDeployment1000EnvJSON(b *testing.B) {
	benchmarkDocument(b, deploymentWithEnv(1000, true))
}

// BenchmarkDeployment1000EnvJSONOwned parses the JSON Deployment with
// OwnedDocument: no copy of the input.
func BenchmarkDeployment1000EnvJSONOwned(b *testing.B) {
	benchmarkWith(b, deploymentWithEnv(1000, true), parse.OwnedDocument)
}

// BenchmarkDeployment10EnvJSON parses a small JSON Deployment, 10 env
// entries, the size of most objects.
func BenchmarkDeployment10EnvJSON(b *testing.B) {
	benchmarkDocument(b, deploymentWithEnv(10, true))
}

// BenchmarkDeployment10EnvJSONOwned is BenchmarkDeployment10EnvJSON with
// OwnedDocument.
func BenchmarkDeployment10EnvJSONOwned(b *testing.B) {
	benchmarkWith(b, deploymentWithEnv(10, true), parse.OwnedDocument)
}

// benchmarkArena parses data again and again into one Arena, reset before
// each parse, as a program that reads document after document does.
func benchmarkArena(b *testing.B, data []byte) {
	var a parse.Arena
	benchmarkWith(b, data, func(d []byte) (value.Value, error) {
		a.Reset()
		return parse.OwnedDocumentIn(&a, d)
	})
}

// BenchmarkDeployment1000EnvJSONArena is BenchmarkDeployment1000EnvJSONOwned
// into a reused Arena.
func BenchmarkDeployment1000EnvJSONArena(b *testing.B) {
	benchmarkArena(b, deploymentWithEnv(1000, true))
}

// BenchmarkDeployment10EnvJSONArena is BenchmarkDeployment10EnvJSONOwned
// into a reused Arena.
func BenchmarkDeployment10EnvJSONArena(b *testing.B) {
	benchmarkArena(b, deploymentWithEnv(10, true))
}

// BenchmarkSpreadAliases measures the refusal of the spread-alias input
// (400 documents, each within the alias bound alone): a parse that
// bounded aliases per document accepted it, and every use of the
// documents (encoding, recording, merging) then worked on 400 times the
// bound.
func BenchmarkSpreadAliases(b *testing.B) {
	in := spreadAliases()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := parse.Documents(in); err == nil {
			b.Fatal("the spread-alias input is accepted")
		}
	}
}
