package visitors

import (
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// deletedFailure returns the error a collation of apply mode's patch map pm (type t) with the outcome as live gives at
// list field name, which pm deletes from by "$deleteFromPrimitiveList" alone (neither setting nor ordering it), where
// lv, the outcome's field there, is a list with items: the field a list of scalars the schema types so, no merge rule,
// no set of maps, the values deleted a list, the collation checks them against lv's items as format.CheckDirs does
// (smp.ItemClass, smp.DeletesFromClass: values of mixed classes, values not scalars, live's items of mixed classes or
// objects, classes the two differ in), where strategicpatch's mergeSlice fails too (its element types differ, or it
// finds maps and no merge key). Nil elsewhere.
func deletedFailure(pm value.Value, t *openapi.Type, name string, lv value.Value, held bool) *elements.Error {
	ft, meta := t.Child(name)
	deleted, _ := pm.Get(smp.DeletePrefix + name)
	_, set := pm.Get(name)
	_, ordered := pm.Get(smp.SetOrderPrefix + name)
	if set || ordered || ft.Kind != openapi.KindList || ft.Item().Kind != openapi.KindPrimitive || meta.Rule != nil ||
		elements.SetOfMaps(ft, &meta) || !deleted.IsList() || !held || !lv.IsList() || lv.Len() == 0 {
		return nil
	}
	dir, del := smp.DeletePrefix+name, deleted.Items()
	dc, msg := smp.ItemClass(del)
	at := fieldpath.Path{fieldpath.Field(name)}
	switch baseMsg, fromBase := smp.DeletesFromClass(dir, dc, lv.Items(), false); {
	case msg != "":
		return &elements.Error{Source: elements.Patch, Path: at, Msg: dir + ": " + msg}
	case len(del) > 0 && (dc < value.KindBool || dc > value.KindString):
		return &elements.Error{Source: elements.Patch, Path: at, Msg: dir + ": the values to delete must be scalars, got " +
			smp.ClassName(dc)}
	case fromBase:
		return &elements.Error{Source: elements.Live, Path: at, Msg: baseMsg}
	case baseMsg != "":
		return &elements.Error{Source: elements.Patch, Path: at, Msg: baseMsg}
	}
	return nil
}
