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

var _ = Describe("CombineThreeWay", func() {
	DescribeTable("merges kubectl's delta into its deletions",
		func(deletions, deltaHalf, local, want string) {
			t := rootType("Deployment")
			d, hasD := value.Value{}, deletions != absent
			if hasD {
				d = treetest.YAML(deletions)
			}
			p, hasP := value.Value{}, deltaHalf != absent
			if hasP {
				p = treetest.YAML(deltaHalf)
			}
			got, ok := delta.CombineThreeWay(d, hasD, p, hasP, treetest.YAML(local), t)
			if want == absent {
				Expect(ok).To(BeFalse())
				return
			}
			Expect(ok).To(BeTrue())
			Expect(string(got.JSON())).To(Equal(string(treetest.YAML(want).JSON())))
		},
		Entry("neither half", absent, absent, `{}`, absent),
		Entry("deletions only", `{spec: {paused: null}}`, absent, `{spec: {}}`, `{spec: {paused: null}}`),
		Entry("delta only", absent, `{spec: {replicas: 2}}`, `{spec: {replicas: 2}}`, `{spec: {replicas: 2}}`),
		Entry("fields of both, the delta's null and value win",
			`{spec: {paused: null, minReadySeconds: null}}`, `{spec: {replicas: 2, minReadySeconds: 3}}`, `{spec: {replicas: 2, minReadySeconds: 3}}`,
			`{spec: {minReadySeconds: 3, paused: null, replicas: 2}}`),
		Entry("a whole local map from the delta takes the deletions' nulls",
			`{spec: {strategy: {rollingUpdate: null}}}`, `{spec: {strategy: {type: Recreate}}}`, `{spec: {strategy: {type: Recreate}}}`,
			`{spec: {strategy: {rollingUpdate: null, type: Recreate}}}`),
		Entry("$retainKeys and $setElementOrder: the deletions' when both have them",
			`{spec: {strategy: {$retainKeys: [type], rollingUpdate: null}}}`, `{spec: {strategy: {$retainKeys: [type], type: Recreate}}}`, `{spec: {strategy: {type: Recreate}}}`,
			`{spec: {strategy: {$retainKeys: [type], rollingUpdate: null, type: Recreate}}}`),
		Entry("list items: local's order for items of either half, merged when in both, delete items last",
			`{spec: {template: {spec: {$setElementOrder/containers: [{name: b}, {name: a}, {name: c}], containers: [{name: a, workingDir: null}, {name: z, $patch: delete}]}}}}`,
			`{spec: {template: {spec: {$setElementOrder/containers: [{name: b}, {name: a}, {name: c}], containers: [{name: b, image: b}, {name: a, image: a2}, {name: c, image: c}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: b, image: b}, {name: a, image: a2}, {name: c, image: c}]}}}}`,
			`{spec: {template: {spec: {$setElementOrder/containers: [{name: b}, {name: a}, {name: c}], containers: [{name: b, image: b}, {image: a2, name: a, workingDir: null}, {name: c, image: c}, {name: z, $patch: delete}]}}}}`),
		Entry("an item in both halves: merged field by field",
			`{spec: {template: {spec: {containers: [{name: a, args: null}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, command: [x]}]}}}}`,
			`{spec: {template: {spec: {containers: [{name: a, command: [x]}]}}}}`,
			`{spec: {template: {spec: {containers: [{args: null, command: [x], name: a}]}}}}`),
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
