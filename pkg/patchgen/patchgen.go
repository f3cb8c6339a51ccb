// Package patchgen creates strategic merge patches as kubectl sends them, in linear time: TwoWay as
// strategicpatch.CreateTwoWayMergePatch, ThreeWay as CreateThreeWayMergePatch (kubectl apply's patch). The output
// equals strategicpatch's JSON byte for byte where both are defined, every field set and every deletion explicit, so a
// server that ignores $setElementOrder and $retainKeys still reaches modified's fields (design 001):
//   - $setElementOrder/<list> carries local's keys (sets: local's list); it is sent if the list has entries and, for
//     changes, if from's key order (sets: sorted list) differs; a list empty in from is sent whole, without it.
//   - Merged list items: changed items (their patch plus merge key) and new items (whole) in local's order, then
//     $patch: delete items ordered by their key's rendering.
//   - $deleteFromPrimitiveList/<set> lists the removed values ordered by rendering; $retainKeys lists local's non-null
//     fields sorted, sent when the map's patch is not empty or from has a non-null field local lacks.
//   - Strategy-replace fields are sent whole whenever modified sets a map there; atomic lists and scalars if changed.
//
// Where ply differs on purpose: multi-field merge keys (containerPort, protocol) identify items by the whole tuple, so
// $setElementOrder entries and delete items carry every key field (one left out: its schema default), patch items only
// those local writes (one it no longer writes is null); applying a three-way patch thus gives apply.Merge's result.
// Inputs strategicpatch rejects (merged list items not objects or keyless, non-scalar set items) are errors; so are
// the keyed lists holding such items that strategicpatch reads by their items' kinds, unless gate MultiFieldMergeKeys
// is off: then a keyed list holding an item without identity where neither original nor current holds items is
// modified's as it stands (strategicpatch's diffs pair no items there), one holding scalars where they hold scalars of
// the same kind is diffed as a set of scalars, and the patch fails where strategicpatch's does: not overwriting, where
// its conflict check compares such a list with current's changes holding a list there; three-way, where it merges its
// halves' maps holding a list of scalars the delta adds to (collate.Options.KubectlDiffs). With the gate off too,
// directive keys in local's maps are data, as strategicpatch's diffs read them (with it on, an error naming the path),
// and the three-way patch settles local's maps holding "$patch" as strategicpatch's merge of its halves does (dropped
// where the deletions half lacks the field, settled by the delta's directive where it holds a map or keyed list there:
// internal/delta), and not overwriting fails where such a list, emptied, meets live's empty list (kubectl's check:
// smp.EmptyListsMsg).
package patchgen

import (
	"sync"

	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/internal/frontend"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/secrets"
	"github.com/plyproject/ply/pkg/value"
)

// Options control patch creation.
type Options struct {
	// Schema resolves the type of the objects; nil means openapi.Default().
	Schema *openapi.Schema
	// TypeName names the root definition; empty: modified's apiVersion and kind, which non-null original and current
	// must share (else an *elements.Error naming the object). Kinds the schema lacks: maps merge, lists are replaced.
	TypeName string
	// Overwrite lets ThreeWay overwrite changes the server made to fields modified sets (false: *apply.ConflictError).
	Overwrite bool
	// Gates switch ply's departures from strategicpatch (zero value: all on). Patch creation reads MultiFieldMergeKeys
	// (off: the schema's kubectl view, so kubectl's patch, keyed lists read by their items' kinds as strategicpatch
	// reads them) and SetOfMaps (off: a set of maps is sent whole).
	Gates features.Gates
	// OtherKindsAtomic takes whole a value of modified of a kind the schema rules out, as strategicpatch takes a value
	// paired with one of another kind (collate.Options.OtherKindsAtomic); else such a value is an error.
	OtherKindsAtomic bool
	// WithoutOrders leaves out of a two-way patch the "$setElementOrder/<f>" directives, as strategicpatch's diff with
	// DiffOptions' SetElementOrder false (the changes kubectl's conflict check compares): a list's order is then no
	// change, and a "$setElementOrder/<f>" key a document holds is data like any other field. ThreeWay ignores it.
	WithoutOrders bool
}

// TwoWay returns the patch original->modified, {} for no change; original may be value.Null, modified must be an
// object. Errors are *elements.Error naming the path and source (Recorded: original, Local: modified).
func TwoWay(original, modified value.Value, opts Options) (value.Value, error) {
	return resolve(original, modified, value.Null, opts, false)
}

// TwoWayType is TwoWay with the root type given (openapi.Unknown or nil: no schema) and every gate on.
func TwoWayType(original, modified value.Value, root *openapi.Type) (value.Value, error) {
	return create(original, modified, value.Null, root, Options{}, false)
}

