package collate

import (
	"slices"
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate/internal/format"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/value"
)

// patchNode builds patch tree node s (Dirs: its parent's directives): checked if the patch sets it, else live's, whole.
func (c *collator) patchNode(s elements.Node, depth int) (elements.Element, error) {
	if err := c.depth(&s, depth); err != nil {
		return nil, err
	}
	if s.Dirs != nil {
		if s.Dirs.HasSetOrder && s.HasLive && !s.Live.IsList() {
			// (strategicpatch reads the field "$setElementOrder" orders as a list wherever it is present.)
			whose := "live's"
			if c.opts.Compose {
				whose = "the first patch's"
			}
			return nil, s.Errorf(elements.Live, smp.SetOrderPrefix+s.Name+" orders a list, but "+whose+" value is "+s.Live.Kind().String())
		}
		if err := format.CheckDirs(&s); err != nil && !c.leftEmptyOrder(&s, err) {
			return nil, err
		} else if err != nil {
			return build(c, &c.atomics, &s), nil
		}
	}
	v := &s.Values
	switch {
	case !v.HasLocal && s.Dirs != nil && s.Dirs.HasSetOrder && v.HasLive && v.Live.IsList():
		// "$setElementOrder/<field>" for a list the patch leaves out reorders live's list.
		return c.patchList(&s, depth)
	case v.Local.IsMap() || v.Local.IsList(): // (a value the patch leaves out is null)
		kindErr := kindFits(&s, elements.Patch)
		if kindErr != nil && c.mapOfOtherKind(&s) {
			// (In a compose repeat's tree, live is a skeleton of the repeat's own maps: Phase 2 reads the look-up
			// against its member's outcome, visitors' unmergeableMap.)
			if err := mapsUnmergeable(&s); err != nil && c.composed == nil {
				return nil, err
			}
			s.Type, kindErr = openapi.Unknown, nil // (merged as a map of no schema)
		}
		switch {
		case kindErr != nil && !c.opts.OtherKindsAtomic:
			return nil, kindErr
		case kindErr != nil && !c.opts.Compose:
			// (OtherKindsAtomic) taken whole, less its directives, as a value of no schema.
			s.Type = openapi.Unknown
			return c.whole(&s, v.Local, depth, true)
		case c.opts.Compose && (kindErr != nil || ((!v.HasLive || v.Live.Kind() != v.Local.Kind()) && (s.Dirs == nil || !s.Dirs.HasSetOrder))):
			// A value first lacks (or of another kind, or of a kind the schema rules out: OtherKindsAtomic) is second's
			// whole; under a map, less its "$patch" maps.
			if kindErr != nil {
				s.Type = openapi.Unknown
			}
			return c.whole(&s, v.Local, depth, c.cleansWhole(&s))
		}
		if v.Local.IsMap() {
			return c.patchMap(&s, depth)
		}
		return c.patchList(&s, depth)
	}
	return build(c, &c.atomics, &s), nil
}

// leftEmptyOrder reports whether error err of format.CheckDirs for node s of a Repeat's tree is left for Phase 2,
// recorded as the Repeat's Err (the first such; collator.emptyOrder): s is a merged list the repeat holds empty and
// orders by "$setElementOrder" (and deletes from by "$deleteFromPrimitiveList", where that alone passes the check),
// which fails for want of items without live, but not collated with an outcome holding items there. Its node is then
// atomic, holding the empty list, as one the patch leaves out (orderedLeftOut pairs it so with the list of the outcome
// it is applied to; in compose mode, a field of the item's own map or a map of it reached through maps, merged or not,
// Phase 2 fails where that outcome holds no items there, and, for a merged list, reorders the outcome's list by the
// order, as for a list the repeat leaves out: visitors' reorders).
func (c *collator) leftEmptyOrder(s *elements.Node, err error) bool {
	parent, _ := s.Parent.(*elements.MapElement)
	d, composed := s.Dirs, c.composedOwn(parent != nil && inMaps(parent))
	if (c.repeat == nil && !composed) || !d.HasSetOrder || d.HasRetainKeys || d.ReplaceList ||
		!s.HasLocal || !s.Local.IsList() || s.Local.Len() > 0 || s.HasLive ||
		!(elements.MergedList(s.Type, &s.Meta) || (composed && len(s.Meta.MergeKey) == 0)) {
		return false
	}
	if d.HasDeleteFromList { // (the error is the order's only where the deletion alone passes)
		deletes := *d
		deletes.HasSetOrder, deletes.SetOrder = false, value.Value{}
		alone := *s
		alone.Dirs = &deletes
		if format.CheckDirs(&alone) != nil {
			return false
		}
	}
	if c.emptyOrder == nil {
		c.emptyOrder = err
	}
	return true
}

