package patchgen

import (
	"github.com/plyproject/ply/internal/collate"
	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// Options control patch creation.
type Options struct {
	// Schema resolves the type of the objects; nil means openapi.Default().
	Schema *openapi.Schema
	// TypeName names the root definition; empty means resolve it from
	// modified's apiVersion and kind. A kind the schema lacks (or an object
	// without kind) is diffed without schema: maps merge, lists are
	// replaced whole, as strategicpatch does with no merge metadata.
	TypeName string
	// Overwrite lets ThreeWay overwrite changes the server made to fields
	// modified sets; false makes such conflicts an *apply.ConflictError.
	Overwrite bool
}

// TwoWay returns the strategic merge patch from original to modified in
// the form kubectl sends (strategicpatch.CreateTwoWayMergePatch): changed
// and added fields, null for removed ones, merged lists of maps as their
// changed and added items plus a $patch: delete item per removed one with a
// $setElementOrder/<field> parallel list of local's keys, merged sets as
// their added values with $deleteFromPrimitiveList/<field> and
// $setElementOrder/<field>, and $retainKeys on maps whose strategy has
// retainKeys. No change gives the empty object {}. original may be
// value.Null (nothing yet); modified must be an object.
//
// Errors are *elements.Error naming the source (Recorded for original,
// Local for modified) and the field path.
func TwoWay(original, modified value.Value, opts Options) (value.Value, error) {
	root, err := collate.RootType(opts.Schema, opts.TypeName, collate.Candidate{Object: modified, Source: elements.Local})
	if err != nil {
		return value.Value{}, err
	}
	return TwoWayType(original, modified, root)
}

// TwoWayType is TwoWay with the root type given (openapi.Unknown or nil: no
// schema).
func TwoWayType(original, modified value.Value, root *openapi.Type) (value.Value, error) {
	vals, err := collate.RootValues(original, modified, value.Null)
	if err != nil {
		return value.Value{}, err
	}
	tree, err := collate.Collate(vals, root)
	if err != nil {
		return value.Value{}, err
	}
	p, ok, err := delta.Patch(tree, delta.TwoWay)
	if err != nil {
		return value.Value{}, err
	}
	return orEmpty(p, ok), nil
}

// ThreeWay returns the patch kubectl apply sends
// (strategicpatch.CreateThreeWayMergePatch(original, modified, current)):
// the delta from current to modified (additions and changes) combined with
// the deletions from original to modified (delta.ThreeWay). original
// is the last applied configuration (value.Null on a first apply), current
// the live object (value.Null when it does not exist).
//
// With Overwrite false, changes the server made that the patch would
// overwrite give an *apply.ConflictError listing every conflicting path,
// exactly when strategicpatch reports a conflict (delta.Check: the rule
// apply.Merge applies too); the recorded->live patch it compares with
// must be made then, so a live or recorded item it cannot name (without
// its merge key) is an error. Bad input gives an *elements.Error naming
// the source (Recorded, Local, Live) and the path.
func ThreeWay(original, modified, current value.Value, opts Options) (value.Value, error) {
	root, err := collate.RootType(opts.Schema, opts.TypeName, collate.Candidate{Object: modified, Source: elements.Local})
	if err != nil {
		return value.Value{}, err
	}
	return ThreeWayType(original, modified, current, root, opts.Overwrite)
}

// ThreeWayType is ThreeWay with the root type given (openapi.Unknown or
// nil: no schema).
func ThreeWayType(original, modified, current value.Value, root *openapi.Type, overwrite bool) (value.Value, error) {
	if root == nil {
		root = openapi.Unknown
	}
	vals, err := collate.RootValues(original, modified, current)
	if err != nil {
		return value.Value{}, err
	}
	tree, err := collate.Collate(vals, root)
	if err != nil {
		return value.Value{}, err
	}
	p, ok, err := delta.ThreeWay(tree)
	if err != nil {
		return value.Value{}, err
	}
	if !overwrite {
		if err := delta.Check(tree, p, ok); err != nil {
			return value.Value{}, err
		}
	}
	return orEmpty(p, ok), nil
}

func orEmpty(v value.Value, ok bool) value.Value {
	if !ok {
		return value.MapFromSorted(nil)
	}
	return v
}
