package elements_test

import (
	"fmt"

	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// countLeaves is a one-method Visitor: it decides every kind by its own switch, here answering how many atomic
// values are below a node, and meets a kind it does not know with elements.Unsupported.
type countLeaves struct{}

func (c countLeaves) Visit(e elements.Element) (elements.Outcome, error) {
	switch e := e.(type) {
	case *elements.AtomicElement:
		return elements.Keep(value.Int(1)), nil
	case *elements.MapElement:
		n := int64(0)
		for _, f := range e.Fields {
			out, err := c.Visit(f.Element)
			if err != nil {
				return elements.Absent, err
			}
			k, _ := out.Value.AsInt()
			n += k
		}
		return elements.Keep(value.Int(n)), nil
	}
	return elements.Absent, elements.Unsupported(c, e)
}

func ExampleVisitor() {
	root := &elements.MapElement{}
	root.Fields = []elements.Field{
		{Name: "a", Element: &elements.AtomicElement{Node: elements.Node{Parent: root, Name: "a"}}},
		{Name: "b", Element: &elements.AtomicElement{Node: elements.Node{Parent: root, Name: "b"}}},
		{Name: "c", Element: &elements.SetElement{Node: elements.Node{Parent: root, Name: "c"}}},
	}
	out, err := countLeaves{}.Visit(root)
	fmt.Println(out.Present, err)
	out, err = countLeaves{}.Visit(&elements.MapElement{Fields: root.Fields[:2]})
	fmt.Println(out.Value.Short(), err)
	// Output:
	// false c: elements_test.countLeaves does not decide a *elements.SetElement
	// 2 <nil>
}
