package parity_test

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/yaml"
)

// outputLane counts the namespaces of the -o specs, so that each entry
// applies to namespaces of its own.
var outputLane int

// applyOutput applies file to a new namespace with kubectl and with ply,
// both with args, twice (a create, then an apply of the same file), and
// returns each tool's standard output of both runs with the namespace's
// name replaced by NS.
func applyOutput(file string, args ...string) (kubectl, ply []string) {
	GinkgoHelper()
	outputLane++
	for _, t := range []tool{kubectlTool, plyTool} {
		ns := "out-" + strconv.Itoa(outputLane) + "-" + string(t)
		createNamespace(ns)
		var outs []string
		for range 2 {
			cmd := append(t.command(file, ns), args...)
			outs = append(outs, strings.ReplaceAll(run(cmd...), ns, "NS"))
		}
		if t == kubectlTool {
			kubectl = outs
		} else {
			ply = outs
		}
	}
	return kubectl, ply
}

// serverSet are the metadata fields the server sets per object: they
// differ between two applies of the same manifest.
var serverSet = []string{"uid", "resourceVersion", "creationTimestamp", "managedFields"}

// normalised is the object or list of a tool's -o json|yaml output
// without the fields the server sets per object.
func normalised(out string) map[string]any {
	GinkgoHelper()
	var o map[string]any
	Expect(yaml.Unmarshal([]byte(out), &o)).To(Succeed(), "one object or list, not a stream:\n%s", out)
	objs := []any{o}
	if items, ok := o["items"].([]any); ok {
		objs = items
	}
	for _, item := range objs {
		if md, ok := item.(map[string]any)["metadata"].(map[string]any); ok {
			for _, f := range serverSet {
				delete(md, f)
			}
		}
	}
	return o
}

var _ = Describe("apply -o: ply prints what kubectl 1.32 prints", func() {
	DescribeTable("json and yaml: one object alone, several as one v1 List, in input order",
		func(file, format string) {
			kubectl, ply := applyOutput(filepath.Join("testdata", "output", file), "-o", format)
			for i := range kubectl {
				Expect(cmp.Diff(normalised(kubectl[i]), normalised(ply[i]))).To(BeEmpty(), "run %d: kubectl (-) and ply (+) differ", i+1)
			}
			if file == "several.yaml" {
				Expect(normalised(ply[0])).To(HaveKeyWithValue("kind", "List"))
			}
		},
		Entry("one object, json", "one.yaml", "json"),
		Entry("one object, yaml", "one.yaml", "yaml"),
		Entry("three objects, json", "several.yaml", "json"),
		Entry("three objects, yaml", "several.yaml", "yaml"),
	)

	DescribeTable("jsonpath, go-template and name print the same text",
		func(file string, args ...string) {
			kubectl, ply := applyOutput(filepath.Join("testdata", "output", file), args...)
			Expect(ply).To(Equal(kubectl))
			Expect(ply[0]).NotTo(BeEmpty())
		},
		Entry("jsonpath over the List's items", "several.yaml", "-o", "jsonpath={.items[*].metadata.name}"),
		Entry("jsonpath of one object", "one.yaml", "-o", "jsonpath={.metadata.name} {.data.colour}"),
		Entry("jsonpath-as-json", "several.yaml", "-o", "jsonpath-as-json={.items[*].kind}"),
		Entry("go-template over the List's items", "several.yaml", "-o", "go-template={{range .items}}{{.kind}}/{{.metadata.name}} {{end}}"),
		Entry("name", "several.yaml", "-o", "name"),
	)

	It("jsonpath output reads as JSON where kubectl's does", func() {
		_, ply := applyOutput(filepath.Join("testdata", "output", "several.yaml"), "-o", "jsonpath-as-json={.items[*].metadata.name}")
		var names []string
		Expect(json.Unmarshal([]byte(ply[0]), &names)).To(Succeed())
		Expect(names).To(Equal([]string{"settings", "web", "features"}))
	})
})

var _ = Describe("apply --dry-run says what the apply would say", func() {
	It("with the server's dry run, as kubectl 1.32; with the client's, as the real apply, where kubectl says configured", func() {
		outputLane++
		file := filepath.Join("testdata", "output", "several.yaml")
		server, client := map[tool][]string{}, map[tool][]string{}
		var realApply []string
		for _, t := range []tool{kubectlTool, plyTool} {
			ns := "dry-" + strconv.Itoa(outputLane) + "-" + string(t)
			createNamespace(ns)
			for range 2 { // before the objects exist, then after
				server[t] = append(server[t], report(run(append(t.command(file, ns), "--dry-run=server")...))...)
				client[t] = append(client[t], report(run(append(t.command(file, ns), "--dry-run=client")...))...)
				if t == plyTool {
					realApply = append(realApply, apply(t, file, ns)...)
				} else {
					apply(t, file, ns)
				}
			}
		}
		Expect(server[plyTool]).To(Equal(server[kubectlTool]))
		Expect(server[plyTool]).To(ContainElements("configmap/settings created (server dry run)", "configmap/settings unchanged (server dry run)"))
		var want []string
		for _, l := range realApply {
			want = append(want, l+" (dry run)")
		}
		Expect(client[plyTool]).To(Equal(want), "what the apply that follows says")
		Expect(client[kubectlTool]).To(ContainElement("configmap/settings configured (dry run)"), "kubectl's client dry run says configured for an object it would leave unchanged")
	})
})
