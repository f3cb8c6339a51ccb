package elements

import (
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// KindPhrase names what type t holds: "an object", "a scalar", "a list".
func KindPhrase(t *openapi.Type) string {
	switch t.Kind {
	case openapi.KindStruct, openapi.KindMap:
		return "an object"
	case openapi.KindPrimitive:
		return "a scalar"
	case openapi.KindList:
		return "a list"
	}
	return "of unknown kind"
}

// KindAdmits reports whether type t admits value v's kind, where KindMismatch gives "". (Small enough to be inlined:
// the collation asks it of every node it reads.)
func KindAdmits(t *openapi.Type, v value.Value) bool {
	switch k := v.Kind(); t.Kind {
	case openapi.KindUnknown:
		return true
	case openapi.KindStruct, openapi.KindMap:
		return k == value.KindMap
	case openapi.KindList:
		return k == value.KindList
	case openapi.KindPrimitive:
		return k != value.KindMap && k != value.KindList
	}
	return false
}

// KindMismatch is the message of the error a collation gives for value v at a field of type t where the schema rules
// out v's kind (an object or a list for a scalar, a list for an object, a scalar for a list): "expected <what t
// holds> (<t's name>), got <v's kind>"; "" where t admits it (a type of no schema admits any; null is a scalar here).
func KindMismatch(t *openapi.Type, v value.Value) string {
	if KindAdmits(t, v) {
		return ""
	}
	want := KindPhrase(t)
	if t.Kind == openapi.KindPrimitive && t.Primitive == "integer" {
		want = "an integer"
	} else if t.Kind == openapi.KindPrimitive && t.Primitive != "" {
		want = "a " + t.Primitive
	}
	if t.Name != "" {
		want += " (" + t.Name + ")"
	}
	return "expected " + want + ", got " + v.Kind().String()
}
