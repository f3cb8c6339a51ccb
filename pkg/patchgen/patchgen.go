package patchgen

import (
	"github.com/plyproject/ply/internal/collate"
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/internal/frontend"
	"github.com/plyproject/ply/internal/smp"
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
	// modified sets; false makes such conflicts an *smp.ConflictError.
	Overwrite bool
	// Gates switch ply's deliberate departures from strategicpatch; the
	// zero value has all on, features.Kubectl() all off. Patch creation
	// reads MultiFieldMergeKeys: off, the schema is read as strategicpatch
	// reads it (openapi.Schema.Kubectl: only the patch strategy and merge
	// key count, the key is one field name and no default fills it), so
	// the patch is the one kubectl sends. SetOfMaps (see package features)
	// concerns how lists are diffed; list order (SeedOrdering) and
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
	return TwoWayType(original, modified, root)
}

// TwoWayType is TwoWay with the root type given (openapi.Unknown or nil: no
// schema).
func TwoWayType(original, modified value.Value, root *openapi.Type) (value.Value, error) {
	vals, err := collate.RootValues(original, modified, value.Null)
	if err != nil {
		return value.Value{}, err
	}
	tree, err := collate.Collate(vals, root, collate.Options{})
	if err != nil {
		return value.Value{}, err
	}
	d := &diff{from: elements.Recorded, changes: true, deletions: true, blame: elements.Recorded}
	o, _, err := d.patch(tree)
	if err != nil {
		return value.Value{}, err
	}
	return orEmpty(o.Value, o.Present), nil
}

// ThreeWay returns the patch kubectl apply sends
// (strategicpatch.CreateThreeWayMergePatch(original, modified, current)):
// the delta from current to modified (additions and changes) combined with
// the deletions from original to modified (smp.CombineThreeWay). original
// is the last applied configuration (value.Null on a first apply), current
// the live object (value.Null when it does not exist).
//
// With Overwrite false, changes the server made that the patch would
// overwrite give an *smp.ConflictError listing every conflicting path,
// exactly when strategicpatch reports a conflict. Bad input gives an
// *elements.Error naming the source (Recorded, Local, Live) and the path.
func ThreeWay(original, modified, current value.Value, opts Options) (value.Value, error) {
	root, err := rootType(opts, modified, original, current)
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
	tree, err := collate.Collate(vals, root, collate.Options{})
	if err != nil {
		return value.Value{}, err
	}
	dels := &diff{from: elements.Recorded, deletions: true, blame: elements.Recorded}
	do, _, err := dels.patch(tree)
	if err != nil {
		return value.Value{}, err
	}
	delta := &diff{from: elements.Live, changes: true, blame: elements.Live}
	po, _, err := delta.patch(tree)
	if err != nil {
		return value.Value{}, err
	}
	p, ok := smp.CombineThreeWay(do.Value, do.Present, po.Value, po.Present, modified, root)
	if !overwrite {
		if conflicts := smp.Conflicts(tree); len(conflicts) > 0 {
			return value.Value{}, &smp.ConflictError{Conflicts: conflicts}
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
