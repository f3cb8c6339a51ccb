// Package patch applies a strategic merge patch (design documents 000-002, 004) to a live object as the API server does
// with k8s.io/apimachinery's strategicpatch, or with list order by the design (Options.Ordering):
//
//	Apply(live, patch, Options) / ApplyType(live, patch, rootType)
//	ApplyTypeOrdered(live, patch, rootType, OrderSeed|OrderKubectl)
//
// The patch is read by the rules of package format (directives, rejections). OrderKubectl gives strategicpatch's
// object, list order included, wherever it defines one, but for the deliberate differences, each a feature gate
// (pkg/features). Rules in full: docs/patches.md, "Applying a patch: the rules in full".
package patch

import (
	"errors"
	"sync"

	"github.com/plyproject/ply/internal/frontend"
	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/strategy"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/pkg/visitors"
)

// Ordering selects the order of merged lists' items in a patch's result, as pkg/apply does for merges.
type Ordering = order.Ordering

// ParseOrdering returns the Ordering named "seed" or "kubectl", or an error.
var ParseOrdering = order.ParseOrdering

const (
	// OrderSeed (the zero value) follows design document 000: live's items the patch does not order come
	// first, in live order, then those the patch orders ($setElementOrder's order, else the patch list's).
	OrderSeed = order.OrderSeed
	// OrderKubectl reproduces strategicpatch's order.
	OrderKubectl = order.OrderKubectl
)

// Options control Apply.
type Options struct {
	// Schema supplies the merge metadata; nil means openapi.Default().
	Schema *openapi.Schema
	// TypeName names the root definition; empty means live's apiVersion and kind (the patch's if live is null), which
	// that object must carry, else an *elements.Error names it. An unknown kind is patched as strategicpatch does,
	// without merge metadata (maps merge, lists are replaced).
	TypeName string
	// MaxDepth is the most nesting of maps and lists the patch may have, in memory too (0: parse.DefaultMaxDepth).
	MaxDepth int
	// Ordering orders merged lists (never which items they hold); with gate SeedOrdering off it is always OrderKubectl.
	Ordering Ordering
	compose  bool      // set by Compose
	reused   *reusable // set by ApplyReused: where the result's maps and lists are built
	// Gates switch ply's departures from strategicpatch (zero value: all on; features.Kubectl(): all off). Apply reads
	// SeedOrdering, MultiFieldMergeKeys (off: the schema's kubectl view), PatchDeleteRemovesMap (off: "$patch: delete"
	// empties a map), SetOfMaps (off: sets of maps replaced whole) and UniqueMergeKeys (off: repeated keys applied as
	// the API server does).
	Gates features.Gates
	// OtherKindsAtomic takes whole a value of the patch of a kind the schema rules out, as strategicpatch takes a value
	// paired with one of another kind (collate.Options.OtherKindsAtomic); else such a value is an error.
	OtherKindsAtomic bool
}

// Apply returns live (value.Null: no object yet) patched by patch, modifying neither. Errors are *elements.Error with
// the field path, Source elements.Patch for a malformed patch, elements.Live for live data the patch cannot apply to.
func Apply(live, patch value.Value, opts Options) (value.Value, error) {
	vals, err := roots(live, patch)
	if err != nil {
		return value.Value{}, err
	}
	decides := frontend.Object{Value: live, Source: elements.Live}
	if live.IsNull() {
		decides = frontend.Object{Value: patch, Source: elements.Patch}
	}
	t, err := frontend.RootType(opts.Schema, opts.TypeName, opts.Gates, decides)
	if err != nil {
		return value.Value{}, err
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = parse.DefaultMaxDepth
	}
	return applyAt(vals, t, 0, opts)
}

// ApplyReused is Apply with the result's maps and lists built in memory later calls reuse (a pooled visitors.Memory):
// the result is valid until the caller calls release, once, after which it must not be used (encode or copy it
// before). On an error nothing needs releasing (release does nothing): the error is Apply's, made again in memory of
// its own, so that it refers to none of the pooled memory.
func ApplyReused(live, patch value.Value, opts Options) (out value.Value, release func(), err error) {
	r := reusables.Get().(*reusable)
	withMemory := opts
	withMemory.reused = r
	if out, err = Apply(live, patch, withMemory); err != nil {
		r.release()
		out, err = Apply(live, patch, opts)
		return out, func() {}, err
	}
	return out, r.release, nil
}

