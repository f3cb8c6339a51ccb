package engine

import (
	"errors"
	"sync"

	"k8s.io/apimachinery/pkg/util/mergepatch"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/value"
)

// Options choose ply's behaviour; the zero value (every feature gate off) gives strategicpatch's results.
type Options struct {
	// Gates switch ply's departures from strategicpatch (features.Gates{}: all on); nil is features.Kubectl(), every
	// gate off.
	Gates *features.Gates
}

// gates are the engine's gates for o. A schema read from a LookupPatchMeta is a kubectl view already (the patch
// strategy and a one-field merge key taken verbatim, no list or map types, no key defaults): its types are built so
// (openapi.KubectlBuilt), and the view of them gate MultiFieldMergeKeys off asks for is themselves.
func (o Options) gates() features.Gates {
	if o.Gates != nil {
		return *o.Gates
	}
	return features.Kubectl()
}

// applying returns the options of applying a patch under s, a call's one-type schema (nil for Compose, which reads
// only Gates and OtherKindsAtomic): a value of a kind the schema rules out is taken whole, as strategicpatch takes a
// value paired with one of another kind.
func (o Options) applying(s *openapi.Schema) patch.Options {
	return patch.Options{Schema: s, TypeName: rootName, Gates: o.gates(), OtherKindsAtomic: true}
}

// creating returns the options of creating a patch under s, a call's one-type schema, values of a kind the schema
// rules out taken whole as in applying; overwrite as patchgen.Options.Overwrite (false for a two-way patch, as its zero value).
func (o Options) creating(s *openapi.Schema, overwrite bool) patchgen.Options {
	return patchgen.Options{Schema: s, TypeName: rootName, Gates: o.gates(), OtherKindsAtomic: true, Overwrite: overwrite}
}

// rootName names the root type in the one-type schema of a call.
const rootName = "root"

// schemaOf builds the schema of one call: the type of docs under l, named rootName.
func schemaOf(l Lookup, m mode, docs ...value.Value) (*openapi.Schema, *openapi.Type, error) {
	t, stable, err := typeOf(l, m, docs...)
	if err != nil {
		return nil, nil, err
	}
	return schemaOfType(t, stable), t, nil
}

// schemas holds the one-type schema of each kept root type (see Types), *openapi.Type keys.
var schemas sync.Map

// Apply returns original patched by p (StrategicMergeMapPatchUsingLookupPatchMeta).
func (o Options) Apply(original, p value.Value, l Lookup) (value.Value, error) {
	s, _, err := schemaOf(l, merging, original, p)
	if err != nil {
		return value.Value{}, err
	}
	out, err := patch.Apply(original, p, o.applying(s))
	if err != nil {
		return value.Value{}, o.applyError(err, s, original, p)
	}
	return out, nil
}

// applyReused is Apply under s, the schema schemaOf builds for original and p, its result built in memory later calls
// reuse (patch.ApplyReused): valid until release, which the caller calls once it has encoded or converted the result
// (on an error, release is nil and the error Apply's, made again).
func (o Options) applyReused(s *openapi.Schema, original, p value.Value) (out value.Value, release func(), err error) {
	return o.applyReusedAt(s, original, p, 0)
}

// applyReusedAt is applyReused on documents found depth levels down the caller's (see applySpine): the patch may nest
// depth levels less than parse.DefaultMaxDepth.
func (o Options) applyReusedAt(s *openapi.Schema, original, p value.Value, depth int) (out value.Value, release func(), err error) {
	opts := o.applying(s)
	opts.MaxDepth = parse.DefaultMaxDepth - depth
	out, release, err = patch.ApplyReused(original, p, opts)
	if err != nil {
		return value.Value{}, nil, o.applyError(err, s, original, p)
	}
	return out, release, nil
}

// applyError is the error of applying p to original under s as strategicpatch words it (asAPIMachinery; a null merge
// key merging into an item of its key: nullKeyMerged, which applies again).
func (o Options) applyError(err error, s *openapi.Schema, original, p value.Value) error {
	in := docs{elements.Live: original, elements.Patch: p}
	again := func(live, p value.Value) (value.Value, error) { return patch.Apply(live, p, o.applying(s)) }
	if merged, ok := nullKeyMerged(err, in, again); ok {
		return merged
	}
	return asAPIMachinery(err, in)
}

