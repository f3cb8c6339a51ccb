// Package patchgen creates strategic merge patches in the form kubectl sends them: TwoWay
// (strategicpatch.CreateTwoWayMergePatch) and ThreeWay (strategicpatch.CreateThreeWayMergePatch, kubectl
// apply's patch). It collates the objects into one tree (original = Recorded, modified = Local, current =
// Live) and has internal/delta make the patch (conflicts by kubectl's rule, delta.Check) in linear time.
//
// The output equals strategicpatch's JSON byte for byte where both are defined (same keys, list order and
// directive placement):
//
//   - $setElementOrder/<list> carries local's keys (lists of maps) or local's list (sets); it is sent when
//     the list has entries, and, for changes, when from's key order differs from local's (lists of maps)
//     or from's list sorted differs from local's (sets). A list with no items in from is sent whole,
//     without it.
//   - Items of a merged list: changed items (their patch plus merge key) and new items (whole) in local's
//     order, then $patch: delete items ordered by the rendering of their key.
//   - $deleteFromPrimitiveList/<set> lists the removed values ordered by their rendering; $retainKeys
//     lists local's non-null fields sorted, and is sent when the map's patch is not empty or from has a
//     non-null field local lacks.
//   - Fields with strategy replace are sent whole whenever modified sets a map there; atomic lists and
//     scalars when changed.
//
// Every field the patch sets and every deletion is explicit, so a server that ignores $setElementOrder and
// $retainKeys still reaches modified's fields (design 001).
//
// Where ply differs on purpose: multi-field merge keys (containerPort, protocol) identify items by the whole
// tuple, so $setElementOrder entries and delete items carry every key field (one an item leaves out filled
// from the schema's default), while patch items carry only the key fields local writes (one local no longer
// writes is null). Applying a three-way patch thus gives what apply.Merge gives. Inputs strategicpatch
// rejects (merged list items not objects or without their key, non-scalar set items) are errors.
package patchgen

import (
	"github.com/plyproject/ply/internal/collate"
	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/internal/frontend"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
)

// Options control patch creation.
type Options struct {
	// Schema resolves the type of the objects; nil means openapi.Default().
	Schema *openapi.Schema
	// TypeName names the root definition; empty means modified's apiVersion and kind, which original and
	// current must carry too unless null (else an *elements.Error naming the object). A kind the schema
	// lacks is diffed without schema: maps merge, lists are replaced whole.
	TypeName string
	// Overwrite lets ThreeWay overwrite changes the server made to fields modified sets; false makes such
	// conflicts an *apply.ConflictError.
	Overwrite bool
	// Gates switch ply's departures from strategicpatch (zero value: all on). Patch creation reads
	// MultiFieldMergeKeys (off: the schema's kubectl view, so the patch is the one kubectl sends) and
	// SetOfMaps (off: a set of maps is sent whole).
	Gates features.Gates
}

// TwoWay returns the patch original->modified as kubectl sends it (strategicpatch.CreateTwoWayMergePatch);
// no change gives {}. original may be value.Null (nothing yet); modified must be an object.
//
// Errors are *elements.Error naming the source (Recorded for original, Local for modified) and the path.
func TwoWay(original, modified value.Value, opts Options) (value.Value, error) {
	return resolve(original, modified, value.Null, opts, false)
}

// TwoWayType is TwoWay with the root type given (openapi.Unknown or nil: no schema) and every gate on.
func TwoWayType(original, modified value.Value, root *openapi.Type) (value.Value, error) {
	return create(original, modified, value.Null, root, Options{}, false)
}

// ThreeWay returns the patch kubectl apply sends (strategicpatch.CreateThreeWayMergePatch): the delta from
// current to modified (additions and changes) plus the deletions from original to modified. original is the
// last applied configuration (value.Null on a first apply), current the live object (value.Null if none).
//
// With Overwrite false, changes the server made that the patch would overwrite give an *apply.ConflictError
// listing every conflicting path, exactly when strategicpatch reports a conflict (delta.Check, as
// apply.Merge); a live or recorded item the recorded->live patch cannot name (without its merge key) is an
// error then. Bad input gives an *elements.Error naming the source (Recorded, Local, Live) and the path.
func ThreeWay(original, modified, current value.Value, opts Options) (value.Value, error) {
	return resolve(original, modified, current, opts, true)
}

// ThreeWayType is ThreeWay with the root type given (openapi.Unknown or nil: no schema) and every gate on.
func ThreeWayType(original, modified, current value.Value, root *openapi.Type, overwrite bool) (value.Value, error) {
	return create(original, modified, current, root, Options{Overwrite: overwrite}, true)
}

// create collates the objects and makes the three-way patch (checking conflicts unless opts.Overwrite) or,
// threeWay false, the two-way one.
func create(original, modified, current value.Value, root *openapi.Type, opts Options, threeWay bool) (value.Value, error) {
	vals, err := collate.RootValues(original, modified, current)
	if err != nil {
		return value.Value{}, err
	}
	tree, err := collate.Collate(vals, root, collate.Options{Gates: opts.Gates})
	if err != nil {
		return value.Value{}, err
	}
	var p value.Value
	var ok bool
	if threeWay {
		p, ok, err = delta.ThreeWay(tree, opts.Gates, patch.Compose)
		if err == nil && !opts.Overwrite {
			err = delta.Check(tree, p, ok, opts.Gates)
		}
	} else {
		p, ok, err = delta.Patch(tree, delta.TwoWay, opts.Gates)
	}
	if err != nil {
		return value.Value{}, err
	}
	if !ok {
		return value.MapFromSorted(nil), nil
	}
	return p, nil
}

// resolve is create with the root type by frontend.RootType: modified's, which non-null others must carry.
func resolve(original, modified, current value.Value, opts Options, threeWay bool) (value.Value, error) {
	root, err := frontend.RootType(opts.Schema, opts.TypeName, opts.Gates, frontend.Object{Value: modified, Source: elements.Local},
		frontend.Object{Value: original, Source: elements.Recorded}, frontend.Object{Value: current, Source: elements.Live})
	if err != nil {
		return value.Value{}, err
	}
	return create(original, modified, current, root, opts, threeWay)
}
