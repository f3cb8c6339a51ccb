package patchdiff

import (
	"github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
)

// leakedDirectives excuses a difference only where strategicpatch's raw
// result shows the directives it copied into content live lacks: each row
// is a widget/kubectl case (live, patch) with strategicpatch's raw result
// and an object ply might give.
var _ = ginkgo.Describe("the oracle-leaks-directive classification", func() {
	ginkgo.DescribeTable("excuses exactly the copied directives",
		func(live, patch, raw, ply string, want bool) {
			t, err := difftest.LoadTarget("widget/" + difftest.Kubectl)
			Expect(err).NotTo(HaveOccurred())
			dec := func(s string) value.Value {
				v, err := decode([]byte(s))
				Expect(err).NotTo(HaveOccurred())
				return v
			}
			c := Case{Live: dec(live), Patch: dec(patch)}
			Expect(leakedDirectives(c, t.Root, dec(raw), dec(ply))).To(Equal(want))
		},
		ginkgo.Entry("a field's $patch map copied into a new item, ply without the field",
			`{"spec":{"parts":[]}}`, `{"spec":{"parts":[{"name":"b","mode":{"$patch":"delete"}}]}}`,
			`{"spec":{"parts":[{"name":"b","mode":{"$patch":"delete"}}]}}`, `{"spec":{"parts":[{"name":"b"}]}}`, true),
		ginkgo.Entry("the same with another difference besides",
			`{"spec":{"parts":[]}}`, `{"spec":{"parts":[{"name":"b","mode":{"$patch":"delete"}}]}}`,
			`{"spec":{"parts":[{"name":"b","mode":{"$patch":"delete"}}]}}`, `{"spec":{"parts":[{"name":"b","size":1}]}}`, false),
		ginkgo.Entry("a $patch: replace list item copied, ply with the list empty",
			`{"spec":{"parts":[]}}`, `{"spec":{"parts":[{"name":"e","env":[{"$patch":"replace"}]}]}}`,
			`{"spec":{"parts":[{"name":"e","env":[{"$patch":"replace"}]}]}}`, `{"spec":{"parts":[{"name":"e","env":[]}]}}`, true),
		ginkgo.Entry("a copied delete map deleted again, in an item live lacks",
			`{"spec":{"parts":[]}}`, `{"spec":{"parts":[{"name":"e","env":[{"name":"a","valueFrom":{"$patch":"delete"}}]}]}}`,
			`{"spec":{"parts":[{"name":"e","env":[{"name":"a","valueFrom":{}}]}]}}`, `{"spec":{"parts":[{"name":"e","env":[{"name":"a"}]}]}}`, true),
		ginkgo.Entry("an empty map in an item live has (ply must leave it, every gate off)",
			`{"spec":{"parts":[{"name":"e","env":[{"name":"a","valueFrom":{"fieldPath":"x"}}]}]}}`, `{"spec":{"parts":[{"name":"e","env":[{"name":"a","valueFrom":{"$patch":"delete"}}]}]}}`,
			`{"spec":{"parts":[{"name":"e","env":[{"name":"a","valueFrom":{}}]}]}}`, `{"spec":{"parts":[{"name":"e","env":[{"name":"a"}]}]}}`, false),
		ginkgo.Entry("an empty map of a field the patch does not delete",
			`{"spec":{"parts":[]}}`, `{"spec":{"parts":[{"name":"e","env":[{"name":"a","valueFrom":{}}]}]}}`,
			`{"spec":{"parts":[{"name":"e","env":[{"name":"a","valueFrom":{}}]}]}}`, `{"spec":{"parts":[{"name":"e","env":[{"name":"a"}]}]}}`, false),
	)
})

