package elements_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

var _ = Describe("Values", func() {
	vals := elements.Values{
		Recorded: value.String("r"), HasRecorded: true,
		Local: value.Null, HasLocal: true,
	}

	DescribeTable("Get returns each source's value and presence",
		func(s elements.Source, want value.Value, wantOK bool) {
			got, ok := vals.Get(s)
			Expect(ok).To(Equal(wantOK))
			Expect(got.Kind()).To(Equal(want.Kind()))
			Expect(value.Equal(got, want)).To(BeTrue())
		},
		Entry("recorded present", elements.Recorded, value.String("r"), true),
		Entry("local present and null", elements.Local, value.Null, true),
		Entry("live absent", elements.Live, value.Null, false),
		Entry("patch is not a node value", elements.Patch, value.Null, false),
		Entry("no source", elements.NoSource, value.Null, false),
	)

	It("Get reports a live value that is present", func() {
		v := elements.Values{Live: value.Int(3), HasLive: true}
		got, ok := v.Get(elements.Live)
		Expect(ok).To(BeTrue())
		Expect(value.Equal(got, value.Int(3))).To(BeTrue())
	})

	DescribeTable("LocalSet is true only for a present, non-null local",
		func(v elements.Values, want bool) { Expect(v.LocalSet()).To(Equal(want)) },
		Entry("absent", elements.Values{Live: value.Int(1), HasLive: true}, false),
		Entry("explicit null", elements.Values{Local: value.Null, HasLocal: true}, false),
		Entry("scalar", elements.Values{Local: value.Int(0), HasLocal: true}, true),
		Entry("empty string", elements.Values{Local: value.String(""), HasLocal: true}, true),
		Entry("empty map", elements.Values{Local: value.MustMap(), HasLocal: true}, true),
		Entry("empty list", elements.Values{Local: value.List(nil), HasLocal: true}, true),
		Entry("zero value with Has false", elements.Values{Local: value.String("x")}, false),
	)
})

// chain builds spec.containers[name=web].image by hand:
// MapElement -> ListElement -> item MapElement -> AtomicElement.
func chain() (root *elements.MapElement, list *elements.ListElement, item *elements.MapElement, leaf *elements.AtomicElement) {
	root = &elements.MapElement{Node: elements.Node{Type: openapi.Unknown}}
	spec := &elements.MapElement{Node: elements.Node{Parent: root, Name: "spec", Type: openapi.Unknown}}
	list = &elements.ListElement{Node: elements.Node{Parent: spec, Name: "containers", Type: openapi.Unknown,
		Meta: openapi.Meta{Strategy: openapi.StrategyMerge, MergeKey: []string{"name"}}}}
	item = &elements.MapElement{Node: elements.Node{Parent: list, Type: openapi.Unknown,
		Values: elements.Values{Local: value.MustMap(value.Field{Key: "name", Value: value.String("web")}), HasLocal: true}}}
	leaf = &elements.AtomicElement{Node: elements.Node{Parent: item, Name: "image", Type: openapi.Unknown}}
	root.Fields = []elements.Field{{Name: "spec", Element: spec}}
	spec.Fields = []elements.Field{{Name: "containers", Element: list}}
	list.Items = []elements.Item{{Element: item, RecordedIndex: -1, LocalIndex: 0, LiveIndex: -1, Of: -1}}
	item.Fields = []elements.Field{{Name: "image", Element: leaf}}
	return root, list, item, leaf
}

var _ = Describe("Node.Path", func() {
	It("is the empty path at the root", func() {
		root, _, _, _ := chain()
		Expect(root.Path()).To(BeEmpty())
		Expect(root.Path().String()).To(Equal("."))
	})

	It("walks parent pointers from any node", func() {
		_, list, item, leaf := chain()
		Expect(list.Path().String()).To(Equal("spec.containers"))
		Expect(item.Path().String()).To(Equal("spec.containers[name=web]"))
		Expect(leaf.Path().String()).To(Equal("spec.containers[name=web].image"))
		Expect(leaf.Path()).To(HaveLen(4))
		Expect(leaf.Path()[2].Kind).To(Equal(fieldpath.KeyElement))
	})

	It("gives a fresh path each call", func() {
		_, _, _, leaf := chain()
		p := leaf.Path()
		p[0] = fieldpath.Field("changed")
		Expect(leaf.Path().String()).To(Equal("spec.containers[name=web].image"))
	})

	It("Errorf blames a source at the node's path", func() {
		_, _, _, leaf := chain()
		err := leaf.Errorf(elements.Local, "expected a string, got integer")
		Expect(err.Source).To(Equal(elements.Local))
		Expect(err.Path.String()).To(Equal("spec.containers[name=web].image"))
		Expect(err.Error()).To(Equal("local spec.containers[name=web].image: expected a string, got integer"))
		var target *elements.Error
		Expect(errors.As(error(err), &target)).To(BeTrue())
	})
})

