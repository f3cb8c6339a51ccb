package visitors

import (
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// undeclared reports whether field name of a map of type t is one the schema does not declare: t has no schema, or is
// an object's type without that field. strategicpatch's merge of patches looks such a field up where both patches
// hold a map or a list there, and every schema it reads fails that look-up ("unable to find api field"); compose
// merges it by the no-schema rules, maps merged and lists replaced, as where the first patch lacks it (class
// oracle-no-meta-undeclared, docs/patches.md).
func undeclared(t *openapi.Type, name string) bool {
	return t.Kind == openapi.KindUnknown || (t.Kind == openapi.KindStruct && t.Field(name) == nil)
}

// dollarInto is "$" field f of a patch's map of type t (dollarData: a map or a list), merged into held, that field of
// the map it merges into, a value of its kind, as the collation merges a field of no schema there (undeclared): a list
// replaces held's as the patch holds it; a map holding "$patch: replace" or "$patch: delete" (its other fields plain:
// plainFields; whatever they hold where f is undeclared, replacedUndeclared) is its fields less the directive or empty,
// as mergedInto replaces a map by such a one; one holding "$patch: merge" or another value fails there, the collation
// reading the directive first; another map (directedFields) merges into held field by field (mergedInto, failing where
// it fails: err, its path below f). decided is false for another map, and where that merge is not known.
func dollarInto(t *openapi.Type, f value.Field, held value.Value) (value.Value, *elements.Error, bool) {
	if f.Value.IsList() {
		return f.Value, nil, true
	}
	ft, _ := t.Child(f.Key)
	d, directed := f.Value.Get(smp.DirectiveKey)
	s, _ := d.AsString()
	whole := replacedUndeclared(t, f) // (its other fields whatever they hold)
	switch {
	case directed && s == smp.MergeValue:
		return value.Value{}, &elements.Error{Source: elements.Patch, Msg: mergeDirective}, true
	case directed && unknownDirected(f.Value):
		return value.Value{}, &elements.Error{Source: elements.Patch, Msg: smp.UnknownDirective(d)}, true
	case directed && s == smp.ReplaceValue && (plainFields(ft, f.Value.Without(smp.DirectiveKey)) || whole):
		return f.Value.Without(smp.DirectiveKey), nil, true
	case directed && s == smp.DeleteValue && (plainFields(ft, f.Value.Without(smp.DirectiveKey)) || whole):
		return value.MustMap(), nil, true
	case directed || !directedFields(ft, f.Value):
		return value.Value{}, nil, false
	}
	return mergedInto(ft, held, f.Value)
}

// fieldErr is err, at a path below a map, at field name of it; nil for nil.
func fieldErr(name string, err *elements.Error) *elements.Error {
	if err != nil {
		err.Path = append(fieldpath.Path{fieldpath.Field(name)}, err.Path...)
	}
	return err
}