// difftest.AbsorbedLeak excuses a difference only where strategicpatch, given the
// patch with the directives it would copy raw applied first, gives ply's
// object: each row is a widget/kubectl case (live, patch) and an object ply
// might give.
var _ = ginkgo.Describe("the oracle-leaks-directive classification of absorbed leaks", func() {
	const twice = `{"spec":{"parts":[{"name":"c","env":[` +
		`{"name":"f","value":"b","valueFrom":{"$patch":"replace","secretKeyRef":{"key":"b"}}},` +
		`{"name":"f","value":null,"valueFrom":{"$patch":"replace","secretKeyRef":{"key":"b"}}}]}]}}`
	ginkgo.DescribeTable("excuses exactly the absorbed directives",
		func(live, patch, ply string, want bool) {
			t, err := difftest.LoadTarget("widget/" + difftest.Kubectl)
			Expect(err).NotTo(HaveOccurred())
			dec := func(s string) value.Value {
				v, err := decode([]byte(s))
				Expect(err).NotTo(HaveOccurred())
				return v
			}
			Expect(difftest.AbsorbedLeak(t, dec(live), dec(patch), dec(ply))).To(Equal(want))
		},
		ginkgo.Entry("a replace map copied with the first item, replaced into by the second, ply without it",
			`{"spec":{"parts":[{"name":"c","env":[]}]}}`, twice, `{"spec":{"parts":[{"name":"c","env":[{"name":"f"}]}]}}`, true),
		ginkgo.Entry("the same with another difference besides",
			`{"spec":{"parts":[{"name":"c","env":[]}]}}`, twice, `{"spec":{"parts":[{"name":"c","env":[{"name":"f","value":"b"}]}]}}`, false),
		ginkgo.Entry("live holding the item: the directive merged, nothing leaked",
			`{"spec":{"parts":[{"name":"c","env":[{"name":"f","valueFrom":{"fieldPath":"x"}}]}]}}`, twice,
			`{"spec":{"parts":[{"name":"c","env":[{"name":"f"}]}]}}`, false),
		ginkgo.Entry("live holding the field: the replace map merged, ply keeping live's map",
			`{"spec":{"parts":[{"name":"c","env":[{"name":"f","valueFrom":{"fieldPath":"x"}}]}]}}`,
			`{"spec":{"parts":[{"name":"c","env":[{"name":"f","valueFrom":{"$patch":"replace","secretKeyRef":{"key":"b"}}}]}]}}`,
			`{"spec":{"parts":[{"name":"c","env":[{"name":"f","valueFrom":{"fieldPath":"x"}}]}]}}`, false),
		ginkgo.Entry("a directive map live lacks beside a decimal merge key: strategicpatch appends the decimal's item still",
			`{"spec":{"ports":[{"containerPort":80}]}}`,
			`{"spec":{"ports":[{"containerPort":80.0,"name":"a"}],"quota":{"$patch":"replace","limits":{"k1":"c"}}}}`,
			`{"spec":{"ports":[{"containerPort":80,"name":"a"}]}}`, false),
		ginkgo.Entry("a delete item copied with the first part, merged into and ordered by the second, ply with the items in turn",
			`{"spec":{"parts":[{"name":"c"}]}}`,
			`{"spec":{"parts":[{"name":"q","env":[{"name":"a"},{"$patch":"delete","name":"e"}]},`+
				`{"name":"q","$setElementOrder/env":[{"name":"e"},{"name":"b"}],"env":[{"name":"e"},{"name":"b"}]}]}}`,
			`{"spec":{"parts":[{"name":"q","env":[{"name":"e"},{"name":"b"},{"name":"a"}]},{"name":"c"}]}}`, true),
		ginkgo.Entry("the same, ply keeping the deleted entry's place",
			`{"spec":{"parts":[{"name":"c"}]}}`,
			`{"spec":{"parts":[{"name":"q","env":[{"name":"a"},{"$patch":"delete","name":"e"}]},`+
				`{"name":"q","$setElementOrder/env":[{"name":"e"},{"name":"b"}],"env":[{"name":"e"},{"name":"b"}]}]}}`,
			`{"spec":{"parts":[{"name":"q","env":[{"name":"b"},{"name":"a"},{"name":"e"}]},{"name":"c"}]}}`, false),
	)
})
