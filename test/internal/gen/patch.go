package gen

import (
	"math/rand/v2"
	"slices"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// The directive keys of strategic merge patches, spelled out here so that
// the generator does not depend on the implementation it tests.
const (
	patchKey           = "$patch"
	retainKeysKey      = "$retainKeys"
	setOrderPrefix     = "$setElementOrder/"
	deletePrimsPrefix  = "$deleteFromPrimitiveList/"
	unknownDirective   = "$fromTheFuture"
	patchRateInvalid   = 1 // percent of directive sites given an invalid form
	patchRateUndecl    = 4
	patchRateUnknown   = 2
	patchRateRootMerge = 1
)

// Patch generates a random strategic merge patch for live (an object of
// the Generator's root type, or value.Null when the object does not exist)
// from seed: set, changed and nulled fields, nested patches, and every
// directive — "$patch: replace/delete/merge" on maps, "$patch: delete"
// and "$patch: replace" items in merged lists, "$deleteFromPrimitiveList",
// "$setElementOrder" for lists of maps and of primitives, "$retainKeys" on
// retainKeys fields — mostly in the form kubectl accepts. A few percent of
// the directive sites are malformed on purpose (contradicting orders, a
// $retainKeys list missing a patched field, an unknown "$patch" value, a
// merge-list item without its key or with it null), so that error handling is compared
// too; and a few patches carry a directive unknown to this version, which
// the format's forward-compatibility rule says to ignore.
//
// Fixed root fields (Config.Fixed) are never patched. The patch is a
// function of (Generator, seed, live).
func (g *Generator) Patch(seed uint64, live value.Value) value.Value {
	s := &state{g: g, seed: seed, r: rand.New(rand.NewPCG(seed, 0x706c792d70617463))}
	p := s.patchStruct(live, g.root, 0)
	if s.pct(patchRateRootMerge) {
		p = p.With(patchKey, value.String("merge"))
	}
	if s.pct(patchRateUnknown) {
		p = p.With(unknownDirective, value.String("x"))
	}
	return p
}

// patchStruct returns a patch for cur (a struct of type t, or null).
func (s *state) patchStruct(cur value.Value, t *openapi.Type, depth int) value.Value {
	if !cur.IsMap() {
		cur = value.Null
	}
	out := value.MustMap()
	for _, name := range t.FieldNames {
		f := t.Fields[name]
		if s.isFixed(depth, name) {
			continue
		}
		sh := classify(f.Type, f.Meta)
		if sh == shapeSkip || sh == shapeMultiKeyed || (depth >= s.g.cfg.MaxDepth && sh != shapePrim) {
			continue
		}
		old, has := cur.Get(name)
		// Touch most fields live has and some it lacks, favouring fields
		// with merge metadata below them.
		p := 20 + 15*s.g.interest[f.Type]
		if f.Meta.Strategy != 0 {
			p += 15
		}
		if has {
			p += 30
		}
		if !s.pct(p) {
			continue
		}
		out = s.patchField(out, name, old, f, sh, depth)
	}
	if s.g.cfg.UndeclaredFields && s.pct(patchRateUndecl) {
		if s.r.IntN(3) == 0 {
			out = out.With("x-undeclared", value.Null)
		} else {
			out = out.With("x-undeclared", s.anyScalar())
		}
	}
	return out
}

// patchField adds the patch of field f (live value old, null when absent)
// to out.
func (s *state) patchField(out value.Value, name string, old value.Value, f *openapi.Field, sh shape, depth int) value.Value {
	if s.r.IntN(12) == 0 {
		// Null deletes the field (and is dropped when live lacks it).
		return out.With(name, value.Null)
	}
	switch sh {
	case shapePrim:
		return out.With(name, s.otherPrim(f.Type, old))
	case shapeStruct:
		return out.With(name, s.patchChildStruct(old, f, depth))
	case shapePrimMap:
		return out.With(name, s.patchMap(old, keyPool, func(string) value.Value { return s.prim(f.Type.Elem) }))
	case shapeOpaqueMap:
		// strategicpatch cannot merge below a map of objects: only delete
		// entries, or add entries live lacks.
		return out.With(name, s.patchMap(old, keyPool, func(k string) value.Value {
			if _, has := old.Get(k); has {
				return value.Null
			}
			return s.opaque(f.Type, k, depth)
		}))
	case shapeFree:
		return out.With(name, s.patchMap(old, freeKeys[:3], func(string) value.Value { return s.anyScalar() }))
	case shapeKeyed:
		return s.patchKeyed(out, name, old, f, depth)
	case shapeSet:
		return s.patchSet(out, name, old, f)
	case shapeAtomic:
		return out.With(name, s.genAtomic(f.Type, depth+1))
	}
	return out
}

// patchChildStruct returns the patch of a struct-valued field.
func (s *state) patchChildStruct(old value.Value, f *openapi.Field, depth int) value.Value {
	switch x := s.r.IntN(20); {
	case x == 0:
		// Replace the whole struct.
		return s.genStruct(f.Type, depth+1, nil).With(patchKey, value.String("replace"))
	case x == 1 && old.IsMap():
		return value.MustMap(value.Field{Key: patchKey, Value: value.String("delete")})
	case x == 2 && s.pct(10*patchRateInvalid):
		return value.MustMap(value.Field{Key: patchKey, Value: value.String("bogus")})
	}
	sub := s.patchStruct(old, f.Type, depth+1)
	if s.pct(patchRateInvalid) {
		// strategicpatch rejects "$patch: merge" in a map.
		sub = sub.With(patchKey, value.String("merge"))
	}
	if f.Meta.Strategy.Has(openapi.StrategyRetainKeys) && s.r.IntN(10) < 7 {
		sub = sub.With(retainKeysKey, s.retainKeys(sub, old, f.Type))
	}
	return sub
}

// retainKeys returns a $retainKeys list for patch sub of a struct of type
// t with live value old: every field sub sets, plus some that old has, in
// sorted order (kubectl sorts it); rarely one patched field is left out,
// which makes the patch invalid.
func (s *state) retainKeys(sub, old value.Value, t *openapi.Type) value.Value {
	var keys []string
	for _, fl := range sub.Fields() {
		if fl.Value.IsNull() || fl.Key[0] == '$' {
			continue
		}
		keys = append(keys, fl.Key)
	}
	if len(keys) > 0 && s.pct(patchRateInvalid) {
		keys = slices.Delete(keys, 0, 1)
	}
	for _, fl := range old.Fields() {
		if _, in := sub.Get(fl.Key); !in && s.r.IntN(2) == 0 {
			keys = append(keys, fl.Key)
		}
	}
	if len(t.FieldNames) > 0 && s.r.IntN(5) == 0 {
		keys = append(keys, t.FieldNames[s.r.IntN(len(t.FieldNames))])
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	items := make([]value.Value, len(keys))
	for i, k := range keys {
		items[i] = value.String(k)
	}
	return value.List(items)
}

// patchMap returns a patch for a map of scalars (or opaque values): some
// existing keys nulled or changed, some new keys set.
func (s *state) patchMap(old value.Value, pool []string, fresh func(string) value.Value) value.Value {
	out := value.MustMap()
	for _, k := range s.pickDistinct(pool, 1+s.r.IntN(3)) {
		if _, has := old.Get(k); has && s.r.IntN(3) == 0 {
			out = out.With(k, value.Null)
			continue
		}
		out = out.With(k, fresh(k))
	}
	return out
}

// keyOf returns the merge-key value of item.
func keyOf(item value.Value, key string) (value.Value, value.ScalarKey, bool) {
	kv, ok := item.Get(key)
	if !ok {
		return value.Null, value.ScalarKey{}, false
	}
	k, ok := kv.Key()
	return kv, k, ok
}

// patchKeyed adds the patch of a merged list of maps (and, often, its
// $setElementOrder list) to out.
func (s *state) patchKeyed(out value.Value, name string, old value.Value, f *openapi.Field, depth int) value.Value {
	key := f.Meta.MergeKey[0]
	t := f.Type
	if s.r.IntN(25) == 0 {
		// Replace the whole list.
		items := []value.Value{value.MustMap(value.Field{Key: patchKey, Value: value.String("replace")})}
		items = append(items, s.genKeyed(t, f.Meta, depth+1).Items()...)
		return out.With(name, value.List(items))
	}
	p := &keyedPatch{key: key, used: map[value.ScalarKey]bool{}}
	s.patchLiveItems(p, old, t.Elem, depth)
	if s.r.IntN(3) == 0 {
		s.patchNewItems(p, t, depth)
	}
	list := s.shuffleKeyedPatch(p)
	if len(list) > 0 || s.r.IntN(4) == 0 {
		out = out.With(name, value.List(list))
	}
	if s.r.IntN(10) < 4 && (len(list) > 0 || len(p.liveKeys) > 0 || s.r.IntN(10) == 0) {
		out = out.With(setOrderPrefix+name, s.setElementOrder(list, p.liveKeys, key))
	}
	return out
}

// keyedPatch is the patch of a merged list being generated: the items it
// merges and the $patch: delete items it holds, each naming its merge-key
// value under key; liveKeys are the merge-key values of live's items, in
// live's order, each once; used holds every key value an item of the
// patch or of live has, so that no two items share one.
type keyedPatch struct {
	key            string
	items, deletes []value.Value
	liveKeys       []value.Value
	used           map[value.ScalarKey]bool
}

// deleteItem is the patch item that deletes the item whose merge key (key)
// is kv.
func deleteItem(key string, kv value.Value) value.Value {
	return value.MustMap(value.Field{Key: key, Value: kv}, value.Field{Key: patchKey, Value: value.String("delete")})
}

// patchLiveItems adds to p, for some of the items of old (live's list,
// whose items are of type et), a patch of the item or its deletion; an
// item without a key, or with one an earlier item has, is left alone.
func (s *state) patchLiveItems(p *keyedPatch, old value.Value, et *openapi.Type, depth int) {
	for _, it := range old.Items() {
		kv, k, ok := keyOf(it, p.key)
		if !ok || p.used[k] {
			continue
		}
		p.used[k] = true
		p.liveKeys = append(p.liveKeys, kv)
		switch x := s.r.IntN(10); {
		case x < 3:
			p.items = append(p.items, s.patchStruct(it, et, depth+2).With(p.key, kv))
		case x == 3:
			p.deletes = append(p.deletes, deleteItem(p.key, kv))
		}
	}
}

// patchNewItems adds to p one or two items with key values neither live
// nor p has yet (t is the list's type): mostly new items, sometimes the
// deletion of the absent key, which is a no-op.
func (s *state) patchNewItems(p *keyedPatch, t *openapi.Type, depth int) {
	kt := t.Elem.Field(p.key).Type
	for _, i := range s.r.Perm(keyPoolSize(kt))[:1+s.r.IntN(2)] {
		kv := keyValue(kt, i)
		k, _ := kv.Key()
		if p.used[k] {
			continue
		}
		p.used[k] = true
		if s.r.IntN(8) == 0 {
			// Deleting a key live lacks is a no-op.
			p.deletes = append(p.deletes, deleteItem(p.key, kv))
			continue
		}
		p.items = append(p.items, s.newItem(t, p.key, kv, depth+1))
	}
}

// shuffleKeyedPatch returns the items of p, merged items and deletions,
// in a random order; at patchRateInvalid one merged item lacks its merge
// key, or holds it null.
func (s *state) shuffleKeyedPatch(p *keyedPatch) []value.Value {
	s.r.Shuffle(len(p.items), func(i, j int) { p.items[i], p.items[j] = p.items[j], p.items[i] })
	if len(p.items) > 0 && s.pct(patchRateInvalid) {
		// An item without its merge key or, in the patches of odd seeds (no further draw, so that the other patches
		// stay as they were), with the key field null: strategicpatch reads null as a key value (here a new item, as
		// the generated objects hold no null key), ply too with gate MultiFieldMergeKeys off; on, it is missing.
		if s.seed%2 == 1 {
			p.items[0] = p.items[0].With(p.key, value.Null)
		} else {
			p.items[0] = p.items[0].Without(p.key)
		}
	}
	list := slices.Concat(p.items, p.deletes)
	s.r.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
	return list
}

// setElementOrder returns a $setElementOrder list for the patch items
// list: the merge-key values (under key) of its items that are not
// directives, in the patch's order, interleaved with some of liveKeys
// they lack; at patchRateInvalid the order is shuffled.
func (s *state) setElementOrder(list, liveKeys []value.Value, key string) value.Value {
	var order []value.Value
	for _, it := range list {
		if d, _ := it.Get(patchKey); !d.IsNull() {
			continue
		}
		if kv, ok := it.Get(key); ok {
			order = append(order, kv)
		}
	}
	var extra []value.Value
	for _, kv := range liveKeys {
		if !slices.ContainsFunc(order, func(o value.Value) bool { return value.Equal(o, kv) }) && s.r.IntN(3) > 0 {
			extra = append(extra, kv)
		}
	}
	order = s.interleave(order, extra)
	if len(order) > 1 && s.pct(patchRateInvalid) {
		s.r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	items := make([]value.Value, len(order))
	for i, kv := range order {
		items[i] = value.MustMap(value.Field{Key: key, Value: kv})
	}
	return value.List(items)
}

// interleave merges extra, shuffled, into order, keeping order's relative
// order.
func (s *state) interleave(order, extra []value.Value) []value.Value {
	s.r.Shuffle(len(extra), func(i, j int) { extra[i], extra[j] = extra[j], extra[i] })
	out := make([]value.Value, 0, len(order)+len(extra))
	i, j := 0, 0
	for i < len(order) || j < len(extra) {
		if j == len(extra) || (i < len(order) && s.r.IntN(2) == 0) {
			out = append(out, order[i])
			i++
			continue
		}
		out = append(out, extra[j])
		j++
	}
	return out
}

// patchSet adds the patch of a merged list of primitives (new values,
// $deleteFromPrimitiveList and $setElementOrder) to out.
func (s *state) patchSet(out value.Value, name string, old value.Value, f *openapi.Field) value.Value {
	et := f.Type.Elem
	var liveVals []value.Value
	seen := map[value.ScalarKey]bool{}
	for _, it := range old.Items() {
		if k, ok := it.Key(); ok && !seen[k] {
			seen[k] = true
			liveVals = append(liveVals, it)
		}
	}
	var add []value.Value
	added := map[value.ScalarKey]bool{}
	for _, i := range s.r.Perm(setPoolSize(et))[:s.r.IntN(3)] {
		v := setValue(et, i)
		k, _ := v.Key()
		added[k] = true
		add = append(add, v)
	}
	if len(add) > 0 || s.r.IntN(3) == 0 {
		out = out.With(name, value.List(add))
	}
	if s.r.IntN(3) == 0 {
		var del []value.Value
		for _, v := range liveVals {
			k, _ := v.Key()
			if !added[k] && s.r.IntN(2) == 0 {
				del = append(del, v)
			}
		}
		if s.r.IntN(6) == 0 {
			v := setValue(et, s.r.IntN(setPoolSize(et)))
			if k, _ := v.Key(); !added[k] {
				del = append(del, v)
			}
		}
		out = out.With(deletePrimsPrefix+name, value.List(del))
	}
	if s.r.IntN(10) < 4 && (len(add) > 0 || len(liveVals) > 0 || s.r.IntN(10) == 0) {
		var extra []value.Value
		for _, v := range liveVals {
			if k, _ := v.Key(); !added[k] && s.r.IntN(3) > 0 {
				extra = append(extra, v)
			}
		}
		order := s.interleave(slices.Clone(add), extra)
		if len(order) > 1 && s.pct(patchRateInvalid) {
			s.r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		out = out.With(setOrderPrefix+name, value.List(order))
	}
	return out
}
