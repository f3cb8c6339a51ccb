package gen

import (
	"slices"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// maxKeyFields is the longest merge key the generator handles; longer keys
// are skipped.
const maxKeyFields = 3

// identity is the key tuple of an item of a multi-field-key list, with
// schema defaults filled in for the fields the item leaves out. Unused
// slots are zero.
type identity [maxKeyFields]value.ScalarKey

// keyTuples returns every key tuple the generator uses for items of the
// list type t with key fields key: the product of a pool per field, the
// first field drawing from three values and the others from two. For a
// field with a schema default the default is one of its two values, so
// that items may leave the field out. The result is a function of the
// schema only.
func keyTuples(t *openapi.Type, key []string) [][]value.Value {
	tuples := [][]value.Value{nil}
	for i, name := range key {
		kt := t.Elem.Field(name).Type
		n := min(2, keyPoolSize(kt))
		if i == 0 {
			n = min(3, keyPoolSize(kt))
		}
		vals := make([]value.Value, 0, n)
		for j := range n {
			vals = append(vals, keyValue(kt, j))
		}
		if d, ok := t.Elem.KeyDefault(name); ok && i > 0 && !slices.ContainsFunc(vals, func(v value.Value) bool { return value.Equal(v, d) }) {
			vals[0] = d
		}
		var next [][]value.Value
		for _, tu := range tuples {
			for _, v := range vals {
				next = append(next, append(slices.Clone(tu), v))
			}
		}
		tuples = next
	}
	return tuples
}

// identityOf returns the identity of item, a map of list type t with key
// fields key; ok is false when a key field is missing with no default or
// is not a scalar.
func identityOf(t *openapi.Type, key []string, item value.Value) (id identity, ok bool) {
	for i, name := range key {
		v, has := item.Get(name)
		if !has {
			if v, has = t.Elem.KeyDefault(name); !has {
				return id, false
			}
		}
		if id[i], ok = v.Key(); !ok {
			return id, false
		}
	}
	return id, true
}

// newMultiItem returns a fresh item of list type t with the key tuple
// tuple. A key field whose value is its schema default is left out one
// time in three, as a user relying on the default writes it.
func (s *state) newMultiItem(t *openapi.Type, key []string, tuple []value.Value, depth int) value.Value {
	it := s.genStruct(t.Elem, depth+1, key)
	for i, name := range key {
		if d, ok := t.Elem.KeyDefault(name); ok && value.Equal(d, tuple[i]) && s.r.IntN(3) == 0 {
			continue
		}
		it = it.With(name, tuple[i])
	}
	return it
}

// respell writes a key field of it that holds its default the other way:
// left out when written, written when left out. The identity stays.
func (s *state) respell(it value.Value, t *openapi.Type, key []string) value.Value {
	for _, name := range key {
		d, ok := t.Elem.KeyDefault(name)
		if !ok {
			continue
		}
		v, has := it.Get(name)
		switch {
		case !has:
			return it.With(name, d)
		case value.Equal(v, d):
			return it.Without(name)
		}
	}
	return it
}

func (s *state) genMultiKeyed(t *openapi.Type, m openapi.Meta, depth int) value.Value {
	tuples := keyTuples(t, m.MergeKey)
	n := min(s.size(3), len(tuples))
	items := []value.Value{}
	for _, i := range s.r.Perm(len(tuples))[:n] {
		items = append(items, s.newMultiItem(t, m.MergeKey, tuples[i], depth))
	}
	return value.List(items)
}

// mutateMultiKeyed edits a list of multi-field-key items as mutateKeyed
// edits one of single-field keys, and also respells defaulted key fields.
// Items keep unique identities.
func (s *state) mutateMultiKeyed(v value.Value, t *openapi.Type, m openapi.Meta, depth int, rt *rates) value.Value {
	key := m.MergeKey
	used := map[identity]bool{}
	items := []value.Value{}
	for _, it := range v.Items() {
		switch {
		case s.pct(rt.remove):
			continue
		case s.pct(rt.descend):
			it = s.mutateStruct(it, t.Elem, depth+1, key, rt)
		}
		if s.pct(rt.mutate / 2) {
			it = s.respell(it, t, key)
		}
		if id, ok := identityOf(t, key, it); ok {
			used[id] = true
		}
		items = append(items, it)
	}
	if s.pct(rt.addItem) {
		tuples := keyTuples(t, key)
		for _, i := range s.r.Perm(len(tuples))[:1+s.r.IntN(2)] {
			it := s.newMultiItem(t, key, tuples[i], depth)
			id, ok := identityOf(t, key, it)
			if !ok || used[id] {
				continue
			}
			used[id] = true
			items = slices.Insert(items, s.r.IntN(len(items)+1), it)
		}
	}
	s.maybeReorder(items, rt)
	return value.List(items)
}
