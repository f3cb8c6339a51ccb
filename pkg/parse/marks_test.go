package parse_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// dollarFree reads text with each entry point that returns one document and reports, for each, whether the document
// carries value.DollarFree's mark; all must agree.
func dollarFree(text string) bool {
	GinkgoHelper()
	doc, err := parse.Document([]byte(text))
	Expect(err).NotTo(HaveOccurred())
	var arena parse.Arena
	owned, err := parse.OwnedDocumentIn(&arena, []byte(text))
	Expect(err).NotTo(HaveOccurred())
	Expect(value.IsDollarFree(owned)).To(Equal(value.IsDollarFree(doc)), "OwnedDocumentIn and Document")
	docs, err := parse.Documents([]byte(text + "\n---\n{\"$patch\": \"delete\"}\n"))
	Expect(err).NotTo(HaveOccurred())
	Expect(value.IsDollarFree(docs[0])).To(Equal(value.IsDollarFree(doc)), "the first of two documents")
	Expect(value.IsDollarFree(docs[1])).To(BeFalse(), "the second, holding $patch")
	return value.IsDollarFree(doc)
}

var _ = DescribeTable("a document is marked DollarFree where none of its keys begins with '$'",
	func(text string, want bool) {
		Expect(dollarFree(text)).To(Equal(want))
	},
	Entry("JSON without one", `{"a": {"b": [{"c": 1}]}, "d": "$patch"}`, true),
	Entry("JSON, in a map in a list", `{"a": {"b": [{"$patch": "delete", "c": 1}]}}`, false),
	Entry("JSON, escaped", `{"a": {"\u0024retainKeys": []}}`, false),
	Entry("JSON, a long key", `{"a": {"$setElementOrder/containersOfAVeryLongName": []}}`, false),
	Entry("JSON, a key of one character", `{"a": {"$": 1}}`, false),
	Entry("a JSON list", `[{"a": 1}, [{"b": 2}]]`, true),
	Entry("YAML without one", "a:\n  b:\n  - c: 1\nd: $patch\n", true),
	Entry("YAML, in a map in a list", "a:\n  b:\n  - $patch: delete\n    c: 1\n", false),
	Entry("YAML, quoted", "a:\n  \"$deleteFromPrimitiveList/x\": [1]\n", false),
	Entry("YAML, a key through an alias of a scalar", "a: &k $patch\nb: {*k : 1}\n", false),
	Entry("YAML, a value through an alias of a scalar", "a: &k $patch\nb: {c: *k}\n", true),
	Entry("YAML, in an anchored map merged by <<", "base: &b {$retainKeys: [x]}\nm:\n  <<: *b\n  x: 1\n", false),
	Entry("YAML, in an anchored map an alias repeats", "a: &m {$patch: replace}\nb: *m\n", false),
)

var _ = Describe("marks of a JSON value read in place", func() {
	It("is DollarFree where the value holds no key beginning with '$', whatever follows it", func() {
		var arena parse.Arena
		data := []byte(`{"a": [{"b": 1}]} {"$patch": 1}`)
		v, end, err := parse.Limits{}.JSONValueSharedIn(&arena, data, 0)
		Expect(err).NotTo(HaveOccurred())
		Expect(value.IsDollarFree(v)).To(BeTrue())
		w, _, err := parse.Limits{}.JSONValueSharedIn(&arena, data, end+1)
		Expect(err).NotTo(HaveOccurred())
		Expect(value.IsDollarFree(w)).To(BeFalse())
	})
})

var _ = Describe("marks of a JSON document sharing an earlier one's values", func() {
	It("is DollarFree only where neither the text it read nor the values it shares holds a key beginning with '$'", func() {
		var arena parse.Arena
		first, err := parse.Limits{}.JSONDocumentSharingIn(&arena, []byte(`{"a": {"$patch": "delete"}, "b": [{"c": 1}]}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(value.IsDollarFree(first)).To(BeFalse())
		shares, err := parse.Limits{}.JSONDocumentSharingIn(&arena, []byte(`{"a": {"$patch": "delete"}}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(value.IsDollarFree(shares)).To(BeFalse(), "its a is the first's, holding $patch")
		free, err := parse.Limits{}.JSONDocumentSharingIn(&arena, []byte(`{"b": [{"c": 1}], "d": {"e": 2}}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(value.IsDollarFree(free)).To(BeTrue(), "its b is the first's, holding none")
	})
})
