package patchgen

import (
	"github.com/plyproject/ply/internal/collate"
	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/internal/frontend"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/value"
)

// Options control patch creation.
type Options struct {
	// Schema resolves the type of the objects; nil means openapi.Default().
	Schema *openapi.Schema
	// TypeName names the root definition; empty means resolve it from
	// modified's apiVersion and kind, which original and current must
	// carry too unless null: an object lacking either is an
	// *elements.Error naming it. A kind the schema lacks is diffed without
	// schema: maps merge, lists are replaced whole, as strategicpatch does
	// with no merge metadata.
	TypeName string
	// Overwrite lets ThreeWay overwrite changes the server made to fields
	// modified sets; false makes such conflicts an *apply.ConflictError.
	Overwrite bool
	// Gates switch ply's deliberate departures from strategicpatch; the
	// zero value has all on, features.Kubectl() all off. Patch creation
	// reads MultiFieldMergeKeys: off, the schema is read as strategicpatch
	// reads it (openapi.Schema.Kubectl: only the patch strategy and merge
	// key count, the key is one field name and no default fills it), so
	// the patch is the one kubectl sends. SetOfMaps: off, a set of maps is
	// sent whole, as a list without merge strategy; list order (SeedOrdering) and
	// "$patch: delete" on maps (PatchDeleteRemovesMap) concern applying
	// patches, not creating them.
	Gates features.Gates
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
	root, err := rootType(opts, modified, original, value.Null)
	if err != nil {
		return value.Value{}, err
	}
	return twoWay(original, modified, root, opts.Gates)
}

// TwoWayType is TwoWay with the root type given (openapi.Unknown or nil: no
// schema) and every gate on.
func TwoWayType(original, modified value.Value, root *openapi.Type) (value.Value, error) {
	return twoWay(original, modified, root, features.Gates{})
}

func twoWay(original, modified value.Value, root *openapi.Type, gates features.Gates) (value.Value, error) {
	vals, err := collate.RootValues(original, modified, value.Null)
	if err != nil {
		return value.Value{}, err
	}
	tree, err := collate.Collate(vals, root, collate.Options{Gates: gates})
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
	root, err := rootType(opts, modified, original, current)
	if err != nil {
		return value.Value{}, err
	}
	return threeWay(original, modified, current, root, opts.Overwrite, opts.Gates)
}

// ThreeWayType is ThreeWay with the root type given (openapi.Unknown or
// nil: no schema) and every gate on.
func ThreeWayType(original, modified, current value.Value, root *openapi.Type, overwrite bool) (value.Value, error) {
	return threeWay(original, modified, current, root, overwrite, features.Gates{})
}

func threeWay(original, modified, current value.Value, root *openapi.Type, overwrite bool, gates features.Gates) (value.Value, error) {
	vals, err := collate.RootValues(original, modified, current)
	if err != nil {
		return value.Value{}, err
	}
	tree, err := collate.Collate(vals, root, collate.Options{Gates: gates})
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

// rootType resolves the type of the objects (frontend.RootType):
// modified's, which original and current, unless null, must carry too.
// Errors name original as Recorded, modified as Local, current as Live.
func rootType(opts Options, modified, original, current value.Value) (*openapi.Type, error) {
	return frontend.RootType(opts.Schema, opts.TypeName, opts.Gates, frontend.Object{Value: modified, Source: elements.Local},
		frontend.Object{Value: original, Source: elements.Recorded}, frontend.Object{Value: current, Source: elements.Live})
}

func orEmpty(v value.Value, ok bool) value.Value {
	if !ok {
		return value.MapFromSorted(nil)
	}
	return v
}