// reusable is what ApplyReused lends a call and takes back on release: the memory the result is built in, and the
// Walker of the call's root, kept for the next call under the same options (release and free are bound once).
type reusable struct {
	mem visitors.Memory
	// walker applies a patch under walkerFor's options, with answers; walking says it is in use (a repeat's item
	// applied to answer its walk's question gets a Walker of its own); opts are the options of the call in progress.
	walker    *strategy.Walker
	walkerFor walkerOptions
	walking   bool
	opts      Options
	answers   visitors.Answers // the answers walker walks with, for the call in progress
	release   func()
	free      func() // (walking false)
}

// walkerOptions are the options a patch's Walker is made for, besides the reusable's memory and answers.
type walkerOptions struct {
	compose  bool
	ordering Ordering
	gates    features.Gates
}

// reusables keeps the reusables of released results (ApplyReused) for the next calls.
var reusables sync.Pool

func init() { reusables.New = newReusable }

// newReusable returns a reusable, its functions bound to it.
func newReusable() any {
	r := new(reusable)
	r.release = func() {
		r.mem.Reset()
		r.opts = Options{}
		reusables.Put(r)
	}
	r.free = func() { r.walking = false }
	return r
}

// Compose merges patch second into patch first, objects of type t (nil: no schema; first may be null: {}), under gates,
// as kubectl merges its three-way patch's delta into its deletions (strategicpatch's mergeMap with MergeParallelList
// and IgnoreUnmatchedNulls off). It is Apply with first as live under OrderKubectl, but second's nulls stay nulls; its
// "$retainKeys" and "$deleteFromPrimitiveList/<f>" are copied, not applied; its "$setElementOrder/<f>" orders the list
// and is copied (first's, if any, must equal it); first's "$patch: delete" items are data, which second's item of their
// key merges into, last in their run; a value first lacks, or holds of another kind, is second's as it stands (under a
// map, without its maps holding "$patch"); items second names twice merge in turn into their key's first item. t is
// used as given: for kubectl's merge keys (gate MultiFieldMergeKeys off) pass the type of openapi.Schema.Kubectl.
func Compose(first, second value.Value, t *openapi.Type, gates features.Gates) (value.Value, error) {
	return ComposeOptions(first, second, t, Options{Gates: gates})
}

// ComposeOptions is Compose reading opts.Gates and opts.OtherKindsAtomic (a value of second of a kind the schema rules
// out taken whole); it reads no other field of opts.
func ComposeOptions(first, second value.Value, t *openapi.Type, opts Options) (value.Value, error) {
	vals, err := roots(first, second)
	if err != nil {
		return value.Value{}, err
	}
	return applyAt(vals, t, 0, Options{compose: true, Ordering: OrderKubectl, MaxDepth: parse.DefaultMaxDepth, Gates: opts.Gates,
		OtherKindsAtomic: opts.OtherKindsAtomic})
}

// ApplyType is Apply with t as the root type (nil: no schema), the default depth limit and OrderSeed.
func ApplyType(live, patch value.Value, t *openapi.Type) (value.Value, error) {
	return ApplyTypeOrdered(live, patch, t, OrderSeed)
}

// ApplyTypeOrdered is ApplyType with the ordering of merged lists given.
func ApplyTypeOrdered(live, patch value.Value, t *openapi.Type, ordering Ordering) (value.Value, error) {
	vals, err := roots(live, patch)
	if err != nil {
		return value.Value{}, err
	}
	return applyAt(vals, t, 0, Options{Ordering: ordering, MaxDepth: parse.DefaultMaxDepth})
}

