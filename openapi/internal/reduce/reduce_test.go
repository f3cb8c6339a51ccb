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

	It("reduces an OpenAPI v3 document to components.schemas, sorted and compact", func() {
		in := `{"openapi":"3.0.0","info":{"title":"K","version":"v","x":1},"paths":{"/a":{}},` +
			`"components":{"securitySchemes":{},"schemas":{"b.P":{"description":"d","type":"object",` +
			`"properties":{"ports":{"type":"array","items":{"allOf":[{"$ref":"#/components/schemas/b.Q"}],"default":{}},` +
			`"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["port","protocol"]}}},` +
			`"b.Q":{"type":"object","properties":{"protocol":{"type":"string","default":"TCP","description":"x"}}}}}}`
		want := `{"components":{"schemas":{"b.P":{"properties":{"ports":{"items":{"allOf":[{"$ref":"#/components/schemas/b.Q"}],"default":{}},` +
			`"type":"array","x-kubernetes-list-map-keys":["port","protocol"],"x-kubernetes-list-type":"map"}},"type":"object"},` +
			`"b.Q":{"properties":{"protocol":{"default":"TCP","type":"string"}},"type":"object"}}},` +
			`"info":{"title":"K","version":"v"},"openapi":"3.0.0","paths":{}}` + "\n"
		got, err := reduce.ReduceV3([]byte(in))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal(want))
		again, err := reduce.ReduceV3(got)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(again)).To(Equal(want), "a fixed point")
	})

	DescribeTable("rejects what is not an OpenAPI v3 document",
		func(doc string, msg string) {
			out, err := reduce.ReduceV3([]byte(doc))
			Expect(out).To(BeNil())
			Expect(err).To(MatchError(ContainSubstring(msg)))
		},
		Entry("not JSON", `{"openapi":`, "document is not JSON"),
		Entry("OpenAPI v2", `{"swagger":"2.0","definitions":{}}`, "not OpenAPI v3"),
		Entry("no schemas", `{"openapi":"3.0.0","components":{}}`, "no components.schemas object"),
		Entry("a schema that is not an object", `{"openapi":"3.0.0","components":{"schemas":{"a.B":[]}}}`,
			"a.B: schema is an array, want an object"),
	)

	DescribeTable("names the group-version of a published v3 document file",
		func(file, want string, ok bool) {
			got, gotOK := reduce.GroupVersion(file)
			Expect(gotOK).To(Equal(ok))
			Expect(got).To(Equal(want))
		},
		Entry("core", "api__v1_openapi.json", "v1", true),
		Entry("named group", "apis__apps__v1_openapi.json", "apps/v1", true),
		Entry("dotted group", "apis__apiextensions.k8s.io__v1_openapi.json", "apiextensions.k8s.io/v1", true),
		Entry("group discovery only", "apis__apps_openapi.json", "", false),
		Entry("core discovery", "api_openapi.json", "", false),
		Entry("another file", "swagger.json", "", false),
	)
})
