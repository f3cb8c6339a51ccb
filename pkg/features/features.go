// Package features holds ply's feature gates: each deliberate departure from kubectl is a named gate, on by default,
// switched in one line where it is decided. All off (Kubectl), ply computes what kubectl's strategic merge patch does.
//
// Programs that embed ply add gates of their own with Register (a merge rule of theirs behind a gate, see
// pkg/elements.RegisterRule). A registered gate is like a built-in one: on by default, named by Parse and String,
// switched by --feature-gates, and off in Kubectl(). Invariants: a Gate is a small index, built-in gates first, in
// registration order; names are unique; registration never changes a Gates value already made.
package features

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Gate names one behaviour.
type Gate uint8

// The built-in gates. Each is on by default.
const (
	// SeedOrdering orders merged lists by design document 000 (live-only items first, then local's or the
	// patch's order); off, lists are ordered exactly as kubectl's strategic merge patch leaves them.
	SeedOrdering Gate = iota
	// MultiFieldMergeKeys reads merge metadata as OpenAPI v3 schemas give it: list and map types, list-map-keys (every
	// key field, a field left out taking its default) and comma-separated patch-merge-keys, and a list where the schema
	// has an object is refused; off, only the patch strategy and a one-field merge key count, as kubectl, which takes a
	// list (or a "$setElementOrder" of one) where the schema has an object field of merge strategy as a list of that
	// object merged by the field's key, and orders a list of scalars the schema merges by no strategy by the patch's
	// "$setElementOrder" there (with the gate on, refused). The gate governs how an item's key is read, so off, a key
	// field given as null is the key value null, as strategicpatch compares it: it names the items holding the field
	// null (never one lacking it), so that such an item is added, deleted, ordered and merged as strategicpatch does
	// it (merged into an item of its key, its null deletes the field, and the merge fails as strategicpatch's does);
	// on, a null key field takes its default or is missing (openapi.Type.NullKey). Off, a configuration holding
	// "$patch", "$retainKeys", "$setElementOrder/<f>" or "$deleteFromPrimitiveList/<f>" in a map is read as kubectl
	// reads it: data to the patch producers, and merged as kubectl apply merges it (its three-way patch applied to
	// live); on, such a key is refused, naming the path.
	MultiFieldMergeKeys
	// PatchDeleteRemovesMap makes "$patch: delete" on a map delete the field (design document 001); off, it
	// leaves an empty map, as strategicpatch does.
	PatchDeleteRemovesMap
	// SetOfMaps merges x-kubernetes-list-type: set lists of objects as sets of atomic items, identity the whole item,
	// as server-side apply does; off, such a list is replaced whole, as kubectl replaces a list without merge strategy.
	SetOfMaps
	// UniqueMergeKeys refuses a list that names one merge key twice: in a patch (naming both items) and in local, and a
	// set local names one value of twice; off, such a patch is applied as the API server applies it, the later items of
	// a key merged in turn into the first or kept apart (docs/patches.md), and a merge whose recorded, local or live
	// list repeats a one-field key, or a set's value, pairs the items as kubectl does and applies kubectl's patch as the
	// server does there, the rest of the object merged under the other gates (docs/differential.md).
	UniqueMergeKeys

	builtIn
)

// MaxGates is how many gates a process can hold, built-in and registered together.
const MaxGates = 64

// registry holds every gate's name and summary, by Gate; built-in ones first. Reads take the lock too: registration
// happens at start-up, and a read is a slice index.
var registry = struct {
	sync.RWMutex
	names, summaries []string
}{
	names: []string{"SeedOrdering", "MultiFieldMergeKeys", "PatchDeleteRemovesMap", "SetOfMaps", "UniqueMergeKeys"},
	summaries: []string{
		"merged lists put live-only items first, then local's (or the patch's) order; off: kubectl's order",
		"OpenAPI v3 list-map-keys, list and map types and key defaults count (ports by containerPort and protocol); off: only the patch strategy and a one-field merge key, as kubectl",
		"\"$patch: delete\" on a map deletes the field; off: it leaves an empty map, as kubectl",
		"x-kubernetes-list-type set lists of objects merge as sets; off: they are replaced whole, as kubectl",
		"a list naming one merge key (a set: one value) twice is refused, in a patch as in local; off: such a patch is applied as the API server applies it, and such a manifest merged as kubectl apply merges it",
	},
}

