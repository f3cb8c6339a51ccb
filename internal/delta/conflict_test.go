package delta_test

import (
	"errors"
	"github.com/plyproject/ply/test/treetest"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// conflict is a Conflict as the tables write it: path rendered, values as
// YAML.
type conflict struct{ path, local, live string }

func c3(path, local, live string) conflict { return conflict{path, local, live} }

// conflicts runs the conflict rule on c as its callers do: on the
// producer's three-way patch.
func conflicts(c threeCase) ([]delta.Conflict, error) {
	tree, beside := c.collated(features.Gates{})
	p, ok, err := delta.ThreeWay(tree, beside, features.Gates{}, true)
	Expect(err).NotTo(HaveOccurred())
	err = delta.Check(tree, beside, p, ok, features.Gates{})
	var ce *delta.ConflictError
	if errors.As(err, &ce) {
		Expect(ce.Conflicts).NotTo(BeEmpty(), "a ConflictError is never empty")
		return ce.Conflicts, nil
	}
	return nil, err
}

// rows renders conflicts as the tables write them (values as JSON).
func rows(cs []delta.Conflict) []conflict {
	var out []conflict
	for _, c := range cs {
		out = append(out, conflict{c.Path.String(), string(c.Local.JSON()), string(c.Live.JSON())})
	}
	return out
}

// expectConflicts checks the conflicts of a case and kubectl's verdict on
// it, and returns the case.
func expectConflicts(kind, recorded, local, live string, want []conflict, kubectl verdict) threeCase {
	c := newCase(kind, recorded, local, live)
	got, err := conflicts(c)
	Expect(err).NotTo(HaveOccurred())
	var wantRows []conflict
	for _, w := range want {
		wantRows = append(wantRows, conflict{w.path, string(treetest.YAML(w.local).JSON()), string(treetest.YAML(w.live).JSON())})
	}
	Expect(rows(got)).To(Equal(wantRows))
	Expect(kubectlVerdict(c.def(), c.recorded, c.hasRecorded, c.local, c.live)).To(Equal(kubectl), "kubectl's verdict")
	return c
}

var _ = Describe("Check", func() {
	DescribeTable("reports where the patch and the server's changes disagree, as kubectl does",
		func(kind, recorded, local, live string, want []conflict, kubectl verdict) {
			expectConflicts(kind, recorded, local, live, want, kubectl)
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
		Entry("no patch: none, whatever the server changed", "Deployment",
			`{spec: {replicas: 1}}`, `{spec: {replicas: 1}}`, `{spec: {replicas: 1}}`, nil, kubectlAccepts),
		// Items are matched by elements.KeyOf, defaults filling key fields
		// an item leaves out: with the v3 schema ports are keyed by
		// (containerPort, protocol), and local's {containerPort: 80} is the
		// item live writes with protocol TCP. (kubectl keys them by
		// containerPort alone, and agrees.)
		Entry("items matched by their key tuple, a default filling a field", "Pod@v3",
			`{spec: {containers: [{name: a, image: i, ports: [{containerPort: 80, name: x}]}]}}`,
			`{spec: {containers: [{name: a, image: i, ports: [{containerPort: 80, name: y}]}]}}`,
			`{spec: {containers: [{name: a, image: i, ports: [{containerPort: 80, protocol: TCP, name: z}]}]}}`,
			[]conflict{c3("spec.containers[name=a].ports[containerPort=80,protocol=TCP].name", "y", "z")}, kubectlConflict),
	)

	// Of live items repeating a key the first is compared when live is
	// diffed from recorded (collate.Options.Lenient), as the merge writes only that
	// one; kubectl compares the last, as its check indexes them.
	DescribeTable("compares the first of live's items repeating a key",
		expectConflicts,
		Entry("live repeats a key: its first item is compared", "Deployment",
			`{spec: {template: {spec: {containers: [{name: a, image: "1"}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, image: "2"}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, image: "1"}, {name: a, image: "3"}]}}}}`,
			nil, kubectlConflict),
		Entry("live repeats a key: its first item is compared, conflicting", "Deployment",
			`{spec: {template: {spec: {containers: [{name: a, image: "1"}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, image: "2"}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, image: "3"}, {name: a, image: "1"}]}}}}`,
			[]conflict{c3("spec.template.spec.containers[name=a].image", `"2"`, `"3"`)}, kubectlConflict),
	)

	// With every gate off (UniqueMergeKeys) the items are paired as kubectl
	// pairs them (collate's Ranked lists): its sort reverses live's two
	// items of "a", so local's is compared with the one holding "3", and of
	// the server's changes the last item of "a" counts, as kubectl's check
	// indexes them.
	DescribeTable("with every gate off, pairs live's repeated items as kubectl does",
		func(live string, want []conflict) {
			c := newCase("Deployment", `{spec: {template: {spec: {containers: [{name: a, image: "1"}]}}}}`,
				`{spec: {template: {spec: {containers: [{name: a, image: "2"}]}}}}`, live)
			tree, beside := c.collated(features.Kubectl())
			p, ok, err := delta.ThreeWay(tree, beside, features.Kubectl(), true)
			Expect(err).NotTo(HaveOccurred())
			var ce *delta.ConflictError
			Expect(errors.As(delta.Check(tree, beside, p, ok, features.Kubectl()), &ce)).To(Equal(want != nil))
			var wantRows []conflict
			for _, w := range want {
				wantRows = append(wantRows, conflict{w.path, string(treetest.YAML(w.local).JSON()), string(treetest.YAML(w.live).JSON())})
			}
			if ce != nil {
				Expect(rows(ce.Conflicts)).To(Equal(wantRows))
			}
			Expect(kubectlVerdict(c.def(), c.recorded, c.hasRecorded, c.local, c.live)).To(Equal(kubectlConflict), "kubectl's verdict")
		},
		Entry("the server's changes end with the item holding 1",
			`{spec: {template: {spec: {containers: [{name: a, image: "1"}, {name: a, image: "3"}]}}}}`,
			[]conflict{c3("spec.template.spec.containers[name=a].image", `"2"`, `"1"`)}),
		Entry("the server's changes end with the item holding 3",
			`{spec: {template: {spec: {containers: [{name: a, image: "3"}, {name: a, image: "1"}]}}}}`,
			[]conflict{c3("spec.template.spec.containers[name=a].image", `"2"`, `"3"`)}),
	)

	// Live's fields named like directives are data to the check (collate.Options.Lenient), as to kubectl's:
	// an annotation "$foo" no longer stops it.
	It("takes a live annotation named like a directive as data", func() {
		expectConflicts("Deployment", `{metadata: {annotations: {a: "1"}}}`, `{metadata: {annotations: {a: "2"}}}`,
			`{metadata: {annotations: {a: "1", $foo: x}}}`, nil, kubectlAccepts)
	})

	DescribeTable("fails where the recorded->live patch cannot be made, naming the source, as kubectl fails",
		func(kind, recorded, local, live string, source elements.Source, path string) {
			c := newCase(kind, recorded, local, live)
			Expect(kubectlVerdict(c.def(), c.recorded, c.hasRecorded, c.local, c.live)).To(Equal(kubectlFails), "kubectl's verdict")
			_, err := conflicts(c)
			var ee *elements.Error
			Expect(errors.As(err, &ee)).To(BeTrue(), "%v", err)
			Expect(ee.Source).To(Equal(source))
			Expect(ee.Path.String()).To(Equal(path))
		},
		Entry("a live item without its merge key where recorded has the list", "Deployment",
			`{spec: {replicas: 1, template: {spec: {volumes: [{name: v, emptyDir: {}}]}}}}`,
			`{spec: {replicas: 2}}`,
			`{spec: {replicas: 1, template: {spec: {volumes: [{name: v, emptyDir: {}}, {emptyDir: {}}]}}}}`,
			elements.Live, "spec.template.spec.volumes"),
		Entry("a recorded item without its merge key where live has the list", "Deployment",
			`{spec: {replicas: 1, template: {spec: {volumes: [{emptyDir: {}}]}}}}`,
			`{spec: {replicas: 2}}`,
			`{spec: {replicas: 1, template: {spec: {volumes: [{name: v, emptyDir: {}}]}}}}`,
			elements.Recorded, "spec.template.spec.volumes"),
	)
})

var _ = Describe("ConflictError", func() {
	It("lists every conflicting path", func() {
		err := &delta.ConflictError{Conflicts: []delta.Conflict{
			{Path: fieldpath.Path{fieldpath.Field("spec"), fieldpath.Field("replicas")}},
			{Path: fieldpath.Path{fieldpath.Field("metadata"), fieldpath.Field("labels"), fieldpath.Field("app")}},
		}}
		Expect(err.Error()).To(Equal("apply conflicts with changes made on the server at: spec.replicas metadata.labels.app"))
	})
})

var _ = Describe("Conflict.Describe", func() {
	pw := fieldpath.Path{fieldpath.Field("data"), fieldpath.Field("pw")}
	replicas := fieldpath.Path{fieldpath.Field("spec"), fieldpath.Field("replicas")}
	err := func() *delta.ConflictError {
		return &delta.ConflictError{Conflicts: []delta.Conflict{
			{Path: pw, Local: value.String("TjN3LVBXLTUzNTM="), Live: value.String("T0xELVBXLTc3Nzc=")},
			{Path: replicas, Local: value.Int(2), Live: value.Null},
		}}
	}
	It("renders both values, and null as a removal", func() {
		e := err()
		Expect(e.Conflicts[0].Describe(false)).To(Equal(`data.pw: local sets "TjN3LVBXLTUzNTM=", live has "T0xELVBXLTc3Nzc="`))
		Expect(e.Conflicts[1].Describe(false)).To(Equal(`spec.replicas: local sets 2, live removed it`))
	})
	It("shortens long values at a rune's start", func() {
		c := delta.Conflict{Path: replicas, Local: value.String(strings.Repeat("é", 100)), Live: value.Int(3)}
		Expect(c.Describe(false)).To(Equal(`spec.replicas: local sets "` + strings.Repeat("é", 29) + `..., live has 3`))
	})
	It("renders the values of the conflicts Mask marks as ***, unless shown", func() {
		e := err()
		e.Mask(func(p fieldpath.Path) bool { return p[0].Field == "data" })
		Expect(e.Conflicts[0].Describe(false)).To(Equal(`data.pw: local sets ***, live has ***`))
		Expect(e.Conflicts[0].Describe(true)).To(Equal(`data.pw: local sets "TjN3LVBXLTUzNTM=", live has "T0xELVBXLTc3Nzc="`))
		Expect(e.Conflicts[1].Describe(false)).To(Equal(`spec.replicas: local sets 2, live removed it`))
	})
})
