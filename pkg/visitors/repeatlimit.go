package visitors

import (
	"math"
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// limitWalk decides, for a repeat whose own collation failed by the depth limit, by a merged list's
// "$setElementOrder" (elements.Repeat.Disordered), or by ordering a field it sets to other than a list (Fails), or whose
// Err is a list's it holds empty and orders (elements.EmptyOrdered, its tree built), at node at (elements.Repeat.Err, its
// path from the item; Room: elements.Repeat.Room), the error a collation of the patch's item with an outcome v as live
// gives, walking the item and v together in the collation's order (a map's fields by name, depth first):
//
//   - a field of the patch v lacks, or holds where the patch's value is not a map onto a map of v's, is built as
//     without live, as Phase 1 built it: it holds at, and fails there, or it holds no error;
//   - a field of v the patch lacks is a leaf at its level (no node below it is built), beyond the limit where that
//     level exceeds Room;
//   - a map of the patch onto a map of v's is walked so in turn, its own node at its level (at, if it is);
//   - a merged list of the patch's onto v's list is its node (at, if it is: its depth first, its order once its items
//     and v's are read), then: a set of scalars whose items and v's merge, nothing more (its items are leaves); a list
//     merged by key, each member onto v's item of its key (keyed); its items and v's failing to merge (smp.ListClass,
//     smp.KeyedListClass), it fails there (classErr), as the collation checks the classes before it reads the items;
//   - a merged list the patch holds empty and orders by "$setElementOrder", where v holds it empty or lacks it, fails
//     there (Phase 1 went past that error: elements.EmptyOrdered), where v holds another kind (a null, a scalar, a
//     map), fails there as live's, as the collation refuses an order of such a value, and where v holds a keyed list
//     with items, each of the order's entries naming an item by the key, is walked on as a list merged by key
//     (emptyOrdered); at it, its depth is checked first.
//
// The walk gives up (not decided) where the collation with v builds the patch's nodes otherwise than Phase 1 did: at, a
// list merged by no strategy whose "$setElementOrder" Phase 1 refused as a later item's (orderedForRepeat); a "$" key
// in a map walked with v's (a directive; but a "$setElementOrder" for a field v lacks or for a list both hold merged by
// key, or a set of scalars the patch names no value twice in: orderedOnto, and a "$deleteFromPrimitiveList" alone for a
// list the patch leaves out, checked against v's: deletion), a field a merge rule names, a merged list of the patch's
// where v holds another kind, a set of maps, a map of strategy replace holding at where v holds a map (taken whole and
// cleaned, its depth checked otherwise), a value built as without live holding a list it holds empty and orders (which
// Phase 1 went past; but at, an EmptyOrdered repeat's first such: alone), and such a list where v holds a set, or a
// keyed list one of the order's entries does not name an item of by the key.
type limitWalk struct {
	at  fieldpath.Path
	err *elements.Error
	// depth reports err the depth limit's (met at its node first), else a merged list's "$setElementOrder"'s (met once
	// its items and v's are read) or a field's ordered and set to other than a list (met at its node, v holding a list
	// there or none).
	depth bool
	// empty reports err a list's the patch holds empty and orders by "$setElementOrder" (elements.EmptyOrdered: the first
	// such in Phase 1's order, met at its node where v holds no items there: none, or an empty list).
	empty bool
	// room is elements.Repeat.Room; beyond the error of a node below it, at the depth limit.
	room   int
	beyond string
}

// limitFailure returns the error collating repeat r's patch item p, of type t, with v as live gives, r's collation
// having failed by the depth limit, by a merged list's "$setElementOrder" or by ordering a field it sets to other than a
// list (elements.Repeat.Room, Disordered, Fails), or at a list it holds empty and orders (Element built: EmptyOrdered); decided
// is false where the patch's item and v do not tell it (limitWalk).
func limitFailure(r elements.Repeat, p value.Value, t *openapi.Type, v value.Value) (err error, decided bool) {
	e, ok := r.Err.(*elements.Error)
	empty := r.Element != nil // (Err a list's it holds empty and orders: elements.EmptyOrdered)
	if r.Room < 1 || !ok || !p.IsMap() || !v.IsMap() {
		return nil, false
	}
	w := limitWalk{at: e.Path, err: e, depth: !r.Disordered && !empty, empty: empty, room: r.Room}
	if r.Room <= math.MaxInt-r.Depth {
		w.beyond = elements.DepthLimitMsg(r.Room + r.Depth)
	}
	err, decided = w.maps(p, v, t, nil)
	return err, decided && err != nil // (the walk meets at wherever it decides: none met is not known)
}

// maps walks patch map p onto v's map at path (from the item), of type t: the first error, nil where none lies there.
// Its fields are walked by name: the patch's data, the fields it orders by "$setElementOrder" (a keyed list where v
// holds the field), v's.
func (w limitWalk) maps(p, v value.Value, t *openapi.Type, path fieldpath.Path) (err error, decided bool) {
	if path.Equal(w.at) {
		return w.err, true // (the node's own depth is checked first)
	}
	ordered, deleted, plain := directed(p, v)
	if !plain {
		return nil, false
	}
	for _, name := range fieldNames(p, v, ordered) {
		pv, inP := p.Get(name)
		if inP && strings.HasPrefix(name, "$") {
			continue // (a directive: its field is walked in its place)
		}
		lv, inV := v.Get(name)
		ct, meta := t.Child(name)
		at := path.Child(fieldpath.Field(name))
		del, deleting := deleted[name]
		switch {
		case meta.Rule != nil || (deleting && inV && (inP || ordered[name])):
			return nil, false
		case w.orderedForRepeat(at, name, pv, p, ct, &meta):
			return nil, false
		case deleting && inV:
			if err := w.deletion(at, lv, del, ct, &meta); err != nil {
				return err, true
			}
			continue
		case ordered[name] && inV && inP && !pv.IsList() && lv.IsList() && at.Equal(w.at):
			return w.err, true // (set to other than a list: refused as the patch's, as Phase 1 refused it)
		case ordered[name] && inP && pv.IsList() && pv.Len() == 0:
			order, _ := p.Get(smp.SetOrderPrefix + name)
			if err, decided := w.emptyOrdered(at, order, lv, inV, ct, &meta); err != nil || !decided {
				return err, decided
			}
		case ordered[name] && inV && !inP && !w.at.HasPrefix(at):
			// (an order alone of v's list: a leaf at its level, reordered once its items and the order are read)
			order, _ := p.Get(smp.SetOrderPrefix + name)
			if err, decided := w.orderedAlone(at, order, lv, ct, &meta); err != nil || !decided {
				return err, decided
			}
			continue
		case ordered[name] && inV && !orderedOnto(pv, inP, ct, &meta):
			return nil, false
		}
		if err, decided := w.field(at, pv, lv, inP, inV, ct, &meta); err != nil || !decided {
			return err, decided
		}
	}
	return nil, true
}

// orderedForRepeat reports whether field name at path, of type t and metadata meta (pv the value of patch map p there),
// is where the repeat's collation refused a "$setElementOrder" of a list merged by no strategy as a later item's
// (collate's repeatOrdered: smp.OrderOfUnmerged at at), an order strategicpatch could apply whatever live holds there
// (not unorderedPatch): a collation of the item with v as live orders that list as the patch's (collate's
// kubectlOrdered), failing otherwise or not, and the walk gives up.
func (w limitWalk) orderedForRepeat(path fieldpath.Path, name string, pv, p value.Value, t *openapi.Type, meta *openapi.Meta) bool {
	order, ordered := p.Get(smp.SetOrderPrefix + name)
	return ordered && path.Equal(w.at) && w.err.Msg == smp.OrderOfUnmerged(name) && t.Kind == openapi.KindList &&
		!elements.MergedList(t, meta) && !unorderedPatch(pv, order)
}

// directed returns the fields patch map p names in its "$setElementOrder" keys (ordered: true) and its
// "$deleteFromPrimitiveList" keys (false where it orders none; deleted: the values), and plain, false where p holds
// another "$" key, or one v holds too.
func directed(p, v value.Value) (ordered map[string]bool, deleted map[string]value.Value, plain bool) {
	ordered, deleted = map[string]bool{}, map[string]value.Value{}
	for _, f := range p.Fields() {
		if _, held := v.Get(f.Key); !strings.HasPrefix(f.Key, "$") {
			continue
		} else if held {
			return nil, nil, false
		}
		if name, orders := strings.CutPrefix(f.Key, smp.SetOrderPrefix); orders {
			ordered[name] = true
		} else if name, deletes := strings.CutPrefix(f.Key, smp.DeletePrefix); deletes {
			deleted[name] = f.Value
			if _, named := ordered[name]; !named {
				ordered[name] = false
			}
		} else {
			return nil, nil, false
		}
	}
	return ordered, deleted, true
}

// deletion returns the error a collation with v as live gives at field path, a list the patch leaves out and deletes
// values del from by "$deleteFromPrimitiveList" alone, of type t and metadata meta, where v holds lv: at, if it is (the
// values' own checks, as Phase 1 made them), or the deletion lv refuses (smp.DeletesFromClass, as format.CheckDirs finds
// it); nil where none (the node is a leaf).
func (w limitWalk) deletion(path fieldpath.Path, lv, del value.Value, t *openapi.Type, meta *openapi.Meta) error {
	if path.Equal(w.at) {
		return w.err
	}
	deleted, _ := smp.ItemClass(del.Items())
	switch msg, fromLive := smp.DeletesFromClass(smp.DeletePrefix+path[len(path)-1].Field, deleted, lv.Items(), elements.SetOfMaps(t, meta)); {
	case msg == "":
		return nil
	case fromLive:
		return &elements.Error{Source: elements.Live, Path: path, Msg: msg}
	default:
		return &elements.Error{Source: elements.Patch, Path: path, Msg: msg}
	}
}

// orderedOnto reports whether a field the patch orders by "$setElementOrder" and v holds, pv the patch's value (inP:
// it holds one), of type t and metadata meta, is a merged list the walk takes (list): keyed, or a set of scalars the
// patch names no value twice in (kept apart without live: Ranked, not so with v's list).
func orderedOnto(pv value.Value, inP bool, t *openapi.Type, meta *openapi.Meta) bool {
	if !inP || !pv.IsList() || !elements.MergedList(t, meta) || elements.SetOfMaps(t, meta) {
		return false
	}
	if len(meta.MergeKey) > 0 {
		return true
	}
	seen := map[value.ScalarKey]bool{}
	for _, it := range pv.Items() {
		k, ok := elements.SetKey(it, false)
		if ok && seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
}

// field walks field path of a map walked with v's: pv the patch's value (inP: it holds one), lv v's (inV).
func (w limitWalk) field(path fieldpath.Path, pv, lv value.Value, inP, inV bool, t *openapi.Type, meta *openapi.Meta) (err error, decided bool) {
	switch {
	case !inV: // (built as without live)
	case !inP: // (a leaf, its value unread)
		if len(path) > w.room {
			return &elements.Error{Source: elements.Patch, Path: path, Msg: w.beyond}, true
		}
		return nil, true
	case pv.IsList() && elements.SetOfMaps(t, meta):
		return nil, false // (merged or not by a gate)
	case pv.IsList() && elements.MergedList(t, meta):
		return w.list(pv, lv, t, meta, path)
	case pv.IsMap() && lv.IsMap() && meta.Strategy.Has(openapi.StrategyReplace):
		if w.at.HasPrefix(path) {
			return nil, false
		}
		return nil, true
	case pv.IsMap() && lv.IsMap():
		return w.maps(pv, lv, t, path)
	}
	return w.alone(path, pv)
}

// alone walks patch value pv at path, built as without live, as Phase 1 built it: at's error where it holds at, else
// none; not decided where it holds a list it holds empty and orders (holdsEmptyOrdered), whose error Phase 1 went past,
// but where at is the first such (elements.EmptyOrdered's Err).
func (w limitWalk) alone(path fieldpath.Path, pv value.Value) (err error, decided bool) {
	switch {
	case holdsEmptyOrdered(pv) && !(w.empty && w.at.HasPrefix(path)):
		return nil, false
	case w.at.HasPrefix(path):
		return w.err, true
	}
	return nil, true
}

// emptyOrdered walks field path of a map walked with v's, a list the patch holds empty and orders by "$setElementOrder"
// (its entries: order), lv v's value there (inV: v holds one), of type t and metadata meta, as the collation with v
// meets it: at's error where it is at, but for a list it holds empty and orders (the depth checked first); merged,
// live's refused order where lv is another kind (a null among them), the order of a list without items where lv has
// none, as Phase 1 found it (at's error where at). Where lv is a keyed list with items, orderOnto's: the first error
// reading lv's items and the order's entries as the collation reads them, else nil and decided (the list is walked on
// as any: field). Not decided for a set or an order that is not a list.
func (w limitWalk) emptyOrdered(path fieldpath.Path, order, lv value.Value, inV bool, t *openapi.Type, meta *openapi.Meta) (err error, decided bool) {
	name := path[len(path)-1].Field
	switch {
	case path.Equal(w.at) && !w.empty:
		return w.err, true
	case !elements.MergedList(t, meta):
		return nil, false
	case inV && !lv.IsList():
		return &elements.Error{Source: elements.Live, Path: path, Msg: smp.OrderOfLive(name, lv.Kind())}, true
	case lv.Len() == 0 && path.Equal(w.at):
		return w.err, true
	case lv.Len() == 0:
		return &elements.Error{Source: elements.Patch, Path: path, Msg: smp.OrderWithoutItems(name)}, true
	}
	return orderOnto(path, order, lv, t, meta)
}

// orderOnto is the error a collation with v as live gives at field path, a list merged by key (type t, metadata
// meta) whose patch list holds no items, ordered by "$setElementOrder" order, where v holds list lv with items, as
// the collation reads them: their classes (smp.KeyedListClass), lv's items' keys, then the order's entries' (each must
// name an item by the key); nil where none fails (lv's items are then leaves). Not decided for a set, or an order
// that is not a list.
func orderOnto(path fieldpath.Path, order, lv value.Value, t *openapi.Type, meta *openapi.Meta) (err error, decided bool) {
	mk, itemType, name := meta.MergeKey, t.Item(), path[len(path)-1].Field
	if len(mk) == 0 || elements.SetOfMaps(t, meta) || !order.IsList() || !lv.IsList() {
		return nil, false
	}
	if _, msg, fromLive := smp.KeyedListClass(lv.Items(), nil); msg != "" {
		return classErr(path, msg, fromLive), true
	}
	for i, it := range lv.Items() {
		if _, missing, bad := elements.KeyOf(it, mk, itemType); !it.IsMap() || missing != "" {
			return &elements.Error{Source: elements.Live, Path: path, Msg: smp.ItemKeyMsg("item", i, it, mk, missing, bad)}, true
		}
	}
	for i, e := range order.Items() {
		_, missing, bad := elements.KeyOf(e, mk, itemType)
		switch {
		case !e.IsMap():
			return &elements.Error{Source: elements.Patch, Path: path, Msg: smp.OrderEntryKind(name, i, mk, e.Kind())}, true
		case missing != "" && !elements.NamesNothing(e, mk, itemType):
			return &elements.Error{Source: elements.Patch, Path: path, Msg: smp.ItemKeyMsg(smp.OrderEntries(name), i, e, mk, missing, bad)}, true
		}
	}
	return nil, true
}

// orderedAlone walks field path of a map walked with v's, a list merged by key (type t, metadata meta) the patch leaves
// out and orders by "$setElementOrder" order alone, lv v's value there: beyond the limit where its level exceeds Room,
// else, as the collation with v reorders lv, live's refused order where lv is not a list (a null among them), the
// order of a list without items where lv has none, else orderOnto's. Not decided for a set.
func (w limitWalk) orderedAlone(path fieldpath.Path, order, lv value.Value, t *openapi.Type, meta *openapi.Meta) (err error, decided bool) {
	name := path[len(path)-1].Field
	switch {
	case !elements.MergedList(t, meta) || len(meta.MergeKey) == 0 || elements.SetOfMaps(t, meta):
		return nil, false
	case len(path) > w.room:
		return &elements.Error{Source: elements.Patch, Path: path, Msg: w.beyond}, true
	case !lv.IsList():
		return &elements.Error{Source: elements.Live, Path: path, Msg: smp.OrderOfLive(name, lv.Kind())}, true
	case lv.Len() == 0:
		return &elements.Error{Source: elements.Patch, Path: path, Msg: smp.OrderWithoutItems(name)}, true
	}
	return orderOnto(path, order, lv, t, meta)
}

// list walks patch list pv, merged, onto v's value lv at path, of type t and metadata meta, where lv is a list: a set of
// scalars whose items and lv's merge (smp.ListClass) is its node alone (at, if it is: its depth first, its order once
// the items are read; its items are leaves), failing there where they do not (classErr), a list merged by key is
// walked as keyed walks it.
func (w limitWalk) list(pv, lv value.Value, t *openapi.Type, meta *openapi.Meta, path fieldpath.Path) (err error, decided bool) {
	if !lv.IsList() {
		return nil, false
	}
	if len(meta.MergeKey) > 0 {
		return w.keyed(pv, lv, t, meta, path)
	}
	if w.depth && path.Equal(w.at) { // (the node's own depth is checked first)
		return w.err, true
	}
	if class, msg, fromLive := smp.ListClass(lv.Items(), pv.Items()); msg != "" {
		return classErr(path, msg, fromLive), true
	} else if class == value.KindMap {
		return nil, false
	}
	if path.Equal(w.at) { // (its order, checked once the items are read)
		return w.err, true
	}
	return nil, true
}

// keyed walks patch list pv, merged by key, onto v's list lv at path, of type t and metadata meta: failing there where
// lv's items and the patch's do not merge (smp.KeyedListClass: classErr), else, lv's maps each holding the key, the
// patch's without "$patch" but "delete", the list node (at, if it is), then, the patch holding items, each member (an
// item of a key not named before it; a later one is a repeat collated alone) in the patch's order, merged onto lv's first item of its key (not one a "$patch: delete" item names) or, lv holding none, as without
// live. Items lv alone holds are leaves, not walked.
func (w limitWalk) keyed(pv, lv value.Value, t *openapi.Type, meta *openapi.Meta, path fieldpath.Path) (err error, decided bool) {
	itemType, mk := t.Item(), meta.MergeKey
	class, msg, fromLive := smp.KeyedListClass(lv.Items(), pv.Items())
	switch {
	case w.depth && path.Equal(w.at): // (the node's own depth is checked first)
		return w.err, true
	case msg != "":
		return classErr(path, msg, fromLive), true
	case pv.Len() == 0: // (lv's items alone: leaves)
		return nil, true
	case class != value.KindMap:
		return nil, false
	}
	gone := map[elements.Key]bool{}
	for _, it := range pv.Items() {
		d, directed := it.Get(smp.DirectiveKey)
		if k, missing, _ := elements.KeyOf(it, mk, itemType); missing != "" || (directed && !value.Equal(d, value.String(smp.DeleteValue))) {
			return nil, false
		} else if directed {
			gone[k] = true
		}
	}
	paired := map[elements.Key]value.Value{}
	for _, it := range lv.Items() {
		k, missing, _ := elements.KeyOf(it, mk, itemType)
		if missing != "" {
			return nil, false
		}
		if _, seen := paired[k]; !seen && !gone[k] {
			paired[k] = it
		}
	}
	if path.Equal(w.at) { // (its order, checked once the items are read)
		return w.err, true
	}
	members := map[elements.Key]bool{}
	for _, it := range pv.Items() {
		k, _, _ := elements.KeyOf(it, mk, itemType)
		if _, directed := it.Get(smp.DirectiveKey); directed || members[k] {
			continue
		}
		members[k] = true
		at := path.Child(fieldpath.Key(elements.KeyFields(it, mk, itemType)))
		if live, held := paired[k]; held {
			err, decided = w.maps(it, live, itemType, at)
		} else {
			err, decided = w.alone(at, it)
		}
		if err != nil || !decided {
			return err, decided
		}
	}
	return nil, true
}

// holdsEmptyOrdered reports whether patch value p holds, at any depth, a map ordering by "$setElementOrder" a field it
// holds as an empty list.
func holdsEmptyOrdered(p value.Value) bool {
	switch {
	case p.IsList():
		for _, it := range p.Items() {
			if holdsEmptyOrdered(it) {
				return true
			}
		}
	case p.IsMap():
		for _, f := range p.Fields() {
			if name, ok := strings.CutPrefix(f.Key, smp.SetOrderPrefix); ok {
				if l, held := p.Get(name); held && l.IsList() && l.Len() == 0 {
					return true
				}
			}
			if holdsEmptyOrdered(f.Value) {
				return true
			}
		}
	}
	return false
}

// classErr is the error a collation with v as live gives at path, a merged list of the patch's whose items and v's
// list's cannot merge (smp.ListClass, smp.KeyedListClass: msg, fromLive), as format.ListClass gives it.
func classErr(path fieldpath.Path, msg string, fromLive bool) error {
	if fromLive {
		return &elements.Error{Source: elements.Live, Path: path, Msg: msg}
	}
	return &elements.Error{Source: elements.Patch, Path: path, Msg: msg}
}
