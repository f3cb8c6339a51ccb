package smp_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/smp"
)

// conflict is a Conflict as the tables write it: path rendered, values as
// YAML.
type conflict struct{ path, local, live string }

func c3(path, local, live string) conflict { return conflict{path, local, live} }

var _ = Describe("Conflicts", func() {
	DescribeTable("reports where the patch and the server's changes disagree, as kubectl does",
		func(kind, recorded, local, live string, want []conflict, kubectl verdict) {
			c := newCase(kind, recorded, local, live)
			got := smp.Conflicts(c.tree())
			var rows []conflict
			for _, g := range got {
				rows = append(rows, conflict{g.Path.String(), string(g.Local.JSON()), string(g.Live.JSON())})
			}
			var wantRows []conflict
			for _, w := range want {
				wantRows = append(wantRows, conflict{w.path, string(yamlValue(w.local).JSON()), string(yamlValue(w.live).JSON())})
			}
			Expect(rows).To(Equal(wantRows))
			Expect(kubectlVerdict(c.def(), c.recorded, c.hasRecorded, c.local, c.live)).To(Equal(kubectl), "kubectl's verdict")
			if kubectl != kubectlFails {
				Expect(kubectl == kubectlConflict).To(Equal(len(want) > 0), "the table agrees with kubectl")
			}
		},
		Entry("no change on the server", "Deployment",
			`{spec: {replicas: 1}}`, `{spec: {replicas: 3}}`, `{spec: {replicas: 1}}`, nil, kubectlAccepts),
		Entry("scalar conflict", "Deployment",
			`{spec: {replicas: 1}}`, `{spec: {replicas: 3}}`, `{spec: {replicas: 2}}`,
			[]conflict{c3("spec.replicas", "3", "2")}, kubectlConflict),
		Entry("scalar changed the same way on both sides", "Deployment",
			`{spec: {replicas: 1}}`, `{spec: {replicas: 3}}`, `{spec: {replicas: 3}}`, nil, kubectlAccepts),
		Entry("server changed a field local does not touch", "Deployment",
			`{spec: {replicas: 1}}`, `{spec: {replicas: 3}}`, `{spec: {replicas: 1, paused: true}}`, nil, kubectlAccepts),
		Entry("server changed a field local sets, to something else", "Deployment",
			`{spec: {replicas: 1, paused: false}}`, `{spec: {replicas: 3, paused: false}}`, `{spec: {replicas: 1, paused: true}}`,
			[]conflict{c3("spec.paused", "false", "true")}, kubectlConflict),
		Entry("removal vs change", "ConfigMap",
			`{data: {a: "1", b: "2"}}`, `{data: {b: "2"}}`, `{data: {a: changed, b: "2"}}`,
			[]conflict{c3("data.a", "null", `changed`)}, kubectlConflict),
		Entry("change vs removal", "ConfigMap",
			`{data: {a: "1", b: "2"}}`, `{data: {a: "3", b: "2"}}`, `{data: {b: "2"}}`,
			[]conflict{c3("data.a", `"3"`, "null")}, kubectlConflict),
		Entry("several conflicts, in path order", "ConfigMap",
			`{data: {a: "1", b: "1"}, metadata: {labels: {x: "1"}}}`, `{data: {a: "2", b: "2"}, metadata: {labels: {x: "2"}}}`, `{data: {a: "3", b: "3"}, metadata: {labels: {x: "3"}}}`,
			[]conflict{c3("data.a", `"2"`, `"3"`), c3("data.b", `"2"`, `"3"`), c3("metadata.labels.x", `"2"`, `"3"`)}, kubectlConflict),
		Entry("delete directive vs item change", "Deployment",
			`{spec: {template: {spec: {containers: [{name: a, image: "1"}, {name: b, image: "1"}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, image: "1"}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, image: "1"}, {name: b, image: new}]}}}}`,
			[]conflict{c3("spec.template.spec.containers[name=b]", `{$patch: delete, name: b}`, `{image: new, name: b}`)}, kubectlConflict),
		Entry("both delete the item: none", "Deployment",
			`{spec: {template: {spec: {containers: [{name: a, image: "1"}, {name: b, image: "1"}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, image: "1"}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, image: "1"}]}}}}`, nil, kubectlAccepts),
		Entry("item field conflict", "Deployment",
			`{spec: {template: {spec: {containers: [{name: a, image: "1"}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, image: "2"}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, image: "3"}]}}}}`,
			[]conflict{c3("spec.template.spec.containers[name=a].image", `"2"`, `"3"`)}, kubectlConflict),
		Entry("replace-strategy field: none", "PodDisruptionBudget",
			`{spec: {selector: {matchLabels: {a: x}}}}`, `{spec: {selector: {matchLabels: {a: y}}}}`, `{spec: {selector: {matchLabels: {a: z}}}}`, nil, kubectlAccepts),
		Entry("merged set: none", "ConfigMap",
			`{metadata: {finalizers: [a]}}`, `{metadata: {finalizers: [a, b]}}`, `{metadata: {finalizers: [a, c]}}`, nil, kubectlAccepts),
		// kubectl's conflict check fails on its own $deleteFromPrimitiveList
		// key ("unable to find api field").
		Entry("merged set, removal vs server's addition: none", "ConfigMap",
			`{metadata: {finalizers: [a, b]}}`, `{metadata: {finalizers: [a]}}`, `{metadata: {finalizers: [c]}}`, nil, kubectlFails),
		Entry("atomic list whose length differs", "Service",
			`{spec: {externalIPs: [a]}}`, `{spec: {externalIPs: [b]}}`, `{spec: {externalIPs: [a, c]}}`,
			[]conflict{c3("spec.externalIPs", "[b]", "[a, c]")}, kubectlConflict),
		Entry("atomic list with a different member", "Service",
			`{spec: {externalIPs: [a]}}`, `{spec: {externalIPs: [b]}}`, `{spec: {externalIPs: [c]}}`,
			[]conflict{c3("spec.externalIPs", "[b]", "[c]")}, kubectlConflict),
		Entry("atomic list reordered on the server: none", "Service",
			`{spec: {externalIPs: [a, b]}, metadata: {labels: {x: "1"}}}`, `{spec: {externalIPs: [a, b]}, metadata: {labels: {x: "2"}}}`, `{spec: {externalIPs: [b, a]}, metadata: {labels: {x: "1"}}}`,
			nil, kubectlAccepts),
		// Inside a keyed item kubectl's conflict check fails on atomic
		// lists ("list element types are not identical"); ply reports them.
		Entry("atomic list in a keyed item, length differs", "Deployment",
			`{spec: {template: {spec: {containers: [{name: a, image: "1", args: [x]}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, image: "1", args: [y]}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, image: "1", args: [x, z]}]}}}}`,
			[]conflict{c3("spec.template.spec.containers[name=a].args", "[y]", "[x, z]")}, kubectlFails),
		Entry("atomic list in a keyed item, a different member", "Deployment",
			`{spec: {template: {spec: {containers: [{name: a, image: "1", args: [x]}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, image: "1", args: [y]}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, image: "1", args: [z]}]}}}}`,
			[]conflict{c3("spec.template.spec.containers[name=a].args", "[y]", "[z]")}, kubectlFails),
		Entry("kind changed on the server", "ConfigMap",
			`{data: {a: "1"}}`, `{data: {a: "2"}}`, `{data: "oops"}`,
			[]conflict{c3("data", `{a: "2"}`, `oops`)}, kubectlConflict),
		Entry("first apply: the diff is taken from an empty object", "Deployment",
			absent, `{spec: {replicas: 3}}`, `{spec: {replicas: 2}}`,
			[]conflict{c3("spec.replicas", "3", "2")}, kubectlConflict),
	)
})
