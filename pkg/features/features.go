// Package features holds ply's feature gates: each deliberate departure from kubectl is a named gate, on by default,
// switched in one line where it is decided. All off (Kubectl), ply computes what kubectl's strategic merge patch does.
package features

import (
	"errors"
	"slices"
	"strconv"
	"strings"
)

// Gate names one behaviour.
type Gate uint8

// The gates. Each is on by default.
const (
	// SeedOrdering orders merged lists by design document 000 (live-only items first, then local's or the
	// patch's order); off, lists are ordered exactly as kubectl's strategic merge patch leaves them.
	SeedOrdering Gate = iota
	// MultiFieldMergeKeys reads merge metadata as OpenAPI v3 schemas give it: list and map types, list-map-keys (every
	// key field, a field left out taking its default) and comma-separated patch-merge-keys; off, only the patch
	// strategy and a one-field merge key count, as kubectl.
	MultiFieldMergeKeys
	// PatchDeleteRemovesMap makes "$patch: delete" on a map delete the field (design document 001); off, it
	// leaves an empty map, as strategicpatch does.
	PatchDeleteRemovesMap
	// SetOfMaps merges x-kubernetes-list-type: set lists of objects as sets of atomic items, identity the whole item,
	// as server-side apply does; off, such a list is replaced whole, as kubectl replaces a list without merge strategy.
	SetOfMaps
	// UniqueMergeKeys refuses a list that names one merge key twice: in a patch (naming both items) and in local; off,
	// such a patch is applied as the API server applies it, the later items of a key merged in turn into the first or
	// kept apart (docs/patches.md), and a merge whose recorded, local or live list repeats a one-field key pairs the
	// items as kubectl does and applies kubectl's patch as the server does (docs/differential.md).
	UniqueMergeKeys

	count
)

var names = [count]string{"SeedOrdering", "MultiFieldMergeKeys", "PatchDeleteRemovesMap", "SetOfMaps", "UniqueMergeKeys"}

var summaries = [count]string{
	"merged lists put live-only items first, then local's (or the patch's) order; off: kubectl's order",
	"OpenAPI v3 list-map-keys, list and map types and key defaults count (ports by containerPort and protocol); off: only the patch strategy and a one-field merge key, as kubectl",
	"\"$patch: delete\" on a map deletes the field; off: it leaves an empty map, as kubectl",
	"x-kubernetes-list-type set lists of objects merge as sets; off: they are replaced whole, as kubectl",
	"a list naming one merge key twice is refused, in a patch as in local; off: such a patch is applied as the API server applies it, and such a manifest merged as kubectl apply merges it",
}

// String is the gate's name as --feature-gates spells it.
func (g Gate) String() string {
	if g < count {
		return names[g]
	}
	return "Gate(" + strconv.Itoa(int(g)) + ")"
}

// Summary says in one sentence what g does when on and, after "; off: ", when off.
func (g Gate) Summary() string {
	if g < count {
		return summaries[g]
	}
	return ""
}

// All lists every gate.
func All() []Gate {
	out := make([]Gate, count)
	for i := range out {
		out[i] = Gate(i)
	}
	return out
}

// Gates holds a setting of every gate, the zero value all on (their default); compare and copy it freely.
type Gates struct{ off uint32 }

// Kubectl returns every gate off (--compat=kubectl): ply computes what kubectl's strategic merge patch does.
func Kubectl() Gates { return Gates{off: 1<<count - 1} }

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
	parts := make([]string, 0, count)
	for _, g := range All() {
		parts = append(parts, g.String()+"="+strconv.FormatBool(s.Enabled(g)))
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
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
		i := slices.Index(names[:], name)
		on, err := strconv.ParseBool(val)
		switch {
		case !ok:
			return base, errors.New("feature gate " + strconv.Quote(part) + ": want Name=true or Name=false")
		case i < 0:
			return base, errors.New("unknown feature gate " + strconv.Quote(name) + "; known gates: " + strings.Join(names[:], ", "))
		case err != nil:
			return base, errors.New("feature gate " + name + ": " + strconv.Quote(val) + " is not true or false")
		case seen[name]:
			return base, errors.New("feature gate " + name + " is given twice")
		}
		seen[name] = true
		base = base.With(Gate(i), on)
	}
	return base, nil
}