// ThreeWay returns kubectl apply's patch: the delta current->modified plus deletions original->modified; original (the
// last applied configuration) and current (the live object) may be value.Null. Unless Overwrite, an
// *apply.ConflictError lists every conflicting path, exactly when strategicpatch reports a conflict (delta.Check, as
// apply.Merge), and a live or recorded item without its merge key is an error. Bad input: an *elements.Error naming the
// path and source (Recorded, Local, Live).
func ThreeWay(original, modified, current value.Value, opts Options) (value.Value, error) {
	return resolve(original, modified, current, opts, true)
}

// ThreeWayReused is ThreeWay with the patch built in memory that later calls reuse, so that a caller encoding the
// patch (or converting it) pays no allocation for its maps and lists: the patch is valid until release is called,
// which the caller calls once it refers to it no more. An error refers to no such memory (release is then a no-op).
func ThreeWayReused(original, modified, current value.Value, opts Options) (p value.Value, release func(), err error) {
	mem := memories.Get().(*delta.Memory)
	done := func() {
		mem.Reset()
		memories.Put(mem)
	}
	if p, err = resolveIn(mem, original, modified, current, opts); err != nil {
		done() // (the error is made again in memory of its own: a conflict's values are the patch's)
		p, err = ThreeWay(original, modified, current, opts)
		return p, func() {}, err
	}
	return p, done, nil
}

// memories keeps the delta.Memory of released patches (ThreeWayReused) for the next ones.
var memories = sync.Pool{New: func() any { return new(delta.Memory) }}

// ThreeWayType is ThreeWay with the root type given (openapi.Unknown or nil: no schema) and every gate on.
func ThreeWayType(original, modified, current value.Value, root *openapi.Type, overwrite bool) (value.Value, error) {
	return create(original, modified, current, root, Options{Overwrite: overwrite}, true)
}

// create makes the patch, a three-way patch built in mem (nil: memory of its own).
func create(original, modified, current value.Value, root *openapi.Type, opts Options, threeWay bool) (value.Value, error) {
	return createIn(nil, original, modified, current, root, opts, threeWay)
}

func createIn(mem *delta.Memory, original, modified, current value.Value, root *openapi.Type, opts Options, threeWay bool) (value.Value, error) {
	vals, err := collate.RootValues(original, modified, current)
	if err != nil {
		return value.Value{}, err
	}
	check := threeWay && !opts.Overwrite
	tree, _, arena, err := collate.CountIn(vals, root, collate.Options{Gates: opts.Gates, Patches: true, Conflicts: check,
		OtherKindsAtomic: opts.OtherKindsAtomic, KubectlDiffs: !opts.Gates.Enabled(features.MultiFieldMergeKeys)})
	if err != nil {
		return value.Value{}, err
	}
	defer arena.Release() // (the patch and errors hold values and paths, never the tree)
	var p value.Value
	var ok bool
	if threeWay {
		if mem == nil {
			mem = &delta.Memory{}
		}
		p, ok, err = delta.ThreeWayIn(mem, tree, arena, opts.Gates, opts.Overwrite)
		err = secrets.MaskDirective(secrets.MaskConflicts(err, original, modified, current), original, modified, current)
	} else {
		mode := delta.TwoWay
		if opts.WithoutOrders {
			mode = delta.Changed
		}
		p, ok, err = delta.Patch(tree, arena, mode, opts.Gates)
	}
	if err != nil {
		return value.Value{}, err
	}
	if !ok {
		return value.MapFromSorted(nil), nil
	}
	return p, nil
}

func resolve(original, modified, current value.Value, opts Options, threeWay bool) (value.Value, error) {
	root, err := rootOf(original, modified, current, opts)
	if err != nil {
		return value.Value{}, err
	}
	return create(original, modified, current, root, opts, threeWay)
}

// resolveIn is resolve of a three-way patch built in mem.
func resolveIn(mem *delta.Memory, original, modified, current value.Value, opts Options) (value.Value, error) {
	root, err := rootOf(original, modified, current, opts)
	if err != nil {
		return value.Value{}, err
	}
	return createIn(mem, original, modified, current, root, opts, true)
}

// rootOf is the root type of the objects (Options.TypeName).
func rootOf(original, modified, current value.Value, opts Options) (*openapi.Type, error) {
	return frontend.RootType(opts.Schema, opts.TypeName, opts.Gates, frontend.Object{Value: modified, Source: elements.Local},
		frontend.Object{Value: original, Source: elements.Recorded}, frontend.Object{Value: current, Source: elements.Live})
}