// roots requires an object patch and an object or null live (taken as {}) and returns the values to collate.
func roots(live, patch value.Value) (elements.Values, error) {
	if !patch.IsMap() {
		return elements.Values{}, &elements.Error{Source: elements.Patch, Msg: "the top level must be an object, got " + patch.Kind().String()}
	}
	if live.Kind() == value.KindNull {
		live = value.MustMap()
	} else if !live.IsMap() {
		return elements.Values{}, &elements.Error{Source: elements.Live, Msg: "the top level must be an object (or null: no object yet), got " + live.Kind().String()}
	}
	return elements.Values{Local: patch, HasLocal: true, Live: live, HasLive: true}, nil
}

// applyAt applies vals' patch to vals' live, if any, at nesting depth (a repeat's item applied to its key's outcome,
// answering Phase 2's question: visitors.InTurn); opts.MaxDepth is set.
func applyAt(vals elements.Values, t *openapi.Type, depth int, opts Options) (value.Value, error) {
	tree, _, arena, err := collate.CountIn(vals, t, collate.Options{Patch: true, Compose: opts.compose, MaxDepth: opts.MaxDepth, Depth: depth, Gates: opts.Gates,
		OtherKindsAtomic: opts.OtherKindsAtomic})
	if err != nil {
		return value.Value{}, err
	}
	walker, answers, done := walkerFor(opts)
	defer done()
	out, err := walkAnswering(walker, tree, answers, opts)
	if err != nil {
		return value.Value{}, err
	}
	// The result holds values only: the tree's storage can be reused.
	arena.Release()
	if !out.Present || !out.Value.IsMap() {
		return value.MustMap(), nil
	}
	return out.Value, nil
}

// walkerFor returns the Walker applying a patch under opts, the answers it walks with, and what to call when its walk
// is done: ApplyReused's kept Walker when it is free (made anew when opts differ from those it was made for), else a
// new one.
func walkerFor(opts Options) (*strategy.Walker, *visitors.Answers, func()) {
	r := opts.reused
	if r == nil || r.walking {
		var mem *visitors.Memory
		if r != nil {
			mem = &r.mem
		}
		answers := new(visitors.Answers)
		return strategy.New(strategy.Options{Patch: true, Compose: opts.compose, Ordering: opts.Ordering, Gates: opts.Gates,
			Answers: answers, Memory: mem}), answers, func() {}
	}
	if want := (walkerOptions{compose: opts.compose, ordering: opts.Ordering, gates: opts.Gates}); r.walker == nil || r.walkerFor != want {
		r.walker = strategy.New(strategy.Options{Patch: true, Compose: opts.compose, Ordering: opts.Ordering, Gates: opts.Gates,
			Answers: &r.answers, Memory: &r.mem})
		r.walkerFor = want
	} else {
		r.walker.Renew()
	}
	r.answers = visitors.Answers{}
	r.opts, r.walking = opts, true
	return r.walker, &r.answers, r.free
}

// walkAnswering walks tree with w, made with answers, answering the walk's questions (visitors.InTurn) as the API
// server applies a repeat of a merge key: the item applied to its key's outcome as a patch of its own under opts (a
// collation of the item with that outcome as live, walked: answer). A walk that asks none is walked once, as it
// stands; one that asks is walked again, driven (visitors.Answers.Pull): it stops at each question until it is
// answered and goes on from there, so no part of the tree is walked more than twice.
func walkAnswering(w *strategy.Walker, tree elements.Element, answers *visitors.Answers, opts Options) (elements.Outcome, error) {
	out, err := w.Walk(tree)
	var q *visitors.InTurn
	if !errors.As(err, &q) {
		answers.Walked()
		return out, err
	}
	answer(q, answers, opts)
	w.Renew()
	next, stop := answers.Pull(func() { out, err = w.Walk(tree) })
	defer stop()
	for q, asked := next(); asked; q, asked = next() {
		answer(q, answers, opts)
	}
	answers.Walked()
	return out, err
}

// answer records in answers what applying question q's item to its outcome under opts gives, at the item's depth in
// the patch.
func answer(q *visitors.InTurn, answers *visitors.Answers, opts Options) {
	vals := elements.Values{Local: q.Patch, HasLocal: true, Live: q.Onto, HasLive: !q.Onto.IsNull()}
	applied, err := applyAt(vals, q.Type, q.Depth, opts)
	answers.Answer(q, applied, err)
}