// applyJSON is Apply's result as JSON text, encoded before its memory is released (applyReused).
func (o Options) applyJSON(original, p value.Value, l Lookup) ([]byte, error) {
	s, _, err := schemaOf(l, merging, original, p)
	if err != nil {
		return nil, err
	}
	out, release, err := o.applyReused(s, original, p)
	if err != nil {
		return nil, err
	}
	defer release()
	return out.JSON(), nil
}

// Compose merges patches in turn into {}, as MergeStrategicMergeMapPatchUsingLookupPatchMeta (nulls and directives
// kept).
func (o Options) Compose(l Lookup, patches ...value.Value) (value.Value, error) {
	merged := value.MustMap()
	for _, p := range patches {
		_, t, err := schemaOf(l, composing, merged, p)
		if err != nil {
			return value.Value{}, err
		}
		next, err := patch.ComposeOptions(merged, p, t, o.applying(nil))
		if err != nil {
			return value.Value{}, asAPIMachinery(err, docs{elements.Live: merged, elements.Patch: p})
		}
		merged = next
	}
	return merged, nil
}

// TwoWay returns the patch original -> modified (CreateTwoWayMergeMapPatchUsingLookupPatchMeta), checked by fns.
func (o Options) TwoWay(original, modified value.Value, l Lookup, fns ...mergepatch.PreconditionFunc) (value.Value, error) {
	s, _, err := schemaOf(l, o.diffMode(diffing), original, modified)
	if err != nil {
		return value.Value{}, err
	}
	p, err := patchgen.TwoWay(original, modified, o.creating(s, false))
	if err != nil {
		return value.Value{}, diffError(err, docs{elements.Recorded: original, elements.Local: modified}, diffPair{original, modified})
	}
	return p, preconditions(p, fns)
}

// ThreeWay returns kubectl apply's patch (CreateThreeWayMergePatch), checked by fns; unless overwrite, changes of
// current since original that the patch overwrites are a mergepatch.ErrConflict.
func (o Options) ThreeWay(original, modified, current value.Value, l Lookup, overwrite bool, fns ...mergepatch.PreconditionFunc) (value.Value, error) {
	s, _, err := schemaOf(l, o.diffMode(threeWayMode(overwrite)), original, modified, current)
	if err != nil {
		return value.Value{}, err
	}
	in := docs{elements.Recorded: original, elements.Local: modified, elements.Live: current}
	// (strategicpatch diffs current against modified, then original against modified.)
	pairs := []diffPair{{current, modified}, {original, modified}}
	opts := o.creating(s, overwrite)
	p, err := patchgen.ThreeWay(original, modified, current, opts)
	var conflict *apply.ConflictError
	found := errors.As(err, &conflict)
	checkFails := !overwrite && checkFailed(err)
	if !found && !checkFails {
		if err != nil {
			return value.Value{}, diffError(err, in, pairs...)
		}
		if err := preconditions(p, fns); err != nil || overwrite || !holdsOrderKey(original) && !holdsOrderKey(current) {
			return p, err
		}
	} else {
		// strategicpatch checks the preconditions first.
		opts.Overwrite = true
		if p, err = patchgen.ThreeWay(original, modified, current, opts); err != nil {
			return value.Value{}, diffError(err, in, pairs...)
		}
		if err := preconditions(p, fns); err != nil {
			return value.Value{}, err
		}
	}
	changes := o.creating(s, false)
	changes.WithoutOrders = true
	cv, err := patchgen.TwoWay(original, current, changes)
	if err != nil {
		return value.Value{}, diffError(err, in, diffPair{original, current})
	}
	return checkedAsStrategicpatch(p, cv, l, found, checkFails || holdsOrderKey(cv))
}

