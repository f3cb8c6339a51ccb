package fieldpath_test

import (
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	yaml "go.yaml.in/yaml/v3"

	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

type pathStep struct {
	Field *string `yaml:"field"`
	Key   [][]any `yaml:"key"`
	Value any     `yaml:"value"`
	Index *int    `yaml:"index"`
}

type pathCase struct {
	Name  string     `yaml:"name"`
	Steps []pathStep `yaml:"steps"`
	Want  string     `yaml:"want"`
}

// scalar converts a decoded YAML scalar to a Value of the same kind.
func scalar(x any) value.Value {
	switch x := x.(type) {
	case string:
		return value.String(x)
	case int:
		return value.Int(int64(x))
	case float64:
		return value.Float(x)
	case bool:
		return value.Bool(x)
	case nil:
		return value.Null
	}
	panic("unsupported scalar in testdata/paths.yaml")
}

func (s pathStep) element() fieldpath.Element {
	switch {
	case s.Field != nil:
		return fieldpath.Field(*s.Field)
	case s.Key != nil:
		kf := make([]fieldpath.KeyField, len(s.Key))
		for i, pair := range s.Key {
			kf[i] = fieldpath.KeyField{Name: pair[0].(string), Value: scalar(pair[1])}
		}
		return fieldpath.Key(kf)
	case s.Index != nil:
		return fieldpath.Index(*s.Index)
	}
	return fieldpath.Val(scalar(s.Value))
}

func loadPathCases() []TableEntry {
	data, err := os.ReadFile("testdata/paths.yaml")
	if err != nil {
		panic(err)
	}
	var cases []pathCase
	if err := yaml.Unmarshal(data, &cases); err != nil {
		panic(err)
	}
	if len(cases) == 0 {
		panic("testdata/paths.yaml has no cases")
	}
	entries := make([]TableEntry, len(cases))
	for i, c := range cases {
		entries[i] = Entry(c.Name, c)
	}
	return entries
}

var _ = Describe("Path", func() {
	DescribeTable("String",
		func(c pathCase) {
			p := fieldpath.Path{}
			for _, s := range c.Steps {
				p = p.Child(s.element())
			}
			Expect(p).To(HaveLen(len(c.Steps)))
			Expect(p.String()).To(Equal(c.Want))
		},
		loadPathCases(),
	)

	It("renders the nil Path as the root", func() {
		var p fieldpath.Path
		Expect(p.String()).To(Equal("."))
	})

	DescribeTable("Element.String renders one step as it stands first in a path",
		func(e fieldpath.Element, want string) { Expect(e.String()).To(Equal(want)) },
		Entry("field", fieldpath.Field("spec"), "spec"),
		Entry("key", fieldpath.Key([]fieldpath.KeyField{{Name: "name", Value: value.String("web")}}), "[name=web]"),
		Entry("value", fieldpath.Val(value.String("x")), "[=x]"),
		Entry("index", fieldpath.Index(12), "[12]"),
	)

	It("constructors set exactly the member Kind names", func() {
		Expect(fieldpath.Field("a")).To(Equal(fieldpath.Element{Kind: fieldpath.FieldElement, Field: "a"}))
		Expect(fieldpath.Index(2)).To(Equal(fieldpath.Element{Kind: fieldpath.IndexElement, Index: 2}))
		v := fieldpath.Val(value.Int(1))
		Expect(v.Kind).To(Equal(fieldpath.ValueElement))
		Expect(value.Equal(v.Value, value.Int(1))).To(BeTrue())
		kf := []fieldpath.KeyField{{Name: "k", Value: value.Bool(true)}}
		k := fieldpath.Key(kf)
		Expect(k.Kind).To(Equal(fieldpath.KeyElement))
		Expect(k.Key).To(HaveLen(1))
	})

	DescribeTable("Equal and HasPrefix compare step by step, key and set values as values",
		func(p, q fieldpath.Path, equal, prefix bool) {
			Expect(p.Equal(q)).To(Equal(equal))
			Expect(p.HasPrefix(q)).To(Equal(prefix))
		},
		Entry("the same fields", fieldpath.Path{fieldpath.Field("a"), fieldpath.Field("b")},
			fieldpath.Path{fieldpath.Field("a"), fieldpath.Field("b")}, true, true),
		Entry("a shorter path", fieldpath.Path{fieldpath.Field("a"), fieldpath.Field("b")},
			fieldpath.Path{fieldpath.Field("a")}, false, true),
		Entry("a longer path", fieldpath.Path{fieldpath.Field("a")},
			fieldpath.Path{fieldpath.Field("a"), fieldpath.Field("b")}, false, false),
		Entry("the same key", fieldpath.Path{fieldpath.Key([]fieldpath.KeyField{{Name: "port", Value: value.Int(80)}})},
			fieldpath.Path{fieldpath.Key([]fieldpath.KeyField{{Name: "port", Value: value.Int(80)}})}, true, true),
		Entry("another key value", fieldpath.Path{fieldpath.Key([]fieldpath.KeyField{{Name: "port", Value: value.Int(80)}})},
			fieldpath.Path{fieldpath.Key([]fieldpath.KeyField{{Name: "port", Value: value.String("80")}})}, false, false),
		Entry("a field against an index", fieldpath.Path{fieldpath.Field("0")}, fieldpath.Path{fieldpath.Index(0)}, false, false),
		Entry("the same set value", fieldpath.Path{fieldpath.Val(value.String("x"))}, fieldpath.Path{fieldpath.Val(value.String("x"))}, true, true),
		Entry("the root", fieldpath.Path{fieldpath.Field("a")}, fieldpath.Path{}, false, true),
	)

	Describe("Child", func() {
		It("does not modify its receiver", func() {
			p := fieldpath.Path{fieldpath.Field("a")}
			c := p.Child(fieldpath.Field("b"))
			Expect(p.String()).To(Equal("a"))
			Expect(c.String()).To(Equal("a.b"))
		})

		It("gives independent children of a path with spare capacity", func() {
			// p has room to grow in place: a Child that appended into it
			// would have its two children share the last slot.
			p := make(fieldpath.Path, 2, 8)
			p[0], p[1] = fieldpath.Field("a"), fieldpath.Field("b")
			x := p.Child(fieldpath.Field("x"))
			y := p.Child(fieldpath.Field("y"))
			Expect(x.String()).To(Equal("a.b.x"))
			Expect(y.String()).To(Equal("a.b.y"))
			Expect(p.String()).To(Equal("a.b"))
			Expect(p).To(HaveLen(2))
			// Nor does a child share storage with its parent.
			x[0] = fieldpath.Field("changed")
			Expect(p.String()).To(Equal("a.b"))
			Expect(y.String()).To(Equal("a.b.y"))
		})

		It("builds from the root", func() {
			var root fieldpath.Path
			c := root.Child(fieldpath.Index(0))
			Expect(c.String()).To(Equal("[0]"))
			Expect(root).To(BeEmpty())
		})
	})
})
