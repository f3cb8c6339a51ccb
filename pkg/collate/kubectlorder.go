package collate

import (
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/value"
)

// kubectlOrdering says how a list the schema merges by no strategy is ordered by the patch's "$setElementOrder".
type kubectlOrdering uint8

const (
	orderedRefused kubectlOrdering = iota // the directive is refused there (format.CheckDirs), naming the path
	orderedAsSet                          // ordered as a set, of live's items or of the patch's alone
	orderedWhole                          // the patch's list in strategicpatch's order, taken whole, the directive dropped
)

// kubectlOrdered says how a field of type t (metadata meta, values cv, a patch's directives cd), a list the schema merges
// by no strategy that the patch's "$setElementOrder" orders, is ordered as strategicpatch orders it, gate
// MultiFieldMergeKeys off (on, or for any other field, orderedRefused: the directive is refused where the schema does
// not merge the list, naming the path); for orderedWhole, list is the list taken. strategicpatch (mergePatchIntoOriginal)
// reads the directive wherever the field's value is a list, merge strategy or none: the list merged is the patch's (a
// list without merge strategy is replaced) or, where the patch leaves it out, live's; it is split into the items the
// directive names, sorted by it (each by the first entry naming its value), and the others, sorted by their place in
// live's list and merged in by it (normalizeSliceOrder, mergeSortedSlice); the patch's list must follow the
// directive's order (validatePatchWithSetOrderList, which passes any list for an empty directive), and live's items
// and the patch's must be of one kind (sliceElementType); a "$deleteFromPrimitiveList" then deletes from the outcome.
// That is the order of a set of live's items the patch only reorders, or, where the patch sets the list, of a set of
// the patch's items onto no live list (a value named twice kept twice, at its first place in the directive): so such
// a list is collated as that set, orderedAsSet (internal/order orders it, format.CheckOrder checks the patch's order).
// The patch's list is taken whole (orderedWhole, smp.SortedBy) where a set does not hold it: empty; beside an empty
// directive, every item an other (applying, less the values a "$deleteFromPrimitiveList" beside it deletes); composing two patches (MergeStrategicMergeMapPatchUsingLookupPatchMeta, the first's
// list for live's, the directive kept), naming a value twice; in a repeated key's later item, applying or composing
// (repeatOrdered: as a set, the item's list would be merged into its key's outcome's, where strategicpatch replaces
// it). Not where strategicpatch fails in Go (a map or a list among the items or the directive's entries, which cannot
// be hashed or compared): there, for a patch list naming a value twice with gate UniqueMergeKeys on, and where
// repeatOrdered says so, it stays refused.
func (c *collator) kubectlOrdered(self *elements.MapElement, t *openapi.Type, meta *openapi.Meta, cv *elements.Values, cd *elements.Directives) (kubectlOrdering, value.Value) {
	if cd == nil || !cd.HasSetOrder || !c.opts.Patch || t.Kind != openapi.KindList || meta.Strategy.Has(openapi.StrategyMerge) ||
		c.opts.Gates.Enabled(features.MultiFieldMergeKeys) {
		return orderedRefused, value.Value{}
	}
	if cv.HasLocal && !cv.Local.IsList() || !cv.HasLocal && !cv.Live.IsList() || cv.HasLive && !cv.Live.IsList() {
		return orderedRefused, value.Value{}
	}
	for _, e := range cd.SetOrder.Items() {
		if e.IsMap() || e.IsList() {
			return orderedRefused, value.Value{}
		}
	}
	if !smp.ScalarsOfOneClass(cv.Live.Items(), cv.Local.Items()) {
		return orderedRefused, value.Value{}
	}
	if c.composedOwn(inMaps(self)) && cv.HasLocal && cd.SetOrder.IsList() && cd.SetOrder.Len() == 0 && !cd.HasDeleteFromList {
		// (A compose repeat's list beside an empty order, in its item's own map or a map of it, merged into its key's
		// outcome: sorted by the outcome's list where that holds one, which Phase 2 does; here as where the outcome's
		// map holds none. Where the outcome lacks a map above it, strategicpatch takes it as it stands: Phase 2 takes
		// the node only where that is the same.)
		return orderedWhole, smp.SortedBy(cv.Local.Items(), nil)
	}
	if c.repeat != nil || c.composed != nil {
		ordering, sorted := repeatOrdered(cv, cd, self.Parent == nil && c.repeatMerged)
		if ordering == orderedRefused && c.repeat != nil {
			// (Refused here for what the item's key's outcome decides, the list left out, an empty order or a
			// "$deleteFromPrimitiveList" beside it, or for where the item lands, an order the list does not follow or
			// whose sort moves a list kept apart: a collation of the item with its outcome as live orders the list as
			// below, failing with another error or not. elements.Repeat.FailsAt is not set.)
			c.outcomeOrdered = true
		}
		return ordering, sorted
	}
	local, order := cv.Local.Items(), cd.SetOrder.Items()
	switch {
	case cv.HasLocal && (len(local) == 0 || len(order) == 0) && !c.opts.Compose && !deletable(cd, local):
		return orderedRefused, value.Value{}
	case cv.HasLocal && len(local) == 0:
		return orderedWhole, cv.Local
	case cv.HasLocal && len(order) == 0 && !cd.HasDeleteFromList:
		return orderedWhole, smp.SortedBy(local, cv.Live.Items())
	case cv.HasLocal && len(order) == 0 && !c.opts.Compose:
		return orderedWhole, smp.WithoutValues(smp.SortedBy(local, cv.Live.Items()), cd.DeleteFromList.Items())
	case c.opts.Gates.Enabled(features.UniqueMergeKeys) && namesValueTwice(local, false):
		// (A set would hold the value once, where strategicpatch keeps each copy.)
		return orderedRefused, value.Value{}
	case c.opts.Compose && namesValueTwice(local, false) && (cd.HasDeleteFromList || !smp.FollowsOrder(local, order)):
		return orderedRefused, value.Value{}
	case c.opts.Compose && namesValueTwice(local, false):
		return orderedWhole, smp.SortedBy(local, order)
	}
	return orderedAsSet, value.Value{}
}

