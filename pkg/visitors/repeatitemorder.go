package visitors

import (
	"slices"
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// itemOrderFailure returns the error a collation of apply mode's patch map with the outcome as live gives at its field
// f (of type t), a list the schema merges by one key (no merge rule) whose items are maps each holding the key as a
// scalar, each key once, where lv, the outcome's field there (held: present), is a list or absent: the one item holding
// "$" keys, its only one a "$setElementOrder/<g>" of a merged list that neither it nor lv's first item of its key holds
// items of (orderWithoutItems), or that lv's item holds as a null (nullOrdered), or a "$deleteFromPrimitiveList/<g>"
// of values the collation refuses against lv's item's list (deletedFailure), fails there, as the collation reads
// the item's map merged into lv's item (strategicpatch's mergeMap fails there too), or appended (which strategicpatch
// copies unchecked: docs/strategicpatch.md, "What stays different"). The list less that order and its list must merge
// as mergedListOnto merges it, so that no item before it, nor the item's fields, fail first. Nil elsewhere.
func itemOrderFailure(t *openapi.Type, f value.Field, lv value.Value, held bool) *elements.Error {
	ft, meta := t.Child(f.Key)
	key := soleMergeKey(&meta)
	if key == "" || meta.Rule != nil || !f.Value.IsList() || !elements.MergedList(ft, &meta) || (held && !lv.IsList()) {
		return nil
	}
	var failure *elements.Error
	rest := slices.Clone(f.Value.Items())
	seen := map[value.ScalarKey]bool{}
	for i, it := range f.Value.Items() {
		k, keyed := it.Get(key)
		if !it.IsMap() || !keyed || !k.IsScalar() || seen[scalarKey(k)] {
			return nil
		}
		seen[scalarKey(k)] = true
		if !holdsDirective(it) {
			continue
		}
		e, without := orderedItemFailure(it, ft.Item(), heldItem(lv, key, scalarKey(k)))
		if e == nil || failure != nil {
			return nil
		}
		failure = &elements.Error{Source: e.Source, Msg: e.Msg, Path: append(fieldpath.Path{fieldpath.Field(f.Key),
			fieldpath.Key(elements.KeyFields(it, []string{key}, ft.Item()))}, e.Path...)}
		rest[i] = without
	}
	if failure == nil {
		return nil
	} else if _, ok := mergedListOnto(ft, &meta, value.List(rest), lv, held, deleteUnknown); !ok {
		return nil
	}
	return failure
}

// orderedItemFailure returns, for item it (a map of type t) of a keyed patch list holding one "$" key alone, a
// "$setElementOrder/<g>" or a "$deleteFromPrimitiveList/<g>", the error a collation of it merged into li, the
// outcome's item of its key (absent: none), gives there (orderWithoutItems, nullOrdered; deletedFailure), and it less
// that key and its list g. Nil where it holds another "$" key or the key does not fail so.
func orderedItemFailure(it value.Value, t *openapi.Type, li value.Value) (*elements.Error, value.Value) {
	var dir string
	for _, f := range it.Fields() {
		if strings.HasPrefix(f.Key, "$") && (dir != "" || !(strings.HasPrefix(f.Key, smp.SetOrderPrefix) ||
			strings.HasPrefix(f.Key, smp.DeletePrefix))) {
			return nil, value.Value{}
		} else if strings.HasPrefix(f.Key, "$") {
			dir = f.Key
		}
	}
	name, deleting := strings.CutPrefix(dir, smp.DeletePrefix)
	name = strings.TrimPrefix(name, smp.SetOrderPrefix)
	without := it.Without(dir).Without(name)
	if dir == "" || holdsDirective(without) {
		return nil, value.Value{}
	}
	llv, lheld := value.Value{}, false
	if li.IsMap() {
		llv, lheld = li.Get(name)
	}
	if deleting {
		return deletedFailure(it, t, name, llv, lheld), without
	}
	e := orderWithoutItems(it, t, name, llv, lheld)
	if e == nil {
		e = nullOrdered(it, t, name, llv, lheld)
	}
	return e, without
}

// heldItem returns the first item of list lv (or nothing) whose merge key key is k: the item a patch item of that key
// merges into; absent where none is.
func heldItem(lv value.Value, key string, k value.ScalarKey) value.Value {
	keyOf := keyOfField(key)
	for _, it := range lv.Items() {
		if it.IsMap() && keyOf(it) == k {
			return it
		}
	}
	return value.Value{}
}

// deeperFailure returns the error a collation of a patch map with the outcome as live gives below its field f (of type
// t), a map merging field by field into lv, the outcome's map there (held), where one field g of f's map fails as
// mapFailure reads it merged into lv's field there (after f's "$retainKeys" clears lv's others: retainedOnto), at any
// depth, and f's map less g merges as mapOnto merges it: the collation walks f's map by name, meeting no error at its
// other fields, and strategicpatch, which merges f's map into lv's, fails at g too. Where several of f's fields fail
// so, the others merging, the error is the first's by name (firstByName), as the collation walks them; strategicpatch
// fails at one of them. Nil elsewhere.
func deeperFailure(t *openapi.Type, f value.Field, lv value.Value, held bool) *elements.Error {
	ft, meta := t.Child(f.Key)
	if !held || !lv.IsMap() || !f.Value.IsMap() || !fieldByField(ft, &meta) {
		return nil
	}
	cleared, ok := retainedOnto(f.Value, lv)
	if !ok {
		return nil
	}
	var failure *elements.Error
	rest := f.Value
	for _, g := range f.Value.Fields() {
		if strings.HasPrefix(g.Key, "$") {
			continue
		}
		llv, lheld := cleared.Get(g.Key)
		if e := mapFailure(ft, g, llv, lheld, false, true); e != nil {
			failure = firstByName(failure, e) // (the collation meets the first by name)
			rest = rest.Without(g.Key)
		}
	}
	if failure == nil {
		return nil
	} else if _, ok = mapOnto(rest, lv, ft, true, deleteUnknown); !ok {
		return nil
	}
	at := append(fieldpath.Path{fieldpath.Field(f.Key)}, failure.Path...)
	return &elements.Error{Source: failure.Source, Msg: failure.Msg, Path: at}
}
