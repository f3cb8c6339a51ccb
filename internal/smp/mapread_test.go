package smp_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/test/treetest"
)

// withRef is a map type declaring a "$ref" data field, as JSONSchemaProps does.
var withRef = &openapi.Type{Kind: openapi.KindStruct, Fields: map[string]*openapi.Field{"$ref": {}}}

var _ = Describe("MalformedMap", func() {
	DescribeTable("gives the first malformed directive key of a map, in the order a read of it meets them",
		func(doc string, t *openapi.Type, kubectl bool, want string) {
			Expect(smp.MalformedMap(treetest.YAML(doc), t, kubectl)).To(Equal(want))
		},
		Entry("none", `{"$retainKeys":["a"],"a":1,"b":null}`, nil, false, ""),
		Entry("a deletion not a list before $retainKeys",
			`{"$deleteFromPrimitiveList/x":1,"$retainKeys":"a"}`, nil, false,
			smp.DeletionNotList("$deleteFromPrimitiveList/x", treetest.YAML(`1`).Kind())),
		Entry("$retainKeys not a list before an order not a list",
			`{"$retainKeys":"a","$setElementOrder/x":1}`, nil, false, smp.RetainKeysNotList(treetest.YAML(`"a"`).Kind())),
		Entry("an entry of $retainKeys not a string", `{"$retainKeys":["a",1],"b":1}`, nil, false,
			smp.RetainKeysEntry(1, treetest.YAML(`1`).Kind())),
		Entry("an order not a list before a field $retainKeys does not name",
			`{"$retainKeys":["a"],"$setElementOrder/x":{},"b":1}`, nil, false,
			smp.OrderNotList("$setElementOrder/x", treetest.YAML(`{}`).Kind())),
		Entry("the first field by name $retainKeys does not name", `{"$retainKeys":["c"],"a":1,"b":2}`, nil, false,
			smp.RetainKeysUnlisted("a")),
		Entry("a $ key the type declares is data", `{"$retainKeys":["a"],"$ref":"x","a":1}`, withRef, false,
			smp.RetainKeysUnlisted("$ref")),
		Entry("a $ key the type does not declare is no data", `{"$retainKeys":["a"],"$ref":"x","a":1}`, nil, false, ""),
		Entry("with kubectl a deletion not a list reads live, leaving $retainKeys undecided",
			`{"$deleteFromPrimitiveList/x":1,"$retainKeys":["a"],"b":1}`, nil, true, ""),
		Entry("with kubectl a later key is still read",
			`{"$deleteFromPrimitiveList/x":1,"$retainKeys":2}`, nil, true, smp.RetainKeysNotList(treetest.YAML(`2`).Kind())),
		Entry("a map holding $patch is read for that alone", `{"$patch":"replace","$retainKeys":1}`, nil, false, ""),
	)
})

var _ = Describe("ReadMapDirectives", func() {
	It("reads only orders of a patch merged into another", func() {
		p := treetest.YAML(`{"$deleteFromPrimitiveList/x":1,"$retainKeys":1,"$setElementOrder/x":1}`)
		r, msg := smp.ReadMapDirectives(p.Fields(), nil, true, false)
		Expect(msg).To(Equal(smp.OrderNotList("$setElementOrder/x", treetest.YAML(`1`).Kind())))
		Expect(r.Retains).To(BeFalse())
	})

	It("gives $retainKeys' names sorted, each once", func() {
		p := treetest.YAML(`{"$retainKeys":["b","a","b"]}`)
		r, msg := smp.ReadMapDirectives(p.Fields(), nil, false, false)
		Expect(msg).To(BeEmpty())
		Expect(r.RetainKeys).To(Equal([]string{"a", "b"}))
		Expect(r.Retains).To(BeTrue())
	})
})

var _ = DescribeTable("DeletionBesideSet gives the first deletion not a list of a field its map sets",
	func(doc, want string) {
		Expect(smp.DeletionBesideSet(treetest.YAML(doc), nil)).To(Equal(want))
	},
	Entry("none: a list", `{"$deleteFromPrimitiveList/a":["x"],"a":["y"]}`, ""),
	Entry("none: a field the map does not set", `{"$deleteFromPrimitiveList/a":"x","b":1}`, ""),
	Entry("a field set to null", `{"$deleteFromPrimitiveList/a":"x","a":null}`,
		smp.DeletionBesideField("$deleteFromPrimitiveList/a", "a")),
	Entry("the first by name of two", `{"$deleteFromPrimitiveList/a":"x","$deleteFromPrimitiveList/b":1,"a":1,"b":2}`,
		smp.DeletionBesideField("$deleteFromPrimitiveList/a", "a")),
)
