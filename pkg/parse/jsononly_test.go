package parse_test

import (
	"encoding/json"
	"unsafe"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
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
			shared, err := parse.Limits{}.JSONDocumentSharedIn(&a, data)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(shared.JSON())).To(Equal(want), "the same value, its strings in data's memory")
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

	It("reads strings into data's memory with JSONDocumentSharedIn, into a copy with JSONDocumentIn", func() {
		data := []byte(`{"key":"a value longer than a word"}`)
		var a parse.Arena
		for _, c := range []struct {
			read   func(*parse.Arena, []byte) (value.Value, error)
			shares bool
		}{{parse.Limits{}.JSONDocumentSharedIn, true}, {parse.Limits{}.JSONDocumentIn, false}} {
			v, err := c.read(&a, data)
			Expect(err).NotTo(HaveOccurred())
			s, _ := v.Fields()[0].Value.AsString()
			Expect(s).To(Equal("a value longer than a word"))
			at := uintptr(unsafe.Pointer(unsafe.StringData(s))) - uintptr(unsafe.Pointer(&data[0]))
			Expect(at == 8).To(Equal(c.shares), "the string at data[8:]")
			a.Reset()
		}
	})
})
