package patch_test

import (
	"errors"
	"strings"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// deepX is levels maps, each holding the next at "x", around inner: inner lies levels levels below the outer map.
func deepX(levels int, inner string) string {
	return strings.Repeat(`{"x":`, levels) + inner + strings.Repeat(`}`, levels)
}

// Compose of a second patch naming a key twice, a later item holding a value at the depth limit (1000 levels, counted
// from the patch's root: items 1, an item 2, its fields 3), merges the repeat into its key's outcome in Phase 2 (the
// front-end applying none again: probe.OnRepeat), as the front-end does, the same merge made as two Composes: a map
// the outcome lacks (or holds another kind at) is taken whole, less its maps holding "$patch", its maps and lists
// walked by the limit (a map holding "$patch" dropped, its own depth checked), and so a map of strategy replace there,
// which Phase 1 holds whole without walking it; one beyond the limit fails at that field. strategicpatch, which has
// no depth limit, merges each (docs/limits.md), to ply's result where ply merges.
var _ = Describe("Compose of a repeat holding a value at the depth limit, a map the outcome lacks, against the front-end and strategicpatch", func() {
	var box *openapi.Type
	var sp *oracle.Oracle
	var repeats, again atomic.Int64
	BeforeEach(func() {
		swagger := []byte(`{"swagger":"2.0","info":{"title":"t","version":"v"},"paths":{},"definitions":{` +
			`"dev.ply.test.v1.Box":{"type":"object","properties":{"items":{"type":"array","items":{"$ref":"#/definitions/dev.ply.test.v1.Item"},"x-kubernetes-patch-merge-key":"name","x-kubernetes-patch-strategy":"merge"}}},` +
			`"dev.ply.test.v1.Item":{"type":"object","properties":{"name":{"type":"string"},"size":{"type":"integer"},"q":{"$ref":"#/definitions/dev.ply.test.v1.Q","x-kubernetes-patch-strategy":"replace"},"o":{"$ref":"#/definitions/dev.ply.test.v1.O"},"blob":{"$ref":"#/definitions/dev.ply.test.v1.Blob"}}},` +
			`"dev.ply.test.v1.O":{"type":"object","properties":{"q":{"$ref":"#/definitions/dev.ply.test.v1.Q","x-kubernetes-patch-strategy":"replace"}}},` +
			`"dev.ply.test.v1.Blob":{"type":"object","properties":{"x":{"$ref":"#/definitions/dev.ply.test.v1.Blob"}}},` +
			`"dev.ply.test.v1.Q":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}}}}`)
		schema, err := openapi.LoadV2(swagger)
		Expect(err).NotTo(HaveOccurred())
		var ok bool
		box, ok = schema.Kubectl().ByName("dev.ply.test.v1.Box")
		Expect(ok).To(BeTrue())
		models, err := oracle.Load(swagger)
		Expect(err).NotTo(HaveOccurred())
		sp, err = models.Oracle("dev.ply.test.v1.Box")
		Expect(err).NotTo(HaveOccurred())
		countRepeats(&repeats, &again)
	})

	// decided composes {"items":[head, rest]} (rest naming head's key again) into first: Phase 2 decides the repeat,
	// giving the two Composes' (head, then rest) result or error (msg, "" for none); strategicpatch merges, to ply's
	// result where ply merges.
	decided := func(first, rest, msg string) {
		const head = `{"name":"a","size":1}`
		f, second := jsonv.MustDecode(first), `{"items":[`+head+`,`+rest+`]}`
		mid, err := patch.Compose(f, jsonv.MustDecode(`{"items":[`+head+`]}`), box, features.Kubectl())
		Expect(err).NotTo(HaveOccurred())
		frontEnd, feErr := patch.Compose(mid, jsonv.MustDecode(`{"items":[`+rest+`]}`), box, features.Kubectl())
		Expect(again.Load()).To(BeZero(), "the two Composes name no key twice")
		want, werr := sp.MergePatchesWithoutRoom([]byte(first), []byte(second))
		Expect(werr).NotTo(HaveOccurred())
		got, err := patch.Compose(f, jsonv.MustDecode(second), box, features.Kubectl())
		Expect(repeats.Load()).To(BeNumerically(">", 0), "a repeat applied to its key's outcome")
		Expect(again.Load()).To(BeZero(), "the front-end applied a repeat again")
		if msg != "" {
			Expect(feErr).To(MatchError(msg))
			var ee *elements.Error
			Expect(errors.As(err, &ee)).To(BeTrue(), "%v", err)
			Expect(err.Error()).To(Equal(feErr.Error()))
			return
		}
		Expect(feErr).NotTo(HaveOccurred())
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(equalValue(frontEnd))
		Expect(got).To(equalValue(jsonv.MustDecode(string(want))))
	}

	const beyond = "nesting is deeper than the limit of 1000 levels of maps and lists"
	DescribeTable("a map of strategy replace holding \"$patch\" where the outcome's item lacks a map",
		decided,
		Entry("lacking the field, a value at the limit beside it: less its \"$patch\" map",
			`{"items":[{"name":"a"}]}`,
			`{"name":"a","q":{"a":{"$patch":"delete"},"b":"2"},"blob":`+deepX(997, `{}`)+`}`, ""),
		Entry("holding a string there, its own maps reaching the limit: less its \"$patch\" map",
			`{"items":[{"name":"a","q":"s"}]}`,
			`{"name":"a","q":{"a":{"$patch":"delete"},"b":"2","c":`+deepX(996, `{}`)+`}}`, ""),
		Entry("holding a string there, a map of it beyond the limit: refused at that field",
			`{"items":[{"name":"a","q":"s"}]}`,
			`{"name":"a","q":{"a":{"$patch":"delete"},"b":"2","c":`+deepX(997, `{}`)+`}}`,
			"patch items[name=a].q: "+beyond),
		Entry("holding a null there, a map of it beyond the limit: refused at that field",
			`{"items":[{"name":"a","q":null}]}`,
			`{"name":"a","q":{"a":{"$patch":"replace"},"c":`+deepX(997, `{}`)+`}}`,
			"patch items[name=a].q: "+beyond),
		Entry("lacking the field, a list of it beyond the limit: refused at that field",
			`{"items":[{"name":"a"}]}`,
			`{"name":"a","q":{"a":{"$patch":"delete"},"c":`+strings.Repeat(`[`, 998)+strings.Repeat(`]`, 998)+`}}`,
			"patch items[name=a].q: "+beyond),
		Entry("lacking the field, its \"$patch\" map beyond the limit: refused at that field, that map's depth checked before it is dropped",
			`{"items":[{"name":"a"}]}`,
			`{"name":"a","q":{"b":"2","c":`+deepX(997, `{"$patch":"delete"}`)+`}}`,
			"patch items[name=a].q: "+beyond),
		Entry("lacking the field, its \"$patch\" map at the limit holding maps beyond it: dropped with them",
			`{"items":[{"name":"a"}]}`,
			`{"name":"a","q":{"b":"2","c":`+deepX(996, `{"$patch":"delete","y":{"z":{}}}`)+`}}`, ""),
		Entry("in a map the outcome's item holds, that map lacking it, a map of it beyond the limit: refused at that field",
			`{"items":[{"name":"a","o":{}}]}`,
			`{"name":"a","o":{"q":{"a":{"$patch":"delete"},"c":`+deepX(996, `{}`)+`}}}`,
			"patch items[name=a].o.q: "+beyond),
	)

	DescribeTable("a map the outcome's item lacks holding a map of strategy replace, which Phase 1 holds whole",
		decided,
		Entry("the map of strategy replace itself, a map of it beyond the limit: refused at that field",
			`{"items":[{"name":"a"}]}`,
			`{"name":"a","q":{"b":"2","c":`+deepX(997, `{}`)+`}}`,
			"patch items[name=a].q: "+beyond),
		Entry("a map holding it, a map of it beyond the limit: refused at the map the outcome lacks",
			`{"items":[{"name":"a"}]}`,
			`{"name":"a","o":{"q":{"b":"2","c":`+deepX(996, `{}`)+`}}}`,
			"patch items[name=a].o: "+beyond),
		Entry("a map holding it, the outcome's item holding a string there, the map of strategy replace holding \"$patch\": refused at the map the outcome lacks",
			`{"items":[{"name":"a","o":"s"}]}`,
			`{"name":"a","o":{"q":{"a":{"$patch":"delete"},"c":`+deepX(996, `{}`)+`}}}`,
			"patch items[name=a].o: "+beyond),
		Entry("a map holding it, its maps reaching the limit: taken whole",
			`{"items":[{"name":"a"}]}`,
			`{"name":"a","o":{"q":{"b":"2","c":`+deepX(995, `{}`)+`}}}`, ""),
	)
})
