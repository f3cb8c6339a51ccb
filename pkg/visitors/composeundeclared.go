package visitors

import (
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
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
// plainFields) is its fields less the directive or empty, as mergedInto replaces a map by such a one; another map
// (directedFields) merges into held field by field (mergedInto). decided is false for another map, and where that
// merge fails or is not known (the collation's error there is left to it).
func dollarInto(t *openapi.Type, f value.Field, held value.Value) (value.Value, bool) {
	if f.Value.IsList() {
		return f.Value, true
	}
	ft, _ := t.Child(f.Key)
	d, directed := f.Value.Get(smp.DirectiveKey)
	s, _ := d.AsString()
	switch {
	case directed && s == smp.ReplaceValue && plainFields(ft, f.Value.Without(smp.DirectiveKey)):
		return f.Value.Without(smp.DirectiveKey), true
	case directed && s == smp.DeleteValue && plainFields(ft, f.Value.Without(smp.DirectiveKey)):
		return value.MustMap(), true
	case directed || !directedFields(ft, f.Value):
		return value.Value{}, false
	}
	m, err, decided := mergedInto(ft, held, f.Value)
	return m, err == nil && decided
}
