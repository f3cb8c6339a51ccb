package parse_test

import (
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

var _ = Describe("JSONDocumentSharingIn", func() {
	const (
		recorded = `{"kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":3,"env":[{"name":"A","value":"1"}]}}`
		live     = `{"kind":"Deployment","metadata":{"name":"web","uid":"u"},"spec":{"replicas":3,"env":[{"name":"A","value":"1"}]},"status":{"ready":1}}`
	)
	read := func(a *parse.Arena, text string) value.Value {
		GinkgoHelper()
		v, err := parse.Limits{}.JSONDocumentSharingIn(a, []byte(text))
		Expect(err).NotTo(HaveOccurred())
		return v
	}
	field := func(v value.Value, key string) value.Value {
		GinkgoHelper()
		f, ok := v.Get(key)
		Expect(ok).To(BeTrue(), key)
		return f
	}

	It("takes an earlier document's top-level map or list for a field whose text is the same, and reads the others", func() {
		var a parse.Arena
		one := read(&a, recorded)
		two := read(&a, live)
		Expect(field(two, "spec")).To(Equal(field(one, "spec")), "the same value: the same memory")
		Expect(&field(two, "spec").Fields()[0]).To(BeIdenticalTo(&field(one, "spec").Fields()[0]))
		Expect(&field(two, "metadata").Fields()[0]).NotTo(BeIdenticalTo(&field(one, "metadata").Fields()[0]))
		Expect(two.JSON()).To(MatchJSON(live))
	})

	DescribeTable("reads what JSONDocumentSharedIn reads, after documents it may share with",
		func(earlier []string, text string) {
			want, werr := parse.Limits{}.JSONDocumentSharedIn(nil, []byte(text))
			var a parse.Arena
			for _, e := range earlier {
				_, _ = parse.Limits{}.JSONDocumentSharingIn(&a, []byte(e)) // (some fail)
			}
			got, gerr := parse.Limits{}.JSONDocumentSharingIn(&a, []byte(text))
			if werr != nil {
				Expect(gerr).To(MatchError(werr.Error()))
				return
			}
			Expect(gerr).NotTo(HaveOccurred())
			Expect(got.JSON()).To(MatchJSON(want.JSON()))
		},
		Entry("a field written alike", []string{recorded}, live),
		Entry("a field one document's is the start of", []string{`{"a":[1,2]}`}, `{"a":[1,2,3]}`),
		Entry("a field that starts as one document's and goes on", []string{`{"a":{"b":1}}`}, `{"a":{"b":1}x}`),
		Entry("the same text under another key", []string{`{"a":{"b":1}}`}, `{"c":{"b":1}}`),
		Entry("a field written alike, then a duplicate key", []string{recorded}, `{"spec":{"replicas":3,"env":[{"name":"A","value":"1"}]},"spec":{}}`),
		Entry("a field written alike, then a syntax error", []string{recorded}, `{"spec":{"replicas":3,"env":[{"name":"A","value":"1"}]},`),
		Entry("fields of a document that failed", []string{`{"spec":{"x":1},"spec":2}`, `{"spec":{"x":1}} {}`}, `{"spec":{"x":1}}`),
		Entry("a document that is not an object", []string{`[{"a":1}]`}, `{"a":1}`),
		Entry("nothing before", nil, recorded),
	)

	It("shares no value of a document that fails", func() {
		var a parse.Arena
		_, err := parse.Limits{}.JSONDocumentSharingIn(&a, []byte(`{"spec":{"x":1},"spec":2}`))
		Expect(err).To(HaveOccurred())
		length, held := parse.ArenaKin(&a)
		Expect(length).To(BeZero())
		Expect(held).To(BeZero())
		_, err = parse.Limits{}.JSONDocumentSharingIn(&a, []byte(`{"spec":{"x":1}} {}`))
		Expect(err).To(HaveOccurred())
		length, held = parse.ArenaKin(&a)
		Expect(length).To(BeZero())
		Expect(held).To(BeZero())
	})

	It("shares nothing between documents read under other limits", func() {
		var a parse.Arena
		one := read(&a, recorded)
		two, err := parse.Limits{MaxListItems: 5}.JSONDocumentSharingIn(&a, []byte(live))
		Expect(err).NotTo(HaveOccurred())
		Expect(&field(two, "spec").Fields()[0]).NotTo(BeIdenticalTo(&field(one, "spec").Fields()[0]))
		// A limit the earlier value would break fails the later document as reading it would.
		_, err = parse.Limits{}.JSONDocumentSharingIn(&a, []byte(`{"l":[1,2]}`))
		Expect(err).NotTo(HaveOccurred())
		_, err = parse.Limits{MaxListItems: 1}.JSONDocumentSharingIn(&a, []byte(`{"l":[1,2]}`))
		Expect(err).To(MatchError(ContainSubstring("more than")))
	})

	It("holds nothing of its documents after Reset", func() {
		var a parse.Arena
		read(&a, recorded)
		read(&a, live)
		length, held := parse.ArenaKin(&a)
		Expect(length).To(Equal(4), "recorded's metadata and spec, live's metadata and status (its spec is recorded's)")
		Expect(held).To(Equal(length))
		a.Reset()
		length, held = parse.ArenaKin(&a)
		Expect(length).To(BeZero())
		Expect(held).To(BeZero())
	})

	It("takes an earlier document's list below the top level, of 512 bytes or more, at the same key and depth", func() {
		env := `[`
		for i := range 20 {
			if i > 0 {
				env += ","
			}
			env += `{"name":"VARIABLE_` + strconv.Itoa(i) + `","value":"a value"}`
		}
		env += `]`
		Expect(len(env)).To(BeNumerically(">=", 512))
		first := `{"spec":{"containers":[{"env":` + env + `,"name":"a"}],"ports":[1,2]}}`
		second := `{"spec":{"containers":[{"env":` + env + `,"image":"x","name":"a"}],"ports":[1,2]}}`
		elsewhere := `{"spec":{"x":{"containers":[{"env":` + env + `,"name":"a"}]}}}`
		envOf := func(v value.Value, path ...string) value.Value {
			GinkgoHelper()
			for _, key := range path {
				v = field(v, key)
			}
			return field(field(v, "containers").Items()[0], "env")
		}
		var a parse.Arena
		one := read(&a, first)
		two := read(&a, second)
		Expect(&envOf(two, "spec").Items()[0]).To(BeIdenticalTo(&envOf(one, "spec").Items()[0]), "the same memory")
		Expect(&field(field(two, "spec"), "ports").Items()[0]).NotTo(BeIdenticalTo(&field(field(one, "spec"), "ports").Items()[0]),
			"a short list is read")
		three := read(&a, elsewhere)
		Expect(&envOf(three, "spec", "x").Items()[0]).NotTo(BeIdenticalTo(&envOf(one, "spec").Items()[0]), "another depth")
		Expect(two.JSON()).To(MatchJSON(second))
		Expect(three.JSON()).To(MatchJSON(elsewhere))
		Expect(a.SharedLen("env", 4, []byte(env+`,"name":"b"}`))).To(Equal(len(env)), "the env of a container of spec")
		Expect(a.SharedLen("env", 3, []byte(env))).To(BeZero(), "no list of that key at that depth")
		Expect(a.SharedLen("spec", 1, []byte(`{"containers":[]}`))).To(BeZero())
		Expect(a.SharedLen("spec", 1, []byte(first[len(`{"spec":`):]))).To(Equal(len(first) - len(`{"spec":}`)))
		Expect((*parse.Arena)(nil).SharedLen("spec", 1, []byte(`{}`))).To(BeZero())
	})

	It("is JSONDocumentSharedIn without an arena", func() {
		v, err := parse.Limits{}.JSONDocumentSharingIn(nil, []byte(live))
		Expect(err).NotTo(HaveOccurred())
		Expect(v.JSON()).To(MatchJSON(live))
	})
})

var _ = Describe("a JSON map of scalars", func() {
	It("is marked as nesting one level, as no other map is", func() {
		v, err := parse.Limits{}.JSONDocument([]byte(`{"flat":{"a":1,"b":"x","c":null},"deep":{"a":{"b":1}},"list":{"a":[1]},"items":[{"a":1},{"b":{}}],"empty":{}}`))
		Expect(err).NotTo(HaveOccurred())
		marked := func(key string) bool { f, _ := v.Get(key); return value.MarkedFlat(f) }
		Expect(marked("flat")).To(BeTrue())
		Expect(marked("deep")).To(BeFalse())
		Expect(marked("list")).To(BeFalse())
		items, _ := v.Get("items")
		Expect(value.MarkedFlat(items.Items()[0])).To(BeTrue())
		Expect(value.MarkedFlat(items.Items()[1])).To(BeFalse())
		Expect(value.MarkedFlat(v)).To(BeFalse(), "the document, marked with the depth limit")
		f, _ := v.Get("flat")
		Expect(value.Deeper(f, 1)).To(BeFalse())
		Expect(value.Deeper(f, 0)).To(BeTrue())
	})
})
