// Package treetest holds what the engine's test suites share to build
// inputs and look into collated trees: YAML values, the nodes of a tree by
// path, a map node's field. Test support only; it fails the running
// Ginkgo spec on misuse.
package treetest

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// YAML parses one YAML (or JSON) document; "null" is the null value (the
// parser drops null documents).
func YAML(y string) value.Value {
	GinkgoHelper()
	if y == "null" {
		return value.Null
	}
	v, err := parse.Document([]byte(y))
	Expect(err).NotTo(HaveOccurred(), y)
	return v
}

// ByPath indexes every node of a tree (live duplicates included) by its
// rendered path; two nodes rendering alike fail the spec.
func ByPath(root elements.Element) map[string]elements.Element {
	GinkgoHelper()
	out := map[string]elements.Element{}
	var walk func(elements.Element)
	walk = func(e elements.Element) {
		p := e.Base().Path().String()
		if _, dup := out[p]; dup {
			Fail("two nodes render as " + p)
		}
		out[p] = e
		switch e := e.(type) {
		case *elements.MapElement:
			for _, f := range e.Fields {
				walk(f.Element)
			}
		case *elements.ListElement:
			for _, it := range e.Items {
				walk(it.Element)
			}
			for _, it := range e.LiveExtra {
				walk(it.Element)
			}
		case *elements.SetElement:
			for _, it := range e.Items {
				walk(it.Element)
			}
		}
	}
	walk(root)
	return out
}

// Field returns the child called name of a MapElement, failing the spec when there is none.
func Field(e elements.Element, name string) elements.Element {
	GinkgoHelper()
	var fs []elements.Field
	if m, ok := e.(*elements.MapElement); ok {
		fs = m.Fields
	}
	for _, f := range fs {
		if f.Name == name {
			return f.Element
		}
	}
	Fail("no field " + name)
	return nil
}
