package patch

import (
	"strconv"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// itemClass is the JSON type of a list item as strategicpatch compares
// them: all items of a merged list must share one.
type itemClass uint8

const (
	classNone itemClass = iota
	classNull
	classString
	classNumber
	classBool
	classMap
	classList
)

var (
	classNames  = [...]string{"nothing", "null", "a string", "a number", "a boolean", "an object", "a list"}
	classPlural = [...]string{"nothing", "nulls", "strings", "numbers", "booleans", "objects", "lists"}
)

func classOf(v value.Value) itemClass {
	switch v.Kind() {
	case value.KindNull:
		return classNull
	case value.KindString:
		return classString
	case value.KindInt, value.KindFloat:
		return classNumber
	case value.KindBool:
		return classBool
	case value.KindMap:
		return classMap
	}
	return classList
}

// listClass returns the one class of items, or an error message naming
// the first item that differs from item 0.
func listClass(items []value.Value) (itemClass, string) {
	if len(items) == 0 {
		return classNone, ""
	}
	c := classOf(items[0])
	for i, it := range items[1:] {
		if d := classOf(it); d != c {
			return c, "list items must all be of one kind: item 0 is " + classNames[c] + ", item " + strconv.Itoa(i+1) + " is " + classNames[d]
		}
	}
	return c, ""
}

// list builds the node of a list the patch sets, or of a live list that
// "$setElementOrder/<field>" reorders while the patch leaves it out.
func (c *collator) list(parent elements.Element, name string, vals *elements.Values, pm *elements.PatchMeta, t *openapi.Type, meta openapi.Meta, depth int,
	fill func(*elements.Node), fail func(elements.Source, string) error) (elements.Element, error) {
	hasPatch := vals.HasLocal
	var pItems, live []value.Value
	if hasPatch {
		pItems = vals.Local.Items()
		if t.Kind != openapi.KindList && t.Kind != openapi.KindUnknown {
			return nil, fail(elements.Patch, "expected "+kindPhrase(t)+" ("+t.Name+"), got a list")
		}
	}
	hasLive := vals.HasLive && vals.Live.IsList()
	if hasLive {
		live = vals.Live.Items()
	}
	merge := t.Kind == openapi.KindList && meta.Strategy.Has(openapi.StrategyMerge)
	if !merge {
		if pm != nil && pm.HasSetOrder {
			return nil, fail(elements.Patch, smp.SetOrderPrefix+name+" orders lists merged by key or value; the schema does not merge this list")
		}
		// The patch's list replaces live's whole.
		e := &elements.AtomicElement{}
		fill(&e.Node)
		v, err := c.clean(vals.Local, t, depth, fail)
		if err != nil {
			return nil, err
		}
		e.Values.Local = v
		return e, nil
	}
	lc, msg := listClass(live)
	if msg != "" {
		return nil, fail(elements.Live, msg)
	}
	pc, msg := listClass(pItems)
	if msg != "" {
		return nil, fail(elements.Patch, msg)
	}
	class := lc
	if class == classNone {
		class = pc
	}
	switch {
	case lc != classNone && pc != classNone && lc != pc:
		return nil, fail(elements.Patch, "the patch's items are "+classPlural[pc]+" but live's are "+classPlural[lc])
	case class == classNone:
		if pm != nil && pm.HasSetOrder {
			return nil, fail(elements.Patch, smp.SetOrderPrefix+name+" orders a list that has no items in live or in the patch")
		}
		// Nothing to merge or order: the patch's empty list, or live's.
		e := &elements.AtomicElement{}
		fill(&e.Node)
		return e, nil
	case class == classNull:
		src := elements.Live
		if lc == classNone {
			src = elements.Patch
		}
		return nil, fail(src, "a merged list cannot hold null items")
	case class == classList:
		src := elements.Live
		if lc == classNone {
			src = elements.Patch
		}
		return nil, fail(src, "lists of lists cannot be merged")
	case class == classMap:
		if pm != nil && pm.HasDeleteFromList {
			return nil, fail(elements.Patch, smp.DeletePrefix+name+" applies to lists of scalars; this list holds objects (delete them with \""+smp.DirectiveKey+": "+smp.DeleteValue+"\" items)")
		}
		mk := meta.MergeKey
		if len(mk) == 0 {
			return nil, fail(elements.Patch, "the schema gives this merged list of objects no merge key, so its items cannot be matched")
		}
		if len(mk) > elements.MaxKeyFields {
			return nil, fail(elements.Patch, "schema declares a merge key of "+strconv.Itoa(len(mk))+" fields; at most "+strconv.Itoa(elements.MaxKeyFields)+" are supported")
		}
		e := &elements.ListElement{}
		fill(&e.Node)
		return e, c.keyed(e, hasPatch, pItems, live, t.Item(), depth, fail)
	}
	e := &elements.SetElement{}
	fill(&e.Node)
	return e, c.set(e, hasPatch, pItems, live, t.Item(), fail)
}

func keyNames(mk []string) string {
	s := ""
	for i, k := range mk {
		if i > 0 {
			s += ","
		}
		s += k
	}
	return s
}

// keyMsg is the message for an item whose merge key is missing or bad.
func keyMsg(what string, i int, missing string, bad bool, mk []string) string {
	if bad {
		return what + " " + strconv.Itoa(i) + ": merge key field \"" + missing + "\" must be a string, number or boolean"
	}
	return what + " " + strconv.Itoa(i) + " has no merge key field \"" + missing + "\" (the merge key is " + keyNames(mk) + ")"
}

// keyed collates a merged list of maps and computes its Layout.
func (c *collator) keyed(e *elements.ListElement, hasPatch bool, pItems, live []value.Value, itemType *openapi.Type, depth int, fail func(elements.Source, string) error) error {
	n := &e.Node
	mk := n.Meta.MergeKey
	pm := n.Patch
	kx := elements.NewIndex(len(mk), len(pItems)+len(live))
	// The patch's items: data items, and the "$patch" directive items.
	// seq lists the items that are not deletions, as strategicpatch checks
	// them against $setElementOrder: data items by their index in dataPos,
	// "$patch: replace" items as -1.
	var dataPos, dataKeys, delKeys, seq []int
	replace := false
	for i, it := range pItems {
		if d, ok := it.Get(smp.DirectiveKey); ok && !declares(itemType, smp.DirectiveKey) {
			s, _ := d.AsString()
			switch {
			case d.Kind() == value.KindString && s == smp.DeleteValue:
				k, missing, bad := elements.KeyOf(it, mk, itemType)
				if missing != "" {
					msg := "item " + strconv.Itoa(i) + ": a \"" + smp.DirectiveKey + ": " + smp.DeleteValue + "\" item must give the merge key (" + keyNames(mk) + "); it lacks \"" + missing + "\""
					if bad {
						msg = keyMsg("item", i, missing, bad, mk)
					}
					return fail(elements.Patch, msg)
				}
				delKeys = append(delKeys, id(kx.ID(&k)))
			case d.Kind() == value.KindString && s == smp.ReplaceValue:
				replace = true
				seq = append(seq, -1)
			case d.Kind() == value.KindString && s == smp.MergeValue:
				return fail(elements.Patch, "item "+strconv.Itoa(i)+": \""+smp.DirectiveKey+": "+smp.MergeValue+"\" cannot be given for a list (lists with a merge strategy merge without it)")
			default:
				return fail(elements.Patch, "item "+strconv.Itoa(i)+": unknown "+smp.DirectiveKey+" value "+d.Short()+"; a list item takes "+smp.DeleteValue+" or "+smp.ReplaceValue)
			}
			continue
		}
		k, missing, bad := elements.KeyOf(it, mk, itemType)
		if missing != "" {
			return fail(elements.Patch, keyMsg("item", i, missing, bad, mk))
		}
		seq = append(seq, len(dataPos))
		dataPos = append(dataPos, i)
		dataKeys = append(dataKeys, id(kx.ID(&k)))
	}
	liveKeys := make([]int, len(live))
	for i, it := range live {
		k, missing, bad := elements.KeyOf(it, mk, itemType)
		if missing != "" {
			return fail(elements.Live, keyMsg("item", i, missing, bad, mk))
		}
		liveKeys[i] = id(kx.ID(&k))
	}
	var orderKeys []int
	hasOrder := pm != nil && pm.HasSetOrder
	if hasOrder {
		order := pm.SetOrder.Items()
		orderKeys = make([]int, len(order))
		for i, it := range order {
			if !it.IsMap() {
				return fail(elements.Patch, smp.SetOrderPrefix+n.Name+" item "+strconv.Itoa(i)+": expected an object holding the merge key ("+keyNames(mk)+"), got "+it.Kind().String())
			}
			k, missing, bad := elements.KeyOf(it, mk, itemType)
			if missing != "" {
				return fail(elements.Patch, keyMsg(smp.SetOrderPrefix+n.Name+" item", i, missing, bad, mk))
			}
			orderKeys[i] = id(kx.ID(&k))
		}
	}
	// Per key: its position among the patch's data items, whether it is
	// deleted, its first live position, its first position in the order
	// list (-1: none).
	nk := kx.Len()
	patchPos := fillInt(nk, -1)
	for j, k := range dataKeys {
		if prev := patchPos[k]; prev >= 0 {
			return fail(elements.Patch, "items "+strconv.Itoa(dataPos[prev])+" and "+strconv.Itoa(dataPos[j])+" have the same merge key "+keyNames(mk)+"; a patch names each item once")
		}
		patchPos[k] = j
	}
	gone := make([]bool, nk)
	for _, k := range delKeys {
		gone[k] = true
	}
	firstLive := fillInt(nk, -1)
	deleted := make([]bool, len(live))
	survivors := len(live)
	for i, k := range liveKeys {
		if firstLive[k] < 0 {
			firstLive[k] = i
		}
		if gone[k] {
			deleted[i] = true
			survivors--
		}
	}
	var orderPos []int
	if hasOrder {
		orderPos = fillInt(nk, -1)
		for i, k := range orderKeys {
			if orderPos[k] < 0 {
				orderPos[k] = i
			}
		}
		if err := checkOrder(seq, dataKeys, orderKeys, orderPos, n.Name, fail); err != nil {
			return err
		}
	}

	// Members: Items (one per distinct key) then LiveExtra (live
	// duplicates); canon maps a member to the Item of its key.
	var items []elements.Item
	var extra []elements.Item
	var itemKey []int // the key of each Item
	var layout []int
	// viewRank is each Item's first position in the server's view of
	// live's backing array (for $setElementOrder), -1 when not in it.
	var viewRank []int
	type pending struct {
		id   int
		vals elements.Values
	}
	var walk []pending
	idOf := fillInt(nk, -1)
	if replace {
		// The patch's items replace live's list; live's deletions still
		// shift the server's view of it.
		items = make([]elements.Item, len(dataPos))
		itemKey = dataKeys
		layout = make([]int, len(dataPos))
		for j, pos := range dataPos {
			v, err := c.clean(pItems[pos], itemType, depth+1, fail)
			if err != nil {
				return err
			}
			items[j] = elements.Item{RecordedIndex: -1, LocalIndex: pos, LiveIndex: -1, Of: -1}
			items[j].Element = &elements.AtomicElement{Node: elements.Node{Parent: e, Type: itemType, Values: elements.Values{Local: v, HasLocal: true}}}
			idOf[dataKeys[j]] = j
			layout[j] = j
		}
		if hasOrder {
			viewRank = fillInt(len(items), -1)
			p := 0
			for i, k := range liveKeys {
				if deleted[i] {
					continue
				}
				if id := idOf[k]; id >= 0 && viewRank[id] < 0 {
					viewRank[id] = p
				}
				p++
			}
			canon := make([]int, len(items))
			for id := range canon {
				canon[id] = id
			}
			if c.kubectl {
				layout = reorder(layout, canon, itemKey, orderPos, viewRank)
			} else {
				layout, _ = seedArrange(layout, func(id int) int { return orderPos[itemKey[id]] }, len(orderKeys))
			}
		}
	} else {
		items = make([]elements.Item, 0, len(dataPos)+survivors)
		itemKey = make([]int, 0, len(dataPos)+survivors)
		for j, pos := range dataPos {
			k := dataKeys[j]
			li := firstLive[k]
			if li >= 0 && deleted[li] {
				li = -1
			}
			idOf[k] = j
			items = append(items, elements.Item{RecordedIndex: -1, LocalIndex: pos, LiveIndex: li, Of: -1})
			itemKey = append(itemKey, k)
			cv := elements.Values{Local: pItems[pos], HasLocal: true}
			if li >= 0 {
				cv.Live, cv.HasLive = live[li], true
			}
			walk = append(walk, pending{id: j, vals: cv})
		}
		// liveOf holds, per live position, its member (-1 when deleted,
		// -2-j for extra j: extras are numbered after all the Items).
		liveOf := make([]int, len(live))
		for i, k := range liveKeys {
			liveOf[i] = -1
			if deleted[i] {
				continue
			}
			switch id := idOf[k]; {
			case id < 0:
				idOf[k] = len(items)
				liveOf[i] = len(items)
				items = append(items, elements.Item{RecordedIndex: -1, LocalIndex: -1, LiveIndex: i, Of: -1})
				itemKey = append(itemKey, k)
			case items[id].LiveIndex == i:
				liveOf[i] = id
			default:
				liveOf[i] = -2 - len(extra)
				extra = append(extra, elements.Item{RecordedIndex: -1, LocalIndex: -1, LiveIndex: i, Of: id})
			}
		}
		nItems := len(items)
		canon := make([]int, nItems+len(extra))
		for id := range nItems {
			canon[id] = id
		}
		for j, x := range extra {
			canon[nItems+j] = x.Of
		}
		// merged: the server's working list after deletions and appends:
		// survivors in live order, then the new items in patch order.
		merged := make([]int, 0, survivors+len(dataPos))
		for i := range live {
			switch id := liveOf[i]; {
			case id >= 0:
				merged = append(merged, id)
			case id <= -2:
				merged = append(merged, nItems+(-2-id))
			}
		}
		fresh := 0
		for j := range dataPos {
			if items[j].LiveIndex < 0 {
				merged = append(merged, j)
				fresh++
			}
		}
		// firstAt: each Item's first position in seq, -1 when absent.
		firstAt := func(seq []int) []int {
			r := fillInt(nItems, -1)
			for p, id := range seq {
				if c := canon[id]; r[c] < 0 {
					r[c] = p
				}
			}
			return r
		}
		switch {
		case !hasPatch:
			layout = merged
		case !c.kubectl:
			// Live's items the patch leaves out, in live order, merged
			// with the patch's in patch order (a live duplicate right
			// after its item) by their live positions (seedInterleave).
			np := len(dataPos)
			byRun, nServer := seedArrange(merged, func(id int) int {
				if k := canon[id]; k < np {
					return k
				}
				return -1
			}, np)
			pos := fillInt(len(canon), -1)
			for p, id := range merged[:survivors] {
				pos[id] = p
			}
			layout = seedInterleave(byRun[:nServer], byRun[nServer:], func(id int) int { return pos[id] })
		default:
			// Ranks come from live's list after the deletions:
			// strategicpatch appends the new items to a copy of the slice
			// header, so they have no rank here.
			rank := firstAt(merged[:survivors])
			var inPatch, serverOnly []int
			for _, id := range merged {
				if canon[id] < len(dataPos) {
					inPatch = append(inPatch, id)
				} else {
					serverOnly = append(serverOnly, id)
				}
			}
			sortBy(inPatch, func(id int) int { return canon[id] })
			rankOf := func(id int) int { return rank[canon[id]] }
			sortBy(serverOnly, rankOf)
			layout = interleave(serverOnly, inPatch, rankOf)
		}
		switch {
		case hasOrder && !c.kubectl:
			layout, _ = seedArrange(layout, func(id int) int { return orderPos[itemKey[canon[id]]] }, len(orderKeys))
		case hasOrder:
			// The server's view of live's backing array: survivors
			// compacted to the front, then the first new items written
			// into the slots the deletions freed.
			viewRank = firstAt(merged[:survivors+min(fresh, len(live)-survivors)])
			layout = reorder(layout, canon, itemKey, orderPos, viewRank)
		}
	}
	// Children.
	for i := range items {
		if items[i].Element == nil && items[i].LocalIndex < 0 {
			items[i].Element = liveLeaf(e, itemType, live[items[i].LiveIndex])
		}
	}
	for _, w := range walk {
		child, err := c.node(e, "", w.vals, nil, itemType, openapi.Meta{}, depth+1)
		if err != nil {
			return err
		}
		items[w.id].Element = child
	}
	for j := range extra {
		extra[j].Element = liveLeaf(e, itemType, live[extra[j].LiveIndex])
	}
	e.Items, e.LiveExtra = items, extra
	if n.Patch == nil {
		n.Patch = &elements.PatchMeta{}
	} else {
		cp := *n.Patch
		n.Patch = &cp
	}
	n.Patch.ReplaceList = replace
	n.Patch.Layout = layout
	return nil
}

// liveLeaf is the element of a live item the patch leaves as it is.
func liveLeaf(parent elements.Element, t *openapi.Type, v value.Value) elements.Element {
	return &elements.AtomicElement{Node: elements.Node{Parent: parent, Type: t, Values: elements.Values{Live: v, HasLive: true}}}
}

// checkOrder enforces the two rules of "$setElementOrder": every item of
// the patch list (deletions aside) is in the order list, and in the same
// relative order. It walks both lists once, as strategicpatch does: a
// "$patch: replace" item (-1 in seq) is skipped while order entries
// remain, and counts as unmatched after the last one. Keys are keyIDs.
func checkOrder(seq, dataKeys, orderKeys, orderPos []int, name string, fail func(elements.Source, string) error) error {
	if len(dataKeys) == 0 && len(orderKeys) == 0 || len(seq) == 0 {
		return nil
	}
	if len(orderKeys) == 0 {
		return fail(elements.Patch, smp.SetOrderPrefix+name+" is empty but the patch list has items; every item of the patch list must be in it")
	}
	p, o := 0, 0
	for p < len(seq) && o < len(orderKeys) {
		if seq[p] < 0 {
			p++
			continue
		}
		if dataKeys[seq[p]] == orderKeys[o] {
			p++
		}
		o++
	}
	if p == len(seq) {
		return nil
	}
	if seq[p] < 0 {
		return fail(elements.Patch, "the patch list has a \""+smp.DirectiveKey+": "+smp.ReplaceValue+"\" item after the last item "+smp.SetOrderPrefix+name+" names")
	}
	if orderPos[dataKeys[seq[p]]] < 0 {
		return fail(elements.Patch, "patch list item "+strconv.Itoa(seq[p])+" is missing from "+smp.SetOrderPrefix+name+"; every item of the patch list must be in it")
	}
	return fail(elements.Patch, "the order of the patch list contradicts "+smp.SetOrderPrefix+name+": patch list item "+strconv.Itoa(seq[p])+" comes after an item it precedes there")
}

// fillInt returns n copies of v.
func fillInt(n, v int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// reorder applies "$setElementOrder": the members the order list names,
// sorted by it, merged with the others, sorted by their rank in the
// server's view of live's list (viewRank, by Item; -1: not in the view).
// canon maps members to Items, itemKey Items to keyIDs, orderPos keyIDs
// to order positions.
func reorder(layout, canon, itemKey, orderPos, viewRank []int) []int {
	posOf := func(id int) int { return orderPos[itemKey[canon[id]]] }
	var named, others []int
	for _, id := range layout {
		if posOf(id) >= 0 {
			named = append(named, id)
		} else {
			others = append(others, id)
		}
	}
	rankOf := func(id int) int { return viewRank[canon[id]] }
	sortBy(named, posOf)
	sortBy(others, func(id int) int {
		if r := rankOf(id); r >= 0 {
			return r
		}
		return int(^uint(0) >> 1)
	})
	return interleave(others, named, rankOf)
}

// seedArrange partitions ids for OrderSeed (design document 000): the
// members rank leaves unranked (-1) first, in their order in ids, then the
// ranked ones by rank, ties in their order in ids; unranked is how many
// come first. rank values are below bound: a counting sort,
// O(len(ids)+bound).
func seedArrange(ids []int, rank func(int) int, bound int) (out []int, unranked int) {
	out = make([]int, 0, len(ids))
	count := make([]int, bound+1)
	for _, id := range ids {
		if r := rank(id); r < 0 {
			out = append(out, id)
		} else {
			count[r+1]++
		}
	}
	unranked = len(out)
	// count[r] becomes the first slot of rank r.
	count[0] = unranked
	for r := 1; r <= bound; r++ {
		count[r] += count[r-1]
	}
	out = out[:len(ids)]
	for _, id := range ids {
		if r := rank(id); r >= 0 {
			out[count[r]] = id
			count[r]++
		}
	}
	return out, unranked
}

// seedInterleave is OrderSeed's merge of a list without
// "$setElementOrder", by document 000's rules: two items the patch holds
// keep the patch's order (right is in patch order), two live-only items
// live's (left is in live order), a live-only item and a patch item live's
// when both are in live (livePos, -1 for an item live lacks), and an item
// live lacks goes after the live-only ones ("append to the end") — unless
// a later patch item that live has pulls it forward: a new item is ranked
// with the next patch item that has a live position, so that the patch's
// order (the stronger rule) holds. Where the rules contradict each other
// (the patch reorders items that live-only ones lie between), each
// live-only item goes before the patch's next item when its live position
// is lower. strategicpatch ranks new items before every live-only one
// (interleave).
func seedInterleave(left, right []int, livePos func(int) int) []int {
	// rank: each patch item's live position, or for a new item that of the
	// next patch item live has (beyond every live position when none).
	rank := make([]int, len(right))
	next := int(^uint(0) >> 1)
	for j := len(right) - 1; j >= 0; j-- {
		if r := livePos(right[j]); r >= 0 {
			next = r
		}
		rank[j] = next
	}
	out := make([]int, 0, len(left)+len(right))
	i, j := 0, 0
	for i < len(left) && j < len(right) {
		if rank[j] < livePos(left[i]) {
			out = append(out, right[j])
			j++
		} else {
			out = append(out, left[i])
			i++
		}
	}
	out = append(out, left[i:]...)
	return append(out, right[j:]...)
}

// id drops the freshness Index.ID reports.
func id(n int, _ bool) int { return n }
