package delta_test

import (
	"github.com/plyproject/ply/test/treetest"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/value"
)

// threeWay returns the producer's three-way patch of c ({} when none).
func threeWay(c threeCase) value.Value {
	tree, beside := c.collated(features.Gates{})
	got, ok, err := delta.ThreeWay(tree, beside, features.Gates{}, true)
	Expect(err).NotTo(HaveOccurred())
	if !ok {
		return value.MustMap()
	}
	Expect(got.IsMap()).To(BeTrue())
	Expect(got.Len()).NotTo(BeZero(), "ok with an empty patch")
	return got
}

// at returns the value of patch at path (dot-separated map fields).
func at(patch value.Value, path string) (value.Value, bool) {
	cur := patch
	for _, p := range strings.Split(path, ".") {
		next, ok := cur.Get(p)
		if !ok {
			return value.Value{}, false
		}
		cur = next
	}
	return cur, true
}

var _ = Describe("ThreeWay", func() {
	DescribeTable("is kubectl's three-way patch, byte for byte",
		func(kind string, vals map[string]string) {
			c := newCase(kind, get(vals, "recorded"), get(vals, "local"), get(vals, "live"))
			want := kubectlThreeWay(c.def(), c.recorded, c.hasRecorded, c.local, c.live)
			Expect(string(threeWay(c).JSON())).To(Equal(string(want.JSON())))
		},
		loadCases("threeway.yaml"),
	)

	DescribeTable("at a field",
		func(recorded, local, live, path string, want string) {
			c := newCase("ConfigMap", recorded, local, live)
			kubectl, kubectlHas := at(kubectlThreeWay(c.def(), c.recorded, c.hasRecorded, c.local, c.live), path)
			got, has := at(threeWay(c), path)
			if want == absent {
				Expect(has).To(BeFalse())
				Expect(kubectlHas).To(BeFalse(), "kubectl's patch")
				return
			}
			Expect(has).To(BeTrue())
			Expect(string(got.JSON())).To(Equal(string(treetest.YAML(want).JSON())))
			Expect(string(kubectl.JSON())).To(Equal(string(got.JSON())), "kubectl's patch")
		},
		Entry("omitted since recorded: null", `{data: {a: "1"}}`, `{data: {}}`, `{data: {a: "1"}}`, "data.a", "null"),
		Entry("omitted, not recorded: none", `{data: {}}`, `{data: {}}`, `{data: {a: "1"}}`, "data.a", absent),
		Entry("nulled, live has it: null", absent, `{data: {a: null}}`, `{data: {a: "1"}}`, "data.a", "null"),
		Entry("nulled, live has no non-null value: a null entry anyway", absent, `{data: {a: null}}`, `{data: {}}`, "data.a", "null"),
		Entry("nulled, live null too: none", absent, `{data: {a: null, b: "1"}}`, `{data: {a: null}}`, "data.a", absent),
		Entry("set: the values live lacks", absent, `{metadata: {finalizers: [a, b, c]}}`, `{metadata: {finalizers: [b]}}`, "metadata.finalizers", "[a, c]"),
		Entry("set: its order, local's list", absent, `{metadata: {finalizers: [a, b, c]}}`, `{metadata: {finalizers: [b]}}`, "metadata.$setElementOrder/finalizers", "[a, b, c]"),
		Entry("a key recorded repeats: the later item is deleted, as kubectl deletes it",
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}, {uid: "1", name: b, kind: K, apiVersion: v1}]}}`,
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}]}}`,
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}]}}`,
			"metadata.ownerReferences", `[{$patch: delete, uid: "1"}]`),
		Entry("set: the values dropped since recorded", `{metadata: {finalizers: [a, b, c]}}`, `{metadata: {finalizers: [c]}}`, `{metadata: {finalizers: [c, b]}}`,
			"metadata.$deleteFromPrimitiveList/finalizers", "[a, b]"),
	)
})

var _ = Describe("ThreeWay in one walk", func() {
	DescribeTable("merges kubectl's delta into its deletions node by node",
		func(recorded, local, live, want string) {
			c := newCase("Deployment", recorded, local, live)
			got := threeWay(c)
			Expect(string(got.JSON())).To(Equal(string(treetest.YAML(want).JSON())))
			Expect(string(got.JSON())).To(Equal(string(kubectlThreeWay(c.def(), c.recorded, c.hasRecorded, c.local, c.live).JSON())), "kubectl's patch")
		},
		Entry("neither half", `{spec: {replicas: 1}}`, `{spec: {replicas: 1}}`, `{spec: {replicas: 1}}`, `{}`),
		Entry("deletions only", `{spec: {paused: true}}`, `{spec: {}}`, `{spec: {}}`, `{spec: {paused: null}}`),
		Entry("delta only", `{spec: {replicas: 2}}`, `{spec: {replicas: 2}}`, `{spec: {replicas: 1}}`, `{spec: {replicas: 2}}`),
		Entry("fields of both halves in one map",
			`{spec: {paused: true}}`, `{spec: {replicas: 2, minReadySeconds: 3}}`, `{spec: {paused: true, replicas: 1}}`,
			`{spec: {minReadySeconds: 3, paused: null, replicas: 2}}`),
		Entry("a whole local map from the delta takes the deletions' nulls",
			`{spec: {selector: {matchLabels: {a: "1", b: "2"}}}}`, `{spec: {selector: {matchLabels: {a: "1"}}}}`, `{spec: {}}`,
			`{spec: {selector: {matchLabels: {a: "1", b: null}}}}`),
		Entry("a whole local map the deletions have nothing for is local's, empty too",
			`{metadata: {labels: {}}}`, `{metadata: {labels: {}}}`, `{metadata: {}}`, `{metadata: {labels: {}}}`),
		Entry("a whole local set, empty, with the deletions' $deleteFromPrimitiveList",
			`{metadata: {finalizers: [a]}}`, `{metadata: {finalizers: []}}`, `{metadata: {}}`,
			`{metadata: {$deleteFromPrimitiveList/finalizers: [a], finalizers: []}}`),
		Entry("$retainKeys: the deletions' under a whole local map",
			`{spec: {strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1}}}}`, `{spec: {strategy: {type: Recreate}}}`, `{spec: {}}`,
			`{spec: {strategy: {$retainKeys: [type], rollingUpdate: null, type: Recreate}}}`),
		Entry("list items: local's order for items of either half, merged when in both, delete items last",
			`{spec: {template: {spec: {containers: [{name: a, image: a, workingDir: /w}, {name: z, image: z}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: b, image: b}, {name: a, image: a2}, {name: c, image: c}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, image: a, workingDir: /w}, {name: z, image: z}]}}}}`,
			`{spec: {template: {spec: {$setElementOrder/containers: [{name: b}, {name: a}, {name: c}], containers: [{name: b, image: b}, {image: a2, name: a, workingDir: null}, {name: c, image: c}, {name: z, $patch: delete}]}}}}`),
		Entry("an item in both halves: merged field by field",
			`{spec: {template: {spec: {containers: [{name: a, args: [x]}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, command: [x]}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, args: [x]}]}}}}`,
			`{spec: {template: {spec: {$setElementOrder/containers: [{name: a}], containers: [{args: null, command: [x], name: a}]}}}}`),
		Entry("a list live lacks: local's items, merged with the deletions' by key",
			`{spec: {template: {spec: {containers: [{name: a, args: [x]}, {name: z}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: b}, {name: a, command: [x]}]}}}}`,
			`{spec: {template: {spec: {}}}}`,
			`{spec: {template: {spec: {$setElementOrder/containers: [{name: b}, {name: a}], containers: [{name: b}, {args: null, command: [x], name: a}, {name: z, $patch: delete}]}}}}`),
	)
})

var _ = Describe("ThreeWay's errors", func() {
	It("reports a fault of recorded before one of live met earlier in the walk", func() {
		c := newCase("Deployment",
			`{spec: {template: {spec: {containers: [{image: x}]}}}}`,
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}]}, spec: {template: {spec: {containers: [{name: a}]}}}}`,
			`{metadata: {ownerReferences: [{name: b, kind: K, apiVersion: v1}]}, spec: {template: {spec: {containers: [{name: a}]}}}}`)
		tree, beside := c.collated(features.Gates{})
		_, _, err := delta.ThreeWay(tree, beside, features.Gates{}, true)
		Expect(err).To(MatchError(HavePrefix("recorded spec.template.spec.containers: item 0: expected an object with every merge key field (name)")))
		_, _, err = delta.Patch(tree, beside, delta.Delta, features.Gates{})
		Expect(err).To(MatchError(HavePrefix("live metadata.ownerReferences: item 0:")))
	})
})
