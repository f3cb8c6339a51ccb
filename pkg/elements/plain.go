package elements

import (
	"strings"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// PlainTree reports whether v, field name of a map of type t, is a plain tree nesting at most room levels (a scalar or
// null: 1; room < 0: any): a scalar, a null, or a map of plain trees, holding no list, no "$" key and no field whose
// metadata names a merge rule. A collation of plain trees fails only by the depth limit.
func PlainTree(v value.Value, t *openapi.Type, name string, room int) bool {
	child, meta := t.Child(name)
	switch {
	case meta.Rule != nil || v.IsList() || room == 0:
		return false
	case !v.IsMap():
		return true
	}
	for _, f := range v.Fields() {
		if strings.HasPrefix(f.Key, "$") || !PlainTree(f.Value, child, f.Key, room-1) {
			return false
		}
	}
	return true
}
