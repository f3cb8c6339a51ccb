// Package apply is ply's facade for programs that embed it: one call merges the recorded (last-applied), local and live
// objects of one Kubernetes resource the way kubectl apply means, returning the updated object and its changes to live.
//
//	res, err := apply.Merge(recorded, local, live, apply.DefaultOptions())
//
// Merge is safe for concurrent use; schemas are parsed once per process and shared. MergeBytes works on text and reuses
// its memory across calls, as a program merging values can with its own parse.Arena, reset once each result is encoded.
package apply

import (
	"strconv"

	"github.com/plyproject/ply/internal/changes"
	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/internal/frontend"
	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/secrets"
	"github.com/plyproject/ply/pkg/strategy"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/pkg/visitors"
)

// Ordering selects how items of merged lists are ordered in the result.
type Ordering = order.Ordering

const (
	// OrderingSeed is the design's order: live-only items first, in live's relative order, then local's, in its order.
	OrderingSeed = order.OrderSeed
	// OrderingKubectl is exactly kubectl's strategic merge patch order (it interleaves live-only items).
	OrderingKubectl = order.OrderKubectl
)

// ParseOrdering returns the Ordering named "seed" or "kubectl", or an error.
var ParseOrdering = order.ParseOrdering

// Options control a Merge. Use DefaultOptions and change what differs: the zero Options has Overwrite false.
type Options struct {
	// Schema resolves the types of the objects; nil means the embedded default schema.
	Schema *openapi.Schema
	// TypeName names the root definition; empty means local's apiVersion and kind, which recorded and live
	// must carry too unless null (else an *elements.Error naming the object).
	TypeName string
	// Overwrite lets local win over live's changes to fields local sets; else a third value there conflicts.
	Overwrite bool
	// Ordering orders merged list items; with the SeedOrdering gate off it is always OrderingKubectl.
	Ordering Ordering
	// Gates switch ply's departures from kubectl (zero value: all on; features.Kubectl(): all off). Merge reads
	// SeedOrdering, MultiFieldMergeKeys (off: openapi.Schema.Kubectl, and a configuration holding "$patch",
	// "$retainKeys", "$setElementOrder/<f>" or "$deleteFromPrimitiveList/<f>" merges as kubectl apply merges it; on:
	// refused, naming the path), SetOfMaps (off: sets of maps replaced whole) and UniqueMergeKeys (off: a list
	// repeating a merge key merges as kubectl apply merges it).
	Gates features.Gates
	// MaxDepth bounds the nesting of maps and lists in the three objects (0: parse.DefaultMaxDepth), and so the stack a
	// merge of in-memory objects uses; MergeBytes reads its documents under it too.
	MaxDepth int
}

// DefaultOptions returns the options kubectl apply uses: embedded schema, Overwrite true, seed ordering, every feature
// gate on (ply's semantics; set Gates to features.Kubectl() for kubectl's).
func DefaultOptions() Options { return Options{Overwrite: true} }

// Change is one difference between live and the merged result.
type Change = changes.Change

// Op is the kind of a Change.
type Op = changes.Op

// The operations a Change can make.
const (
	OpAdd     = changes.Add
	OpReplace = changes.Replace
	OpRemove  = changes.Remove
	// OpKept is a value local sets that the field's registered merge rule did not take (pkg/elements.Rule).
	OpKept = changes.Kept
)

// Result is the outcome of a Merge.
type Result struct {
	// Object is the merged object: what the server should hold.
	Object value.Value
	// Changes lists the differences from live in a stable order.
	Changes []Change
	// Warnings do not stop the merge, such as a kind without schema merged by the fallback rules.
	Warnings []string
}

// Conflict is a field local writes that live changed from recorded: its path, local's value (null: removes) and live's.
type Conflict = delta.Conflict

// ConflictError lists, in document order, the conflicts that stop a Merge with Overwrite false (delta.Check); Error
// names their paths, Conflict.Describe renders each with its values, those of a Secret masked (secrets.MaskConflicts).
type ConflictError = delta.ConflictError

// Merge computes what the server should hold after applying local, never modifying its inputs: recorded is the
// configuration last applied (value.Null on a first apply), live the object on the server (value.Null if none). Errors
// are *elements.Error for bad input (naming source and path) and, with Overwrite false, *ConflictError if live changed
// a field local sets (kubectl's rule: delta.Check), or an error if kubectl's patches cannot be made.
func Merge(recorded, local, live value.Value, opts Options) (Result, error) {
	return merge(recorded, local, live, opts, true)
}

