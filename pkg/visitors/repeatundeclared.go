package visitors

import (
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/value"
)

// directedPlainly reports whether v's "$" keys, at any depth, are each the "$patch" of a map holding "replace",
// "delete" or "merge" and no other "$" key at any depth: strategicpatch's removeDirectives drops such maps where it
// takes a value whole (a field the schema does not declare, over another kind or nothing: undeclaredOver), and so does
// the collation with the outcome as live, which reads such a "$patch" without complaint (another value it refuses).
func directedPlainly(v value.Value) bool {
	switch {
	case v.IsList():
		for _, it := range v.Items() {
			if !directedPlainly(it) {
				return false
			}
		}
	case v.IsMap():
		if d, directed := v.Get(smp.DirectiveKey); directed {
			s, _ := d.AsString()
			return (s == smp.ReplaceValue || s == smp.DeleteValue || s == smp.MergeValue) &&
				!holdsDirective(v.Without(smp.DirectiveKey))
		}
		for _, f := range v.Fields() {
			if strings.HasPrefix(f.Key, "$") || !directedPlainly(f.Value) {
				return false
			}
		}
	}
	return true
}
