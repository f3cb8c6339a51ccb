// Package frontend holds what every front-end (pkg/apply, pkg/patch, pkg/patchgen) decides the same way: the root's
// schema type under the feature gates, with its input check.
package frontend

import (
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// Object is a front-end's input and its source (for errors); a null Value is an object that does not exist.
type Object struct {
	Value  value.Value
	Source elements.Source
}

const needs = ": the object needs apiVersion and kind to find its schema (or name the type explicitly)"

// RootType resolves the schema type of the objects' root. A nil schema means openapi.Default(); with gate
// MultiFieldMergeKeys off (its one switch) the schema's kubectl view (openapi.Schema.Kubectl) is used. A non-empty
// typeName names the definition (an error if absent) and no object is read. Else first's apiVersion and kind give the
// type (openapi.Unknown for a kind the schema lacks), and first and every other existing object must carry both as
// non-empty strings: the first that does not is an *elements.Error blaming its source at path apiVersion or kind.
func RootType(schema *openapi.Schema, typeName string, gates features.Gates, first Object, others ...Object) (*openapi.Type, error) {
	var err error
	if schema == nil {
		if schema, err = openapi.Default(); err != nil {
			return nil, err
		}
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
		if _, _, err := typeOf(o); err != nil && !o.Value.IsNull() {
			return nil, err
		}
	}
	if t, ok := schema.ForKind(apiVersion, kind); ok {
		return t, nil
	}
	return openapi.Unknown, nil
}

// typeOf returns the apiVersion and kind object o must hold as non-empty strings (apiVersion checked first).
func typeOf(o Object) (apiVersion, kind string, err error) {
	if !o.Value.IsMap() {
		return "", "", &elements.Error{Source: o.Source, Msg: "the top level must be an object, got " + o.Value.Kind().String()}
	}
	var got [2]string
	for i, field := range [...]string{"apiVersion", "kind"} {
		v, ok := o.Value.Get(field)
		s, isString := v.AsString()
		msg := ""
		switch {
		case !ok:
			msg = "missing" + needs
		case !isString:
			msg = "expected a string, got " + v.Kind().String()
		case s == "":
			msg = "empty" + needs
		}
		if msg != "" {
			return "", "", &elements.Error{Source: o.Source, Path: fieldpath.Path{fieldpath.Field(field)}, Msg: msg}
		}
		got[i] = s
	}
	return got[0], got[1], nil
}