// checkedAsStrategicpatch is three-way patch p, not overwriting current's changes cv, where ply's conflict check found
// a conflict (found) or not. strategicpatch's check (its walk of the two patches, ConflictingMaps) fails where it looks
// up a field the schema does not declare, or a "$setElementOrder/<f>" key cv holds as data, or compares lists it cannot
// compare, unless a conflict it meets first (in Go's map order) ends it: ply's walk returns such a failure where no
// conflict is there to meet (seek), and decides instead of ply's check where walk: where ply's check fails at a list of
// the patch holding an item without identity (checkFailed), or where cv holds such a key. A conflict names the patch
// and current's changes.
func checkedAsStrategicpatch(p, cv value.Value, l Lookup, found, walk bool) (value.Value, error) {
	pm, cm := toMap(p), toMap(cv)
	w := conflictWalk{seek: true}
	walked, _ := w.conflicting(pm, cm, l, "", "", 0)
	if !walked && w.err != nil {
		return value.Value{}, w.err
	}
	if walk {
		found = walked
	}
	if !found {
		return p, nil
	}
	return value.Value{}, mergepatch.NewErrConflict(mergepatch.ToYAMLOrError(pm), mergepatch.ToYAMLOrError(cm))
}

// checkFailed reports whether err is the error of ply's conflict check (patchgen.ThreeWay, not overwriting) at a list
// of the three-way patch holding an item without identity, local's list taken whole where no source held items there
// (delta.Check): one blaming local with smp.MergeKeyNotScalar's message, which the diffs give recorded and live alone,
// or where the patch and current's changes hold empty lists at one field (smp.EmptyListsMsg).
func checkFailed(err error) bool {
	ee, ok := asElementsError(err)
	if !ok || ee.Source != elements.Local {
		return false
	}
	_, ok = smp.ReadMergeKeyNotScalar(ee.Msg)
	return ok || ee.Msg == smp.EmptyListsMsg
}

// diffMode is mode m (diffing or overwriting) with the documents' directive keys as data where the patch producer reads
// them so (gate MultiFieldMergeKeys off: collate.Options.KubectlDiffs).
func (o Options) diffMode(m mode) mode {
	if o.gates().Enabled(features.MultiFieldMergeKeys) {
		return m
	}
	return m | keysAsData
}

// threeWayMode is the mode of the schema of a three-way patch: overwriting current's changes, strategicpatch compares
// no more than modified with the others.
func threeWayMode(overwrite bool) mode {
	if overwrite {
		return overwriting
	}
	return diffing
}

// threeWayJSON is ThreeWay's patch as JSON text, built in memory later calls reuse (patchgen.ThreeWayReused), released
// once encoded and checked by fns (preconditions copies what an error names); an error is ThreeWay's, made again, and
// so is the patch not overwriting where original or current holds a "$setElementOrder/" key, which strategicpatch's
// conflict check reads as data (checkedAsStrategicpatch). They are looked for only where orderKeys (their text may
// hold one: orderKeyText).
func (o Options) threeWayJSON(original, modified, current value.Value, l Lookup, overwrite, orderKeys bool, fns []mergepatch.PreconditionFunc) ([]byte, error) {
	s, _, err := schemaOf(l, o.diffMode(threeWayMode(overwrite)), original, modified, current)
	if err != nil {
		return nil, err
	}
	opts := o.creating(s, overwrite)
	p, release, err := patchgen.ThreeWayReused(original, modified, current, opts)
	if err != nil || !overwrite && orderKeys && (holdsOrderKey(original) || holdsOrderKey(current)) {
		if err == nil {
			release()
		}
		p, err := o.ThreeWay(original, modified, current, l, overwrite, fns...)
		if err != nil {
			return nil, err
		}
		return p.JSON(), nil
	}
	defer release()
	if err := preconditions(p, fns); err != nil {
		return nil, err
	}
	return p.JSON(), nil
}

// preconditions checks patch p against fns as strategicpatch does: the first that fails is a
// mergepatch.ErrPreconditionFailed naming the patch.
func preconditions(p value.Value, fns []mergepatch.PreconditionFunc) error {
	if len(fns) == 0 {
		return nil
	}
	m := toMap(p)
	for _, fn := range fns {
		if !fn(m) {
			return mergepatch.NewErrPreconditionFailed(m)
		}
	}
	return nil
}
