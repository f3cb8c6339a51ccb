package collate_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/test/jsonv"
)

// In compose mode, a plain repeat is collated onto a skeleton of its maps (collator.repeats): what Phase 1 records of
// it for Phase 2 (elements.Repeat.Cleaned, Deep) is what merging its tree onto an outcome needs to be told.
var _ = Describe("a compose repeat's marks", func() {
	// repeat composes second (a PodSpec's JSON) into first, the depth limit maxDepth, and returns containers' repeat.
	repeat := func(first, second string, maxDepth int) elements.Repeat {
		s, err := openapi.Default()
		Expect(err).NotTo(HaveOccurred())
		t, ok := s.Kubectl().ByName("io.k8s.api.core.v1.PodSpec")
		Expect(ok).To(BeTrue())
		tree, err := collate.Collate(elements.Values{Local: jsonv.MustDecode(second), HasLocal: true, Live: jsonv.MustDecode(first), HasLive: true},
			t, collate.Options{Patch: true, Compose: true, MaxDepth: maxDepth, Gates: features.Kubectl()})
		Expect(err).NotTo(HaveOccurred())
		for _, f := range tree.(*elements.MapElement).Fields {
			if l, ok := f.Element.(*elements.ListElement); ok && f.Name == "containers" {
				Expect(l.Repeats).To(HaveLen(1))
				return l.Repeats[0]
			}
		}
		Fail("no containers list")
		return elements.Repeat{}
	}
	field := func(r elements.Repeat, name string) elements.Element {
		for _, f := range r.Element.(*elements.MapElement).Fields {
			if f.Name == name {
				return f.Element
			}
		}
		Fail("the repeat has no field " + name)
		return nil
	}

	DescribeTable("Cleaned: the leaves holding the patch's list less its maps holding \"$patch\"",
		func(env string, cleaned bool) {
			r := repeat(`{"containers":[{"name":"c","env":[{"name":"A","value":"1"}]}]}`,
				`{"containers":[{"name":"c","image":"i"},{"name":"c","env":`+env+`}]}`, 1000)
			leaf := field(r, "env").(*elements.AtomicElement)
			if cleaned {
				Expect(r.Cleaned).To(ConsistOf(leaf.ID))
			} else {
				Expect(r.Cleaned).To(BeEmpty())
			}
		},
		Entry("an env holding only a delete item: an empty leaf, recorded", `[{"name":"A","$patch":"delete"}]`, true),
		Entry("an env holding a delete item and another: recorded", `[{"name":"B","value":"2"},{"name":"A","$patch":"delete"}]`, true),
		Entry("an env of plain items, nulls among them: not recorded", `[{"name":"B","value":null}]`, false),
		Entry("an empty env: not recorded", `[]`, false),
	)

	DescribeTable("a repeat holding a list merged by no strategy, whatever its items hold: collated onto a skeleton of its maps",
		func(envFrom string, cleaned bool) {
			r := repeat(`{"containers":[{"name":"c","envFrom":[{"prefix":"x"}]}]}`,
				`{"containers":[{"name":"c","image":"i"},{"name":"c","envFrom":`+envFrom+`,"resources":{"limits":{"cpu":"1"}}}]}`, 1000)
			Expect(field(r, "resources")).To(BeAssignableToTypeOf(&elements.MapElement{}), "a map node, as on a skeleton")
			leaf := field(r, "envFrom").(*elements.AtomicElement)
			if cleaned {
				Expect(r.Cleaned).To(ConsistOf(leaf.ID))
			} else {
				Expect(r.Cleaned).To(BeEmpty())
			}
		},
		Entry("items holding \"$patch\" maps: the leaf less them, recorded",
			`[{"configMapRef":{"name":"m"},"$patch":"delete"},{"prefix":"p","secretRef":{"$patch":"replace","name":"s"}}]`, true),
		Entry("items holding lists: not recorded", `[{"prefix":"p","configMapRef":{"name":"m"}},["x"]]`, false),
	)

	DescribeTable("Deep: a value the repeat holds at the depth limit (the outcome's fields below it would lie beyond)",
		func(item string, maxDepth int, deep bool) {
			r := repeat(`{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"}}}]}`,
				`{"containers":[{"name":"c","image":"i"},`+item+`]}`, maxDepth)
			Expect(r.Deep).To(Equal(deep))
		},
		Entry("a map of scalars at the limit", `{"name":"c","resources":{"limits":{"memory":"1"}}}`, 5, true),
		Entry("a map of scalars a level within it", `{"name":"c","resources":{"limits":{"memory":"1"}}}`, 6, false),
		Entry("a list's items' maps at the limit", `{"name":"c","env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}`, 7, true),
		Entry("a list's items' maps a level within it", `{"name":"c","env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}`, 8, false),
		Entry("scalars only, well within it", `{"name":"c","tty":true}`, 5, false),
	)
})
