// Package halves reads off a collated tree (pkg/collate) what the halves of kubectl's strategic merge patches make of a
// node: the changes, against one source (live, or recorded), and the deletions, since another (recorded). It is the one
// place both internal/delta (which writes patches) and internal/order (which asks whether kubectl's patch touches a
// set, to order it as the server would) read this from, so neither calls the other. Its functions only read the tree.
package halves

import (
	"slices"
	"strconv"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// Compares returns from if the half of that source compares node n member by member, else NoSource: from and local
// are non-null values of one JSON type and, for a merged list (list), from has items. NoSource never compares.
func Compares(n *elements.Node, from elements.Source, list bool) elements.Source {
	if v, has := n.Get(from); has && !n.Local.IsNull() && !v.IsNull() && SameJSONType(n.Local, v) && (!list || v.Len() > 0) {
		return from
	}
	return elements.NoSource
}

// SameJSONType reports whether a and b decode to the same Go type in encoding/json (all numbers are one):
// kubectl diffs and combines values of one type member by member and replaces a value whose type changed.
func SameJSONType(a, b value.Value) bool {
	number := func(k value.Kind) bool { return k == value.KindInt || k == value.KindFloat }
	return a.Kind() == b.Kind() || (number(a.Kind()) && number(b.Kind()))
}

// Replaced is the changes half (against source changes) of node n's value sent whole: local's, unless changes are
// left out (NoSource) or their source equals it.
func Replaced(n *elements.Node, changes elements.Source) elements.Outcome {
	from, has := n.Get(changes)
	if changes != elements.NoSource && !(has && value.Equal(n.Local, from)) {
		return elements.Keep(n.Local)
	}
	return elements.Absent
}

// Ruled says how patches treat node n under its registered rule (pkg/elements.Rule.Patch): skip for a field another
// writer owns (no entry of any kind), an error for a rule no patch expresses; neither for the others.
func Ruled(n *elements.Node) (skip bool, err error) {
	switch r := elements.RuleOf(n); {
	case r == nil || r.Patch == elements.PatchByMetadata:
		return false, nil
	case r.Patch == elements.PatchLeavesLive:
		return true, nil
	default:
		return false, &elements.RuleError{Rule: r.Name, Path: n.Path(), Msg: "decides this field in a way no strategic merge patch expresses; no patch can be made for this object"}
	}
}

// Index is item it's position in src's list (-1: absent, or src is neither Recorded nor Live).
func Index(it *elements.Item, src elements.Source) int {
	switch src {
	case elements.Recorded:
		return it.RecordedIndex
	case elements.Live:
		return it.LiveIndex
	}
	return -1
}

// Set is what the halves of one patch make of a merged set, local holding it.
type Set struct {
	// Settled: neither half compares the set member by member; the patch has Replaced's entry, nothing else.
	Settled bool
	// Compared reports that the changes half compares it member by member.
	Compared bool
	// Added holds local's values new to the changes' source, in local's order (when Compared).
	Added []value.Value
	// Deleted holds the deletions' source's values local lacks, in kubectl's scalar order ($deleteFromPrimitiveList).
	Deleted []value.Value
	// Order reports that a patch with orders carries $setElementOrder (local's list): local has values and some are
	// deleted, or the changes compare and local is not their list sorted.
	Order bool
}

// OfSet returns what the halves against changes and since deletions make of set e (NoSource: a half left out). An
// item of a compared source that is not a scalar is an error naming that source, as kubectl fails on it.
func OfSet(e *elements.SetElement, changes, deletions elements.Source) (Set, error) {
	n := &e.Node
	cs, ds := Compares(n, changes, true), Compares(n, deletions, true)
	if cs == elements.NoSource && ds == elements.NoSource {
		return Set{Settled: true}, nil
	}
	objects := elements.SetOfMaps(n.Type, &n.Meta)
	for _, src := range [...]elements.Source{ds, cs} {
		from, _ := n.Get(src)
		for i, v := range from.Items() {
			if _, ok := elements.SetKey(v, objects); !ok {
				return Set{}, n.Errorf(src, "item "+strconv.Itoa(i)+": expected a scalar in a set list, got "+v.Kind().String())
			}
		}
	}
	s := Set{Compared: cs != elements.NoSource}
	for i := range e.Items {
		it := &e.Items[i]
		switch {
		case it.LocalIndex >= 0 && s.Compared && Index(it, cs) < 0:
			s.Added = append(s.Added, it.Element.Base().Local)
		case it.LocalIndex < 0 && Index(it, ds) >= 0:
			v, _ := it.Element.Base().Get(ds)
			s.Deleted = append(s.Deleted, v)
		}
	}
	smp.SortScalars(s.Deleted)
	if e.Ranked {
		// kubectl compares the sorted lists: its additions come out grouped by value (at its first place in local), its
		// deletions deduplicated.
		s.Deleted = smp.DedupScalars(s.Deleted)
		groupByFirst(s.Added, n.Local.Items(), objects)
	}
	s.Order = n.Local.Len() > 0 && (len(s.Deleted) > 0 || (s.Compared && !sortedSame(e, cs)))
	return s, nil
}

// groupByFirst sorts a Ranked set's additions, in local's order, stably by the first place of their value in local.
func groupByFirst(added, local []value.Value, objects bool) {
	first := make(map[value.ScalarKey]int, len(local))
	for i, v := range local {
		if k, ok := elements.SetKey(v, objects); ok {
			if _, seen := first[k]; !seen {
				first[k] = i
			}
		}
	}
	place := func(v value.Value) int {
		k, _ := elements.SetKey(v, objects)
		return first[k]
	}
	slices.SortStableFunc(added, func(a, b value.Value) int { return place(a) - place(b) })
}

// SetTouched reports whether a patch with orders made of the halves against changes and since deletions says anything
// about set e (an entry, $deleteFromPrimitiveList or $setElementOrder), or cannot be made for it (an error).
func SetTouched(e *elements.SetElement, changes, deletions elements.Source) bool {
	if skip, err := Ruled(&e.Node); skip || err != nil {
		return err != nil
	}
	s, err := OfSet(e, changes, deletions)
	switch {
	case err != nil:
		return true
	case !s.Compared:
		return len(s.Deleted) > 0 || s.Order || Replaced(&e.Node, changes).Present
	}
	return len(s.Deleted) > 0 || s.Order || len(s.Added) > 0
}

// HasUnsortedSet reports whether v (type t, metadata meta) holds, within maps and keyed lists, an unsorted merged set:
// in an item all sources agree on, kubectl's delta still gives it $setElementOrder (it sorts live's copy first).
func HasUnsortedSet(v value.Value, t *openapi.Type, meta openapi.Meta) bool {
	switch v.Kind() {
	case value.KindMap:
		return !meta.Strategy.Has(openapi.StrategyReplace) && slices.ContainsFunc(v.Fields(), func(f value.Field) bool {
			if !f.Value.IsMap() && !f.Value.IsList() {
				return false
			}
			ct, cm := t.Child(f.Key)
			return HasUnsortedSet(f.Value, ct, cm)
		})
	case value.KindList:
		it := t.Item()
		if it.Kind == openapi.KindPrimitive {
			return elements.MergedList(t, &meta) && !smp.Sorted(v.Items())
		}
		return elements.MergedList(t, &meta) && len(meta.MergeKey) > 0 && slices.ContainsFunc(v.Items(), func(item value.Value) bool {
			return HasUnsortedSet(item, it, openapi.Meta{})
		})
	}
	return false
}

// sortedSame reports whether src's set, sorted as kubectl sorts scalars, equals local's list item by item
// (linear unless local repeats values: it uses the items collate matched instead of sorting).
func sortedSame(e *elements.SetElement, src elements.Source) bool {
	from, _ := e.Get(src)
	local := e.Local.Items()
	if from.Len() != len(local) {
		return false
	}
	matched := 0 // local's items, the first ones, all in src
	for ; matched < len(e.Items) && e.Items[matched].LocalIndex >= 0; matched++ {
		if Index(&e.Items[matched], src) < 0 {
			return false
		}
	}
	if matched != len(local) {
		sorted := slices.Clone(from.Items())
		smp.SortScalars(sorted)
		return slices.EqualFunc(local, sorted, value.Equal)
	}
	return smp.Sorted(local)
}
