package visitors

import (
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// nullOrdered returns the error a collation of apply mode's patch map p (type t) with the outcome as live gives at
// field name, which p orders by "$setElementOrder" (a list), where lv, the outcome's field there, is a null (held): the
// field no field of a merge rule, p's value there a list or left out, no "$deleteFromPrimitiveList" beside it, the
// collation refuses the order for live's null (smp.OrderOfLive), whether the schema merges the list or not;
// strategicpatch's mergePatchIntoOriginal fails there too (live's nil is no []interface{}). Nil elsewhere.
func nullOrdered(p value.Value, t *openapi.Type, name string, lv value.Value, held bool) *elements.Error {
	f := orderedFieldOf(p, t, name)
	if !held || !lv.IsNull() || f.meta.Rule != nil || !f.order.IsList() || (f.set && !f.list.IsList()) || f.deletes {
		return nil
	}
	return &elements.Error{Source: elements.Live, Path: fieldpath.Path{fieldpath.Field(name)},
		Msg: smp.OrderOfLive(name, value.KindNull)}
}