var _ = Describe("Error", func() {
	path := fieldpath.Path{fieldpath.Field("spec"), fieldpath.Field("replicas")}
	DescribeTable("renders <source> <path>: <msg>",
		func(e *elements.Error, want string) { Expect(e.Error()).To(Equal(want)) },
		Entry("recorded", &elements.Error{Source: elements.Recorded, Path: path, Msg: "bad"}, "recorded spec.replicas: bad"),
		Entry("local", &elements.Error{Source: elements.Local, Path: path, Msg: "bad"}, "local spec.replicas: bad"),
		Entry("live", &elements.Error{Source: elements.Live, Path: path, Msg: "bad"}, "live spec.replicas: bad"),
		Entry("patch", &elements.Error{Source: elements.Patch, Path: path, Msg: "bad"}, "patch spec.replicas: bad"),
		Entry("no source", &elements.Error{Path: path, Msg: "bad"}, "spec.replicas: bad"),
		Entry("root path", &elements.Error{Source: elements.Local, Msg: "expected an object, got array"}, "local .: expected an object, got array"),
		Entry("root path, no source", &elements.Error{Msg: "m"}, ".: m"),
	)

	DescribeTable("Source.String",
		func(s elements.Source, want string) { Expect(s.String()).To(Equal(want)) },
		Entry("none", elements.NoSource, ""),
		Entry("recorded", elements.Recorded, "recorded"),
		Entry("local", elements.Local, "local"),
		Entry("live", elements.Live, "live"),
		Entry("patch", elements.Patch, "patch"),
		Entry("out of range", elements.Source(99), "invalid"),
	)
})

var _ = Describe("Element kinds", func() {
	structType := &openapi.Type{Kind: openapi.KindStruct}
	null := elements.Values{Local: value.Null, HasLocal: true, Live: value.Null, HasLive: true}

	DescribeTable("Base returns the element's own node",
		func(e elements.Element, n func() *elements.Node) { Expect(e.Base()).To(BeIdenticalTo(n())) },
		func() []TableEntry {
			a, m := &elements.AtomicElement{}, &elements.MapElement{}
			t, l, s := &elements.MapElement{Node: elements.Node{Type: structType}}, &elements.ListElement{}, &elements.SetElement{}
			em := &elements.AtomicElement{Node: elements.Node{Values: null}}
			return []TableEntry{
				Entry("AtomicElement", a, func() *elements.Node { return &a.Node }),
				Entry("MapElement", m, func() *elements.Node { return &m.Node }),
				Entry("MapElement of a struct", t, func() *elements.Node { return &t.Node }),
				Entry("ListElement", l, func() *elements.Node { return &l.Node }),
				Entry("SetElement", s, func() *elements.Node { return &s.Node }),
				Entry("AtomicElement of a null", em, func() *elements.Node { return &em.Node }),
			}
		}(),
	)

	It("Unsupported names the visitor, the kind and the node's path", func() {
		parent := &elements.MapElement{}
		child := &elements.ListElement{Node: elements.Node{Parent: parent, Name: "items"}}
		Expect(elements.Unsupported(struct{ elements.Visitor }{}, child)).To(MatchError(
			"items: struct { elements.Visitor } does not decide a *elements.ListElement"))
	})

	It("lets a kind defined elsewhere list its children (Parent)", func() {
		leaf := &elements.AtomicElement{}
		var e elements.Element = &pair{children: []elements.Element{leaf, leaf}}
		p, ok := e.(elements.Parent)
		Expect(ok).To(BeTrue())
		Expect(p.Children()).To(HaveLen(2))
	})
})

// pair is an Element kind of a program's own: a node with children.
type pair struct {
	elements.Node
	children []elements.Element
}

func (p *pair) Children() []elements.Element { return p.children }

var _ = Describe("Outcome", func() {
	It("Absent is not present and Keep is", func() {
		Expect(elements.Absent.Present).To(BeFalse())
		k := elements.Keep(value.Null)
		Expect(k.Present).To(BeTrue())
		Expect(k.Value.IsNull()).To(BeTrue())
	})
})

var _ = Describe("Item.RemovedSinceRecorded", func() {
	DescribeTable("is true when recorded names the item and local does not",
		func(recorded, local, live int, want bool) {
			it := elements.Item{RecordedIndex: recorded, LocalIndex: local, LiveIndex: live, Of: -1}
			Expect(it.RemovedSinceRecorded()).To(Equal(want))
		},
		Entry("recorded only", 0, -1, -1, true),
		Entry("recorded and live, local dropped it", 2, -1, 1, true),
		Entry("in all three", 0, 0, 0, false),
		Entry("local and recorded", 1, 3, -1, false),
		Entry("live only", -1, -1, 0, false),
		Entry("local only (new)", -1, 0, -1, false),
		Entry("local and live", -1, 0, 4, false),
	)
})
