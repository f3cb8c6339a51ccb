package parse_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

var _ = Describe("an Arena", func() {
	// first is where the maps and lists of a document read into an Arena
	// start: the root map's fields are taken last, after its children's.
	first := func(v value.Value) *value.Field { return &v.Fields()[0] }
	read := func(a *parse.Arena, text string) value.Value {
		GinkgoHelper()
		v, err := parse.OwnedDocumentIn(a, []byte(text))
		Expect(err).NotTo(HaveOccurred())
		return v
	}
	const (
		small = `{"kind":"ConfigMap","data":{"a":"1","b":"2"},"list":[1,"two",{"x":null}]}`
		other = `{"kind":"Secret","type":"Opaque","data":{"c":"3"},"list":[true,false]}`
	)
	// big has more fields than small's slab holds.
	big := func() string {
		var sb strings.Builder
		sb.WriteString(`{"kind":"ConfigMap","data":{`)
		for i := range 100 {
			fmt.Fprintf(&sb, `%s"k%03d":"v%d"`, map[bool]string{true: ",", false: ""}[i > 0], i, i)
		}
		sb.WriteString(`}}`)
		return sb.String()
	}()

	DescribeTable("reads what OwnedDocument reads",
		func(text string) {
			want, werr := parse.OwnedDocument([]byte(text))
			var a parse.Arena
			// Memory used before, by another document, changes nothing.
			read(&a, other)
			a.Reset()
			got, gerr := parse.OwnedDocumentIn(&a, []byte(text))
			if werr != nil {
				Expect(gerr).To(MatchError(werr.Error()))
				return
			}
			Expect(gerr).NotTo(HaveOccurred())
			Expect(value.Equal(got, want)).To(BeTrue(), "%s vs %s", got.JSON(), want.JSON())
		},
		Entry("a JSON object", small),
		Entry("escaped strings", `{"a":"\"q\"","b":["a\\b","\ud83d\ude00"]}`),
		Entry("keys out of order", `{"z":1,"a":{"y":2,"b":3}}`),
		Entry("an object larger than the memory used before", big),
		Entry("YAML", "kind: ConfigMap\ndata:\n  a: x\n"),
		Entry("invalid JSON read as YAML", `{"a": 'b'}`),
		Entry("a duplicate key", `{"a":1,"a":2}`),
		Entry("two documents", `{"a":1} {"b":2}`),
		Entry("nothing", `null`),
	)

	It("gives the documents read after Reset the memory of those read before, in the same order", func() {
		var a parse.Arena
		one, two := read(&a, small), read(&a, other)
		Expect(first(two)).NotTo(BeIdenticalTo(first(one)), "two documents read together never share memory")
		at1, at2 := first(one), first(two)
		a.Reset()
		again1, again2 := read(&a, small), read(&a, other)
		Expect(first(again1)).To(BeIdenticalTo(at1))
		Expect(first(again2)).To(BeIdenticalTo(at2))
		Expect(again1.JSON()).To(MatchJSON(small))
		Expect(again2.JSON()).To(MatchJSON(other))
	})

	It("gives a document too large for the memory it had room of its own, kept for the next time", func() {
		// Both documents' "data" map is the first container to end, so its
		// fields start the memory.
		start := func(v value.Value) *value.Field {
			data, _ := v.Get("data")
			return first(data)
		}
		var a parse.Arena
		at := start(read(&a, small))
		a.Reset()
		large := read(&a, big)
		Expect(start(large)).NotTo(BeIdenticalTo(at))
		Expect(large.JSON()).To(MatchJSON(big))
		at = start(large)
		a.Reset()
		Expect(start(read(&a, small))).To(BeIdenticalTo(at), "the larger memory holds the smaller document")
	})

	It("is the document's own memory when nil, as OwnedDocument", func() {
		var none *parse.Arena
		none.Reset()
		one, err := parse.OwnedDocumentIn(none, []byte(small))
		Expect(err).NotTo(HaveOccurred())
		two, err := parse.OwnedDocumentIn(nil, []byte(small))
		Expect(err).NotTo(HaveOccurred())
		Expect(first(two)).NotTo(BeIdenticalTo(first(one)))
	})

	It("records what each document used of its slab, so that Reset clears no more than that", func() {
		var a parse.Arena
		read(&a, big)
		lens, caps := parse.ArenaSlabs(&a)
		Expect(lens).To(HaveLen(1))
		Expect(parse.ArenaHeld(&a)).To(Equal(lens[0]), "every field used is set, none beyond")
		bigUsed := lens[0]
		a.Reset()
		read(&a, small)
		lens, caps = parse.ArenaSlabs(&a)
		Expect(lens[0]).To(BeNumerically("<", bigUsed), "the small document in the large slab")
		Expect(caps[0]).To(BeNumerically(">=", bigUsed))
		Expect(parse.ArenaHeld(&a)).To(BeNumerically("<=", lens[0]), "nothing set beyond what the small document used")
	})

	It("holds nothing of its documents after Reset", func() {
		var a parse.Arena
		read(&a, small)
		read(&a, big)
		Expect(parse.ArenaHeld(&a)).To(BeNumerically(">", 100))
		a.Reset()
		Expect(parse.ArenaHeld(&a)).To(BeZero())
	})

	It("reads JSON into the memory it holds: a small fraction of the bytes a document of its own takes", func() {
		// 100 groups of 10 small maps: the scanner's stacks stay small, so
		// what a parse allocates is its slab (under the race detector,
		// whose pool drops a scanner now and then, a new scanner too).
		var sb strings.Builder
		sb.WriteString(`{"kind":"ConfigMap","groups":[`)
		for g := range 100 {
			fmt.Fprintf(&sb, `%s{"name":"g%d","items":[`, map[bool]string{true: ",", false: ""}[g > 0], g)
			for i := range 10 {
				fmt.Fprintf(&sb, `%s{"name":"VAR_%d","value":"v%d"}`, map[bool]string{true: ",", false: ""}[i > 0], i, i)
			}
			sb.WriteString(`]}`)
		}
		sb.WriteString(`]}`)
		doc := []byte(sb.String())
		var a parse.Arena
		read := func() {
			if _, err := parse.OwnedDocumentIn(&a, doc); err != nil {
				panic(err)
			}
			a.Reset()
		}
		read()
		const runs = 20
		in := allocated(func() {
			for range runs {
				read()
			}
		})
		own := allocated(func() {
			for range runs {
				if _, err := parse.OwnedDocument(doc); err != nil {
					panic(err)
				}
			}
		})
		Expect(own).To(BeNumerically(">", runs*2000*32), "each document's own slab")
		Expect(in).To(BeNumerically("<", own/10), "%d bytes in the Arena, %d in memory of their own", in, own)
	})
})
