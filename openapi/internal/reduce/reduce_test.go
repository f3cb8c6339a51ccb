package reduce_test

import (
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi/internal/reduce"
)

var _ = Describe("Reduce", func() {
	It("keeps definitions, shape keywords and x-kubernetes extensions, sorted and compact", func() {
		in, err := os.ReadFile("testdata/input.json")
		Expect(err).NotTo(HaveOccurred())
		want, err := os.ReadFile("testdata/want.json")
		Expect(err).NotTo(HaveOccurred())
		got, err := reduce.Reduce(in)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal(string(want)))
	})

	It("is a fixed point: reducing the output changes nothing", func() {
		want, err := os.ReadFile("testdata/want.json")
		Expect(err).NotTo(HaveOccurred())
		got, err := reduce.Reduce(want)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal(string(want)))
	})

	DescribeTable("rejects what is not a swagger 2.0 document",
		func(doc string, msg string) {
			out, err := reduce.Reduce([]byte(doc))
			Expect(out).To(BeNil())
			Expect(err).To(MatchError(ContainSubstring(msg)))
		},
		Entry("not JSON", `{"swagger":`, "document is not JSON"),
		Entry("trailing data", `{"swagger":"2.0","definitions":{}} {}`, "data after its top-level JSON value"),
		Entry("not an object", `[]`, "not a JSON object"),
		Entry("OpenAPI v3", `{"openapi":"3.0.0","components":{}}`, `not OpenAPI v2: swagger is <nil>, want "2.0"`),
		Entry("no definitions", `{"swagger":"2.0"}`, "no definitions object"),
		Entry("a definition that is not a schema", `{"swagger":"2.0","definitions":{"a.B":"string"}}`,
			"a.B: schema is a string, want an object"),
		Entry("properties that are not an object", `{"swagger":"2.0","definitions":{"a.B":{"properties":[]}}}`,
			"a.B.properties is an array, want an object"),
		Entry("a property that is not a schema", `{"swagger":"2.0","definitions":{"a.B":{"properties":{"c":{"items":7}}}}}`,
			"a.B.properties.c.items: schema is a number, want an object"),
	)
})
