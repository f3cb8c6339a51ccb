package cluster

import (
	"bytes"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// The FieldsV1 set operations against structured-merge-diff's fieldpath.Set,
// the oracle: the union, and the members of one set outside another's tree
// (its members with their ancestors).
var _ = Describe("FieldsV1 sets", func() {
	set := func(s string) value.Value {
		v, err := parse.Document([]byte(s))
		Expect(err).NotTo(HaveOccurred())
		return v
	}
	oracle := func(s string) *fieldpath.Set {
		out := &fieldpath.Set{}
		Expect(out.FromJSON(bytes.NewReader([]byte(s)))).To(Succeed())
		return out
	}
	same := func(got value.Value, want *fieldpath.Set) {
		g := oracle(string(got.JSON()))
		Expect(g.Equals(want)).To(BeTrue(), "ply %s, fieldpath %s", got.JSON(), want.String())
	}
	withAncestors := func(s *fieldpath.Set) *fieldpath.Set {
		out := s.Copy()
		s.Iterate(func(p fieldpath.Path) {
			for i := 1; i < len(p); i++ {
				out.Insert(p[:i].Copy())
			}
		})
		return out
	}

	DescribeTable("union and outside, as fieldpath computes them",
		func(a, b string) {
			same(unionFields(set(a), set(b)), oracle(a).Union(oracle(b)))
			same(fieldsOutside(set(a), set(b)), oracle(a).Difference(withAncestors(oracle(b))))
		},
		Entry("disjoint members", `{"f:data":{"f:a":{}}}`, `{"f:data":{"f:b":{}}}`),
		Entry("a member in one, its children in the other", `{"f:data":{}}`, `{"f:data":{"f:a":{}}}`),
		Entry("a member with children", `{"f:data":{".":{},"f:a":{},"f:c":{}}}`, `{"f:data":{"f:a":{}}}`),
		Entry("list items by key and value", `{"f:spec":{"f:ports":{"k:{\"port\":80}":{".":{},"f:port":{}},"k:{\"port\":81}":{".":{}}},"f:finalizers":{"v:\"x\"":{}}}}`,
			`{"f:spec":{"f:ports":{"k:{\"port\":80}":{"f:name":{}}}}}`),
		Entry("an empty set", `{}`, `{"f:metadata":{"f:annotations":{"f:x":{}}}}`),
		Entry("the same set", `{"f:metadata":{"f:labels":{"f:a":{}}}}`, `{"f:metadata":{"f:labels":{"f:a":{}}}}`),
	)

	It("names one path", func() {
		same(fieldsPath("metadata", "annotations", "x"), oracle(`{"f:metadata":{"f:annotations":{"f:x":{}}}}`))
	})
})
