package parse_test

import (
	"unsafe"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

var _ = Describe("OwnedDocument", func() {
	inside := func(s string, data []byte) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		start := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
		return p >= start && p+uintptr(len(s)) <= start+uintptr(len(data))
	}

	DescribeTable("reads what Document reads",
		func(text string) {
			want, werr := parse.Document([]byte(text))
			got, gerr := parse.OwnedDocument([]byte(text))
			if werr != nil {
				Expect(gerr).To(MatchError(werr.Error()))
				return
			}
			Expect(gerr).NotTo(HaveOccurred())
			Expect(value.Equal(got, want)).To(BeTrue(), "%s vs %s", got.JSON(), want.JSON())
		},
		Entry("a JSON object", `{"kind":"ConfigMap","data":{"a":"x\ty","b":"\u00e9"}}`),
		Entry("escaped strings", `["\"q\"", "a\\b", "\ud83d\ude00"]`),
		Entry("YAML", "kind: ConfigMap\ndata:\n  a: x\n"),
		Entry("a byte order mark before JSON", "\ufeff{\"a\":\"b\"}"),
		Entry("invalid JSON read as YAML", `{"a": 'b'}`),
		Entry("an error", `{"a":1,"a":2}`),
	)

	It("shares the input's memory for strings without escapes, and Document does not", func() {
		data := []byte(`{"apiVersion":"v1","kind":"ConfigMap","data":{"key":"value"}}`)
		owned, err := parse.OwnedDocument(data)
		Expect(err).NotTo(HaveOccurred())
		v, _ := owned.Get("data")
		s, _ := v.Get("key")
		str, _ := s.AsString()
		Expect(str).To(Equal("value"))
		Expect(inside(str, data)).To(BeTrue())

		copied, err := parse.Document(data)
		Expect(err).NotTo(HaveOccurred())
		v, _ = copied.Get("data")
		s, _ = v.Get("key")
		str, _ = s.AsString()
		Expect(inside(str, data)).To(BeFalse())
	})
})