// composedOwn reports whether a map that is the item's own map of compose mode's repeat (itemMap: the root of the
// repeat's tree) merges into its key's outcome (collator.composed and collator.repeatMerged: the first patch holds the
// list; else the repeat stays apart, taken as the patch holds it), so that its fields are merged onto that outcome's.
func (c *collator) composedOwn(itemMap bool) bool {
	return itemMap && c.composed != nil && c.repeatMerged
}

func (c *collator) depth(n *elements.Node, depth int) error {
	if c.opts.MaxDepth > 0 && c.opts.Depth+depth > c.opts.MaxDepth {
		return n.Errorf(elements.Patch, depthMsg(c.opts.MaxDepth))
	}
	return nil
}

// depthMsg is the error of a node of a patch deeper than max levels.
func depthMsg(max int) string { return elements.DepthLimitMsg(max) }

// whole builds s as a leaf holding patch value v whole: as it stands, or, if clean, as clean returns it (s holding no
// value if clean drops it). A patch's data is cleaned outside compose mode (clean: !c.opts.Compose).
// In a compose repeat's tree, a leaf whose value clean changed (maps holding "$patch" dropped) has its node recorded in
// the Repeat (elements.Repeat.Cleaned): its value is not the patch's as it stands.
func (c *collator) whole(s *elements.Node, v value.Value, depth int, clean bool) (elements.Element, error) {
	keep, raw := true, v
	if clean {
		var err error
		if v, keep, err = c.clean(s, v, s.Type, depth); err != nil {
			return nil, err
		}
	}
	if s.Local = v; !keep {
		s.Values = elements.Values{}
	}
	leaf := build(c, &c.atomics, s)
	if clean && c.composed != nil && (!keep || !value.Equal(raw, v)) {
		c.composed.Cleaned = append(c.composed.Cleaned, leaf.ID)
	}
	if c.composed != nil {
		c.recordItemErr(leaf.Base(), raw)
	}
	return leaf, nil
}

// recordItemErr records in compose mode's Repeat (elements.Repeat.ItemErrs), for leaf n holding raw, the patch's value,
// a list of maps the schema merges by a merge key, the error reading its items as a patch's list gives (readLocalItem,
// item by item, as keyedNode reads them where the outcome holds a list of maps there).
func (c *collator) recordItemErr(n *elements.Node, raw value.Value) {
	if !raw.IsList() || len(n.Meta.MergeKey) == 0 || !elements.MergedList(n.Type, &n.Meta) ||
		slices.ContainsFunc(raw.Items(), func(it value.Value) bool { return !it.IsMap() }) {
		return
	}
	var k elements.Key
	for i, it := range raw.Items() {
		if _, err := readLocalItem(&k, n, i, it, elements.Patch, true); err != nil {
			if c.composed.ItemErrs == nil {
				c.composed.ItemErrs = map[int32]error{}
			}
			c.composed.ItemErrs[n.ID] = err
			return
		}
	}
}

// mapOfOtherKind reports whether compose mode's node s, a value of second's of a kind the schema rules out, is a map
// that gate MultiFieldMergeKeys off takes as strategicpatch's mergeMap takes any map: where first lacks the field or
// holds another kind there (a list, a scalar, null), second's map whole, less its maps holding "$patch" at any depth
// (removeDirectives; a map holding "$patch" itself drops the field); onto first's map, a map holding "$patch" as
// handleDirectiveInMergeMap takes it ("replace" gives second's map less the directive, "delete" an empty map, another
// value fails), any other map merged into first's as maps of no schema merge, directives and all, but where
// mapsUnmergeable fails. With the gate on, the kind error stays, naming the patch and the field's path.
func (c *collator) mapOfOtherKind(s *elements.Node) bool {
	return s.Local.IsMap() && c.opts.Compose && !c.opts.Gates.Enabled(features.MultiFieldMergeKeys)
}

