package delta_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/plyproject/ply/test/treetest"

	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

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
