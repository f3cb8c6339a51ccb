package openapi_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
)

var _ = Describe("FromTypes", func() {
	It("resolves the types given by name, no kind, in the schema and its kubectl view", func() {
		meta := openapi.Meta{Strategy: openapi.StrategyMerge, MergeKey: []string{"name"}}
		item := &openapi.Type{Name: "item", Kind: openapi.KindStruct, Fields: map[string]*openapi.Field{}}
		list := &openapi.Type{Name: "list", Kind: openapi.KindList, Elem: item}
		root := &openapi.Type{Name: "root", Kind: openapi.KindStruct, FieldNames: []string{"items"},
			Fields: map[string]*openapi.Field{"items": {Name: "items", Type: list, Meta: meta, KubectlMeta: meta}}}
		s := openapi.FromTypes(map[string]*openapi.Type{"root": root})

		t, ok := s.ByName("root")
		Expect(ok).To(BeTrue())
		Expect(t).To(BeIdenticalTo(root))
		_, ok = s.ByName("other")
		Expect(ok).To(BeFalse())
		_, ok = s.ForKind("v1", "Root")
		Expect(ok).To(BeFalse())

		v, ok := s.Kubectl().ByName("root")
		Expect(ok).To(BeTrue())
		ft, fm := v.Child("items")
		Expect(fm).To(Equal(meta))
		Expect(ft.Item().Name).To(Equal("item"))
	})
})