// mapsUnmergeable is the error of merging compose mode's node s, second's map holding no "$patch" at a field whose
// schema type is a list or a scalar, onto first's map there, where strategicpatch's mergeMap fails looking a key up in
// that type, which declares no fields (smp.UnmergeableKey). Nil where first holds no map there.
func mapsUnmergeable(s *elements.Node) error {
	if !s.HasLive {
		return nil
	}
	key, bad := smp.UnmergeableKey(s.Local, s.Live)
	if !bad {
		return nil
	}
	return s.Errorf(elements.Patch, smp.Unmergeable(s.Local, key, format.KindPhrase(s.Type), s.Type.Name))
}

// cleansWhole reports whether compose mode's node s, a value of second's that first lacks (or holds as another kind)
// taken whole, is cleaned: less its maps holding "$patch" at any depth, list items among them, as strategicpatch takes
// a field a map merge finds only in second, or second's list ordered by a "$setElementOrder" that first lacks
// (removeDirectives), where it appends an item new to first's list as it stands. s is a map's field, or an item of a
// list first lacks: the root of a Repeat's tree too, an item of its list (composedIn), kept apart there as each
// repeat of a list taken whole is. A "$deleteFromPrimitiveList/<f>" value of a map merged into first's (which holds a
// map there) is kept as it stands, as strategicpatch's merge of patches sets it over first's.
func (c *collator) cleansWhole(s *elements.Node) bool {
	var l *elements.ListElement
	switch {
	case strings.HasPrefix(s.Name, smp.DeletePrefix) && c.mergedMap(s.Parent):
		return false
	case s.Parent != nil:
		l, _ = s.Parent.(*elements.ListElement)
	case c.composedIn != nil:
		l = c.composedIn
	default: // (the root, which first, an object, holds)
		return false
	}
	return l == nil || !l.HasLive
}

// mergedMap reports whether compose mode's e is a map node that strategicpatch merges into a map of the first patch:
// one whose live holds a map; in a Repeat's tree (collated onto a skeleton of its maps), the item's own map where it
// merges into its key's outcome (composedOwn), and no map below it, whose outcome Phase 1 does not know.
func (c *collator) mergedMap(e elements.Element) bool {
	m, ok := e.(*elements.MapElement)
	if !ok || !m.HasLive || !m.Live.IsMap() {
		return false
	}
	return c.composed == nil || c.composedOwn(m.Parent == nil)
}

// patchMap builds the node of a patch map (that fits the schema).
func (c *collator) patchMap(s *elements.Node, depth int) (elements.Element, error) {
	if c.opts.Compose && s.Meta.Strategy.Has(openapi.StrategyReplace) && s.HasLive && s.Live.IsMap() {
		return build(c, &c.atomics, s), nil // second's map of strategy replace, "$patch" and all
	}
	data, directive, byField, err := format.ReadMap(s, c.opts.Compose, !c.opts.Gates.Enabled(features.MultiFieldMergeKeys), &c.directives)
	if err != nil {
		return nil, err
	}
	hasLive := s.HasLive && s.Live.IsMap()
	switch {
	case directive != "" && !hasLive:
		// A directive map for a field live lacks is dropped (the field stays absent), as strategicpatch does.
		local := s.Local
		s.Local = value.Null
		dropped := build(c, &c.atomics, s)
		s.Local = local
		c.ontoMap(s, dropped.ID, data, directive, depth)
		return dropped, nil
	case directive == smp.DeleteValue && c.opts.Gates.Enabled(features.PatchDeleteRemovesMap):
		// With the gate, so is a "$patch: delete" map (document 001).
		s.Local = value.Null
	case directive == smp.DeleteValue:
		// Without the gate, a "$patch: delete" map leaves an empty map, as strategicpatch does.
		s.Local = value.MapFromSorted(nil)
	case directive != "" || (s.Meta.Strategy.Has(openapi.StrategyReplace) && hasLive):
		// A "$patch: replace" map, or a map of strategy replace, is the patch's, whole.
		return c.whole(s, value.MapFromSorted(format.Own(s.Local, data)), depth, !c.opts.Compose)
	default:
		if !hasLive {
			s.Live, s.HasLive = value.Value{}, false
		} else if err := orderOfNoField(s, byField); err != nil {
			return nil, err
		}
		e, err := c.fieldsNode(s, data, byField, depth)
		if err == nil && !hasLive {
			c.replacedOnto(s, e.Base().ID, data, depth)
		}
		return e, err
	}
	return build(c, &c.atomics, s), nil
}

