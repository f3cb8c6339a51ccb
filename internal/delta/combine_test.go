package delta_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/plyproject/ply/test/treetest"

	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

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

var _ = Describe("KeyOfItem", func() {
	port := &openapi.Type{Kind: openapi.KindStruct, FieldNames: []string{"containerPort", "protocol"}, Fields: map[string]*openapi.Field{
		"containerPort": {Name: "containerPort", Type: &openapi.Type{Kind: openapi.KindPrimitive, Primitive: "integer"}},
		"protocol":      {Name: "protocol", Type: &openapi.Type{Kind: openapi.KindPrimitive, Primitive: "string"}, Default: value.String("TCP"), HasDefault: true},
	}}
	mk := []string{"containerPort", "protocol"}

	DescribeTable("identifies items by the key tuple, defaults filling left-out fields",
		func(a, b string, same bool) {
			ka, okA := delta.KeyOfItem(treetest.YAML(a), mk, port)
			kb, okB := delta.KeyOfItem(treetest.YAML(b), mk, port)
			Expect(okA && okB).To(BeTrue())
			Expect(ka == kb).To(Equal(same))
		},
		Entry("equal tuples", `{containerPort: 80, protocol: UDP}`, `{protocol: UDP, containerPort: 80, name: x}`, true),
		Entry("a default fills the protocol", `{containerPort: 80}`, `{containerPort: 80, protocol: TCP}`, true),
		Entry("protocols differ", `{containerPort: 80}`, `{containerPort: 80, protocol: UDP}`, false),
		Entry("an integral float is the integer", `{containerPort: 80.0}`, `{containerPort: 80}`, true),
	)

	DescribeTable("has no key for items that cannot be identified",
		func(item string) {
			_, ok := delta.KeyOfItem(treetest.YAML(item), mk, port)
			Expect(ok).To(BeFalse())
		},
		Entry("not an object", `"80"`),
		Entry("a key field missing without default", `{protocol: TCP}`),
		Entry("a null key field", `{containerPort: null}`),
		Entry("an object as key", `{containerPort: {a: 1}}`),
	)

	It("has no key for a merge key of more than elements.MaxKeyFields fields", func() {
		wide := []string{"a", "b", "c", "d", "e"}
		Expect(len(wide)).To(BeNumerically(">", elements.MaxKeyFields))
		_, ok := delta.KeyOfItem(treetest.YAML(`{a: 1, b: 2, c: 3, d: 4, e: 5}`), wide, openapi.Unknown)
		Expect(ok).To(BeFalse())
	})
})
