package openapi

import (
	"errors"
	"strconv"
)

// shape is how a v2 schema that is not a reference is read, by the rules
// of kubectl's reader of v2 documents (kube-openapi's proto models), which
// classify by the declared type and properties alone (allOf, for one, is
// not looked at).
type shape int

const (
	// shapeUnknown: no type and no properties, any value.
	shapeUnknown shape = iota
	// shapeStruct: properties, with type object or none.
	shapeStruct
	// shapeMap: type object without properties (its values are
	// additionalProperties' schema, if any).
	shapeMap
	// shapeArray: type array.
	shapeArray
	// shapePrimitive: type string, integer, number or boolean.
	shapePrimitive
)

// shapeOf classifies gs, a schema checkShape accepted.
func shapeOf(gs v2Schema) shape {
	types := gs.types()
	switch {
	case len(types) == 0 && gs.has("properties"):
		return shapeStruct
	case len(types) == 0:
		return shapeUnknown
	case types[0] == "object" && gs.has("properties"):
		return shapeStruct
	case types[0] == "object":
		return shapeMap
	case types[0] == "array":
		return shapeArray
	}
	return shapePrimitive
}

// checkShape rejects what kubectl's reader of v2 documents rejects in gs
// and the schemas it reads under it (properties, the items of an array,
// the values of a map), with its message: "SchemaError(<path>): <what>",
// the path being the definition and the property names ("<def>.spec.x").
// $refs are assumed to point at definitions of the document (checkRefs).
// Properties are visited in name order (kube-openapi visits them in the
// document's order, which the parsed value does not keep), so of several
// bad properties the first by name is reported.
func checkShape(gs v2Schema, path string) error {
	fail := func(msg string) error {
		if path == "" {
			return errors.New("SchemaError: " + msg)
		}
		return errors.New("SchemaError(" + path + "): " + msg)
	}
	types := gs.types()
	if gs.ref() != "" {
		switch {
		case len(gs.properties()) > 0:
			return fail("unallowed embedded type definition")
		case len(types) > 0:
			return fail("definition reference can't have a type")
		}
		return nil
	}
	if len(types) > 1 {
		return fail("definitions with multiple types aren't supported")
	}
	switch shapeOf(gs) {
	case shapeStruct:
		for _, p := range gs.properties() {
			if err := checkShape(v2Schema{v: p.Value}, path+"."+p.Key); err != nil {
				return err
			}
		}
	case shapeMap:
		if sub, ok := gs.additional(); ok {
			return checkShape(sub, path)
		}
	case shapeArray:
		// A list of item schemas (a tuple, which Swagger 2.0 allows and
		// gnostic, kubectl's reader, rejects) reads as one schema that
		// says nothing (anySchema); the schemas in the list are not read.
		item, ok := gs.items()
		if !ok {
			return fail("array should have exactly one sub-item")
		}
		return checkShape(item, path)
	case shapePrimitive:
		switch types[0] {
		case "string", "integer", "number", "boolean":
		default:
			return fail("Unknown primitive type: " + strconv.Quote(types[0]))
		}
	}
	return nil
}
