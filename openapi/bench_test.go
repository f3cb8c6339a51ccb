package openapi_test

import (
	"os"
	"testing"

	"github.com/plyproject/ply/openapi"
)

// BenchmarkLoadDefault parses and converts the embedded document (what
// Default does once per process).
func BenchmarkLoadDefault(b *testing.B) {
	b.SetBytes(int64(len(openapi.EmbeddedDefault)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := openapi.LoadV2Uncached("bench", openapi.EmbeddedDefault); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadV2Cached is a repeated LoadV2 of one document: a content
// hash and a map lookup.
func BenchmarkLoadV2Cached(b *testing.B) {
	if _, err := openapi.LoadV2(openapi.EmbeddedDefault); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(openapi.EmbeddedDefault)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := openapi.LoadV2(openapi.EmbeddedDefault); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkForKind looks up root types by apiVersion and kind.
func BenchmarkForKind(b *testing.B) {
	s, err := openapi.Default()
	if err != nil {
		b.Fatal(err)
	}
	kinds := [...][2]string{
		{"apps/v1", "Deployment"}, {"v1", "Pod"}, {"v1", "Service"}, {"v1", "ConfigMap"}, {"batch/v1", "Job"},
		{"networking.k8s.io/v1", "Ingress"}, {"rbac.authorization.k8s.io/v1", "ClusterRole"}, {"example.com/v1", "Missing"},
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := kinds[i%len(kinds)]
		i++
		if t, ok := s.ForKind(k[0], k[1]); ok == (t == nil) {
			b.Fatal("inconsistent lookup")
		}
	}
}

// BenchmarkDefaultV3FirstForKind is the first ForKind("apps/v1",
// "Deployment") of a process: a fresh lazy default (what DefaultV3 builds
// once, indexing the embedded file names) and the parse of the apps/v1
// document alone.
func BenchmarkDefaultV3FirstForKind(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		s, err := openapi.NewLazyDefault()
		if err != nil {
			b.Fatal(err)
		}
		if _, ok := s.ForKind("apps/v1", "Deployment"); !ok {
			b.Fatal("Deployment does not resolve")
		}
	}
}

// BenchmarkDefaultV3Index is building a fresh lazy default without any
// lookup: indexing the embedded documents by group-version.
func BenchmarkDefaultV3Index(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := openapi.NewLazyDefault(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDefaultV3WarmForKind is a lookup after the first: the document
// is parsed, so it is two map lookups.
func BenchmarkDefaultV3WarmForKind(b *testing.B) {
	s, err := openapi.NewLazyDefault()
	if err != nil {
		b.Fatal(err)
	}
	if _, ok := s.ForKind("apps/v1", "Deployment"); !ok {
		b.Fatal("Deployment does not resolve")
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := s.ForKind("apps/v1", "Deployment"); !ok {
			b.Fatal("Deployment does not resolve")
		}
	}
}

// BenchmarkDefaultV3LoadAll parses every embedded v3 document (what ByName
// on the lazy default costs once).
func BenchmarkDefaultV3LoadAll(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		s, err := openapi.NewLazyDefault()
		if err != nil {
			b.Fatal(err)
		}
		if err := openapi.CheckLazy(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadCRD converts the two CRDs (three served versions) of
// testdata/crd/widgets.yaml.
func BenchmarkLoadCRD(b *testing.B) {
	data, err := os.ReadFile("testdata/crd/widgets.yaml")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := openapi.LoadCRD("bench", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnionForKind is a lookup through a CRD source that lacks the
// kind, then the (warm) embedded default: what ply merge --schema crd.yaml
// costs per built-in object.
func BenchmarkUnionForKind(b *testing.B) {
	data, err := os.ReadFile("testdata/crd/widgets.yaml")
	if err != nil {
		b.Fatal(err)
	}
	crd, err := openapi.LoadCRD("bench", data)
	if err != nil {
		b.Fatal(err)
	}
	def, err := openapi.DefaultV3()
	if err != nil {
		b.Fatal(err)
	}
	s := openapi.Union(crd, def)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := s.ForKind("apps/v1", "Deployment"); !ok {
			b.Fatal("Deployment does not resolve")
		}
	}
}
