package changes

import (
	"math"
	"strings"
	"unsafe"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// Patches is what a walk that decided some nodes by their outcome trees (elements.Patched) tells Collect of them:
// strategy.Walker. There the tree below the node does not hold the outcome's structure, so Collect compares live's value
// with the outcome as values (between): maps field by field, lists merged by key item by item (an item's i-th
// occurrence of its key in one paired with its i-th in the other, as kubectl pairs repeated keys), sets value by value
// (so paired too), a list whose items are unchanged but reordered replaced, other values replaced when they differ. An
// Add or Replace is Local's. A Remove is Recorded's where local lacks the value and recorded has it (local dropped it
// since the last apply), else Local's (local nulls it, a $retainKeys clears it, or kubectl's patch deletes an item
// local still names), as Collect decides at a node and for a live duplicate of a key: an item's values in local and
// recorded are those of their first item of its identity (inputs).
type Patches interface {
	Patched(*elements.Node) *elements.Patched
}

// step is one step of a path below a node an outcome tree decided, which Path materialises: a map field, or a merged
// list's item named by its identity (its merge key fields, or, in a set, its value).
type step struct {
	field    string
	item     value.Value
	mergeKey []string
	itemType *openapi.Type // (nil: a map field)
	set      bool
}

// element is the path element of s.
func (s step) element() fieldpath.Element {
	switch {
	case s.itemType == nil:
		return fieldpath.Field(s.field)
	case s.set:
		return fieldpath.Val(s.item)
	}
	return fieldpath.Key(elements.KeyFields(s.item, s.mergeKey, s.itemType))
}

// inputs are local's and recorded's values where a differ stands (has: set, null included), for a Remove's source.
type inputs struct {
	local, recorded       value.Value
	hasLocal, hasRecorded bool
}

// removal is the source of a Remove where in stands: Recorded where local lacks the value and recorded has it.
func (in inputs) removal() elements.Source {
	if !in.hasLocal && in.hasRecorded {
		return elements.Recorded
	}
	return elements.Local
}

// field is in at field key of the maps in holds.
func (in inputs) field(key string) inputs {
	var out inputs
	if in.local.IsMap() {
		out.local, out.hasLocal = in.local.Get(key)
	}
	if in.recorded.IsMap() {
		out.recorded, out.hasRecorded = in.recorded.Get(key)
	}
	return out
}

// itemsByIdentity is the first position of each identity among the items of the lists in holds (nil: not a list).
func (in inputs) itemsByIdentity(identity func(value.Value) (elements.Key, bool)) (local, recorded map[elements.Key]int) {
	index := func(v value.Value) map[elements.Key]int {
		if !v.IsList() {
			return nil
		}
		m := make(map[elements.Key]int, v.Len())
		for i, it := range v.Items() {
			if k, ok := identity(it); ok {
				if _, seen := m[k]; !seen {
					m[k] = i
				}
			}
		}
		return m
	}
	return index(in.local), index(in.recorded)
}

// item is in at the first item of identity id of the lists in holds (local, recorded: itemsByIdentity's).
func (in inputs) item(id elements.Key, local, recorded map[elements.Key]int) inputs {
	var out inputs
	if i, ok := local[id]; ok {
		out.local, out.hasLocal = in.local.Items()[i], true
	}
	if i, ok := recorded[id]; ok {
		out.recorded, out.hasRecorded = in.recorded.Items()[i], true
	}
	return out
}

// differ compares values below node at (an outcome tree decided it), the path to the values compared in steps; in is
// local's and recorded's values at node at.
type differ struct {
	at    *elements.Node
	steps []step
	in    inputs
	// indexes holds, for an item step at that position of steps, the identity of its list's items and, once a removal
	// below asked (removal), the positions of local's and recorded's items there.
	indexes []itemIndex
}

// itemIndex is the identity of a merged list's items and, built, the first position of each in local's and recorded's
// lists there (inputs.itemsByIdentity).
type itemIndex struct {
	identity        func(value.Value) (elements.Key, bool)
	built           bool
	local, recorded map[elements.Key]int
}

// removal is the source of a Remove where d stands (inputs.removal): local's and recorded's values found along steps,
// an item's in the first item of its identity.
func (d *differ) removal() elements.Source {
	in := d.in
	for k, s := range d.steps {
		if !in.hasLocal && !in.hasRecorded {
			break
		}
		if s.itemType == nil {
			in = in.field(s.field)
			continue
		}
		ix := &d.indexes[k]
		if !ix.built {
			ix.local, ix.recorded = in.itemsByIdentity(ix.identity)
			ix.built = true
		}
		id, _ := ix.identity(s.item)
		in = in.item(id, ix.local, ix.recorded)
	}
	return in.removal()
}

// add appends the change of op by src where the differ stands, its path kept as steps (one allocation).
func (d *differ) add(out []Change, op Op, src elements.Source) []Change {
	c := Change{Op: op, Source: src, node: d.at}
	switch n := len(d.steps); {
	case n > math.MaxUint16: // (deeper than rels counts: the path materialised now)
		c.path = &segment{elems: append(d.at.Path(), elementsOf(d.steps)...)}
		c.node = nil
	case n > 0:
		rel := append([]step(nil), d.steps...)
		c.rel, c.rels = &rel[0], uint16(n)
	}
	return append(out, c)
}

// relSteps is the steps of c's path below its node (Change.rel), none for a change at a node.
func (c *Change) relSteps() []step {
	if c.rel == nil {
		return nil
	}
	return unsafe.Slice(c.rel, c.rels)
}

// between appends the changes from live value lv (liveOK: set, not null) to outcome ov (present: set, not null) where
// the differ stands, of type t and metadata meta (see Patches).
func (d *differ) between(out []Change, lv, ov value.Value, liveOK, present bool, t *openapi.Type, meta openapi.Meta) []Change {
	switch {
	case !liveOK && !present:
		return out
	case !liveOK:
		return d.add(out, Add, elements.Local)
	case !present:
		return d.add(out, Remove, d.removal())
	case value.Equal(lv, ov):
		return out
	}
	before := len(out)
	switch {
	case lv.IsMap() && ov.IsMap() && !meta.Strategy.Has(openapi.StrategyReplace):
		return d.maps(out, lv.Fields(), ov.Fields(), t)
	case lv.IsList() && ov.IsList() && elements.MergedList(t, &meta):
		out = d.lists(out, lv.Items(), ov.Items(), t, meta)
	}
	if len(out) == before {
		out = d.add(out, Replace, elements.Local)
	}
	return out
}

// maps appends the changes of maps of fields lf (live's) and of (the outcome's), field by field in key order.
func (d *differ) maps(out []Change, lf, of []value.Field, t *openapi.Type) []Change {
	for len(lf) > 0 || len(of) > 0 {
		var l, o value.Field
		switch {
		case len(of) == 0 || (len(lf) > 0 && strings.Compare(lf[0].Key, of[0].Key) < 0):
			l, lf = lf[0], lf[1:]
		case len(lf) == 0 || lf[0].Key != of[0].Key:
			o, of = of[0], of[1:]
		default:
			l, o, lf, of = lf[0], of[0], lf[1:], of[1:]
		}
		key := cmpOr(l.Key, o.Key)
		ct, cm := t.Child(key)
		d.steps = append(d.steps, step{field: key})
		out = d.between(out, l.Value, o.Value, !l.Value.IsNull(), !o.Value.IsNull(), ct, cm)
		d.steps = d.steps[:len(d.steps)-1]
	}
	return out
}

// cmpOr is a if not empty, else b.
func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// ranked is an item's identity in a merged list and its rank among the list's items of that identity.
type ranked struct {
	id   elements.Key
	rank int
}

// lists appends the changes of merged lists live and outcome: items paired by identity and rank, the outcome's in its
// order, then live's it lacks. An item without identity (no key, not a scalar) leaves the lists to be compared whole.
func (d *differ) lists(out []Change, live, outcome []value.Value, t *openapi.Type, meta openapi.Meta) []Change {
	itemType := t.Item()
	objects := elements.SetOfMaps(t, &meta)
	set := len(meta.MergeKey) == 0 || itemType.Kind == openapi.KindPrimitive || objects
	identity := func(v value.Value) (k elements.Key, ok bool) {
		if set {
			k[0], ok = elements.SetKey(v, objects)
			return k, ok
		}
		k, missing, _ := elements.KeyOf(v, meta.MergeKey, itemType)
		return k, v.IsMap() && missing == ""
	}
	// A first run of items of the same identities in both pairs in order (the usual case, with no index); the rest by
	// identity and rank among the rest (the run holds as many of each identity in both).
	same := 0
	for ; same < len(live) && same < len(outcome); same++ {
		lk, lok := identity(live[same])
		ok, ook := identity(outcome[same])
		if !lok || !ook || lk != ok {
			break
		}
	}
	pairs := make([]int, len(outcome)) // the outcome's items' live item (-1: none)
	paired := make([]bool, len(live))
	for i := range same {
		pairs[i], paired[i] = i, true
	}
	if !pair(live[same:], outcome[same:], same, pairs[same:], paired[same:], identity) {
		return out
	}
	at := len(d.steps)
	for len(d.indexes) <= at {
		d.indexes = append(d.indexes, itemIndex{})
	}
	d.indexes[at] = itemIndex{identity: identity} // (built if a removal below asks)
	for i, v := range outcome {
		d.steps = append(d.steps, step{item: v, mergeKey: meta.MergeKey, itemType: itemType, set: set})
		if j := pairs[i]; j >= 0 {
			out = d.between(out, live[j], v, !live[j].IsNull(), !v.IsNull(), itemType, openapi.Meta{})
		} else {
			out = d.add(out, Add, elements.Local)
		}
		d.steps = d.steps[:at]
	}
	for j, v := range live {
		if !paired[j] {
			d.steps = append(d.steps, step{item: v, mergeKey: meta.MergeKey, itemType: itemType, set: set})
			out = d.add(out, Remove, d.removal())
			d.steps = d.steps[:at]
		}
	}
	return out
}

// pair pairs items of outcome with items of live by identity and rank, setting pairs (each outcome item's live
// position plus offset, -1 for none) and paired (live's items paired); false if an item has no identity.
func pair(live, outcome []value.Value, offset int, pairs []int, paired []bool, identity func(value.Value) (elements.Key, bool)) bool {
	if len(live) == 0 && len(outcome) == 0 {
		return true
	}
	lids, ok := identities(live, identity)
	if !ok {
		return false
	}
	oids, ok := identities(outcome, identity)
	if !ok {
		return false
	}
	inLive := make(map[ranked]int, len(live))
	for j, id := range lids {
		inLive[id] = j
	}
	for i, id := range oids {
		pairs[i] = -1
		if j, ok := inLive[id]; ok {
			pairs[i], paired[j] = j+offset, true
		}
	}
	return true
}

// identities returns the identity and rank of each of items (ok false: an item has none).
func identities(items []value.Value, identity func(value.Value) (elements.Key, bool)) ([]ranked, bool) {
	ids := make([]ranked, len(items))
	seen := make(map[elements.Key]int, len(items))
	for i, v := range items {
		k, ok := identity(v)
		if !ok {
			return nil, false
		}
		ids[i] = ranked{k, seen[k]}
		seen[k]++
	}
	return ids, true
}

// elementsOf is the path elements of steps.
func elementsOf(steps []step) []fieldpath.Element {
	out := make([]fieldpath.Element, len(steps))
	for i, s := range steps {
		out[i] = s.element()
	}
	return out
}