// orderOfNoField is the error of the first "$setElementOrder/<f>" of patch map s, merged into live's map, that names
// no list strategicpatch's look-up finds in s's type: an f an object's type does not declare, or any f in a map of
// values (additionalProperties), whose keys are data. strategicpatch looks f up as a list wherever it merges such a
// map, the list present or not, and every schema it reads fails that look-up there (Go structs, OpenAPI v2 and v3:
// "unable to find api field", "expected slice, but got map"). A declared f is refused where the reader of its schema
// refuses it (openapi.Field.NotAList: OpenAPI v2 for a primitive or a map, Go struct tags for a field neither a slice
// nor a pointer), and only where live and the patch hold a list there or nothing, as strategicpatch checks their
// values first (ply refuses those elsewhere). Nil for a map of no schema (or a free-form one), where ply knows no
// fields, and for a declared field OpenAPI v3 (kubectl's) reads, which it looks up as a list unrefused.
func orderOfNoField(s *elements.Node, byField []format.FieldDirectives) error {
	t := s.Type
	if t == nil || (t.Kind != openapi.KindStruct && t.Kind != openapi.KindMap) {
		return nil
	}
	for _, fd := range byField {
		if !fd.Dirs.HasSetOrder {
			continue
		}
		f := t.Field(fd.Name)
		switch {
		case f != nil && (f.NotAList == "" || !listOrNone(s.Live, fd.Name) || !listOrNone(s.Local, fd.Name)):
		case f != nil:
			return s.Errorf(elements.Patch, smp.OrderOfNoField(fd.Name, t.Name, t.Kind == openapi.KindMap, f.NotAList))
		default:
			return s.Errorf(elements.Patch, smp.OrderOfNoField(fd.Name, t.Name, t.Kind == openapi.KindMap, ""))
		}
	}
	return nil
}

// listOrNone reports whether map m holds a list at key, or nothing.
func listOrNone(m value.Value, key string) bool {
	v, ok := m.Get(key)
	return !ok || v.IsList()
}

// patchList builds the node of a list the patch sets, or of live's list "$setElementOrder/<field>" reorders.
func (c *collator) patchList(s *elements.Node, depth int) (elements.Element, error) {
	if !elements.MergedList(s.Type, &s.Meta) {
		// The patch's list replaces live's whole.
		return c.whole(s, s.Local, depth, !c.opts.Compose)
	}
	switch class, err := format.ListClass(s); {
	case err != nil:
		return nil, err
	case class != value.KindMap || elements.SetOfMaps(s.Type, &s.Meta):
		// (Without items, in the patch or in live, it is an empty set.)
		return c.setNode(s)
	case len(s.Meta.MergeKey) == 0:
		return nil, s.Errorf(elements.Patch, smp.NoMergeKey)
	}
	return c.keyedNode(s, depth)
}

// clean returns patch value v of n at depth as data (a replaced map or list, a list without merge strategy): without
// null map fields, directive keys and maps holding "$patch" (keep false: a replaced value's directives are ignored); in
// compose mode, without those maps only. Too deep is an error (values built in memory escape the parser's limit).
func (c *collator) clean(n *elements.Node, v value.Value, t *openapi.Type, depth int) (out value.Value, keep bool, err error) {
	if !v.IsMap() && !v.IsList() {
		return v, true, nil
	}
	if err := c.depth(n, depth); err != nil {
		return v, false, err
	}
	if v.IsList() {
		items, it := make([]value.Value, 0, v.Len()), t.Item()
		for _, x := range v.Items() {
			switch cv, keep, err := c.clean(n, x, it, depth+1); {
			case err != nil:
				return v, false, err
			case keep:
				items = append(items, cv)
			}
		}
		return value.List(items), true, nil
	}
	if _, ok := v.Get(smp.DirectiveKey); ok && smp.Directive(t, smp.DirectiveKey) {
		return v, false, nil
	}
	fields := make([]value.Field, 0, v.Len())
	for _, fl := range v.Fields() {
		if !c.opts.Compose && (fl.Value.IsNull() || smp.Directive(t, fl.Key)) {
			continue
		}
		ct, _ := t.Child(fl.Key)
		switch cv, keep, err := c.clean(n, fl.Value, ct, depth+1); {
		case err != nil:
			return v, false, err
		case keep:
			fields = append(fields, value.Field{Key: fl.Key, Value: cv})
		}
	}
	return value.MapFromSorted(fields), true, nil
}
