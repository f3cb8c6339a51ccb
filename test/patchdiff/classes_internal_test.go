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
