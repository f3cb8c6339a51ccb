package visitors_test

import (
	"github.com/plyproject/ply/test/treetest"
	"strconv"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/pkg/visitors"
)

const absent = "<absent>"

func node(recorded, local, live string) *elements.Node {
	n := &elements.Node{Type: openapi.Unknown}
	if recorded != absent {
		n.Recorded, n.HasRecorded = treetest.YAML(recorded), true
	}
	if local != absent {
		n.Local, n.HasLocal = treetest.YAML(local), true
	}
	if live != absent {
		n.Live, n.HasLive = treetest.YAML(live), true
	}
	return n
}

var _ = Describe("Decide", func() {
	DescribeTable("applies the presence rule",
		func(recorded, local, live string, present bool, want string) {
			out := visitors.Decide(node(recorded, local, live))
			Expect(out.Present).To(Equal(present))
			if present {
				expectSame(out.Value, treetest.YAML(want), "outcome")
			} else {
				Expect(out).To(Equal(elements.Absent))
			}
		},
		Entry("local sets: local wins", "1", "2", "3", true, "2"),
		Entry("local sets, no other source", absent, "2", absent, true, "2"),
		Entry("local sets a map: its null fields are dropped", absent, "{a: 1, b: null, c: {d: null}}", "{a: 0, z: 9}", true, "{a: 1, c: {}}"),
		Entry("local nulls: removed though live has it", absent, "null", "3", false, ""),
		Entry("local nulls: removed though recorded and live have it", "1", "null", "3", false, ""),
		Entry("local omits, recorded had it: removed", "1", absent, "3", false, ""),
		Entry("local omits, recorded had it as null: removed", "null", absent, "3", false, ""),
		Entry("local omits, recorded had it, live lacks it: absent", "1", absent, absent, false, ""),
		Entry("local omits, no recorded: live kept", absent, absent, "{a: 1}", true, "{a: 1}"),
		Entry("local omits, no recorded: live kept as is, nulls and all", absent, absent, "{a: null}", true, "{a: null}"),
		Entry("no source", absent, absent, absent, false, ""),
	)
})

var _ = Describe("Replace", func() {
	It("decides every element type whole with Decide", func() {
		n := node(absent, "[b, a]", "[a, c]")
		r := visitors.Replace{}
		for _, e := range []elements.Element{
			&elements.AtomicElement{Node: *n},
			&elements.MapElement{Node: *n}, &elements.ListElement{Node: *n}, &elements.SetElement{Node: *n},
		} {
			out, err := r.Visit(e)
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Present).To(BeTrue())
			expectSame(out.Value, treetest.YAML("[b, a]"), "outcome")
		}
	})
})

var _ = Describe("StripNulls", func() {
	DescribeTable("removes null map fields at any depth and keeps list items",
		func(in, want string) {
			expectSame(visitors.StripNulls(treetest.YAML(in)), treetest.YAML(want), "stripped")
		},
		Entry("top-level field", "{a: 1, b: null}", "{a: 1}"),
		Entry("nested map field", "{a: {b: null, c: {d: null, e: 1}}}", "{a: {c: {e: 1}}}"),
		Entry("map that becomes empty stays", "{a: {b: null}}", "{a: {}}"),
		Entry("null list items are kept", "{a: [null, 1, null]}", "{a: [null, 1, null]}"),
		Entry("null fields of maps inside lists are removed", "{a: [{b: null, c: 1}, [{d: null}]]}", "{a: [{c: 1}, [{}]]}"),
		Entry("a top-level list", "[{a: null}, null]", "[{}, null]"),
		Entry("a scalar", "5", "5"),
		Entry("null itself", "null", "null"),
	)

	It("does not modify its input", func() {
		in := treetest.YAML("{a: {b: null, c: 1}, d: null}")
		before := string(in.JSON())
		visitors.StripNulls(in)
		Expect(string(in.JSON())).To(Equal(before))
	})

	It("returns a value without nulls itself, without copying or allocating", func() {
		fields := make([]value.Field, 0, 500)
		for i := 0; i < 500; i++ {
			inner := value.MustMap(
				value.Field{Key: "items", Value: value.List([]value.Value{value.Int(int64(i)), value.String("x")})},
				value.Field{Key: "name", Value: value.String("n")},
			)
			fields = append(fields, value.Field{Key: "k" + strconv.Itoa(100000+i), Value: inner})
		}
		v := value.MustMap(fields...)
		got := visitors.StripNulls(v)
		Expect(value.Equal(got, v)).To(BeTrue())
		// The same backing arrays: no copy was made.
		Expect(&got.Fields()[0]).To(BeIdenticalTo(&v.Fields()[0]))
		inV, _ := v.Fields()[7].Value.Get("items")
		inG, _ := got.Fields()[7].Value.Get("items")
		Expect(&inG.Items()[0]).To(BeIdenticalTo(&inV.Items()[0]))
		Expect(testing.AllocsPerRun(10, func() { visitors.StripNulls(v) })).To(BeZero())
	})
})
