package apply

import (
	"github.com/plyproject/ply/internal/changes"
	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/value"
)

// Ordering selects how items of merged lists are ordered in the result.
type Ordering = order.Ordering

const (
	// OrderingSeed is the order the design specifies: local's order for the
	// items local names, live-only items before them in their live relative
	// order.
	OrderingSeed = order.OrderSeed
	// OrderingKubectl reproduces exactly the order kubectl's strategic merge
	// patch produces (it interleaves live-only items).
	OrderingKubectl = order.OrderKubectl
)

// ParseOrdering returns the Ordering named "seed" or "kubectl", or an error.
var ParseOrdering = order.ParseOrdering

// Options control a Merge. Use DefaultOptions and change what differs: the
// zero Options has Overwrite false.
type Options struct {
	// Schema resolves the types of the objects; nil means the embedded
	// default schema.
	Schema *openapi.Schema
	// TypeName names the root definition explicitly; empty means resolve it
	// from local's apiVersion and kind. Without it every object given
	// (local, and recorded and live unless null) must carry apiVersion and
	// kind: one that lacks either is an *elements.Error naming it.
	TypeName string
	// Overwrite lets local win over changes live made to fields local sets.
	// When false, a field that live changed away from recorded and that
	// local sets to a third value is a conflict.
	Overwrite bool
	// Ordering selects the order of merged list items while the
	// SeedOrdering gate is on; with it off the order is always
	// OrderingKubectl.
	Ordering Ordering
	// Gates switch ply's deliberate departures from kubectl; the zero
	// value has all on, features.Kubectl() all off. Merge reads:
	//
	//   - SeedOrdering: off, merged lists are ordered as kubectl orders
	//     them (OrderingKubectl, whatever Ordering says);
	//   - MultiFieldMergeKeys: off, the schema is read as kubectl reads it
	//     (openapi.Schema.Kubectl): only the patch strategy and merge key
	//     count, the key is one field name and no default fills it, so a
	//     TCP and a UDP port on one containerPort are one item, and list
	//     and map types (x-kubernetes-list-type, -map-type) do not count.
	//
	//   - SetOfMaps: off, a set of maps (x-kubernetes-list-type: set over
	//     objects) is replaced whole.
	//
	// PatchDeleteRemovesMap concerns patches only.
	Gates features.Gates
	// MaxDepth is the deepest nesting of maps and lists accepted in any of
	// the three objects; 0 means parse.DefaultMaxDepth, the limit that
	// objects read through pkg/parse already obey. Merging recurses once
	// per level, so this bounds the stack objects built in memory can use.
	MaxDepth int
}

// DefaultOptions returns the options kubectl apply uses: embedded schema,
// Overwrite true, seed ordering, every feature gate on (ply's semantics;
// set Gates to features.Kubectl() for kubectl's).
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
)

// Result is the outcome of a Merge.
type Result struct {
	// Object is the merged object: what the server should hold.
	Object value.Value
	// Changes lists the differences from live in a stable order (see
	// changes.Collect).
	Changes []Change
	// Warnings are messages for the user that do not stop the merge, such
	// as a kind without schema merged by the fallback rules.
	Warnings []string
}

// Conflict is a field that live changed away from recorded and that local
// writes too, reported when Options.Overwrite is false: its path, what
// local writes (null: removes) and what live changed it to.
type Conflict = delta.Conflict

// ConflictError is returned by Merge when Overwrite is false and conflicts
// exist; it lists all of them in document order (see delta.Check).
type ConflictError = delta.ConflictError
