package visitors

import (
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// deletedFailure returns the error a collation of apply mode's patch map pm (type t) with the outcome as live gives at
// list field name, which pm deletes from by "$deleteFromPrimitiveList" alone (neither setting nor ordering it): the
// field a list of scalars the schema types so, no merge rule, no set of maps, the values deleted a list, the collation
// checks them as format.CheckDirs does. Whatever lv, the outcome's field there (held: present), it refuses values of
// mixed classes or not scalars (refusedValues; strategicpatch reads none of them where lv is no list with items, and
// fails on them where it is); where lv is a list with items, it checks them against lv's items too
// (smp.DeletesFromClass: live's items of mixed classes or objects, classes the two differ in), where strategicpatch's
// mergeSlice fails too (its element types differ, or it finds maps and no merge key). Nil elsewhere.
func deletedFailure(pm value.Value, t *openapi.Type, name string, lv value.Value, held bool) *elements.Error {
	ft, meta := t.Child(name)
	deleted, _ := pm.Get(smp.DeletePrefix + name)
	_, set := pm.Get(name)
	_, ordered := pm.Get(smp.SetOrderPrefix + name)
	if set || ordered || ft.Kind != openapi.KindList || ft.Item().Kind != openapi.KindPrimitive || meta.Rule != nil ||
		elements.SetOfMaps(ft, &meta) || !deleted.IsList() {
		return nil
	}
	dir, del := smp.DeletePrefix+name, deleted.Items()
	at := fieldpath.Path{fieldpath.Field(name)}
	if msg := refusedValues(dir, del); msg != "" {
		return &elements.Error{Source: elements.Patch, Path: at, Msg: msg}
	} else if !held || !lv.IsList() || lv.Len() == 0 {
		return nil
	}
	dc, _ := smp.ItemClass(del)
	switch baseMsg, fromBase := smp.DeletesFromClass(dir, dc, lv.Items(), false); {
	case fromBase:
		return &elements.Error{Source: elements.Live, Path: at, Msg: baseMsg}
	case baseMsg != "":
		return &elements.Error{Source: elements.Patch, Path: at, Msg: baseMsg}
	}
	return nil
}

// refusedValues is the collation's message refusing del, the values "$deleteFromPrimitiveList" dir deletes from a list
// of scalars, whatever the list holds (format.CheckDirs): values of mixed classes, or not scalars; "" where it accepts
// them.
func refusedValues(dir string, del []value.Value) string {
	dc, msg := smp.ItemClass(del)
	switch {
	case msg != "":
		return dir + ": " + msg
	case len(del) > 0 && (dc < value.KindBool || dc > value.KindString):
		return dir + ": the values to delete must be scalars, got " + smp.ClassName(dc)
	}
	return ""
}