// Register adds a gate named name (a Go identifier, as --feature-gates spells gates) with a one-sentence summary: what
// it does when on and, after "; off: ", when off. It is on by default and off in Kubectl(). A name already registered,
// one that is not an identifier, or more than MaxGates gates in all is an error. Register is safe for concurrent use;
// call it at start-up (a package's init or main), before any Gates value that should know the gate is parsed.
func Register(name, summary string) (Gate, error) {
	if !identifier(name) {
		return 0, errors.New("feature gate name " + strconv.Quote(name) + " is not an identifier (letters, digits, starting with a letter)")
	}
	registry.Lock()
	defer registry.Unlock()
	switch {
	case slices.Contains(registry.names, name):
		return 0, errors.New("feature gate " + name + " is registered already")
	case len(registry.names) == MaxGates:
		return 0, errors.New("feature gate " + name + ": a process holds at most " + strconv.Itoa(MaxGates) + " gates")
	}
	registry.names = append(registry.names, name)
	registry.summaries = append(registry.summaries, summary)
	return Gate(len(registry.names) - 1), nil
}

// MustRegister is Register for a package-level variable: it panics on the errors Register returns.
func MustRegister(name, summary string) Gate {
	g, err := Register(name, summary)
	if err != nil {
		panic(err)
	}
	return g
}

func identifier(s string) bool {
	for i, r := range s {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return s != ""
}

// String is the gate's name as --feature-gates spells it.
func (g Gate) String() string {
	registry.RLock()
	defer registry.RUnlock()
	if int(g) < len(registry.names) {
		return registry.names[g]
	}
	return "Gate(" + strconv.Itoa(int(g)) + ")"
}

// Summary says in one sentence what g does when on and, after "; off: ", when off.
func (g Gate) Summary() string {
	registry.RLock()
	defer registry.RUnlock()
	if int(g) < len(registry.summaries) {
		return registry.summaries[g]
	}
	return ""
}

// BuiltIn reports whether g is one of ply's own gates, not one a program registered.
func (g Gate) BuiltIn() bool { return g < builtIn }

// All lists every gate, built-in and registered, in Gate order.
func All() []Gate {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]Gate, len(registry.names))
	for i := range out {
		out[i] = Gate(i)
	}
	return out
}

// Gates holds a setting of every gate, the zero value all on (their default); compare and copy it freely.
type Gates struct{ off uint64 }

// Kubectl returns every gate off (--compat=kubectl), registered ones included, and any registered later: ply computes
// what kubectl's strategic merge patch does.
func Kubectl() Gates { return Gates{off: ^uint64(0)} }

// Enabled reports whether gate g is on.
func (s Gates) Enabled(g Gate) bool { return s.off&(1<<g) == 0 }

// With returns s with gate g set to on.
func (s Gates) With(g Gate, on bool) Gates {
	s.off &^= 1 << g
	if !on {
		s.off |= 1 << g
	}
	return s
}

// String renders s as Parse reads it, every gate named, sorted by name.
func (s Gates) String() string {
	all := All()
	parts := make([]string, 0, len(all))
	for _, g := range all {
		parts = append(parts, g.String()+"="+strconv.FormatBool(s.Enabled(g)))
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

// Lookup returns the gate named name, built-in or registered.
func Lookup(name string) (Gate, bool) {
	registry.RLock()
	defer registry.RUnlock()
	i := slices.Index(registry.names, name)
	return Gate(max(i, 0)), i >= 0
}

// Parse reads "Name=true|false,..." (Kubernetes' --feature-gates syntax; spaces around names and values are ignored, ""
// sets nothing) into base. An unknown name, a value that is not a boolean or a name given twice is an error naming it.
func Parse(base Gates, spec string) (Gates, error) {
	seen := map[string]bool{}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, val, ok := strings.Cut(part, "=")
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		g, known := Lookup(name)
		on, err := strconv.ParseBool(val)
		switch {
		case !ok:
			return base, errors.New("feature gate " + strconv.Quote(part) + ": want Name=true or Name=false")
		case !known:
			return base, errors.New("unknown feature gate " + strconv.Quote(name) + "; known gates: " + knownNames())
		case err != nil:
			return base, errors.New("feature gate " + name + ": " + strconv.Quote(val) + " is not true or false")
		case seen[name]:
			return base, errors.New("feature gate " + name + " is given twice")
		}
		seen[name] = true
		base = base.With(g, on)
	}
	return base, nil
}

func knownNames() string {
	registry.RLock()
	defer registry.RUnlock()
	return strings.Join(registry.names, ", ")
}