// merge is Merge; without listChanges the Result has no Changes and the walk keeps no outcomes for them.
func merge(recorded, local, live value.Value, opts Options, listChanges bool) (Result, error) {
	vals, err := collate.RootValues(recorded, local, live)
	if err != nil {
		return Result{}, err
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = parse.DefaultMaxDepth
	}
	for _, s := range [...]elements.Source{elements.Local, elements.Recorded, elements.Live} {
		if v, ok := vals.Get(s); ok && value.Deeper(v, opts.MaxDepth) {
			return Result{}, &elements.Error{Source: s, Msg: "nesting is deeper than the limit of " + strconv.Itoa(opts.MaxDepth) + " levels of maps and lists"}
		}
	}
	root, err := frontend.RootType(opts.Schema, opts.TypeName, opts.Gates, frontend.Object{Value: local, Source: elements.Local},
		frontend.Object{Value: recorded, Source: elements.Recorded}, frontend.Object{Value: live, Source: elements.Live})
	if err != nil {
		return Result{}, err
	}
	var res Result
	if root == openapi.Unknown && opts.TypeName == "" {
		// RootType found both strings, which Short renders as written.
		av, _ := local.Get("apiVersion")
		k, _ := local.Get("kind")
		res.Warnings = append(res.Warnings, "no schema for "+av.Short()+" "+k.Short()+": merged by the fallback rules (maps merge, lists are replaced)")
	}
	// kubectl's three-way patch is made of the tree for the conflict check (Overwrite false: with its view of recorded
	// and live, collated in the same pass), with gate UniqueMergeKeys off for a list repeating a merge key (Ranked,
	// known once collated), and with gate MultiFieldMergeKeys off for a configuration holding a key the patch format
	// reads (collate.Directed: the patch decides the whole merge): the tree is collated for patches then, and, where
	// live exists, with the outcome tree of each node kubectl's pipeline decides (collate.Options.Patched). A first
	// apply creates local as it is.
	check := !opts.Overwrite
	kubectlDecides := !opts.Gates.Enabled(features.UniqueMergeKeys) || collate.Directed(vals, opts.Gates)
	tree, nodes, arena, err := collate.CountIn(vals, root, collate.Options{Gates: opts.Gates, Patches: check || kubectlDecides,
		Conflicts: check, Patched: kubectlDecides && vals.HasLive})
	if err != nil {
		return Result{}, err
	}
	patched := kubectlDecides && vals.HasLive && arena.Ranked()
	if check || patched {
		// (Where no conflict is checked, the patch is made for its errors: an object kubectl cannot patch fails.)
		if _, _, err := delta.ThreeWay(tree, arena, opts.Gates, opts.Overwrite); err != nil {
			return Result{}, secrets.MaskDirective(secrets.MaskConflicts(err, recorded, local, live), recorded, local, live)
		}
	}
	w, out, err := walk(tree, opts, listChanges, nodes, arena, patched)
	err = secrets.MaskDirective(err, recorded, local, live) // (a Secret's data key "$patch" is read as a directive)
	if e, ok := err.(*elements.Error); ok && patched && e.Source == elements.Patch {
		at := *e // (an outcome tree's error is the tree's; a Directed merge's is the root's, of the whole patch)
		if arena.Directed() {
			at.Source, at.Msg = elements.Local, "kubectl's three-way patch cannot be applied: "+at.Msg
			return Result{}, &at
		}
		return Result{}, delta.Malformed(&at, "applied")
	}
	if err != nil {
		return Result{}, err
	}
	res.Object = out.Value
	if listChanges {
		res.Changes = changes.Collect(tree, w)
		w.Release()
	}
	// Few changes (or none) at nodes take paths now and the tree's storage is reused; many keep it, for lazy paths. (Those
	// below a node an outcome tree decided share its path, their own steps kept: their number does not count.)
	if changes.AtNodes(res.Changes) <= detachedChanges {
		changes.Detach(res.Changes)
		arena.Release()
	}
	return res, nil
}

// walk walks a merge's tree in Phase 2, returning the Walker (its outcomes kept where listChanges) and the outcome;
// patched: nodes kubectl's pipeline decides have outcome trees (a list repeating a merge key), walked as pkg/patch walks
// a patch, answering the walk's questions as it does (a repeat the tree cannot decide: patch.WalkAnswering).
func walk(tree elements.Element, opts Options, listChanges bool, nodes int, arena *collate.Arena, patched bool) (*strategy.Walker, elements.Outcome, error) {
	w := strategy.Options{Ordering: opts.Ordering, Gates: opts.Gates, Record: listChanges, Nodes: nodes}
	if patched {
		w.Patched, w.Answers = arena.Patched, new(visitors.Answers)
	}
	walker := strategy.New(w)
	if !patched {
		out, err := walker.Walk(tree)
		return walker, out, err
	}
	out, err := patch.WalkAnswering(walker, tree, w.Answers, patch.Options{MaxDepth: opts.MaxDepth, Ordering: opts.Ordering, Gates: opts.Gates})
	return walker, out, err
}

// detachedChanges is the most changes whose paths Merge materialises to reuse the tree's storage.
const detachedChanges = 64
