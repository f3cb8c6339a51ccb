// Package fieldpath names a place inside an object the way users read it in error messages and change lists:
//
//	spec.template.spec.containers[name=web].ports[containerPort=80,protocol=UDP]
package fieldpath

import (
	"strconv"
	"strings"

	"github.com/plyproject/ply/pkg/value"
)

// KeyField is one field of a merge-key tuple and its value in an item.
type KeyField struct {
	Name  string
	Value value.Value
}

// ElementKind says which member of an Element is set.
type ElementKind uint8

const (
	// FieldElement selects a field of a map by name.
	FieldElement ElementKind = iota
	// KeyElement selects the item of a keyed list whose merge key is Key.
	KeyElement
	// ValueElement selects the item of a set list equal to Value.
	ValueElement
	// IndexElement selects the item of a list at Index.
	IndexElement
)

// Element is one step of a Path. Exactly the member named by Kind is set.
type Element struct {
	Kind  ElementKind
	Field string
	Key   []KeyField
	Value value.Value
	Index int
}

// Field returns the element selecting map field name.
func Field(name string) Element { return Element{Kind: FieldElement, Field: name} }

// Key returns the element selecting the keyed-list item with key fields kf.
func Key(kf []KeyField) Element { return Element{Kind: KeyElement, Key: kf} }

// Val returns the element selecting the set item equal to v.
func Val(v value.Value) Element { return Element{Kind: ValueElement, Value: v} }

// Index returns the element selecting list item i.
func Index(i int) Element { return Element{Kind: IndexElement, Index: i} }

// Path is a sequence of Elements from the root of an object. The empty Path is the root itself.
type Path []Element

// String renders p: fields joined by dots, list items in brackets ("[name=web]", "[=value]", "[3]"), the root as ".".
func (p Path) String() string {
	if len(p) == 0 {
		return "."
	}
	var sb strings.Builder
	for i, e := range p {
		switch e.Kind {
		case FieldElement:
			if i > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(e.Field)
		case KeyElement:
			sb.WriteByte('[')
			for j, kf := range e.Key {
				if j > 0 {
					sb.WriteByte(',')
				}
				sb.WriteString(kf.Name + "=" + kf.Value.Short())
			}
			sb.WriteByte(']')
		case ValueElement:
			sb.WriteString("[=" + Show(e.Value) + "]")
		case IndexElement:
			sb.WriteString("[" + strconv.Itoa(e.Index) + "]")
		}
	}
	return sb.String()
}

// String renders one element as it appears inside a Path.
func (e Element) String() string { return Path{e}.String() }

// Equal reports whether p and q select the same place: element by element, the same kind and member (key and set
// values compared as values, value.Equal).
func (p Path) Equal(q Path) bool {
	return len(p) == len(q) && p.HasPrefix(q)
}

// HasPrefix reports whether p starts with the elements of q.
func (p Path) HasPrefix(q Path) bool {
	if len(p) < len(q) {
		return false
	}
	for i := range q {
		if !p[i].equal(q[i]) {
			return false
		}
	}
	return true
}

// equal reports whether e and f are the same step.
func (e Element) equal(f Element) bool {
	if e.Kind != f.Kind {
		return false
	}
	switch e.Kind {
	case FieldElement:
		return e.Field == f.Field
	case KeyElement:
		if len(e.Key) != len(f.Key) {
			return false
		}
		for i, k := range e.Key {
			if k.Name != f.Key[i].Name || !value.Equal(k.Value, f.Key[i].Value) {
				return false
			}
		}
		return true
	case ValueElement:
		return value.Equal(e.Value, f.Value)
	}
	return e.Index == f.Index
}

// Child returns a new Path of p followed by e; p itself is not modified.
func (p Path) Child(e Element) Path { return append(p[:len(p):len(p)], e) }

// Show renders a set item's identifying value: a scalar as written, an object (in a set of maps) as its JSON.
func Show(v value.Value) string {
	if v.IsMap() || v.IsList() {
		return string(v.JSON())
	}
	return v.Short()
}