// inMaps reports whether map m is the root of its tree or reached from it through maps alone.
func inMaps(m *elements.MapElement) bool {
	for cur := elements.Element(m); cur.Base().Parent != nil; cur = cur.Base().Parent {
		if _, isMap := cur.Base().Parent.(*elements.MapElement); !isMap {
			return false
		}
	}
	return true
}

// repeatOrdered is kubectlOrdered in a repeated key's later item (collated alone, without live; its empty lists refused
// before, as lists of no kind), the list a field of the item itself that merges into its key's outcome where merged:
// the item's list taken whole where strategicpatch gives it so wherever the item lands. Merged into the outcome map
// (the first item of the key merged with live's, or copied), the item's list replaces the outcome's, sorted by the
// directive; copied with the list the server keeps apart, or below a map the outcome may lack (copied then), it stays
// as it stands. So a list following a directive that names every item, with no "$deleteFromPrimitiveList" beside it,
// is taken sorted where merged, and as it stands where sorting leaves it so. Elsewhere (an order that moves an item of
// a list kept apart or nested, or none, which orders by the outcome's list; a list the item leaves out, which visitors
// merge onto the outcome; a deletion) refused here.
func repeatOrdered(cv *elements.Values, cd *elements.Directives, merged bool) (kubectlOrdering, value.Value) {
	local, order := cv.Local.Items(), cd.SetOrder.Items()
	if !cv.HasLocal || cd.HasDeleteFromList || len(order) == 0 || !smp.FollowsOrder(local, order) {
		return orderedRefused, value.Value{}
	}
	switch sorted := smp.SortedBy(local, order); {
	case merged:
		return orderedWhole, sorted
	case value.Equal(sorted, cv.Local):
		return orderedWhole, cv.Local
	}
	return orderedRefused, value.Value{}
}

// deletable reports whether the "$deleteFromPrimitiveList" of directives cd, if any, can delete from scalar items as
// strategicpatch deletes after ordering (mergeSlice): a list of scalars of the items' kind.
func deletable(cd *elements.Directives, items []value.Value) bool {
	if !cd.HasDeleteFromList || (cd.DeleteFromList.IsList() && cd.DeleteFromList.Len() == 0) {
		return true
	}
	return cd.DeleteFromList.IsList() && smp.ScalarsOfOneClass(items, cd.DeleteFromList.Items())
}
