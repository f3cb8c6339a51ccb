package engine

import (
	"maps"
	"slices"
	"strings"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// kept is what scoped leaves out of an object to apply a patch to: the fields the patch does not name, put back into
// the result as they are (ply keeps a field a patch does not name, as strategicpatch does), and the same for the
// objects the patch merges into. It holds the object itself (orig) and what scoped converted of it (scoped): the
// result starts as a copy of orig, so that the fields left out are there without a look at each.
type kept struct {
	orig   map[string]interface{}
	scoped value.Value
	// patch is the patch's map as the caller gave it (nil if it is no map[string]interface{}): a scalar the merge
	// takes from it is its Go value in the result (patchScalar), which needs no memory of its own.
	patch map[string]interface{}
	// below holds what was left out of the maps and lists of named fields, sorted by key once scoped returns.
	below []keptBelow
}

// keptBelow is what was left out of original's map (sub) or list (list) in field key.
type keptBelow struct {
	key  string
	sub  *kept
	list *keptList
}

// scoped converts original (of schema l) for applying patch p: at each level where p is a map without "$patch" and
// "$retainKeys" (which decide about every field) that merges into original's (not a field of strategy replace), the
// fields p does not name (by key, or through a "$setElementOrder/" or "$deleteFromPrimitiveList/" directive) are left
// out of the value, so that the cost of a small patch to a large object is the patch's: the fields converted are
// found by the names, never by a look at every field of original. Inside a list merged by key, the items p does not
// name are placeholders (see scopedList). names is nil where no list is above (p alone names the fields); inside a
// list's items it is what all the patch's objects at this place name (the schema reads original's values at each of
// those keys, see typeOf), and a field names names but p lacks is converted whole. The returned kept is nil when
// nothing is left out. pg is p as the caller gave it, if a map[string]interface{} (else nil).
func (r goReader) scoped(original map[string]interface{}, p value.Value, pg map[string]interface{}, names *patchNames, l Lookup, depth int) (value.Value, *kept, error) {
	if !p.IsMap() || depth > maxDepth || decidesEveryField(p) {
		v, err := r.fromGo(original, depth)
		return v, nil, err
	}
	k := r.newKept(original)
	k.patch = pg
	fields := r.takeFields(min(len(original), 2*p.Len()+names.size()))
	var err error
	for _, f := range p.Fields() {
		if ov, ok := original[f.Key]; ok {
			if fields, err = r.addScoped(fields, k, f.Key, ov, f.Value, true, p, names, l, depth+1); err != nil {
				return value.Value{}, nil, err
			}
		}
		name, listed := listDirective(f.Key)
		if !listed || names != nil || strings.HasPrefix(name, "$") || hasField(p, name) || hasKey(fields, name) {
			continue // (names holds the lists directives name; a list p holds is converted above)
		}
		if ov, ok := original[name]; ok {
			if fields, err = r.addScoped(fields, k, name, ov, value.Value{}, false, p, names, l, depth+1); err != nil {
				return value.Value{}, nil, err
			}
		}
	}
	if names != nil {
		for name := range names.keys {
			if ov, ok := original[name]; ok && !hasField(p, name) {
				if fields, err = r.addScoped(fields, k, name, ov, value.Value{}, false, p, names, l, depth+1); err != nil {
					return value.Value{}, nil, err
				}
			}
		}
	}
	k.scoped = sortedMap(fields)
	if len(fields) == len(original) && len(k.below) == 0 {
		return k.scoped, nil, nil // (nothing left out)
	}
	if len(k.below) > 1 {
		slices.SortFunc(k.below, func(a, b keptBelow) int { return strings.Compare(a.key, b.key) })
	}
	return k.scoped, k, nil
}

// addScoped appends to fields original's field key (ov) converted by scopedField.
func (r goReader) addScoped(fields []value.Field, k *kept, key string, ov interface{}, pv value.Value, inPatch bool, p value.Value, names *patchNames, l Lookup, depth int) ([]value.Field, error) {
	v, err := r.scopedField(k, key, ov, pv, inPatch, p, names, l, depth)
	if err != nil {
		return nil, err
	}
	return append(fields, value.Field{Key: key, Value: v}), nil
}

// hasField reports whether map p holds key.
func hasField(p value.Value, key string) bool {
	_, ok := p.Get(key)
	return ok
}

// hasKey reports whether fields hold key.
func hasKey(fields []value.Field, key string) bool {
	return slices.ContainsFunc(fields, func(f value.Field) bool { return f.Key == key })
}

// decidesEveryField reports whether patch map p holds "$patch" or "$retainKeys", which decide about every field: p's
// fields are sorted by key, so that only those up to "$retainKeys" are looked at (usually one: none starts with "$").
func decidesEveryField(p value.Value) bool {
	for _, f := range p.Fields() {
		switch {
		case f.Key > "$retainKeys":
			return false
		case f.Key == "$patch" || f.Key == "$retainKeys":
			return true
		}
	}
	return false
}

// scopedField converts original's field key (ov) that the patch names, pv its patch value (inPatch: p holds one):
// a map the patch's map merges into scoped, a list the patch's list merges into by key scoped (scopedList), anything
// else whole. What is left out is recorded in k.
func (r goReader) scopedField(k *kept, key string, ov interface{}, pv value.Value, inPatch bool, p value.Value, names *patchNames, l Lookup, depth int) (value.Value, error) {
	if !inPatch {
		return r.fromGo(ov, depth)
	}
	switch t := ov.(type) {
	case map[string]interface{}:
		if !pv.IsMap() {
			break
		}
		subSchema, ok := merges(l, key)
		if !ok {
			break
		}
		pg, _ := k.patch[key].(map[string]interface{})
		v, sub, err := r.scoped(t, pv, pg, names.child(key), subSchema, depth)
		if sub != nil {
			r.keepBelow(k, keptBelow{key: key, sub: sub}, p.Len())
		}
		return v, err
	case []interface{}:
		if r.wholeLists || !pv.IsList() {
			break
		}
		pg, _ := k.patch[key].([]interface{})
		v, sub, err := r.scopedList(t, pv, pg, p, key, names.child(key), l, depth)
		if sub != nil {
			r.keepBelow(k, keptBelow{key: key, list: sub}, p.Len())
		}
		return v, err
	}
	return r.fromGo(ov, depth)
}

// newKept returns the kept of original, in r's scratch memory.
func (r goReader) newKept(original map[string]interface{}) *kept {
	k := &r.kept.kept.take(1)[:1][0]
	k.orig = original
	return k
}

// keepBelow records in k b, what was left out of a named field's map or list; size is the number of fields of the
// patch map, which names every field b may be of.
func (r goReader) keepBelow(k *kept, b keptBelow, size int) {
	if k.below == nil {
		k.below = r.kept.below.take(size)
	}
	k.below = append(k.below, b)
}

// belowAt returns what k holds below field key (k.below is sorted by key), or the zero keptBelow: looked at one by one
// while there are few (usually one, the field on the patch's path).
func (k *kept) belowAt(key string) keptBelow {
	if len(k.below) <= belowScanned {
		for _, b := range k.below {
			if b.key == key {
				return b
			}
		}
		return keptBelow{}
	}
	i, ok := slices.BinarySearchFunc(k.below, key, func(b keptBelow, key string) int { return strings.Compare(b.key, key) })
	if !ok {
		return keptBelow{}
	}
	return k.below[i]
}

// belowScanned is the most keptBelows belowAt looks at one by one rather than by binary search.
const belowScanned = 4

// merges returns the schema of field key of an object of schema l, and whether a patch's map for the field merges
// into the object's (a field without strategy replace that l knows), so that the fields the patch does not name stay.
func merges(l Lookup, key string) (Lookup, bool) {
	if l == nil {
		return nil, false
	}
	sub, m, err := l.Struct(key)
	return sub, err == nil && !slices.Contains(m.Strategies, "replace") // (toMeta's StrategyReplace)
}

// toMap converts result, the merge's value of the map k was kept from, into Go values: a copy of k.orig, which holds
// the fields left out as they are, with the fields the merge changed converted (those whose original value does not
// stand for the merged one, standsFor), those it removed deleted, and the same below (k.below). A map or list the merge
// carried through unchanged is scoped's, which stands for original's value there, with what was left out of it.
func (k *kept) toMap(result value.Value) map[string]interface{} {
	if k == nil {
		return toMap(result)
	}
	m := maps.Clone(k.orig)
	was := k.scoped.Fields()
	i := 0
	for _, f := range result.Fields() {
		for ; i < len(was) && was[i].Key < f.Key; i++ {
			delete(m, was[i].Key)
		}
		if i < len(was) && was[i].Key == f.Key {
			i++
			if keptStands(was[i-1].Value, f.Value, k.orig, f.Key) {
				continue // (original's value, in m)
			}
		}
		switch b := k.belowAt(f.Key); {
		case b.sub != nil && f.Value.IsMap():
			m[f.Key] = b.sub.toMap(f.Value)
		case b.list != nil && f.Value.IsList():
			m[f.Key] = b.list.toGo(f.Value)
		default:
			m[f.Key] = toGoPatched(f.Value, k.patch[f.Key])
		}
	}
	for ; i < len(was); i++ {
		delete(m, was[i].Key)
	}
	return m
}

// toGoPatched is toGo(v), or px, the patch's Go value at v's place, where it is a scalar of the Go type toGo gives v
// holding v's value: strings, bools and numbers are immutable, so that the result may hold the patch's as it holds
// original's (standsFor), without memory of its own.
func toGoPatched(v value.Value, px interface{}) interface{} {
	if patchScalar(v, px) {
		return px
	}
	return toGo(v)
}

// patchScalar reports whether px is a scalar of the Go type toGo gives v holding v's value.
func patchScalar(v value.Value, px interface{}) bool {
	switch t := px.(type) {
	case string:
		s, ok := v.AsString()
		return ok && s == t
	case bool:
		return v == value.Bool(t)
	case int64:
		return v == value.Int(t)
	case float64:
		return v == value.Float(t)
	}
	return false
}

// keptStands is standsFor(was, v, orig[key]), orig's value looked up only where v is no map or list: a map or a list
// stands for v where it is was itself, and was, converted from a scalar, is then no map or list either.
func keptStands(was, v value.Value, orig map[string]interface{}, key string) bool {
	if v.IsMap() || v.IsList() {
		return was == v
	}
	return standsFor(was, v, orig[key])
}

// standsFor reports whether original's Go value x, which scoped converted to was, stands for v, the merged value at its
// place: v is was itself (the very memory) and a map or a list, or a string equal to x's, or a bool or number of the
// Go type toGo gives v (or int) holding v's bits. (A number in another Go type, as json.Number or float32, may encode
// otherwise than v.)
func standsFor(was, v value.Value, x interface{}) bool {
	switch t := x.(type) {
	case string, bool, int64, float64:
		return patchScalar(v, x)
	case int:
		return v == value.Int(int64(t))
	}
	return was == v && (v.IsMap() || v.IsList())
}

// mergesAs reports whether t, the type the schema builder gives the scoped map k was kept from, merges that map as
// scoped assumed from the Lookup: every map of k.below left fields out of a struct field (merged, its unnamed fields
// kept), every list of k.below items out of a list merged by its merge key into struct items, and so below. The builder
// types a field from the values the documents hold at its place (typeOf: a key holding maps in some objects and a
// scalar or a list in others has no type, and nothing below it either), which the Lookup alone does not tell; where
// they depart, original is converted whole. A nil k left nothing out and merges as any type.
func (k *kept) mergesAs(t *openapi.Type) bool {
	if k == nil {
		return true
	}
	if t == nil || t.Kind != openapi.KindStruct {
		return false
	}
	for _, b := range k.below {
		f := t.Fields[b.key]
		switch {
		case f == nil:
			return false
		case b.sub != nil && (f.Meta.Strategy.Has(openapi.StrategyReplace) || !b.sub.mergesAs(f.Type)):
			return false
		case b.list != nil && !b.list.mergesAs(f):
			return false
		}
	}
	return true
}
