package parse_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
)

var _ = Describe("JSONDocument", func() {
	DescribeTable("reads what encoding/json reads as one value, and nothing else",
		func(text string, want string) {
			v, err := parse.Limits{}.JSONDocument([]byte(text))
			Expect(json.Valid([]byte(text))).To(Equal(want != ""), "encoding/json agrees")
			if want == "" {
				Expect(err).To(HaveOccurred())
				_, err = parse.Limits{}.JSONDocumentIn(&parse.Arena{}, []byte(text))
				Expect(err).To(HaveOccurred())
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(string(v.JSON())).To(Equal(want))

			var a parse.Arena
			data := []byte(text)
			inArena, err := parse.Limits{}.JSONDocumentIn(&a, data)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(inArena.JSON())).To(Equal(want), "the same value, read into an Arena")
			a.Reset()
		},
		Entry("an object", ` {"b": [1, 2.5], "a": null} `, `{"a":null,"b":[1,2.5]}`),
		Entry("a list", `[true]`, `[true]`),
		Entry("null", ` null `, `null`),
		Entry("YAML flow, which Document reads", `{a: b}`, ""),
		Entry("YAML block", "a: b\n", ""),
		Entry("two values", `{} {}`, ""),
		Entry("nothing", `  `, ""),
		Entry("a trailing comma", `{"a": 1,}`, ""),
	)
})
