// Package frontend holds the decisions every front-end of the engine
// (pkg/apply, pkg/patch, pkg/patchgen; pkg/cluster through pkg/apply)
// makes the same way: the schema type of the root of the objects, with the
// input check that comes with it, and the order of merged lists, both
// under the feature gates.
package frontend

import (
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// Object is one input of a front-end and the source it is (for errors).
// A null Value is an object that does not exist (no recorded
// configuration on a first apply, no live object yet).
type Object struct {
	Value  value.Value
	Source elements.Source
}

// needs ends the messages of an object without apiVersion or kind.
const needs = ": the object needs apiVersion and kind to find its schema (or name the type explicitly)"

// RootType resolves the schema type of the root of the objects. schema
// nil means openapi.Default(); with the MultiFieldMergeKeys gate off the
// schema's kubectl view is used (openapi.Schema.Kubectl), so merge
// metadata is read as strategicpatch reads it. This is the gate's one
// switch.
//
// A non-empty typeName names the definition (an error when the schema
// lacks it) and the objects are not looked at. Otherwise first, whose
// apiVersion and kind give the type, and every other object that exists
// (a null one does not) must be an object with apiVersion and kind,
// non-empty strings: the first that is not is an *elements.Error blaming
// its source at path apiVersion or kind (apiVersion checked first), so
// that no input is silently merged without schema. A kind the schema does
// not know gives openapi.Unknown (callers decide whether to warn).
func RootType(schema *openapi.Schema, typeName string, gates features.Gates, first Object, others ...Object) (*openapi.Type, error) {
	if schema == nil {
		s, err := openapi.Default()
		if err != nil {
			return nil, err
		}
		schema = s
	}
	if !gates.Enabled(features.MultiFieldMergeKeys) {
		schema = schema.Kubectl()
	}
	if typeName != "" {
		t, ok := schema.ByName(typeName)
		if !ok {
			return nil, &elements.Error{Msg: "the schema has no definition named " + typeName}
		}
		return t, nil
	}
	apiVersion, kind, err := typeOf(first)
	if err != nil {
		return nil, err
	}
	for _, o := range others {
		if !o.Value.IsNull() {
			if _, _, err := typeOf(o); err != nil {
				return nil, err
			}
		}
	}
	if t, ok := schema.ForKind(apiVersion, kind); ok {
		return t, nil
	}
	return openapi.Unknown, nil
}

// typeOf returns the apiVersion and kind of o, which must be non-empty
// strings.
func typeOf(o Object) (apiVersion, kind string, err error) {
	if apiVersion, err = typeField(o, "apiVersion"); err != nil {
		return "", "", err
	}
	kind, err = typeField(o, "kind")
	return apiVersion, kind, err
}

// typeField returns field (apiVersion or kind) of o, which must be a
// non-empty string.
func typeField(o Object, field string) (string, error) {
	fail := func(msg string) error {
		return &elements.Error{Source: o.Source, Path: fieldpath.Path{fieldpath.Field(field)}, Msg: msg}
	}
	if !o.Value.IsMap() {
		return "", &elements.Error{Source: o.Source, Msg: "the top level must be an object, got " + o.Value.Kind().String()}
	}
	v, ok := o.Value.Get(field)
	if !ok {
		return "", fail("missing" + needs)
	}
	s, isString := v.AsString()
	switch {
	case !isString:
		return "", fail("expected a string, got " + v.Kind().String())
	case s == "":
		return "", fail("empty" + needs)
	}
	return s, nil
}

// Ordering returns the order of merged lists a front-end uses: kubectl's
// when the SeedOrdering gate is off (the gate's one switch), else o, the
// order the caller chose. An explicit order.OrderSeed cannot be told
// from the default, so it gives way to the gate too; the command line
// refuses --ordering seed with the gate off.
func Ordering(o order.Ordering, gates features.Gates) order.Ordering {
	if !gates.Enabled(features.SeedOrdering) {
		return order.OrderKubectl
	}
	return o
}
