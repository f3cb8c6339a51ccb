package delta

import (
	"github.com/plyproject/ply/internal/carve"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// Memory is where one walk builds its patch's maps and lists: each map's fields (list's items) are gathered on stack
// (items), the entries of the maps (lists) being visited, nested ones above their parents', and, once complete, carved
// from fields (values), so that a patch of n maps and lists costs O(log n) allocations, not n. A patch built in a
// Memory is valid until its Reset, which makes the memory available to the next walk (a Memory never reset: for
// good); the zero Memory is ready to use. A Memory is not safe for concurrent use.
type Memory struct {
	stack  []value.Field
	fields carve.Chunks[value.Field]
	items  []value.Value
	values carve.Chunks[value.Value]
}

// Reset ends the life of the patches built in m (see the type) and makes its memory available again, cleared, so that
// m refers to none of their values; it keeps at most carve.ChunksKept chunks of each kind.
func (m *Memory) Reset() {
	clear(m.stack[:cap(m.stack)])
	clear(m.items[:cap(m.items)])
	m.stack, m.items = m.stack[:0], m.items[:0]
	m.fields.Reset()
	m.values.Reset()
}

// fieldsOf returns n fields of m's memory, with capacity n; m nil: a new slice.
func (m *Memory) fieldsOf(n int) []value.Field {
	if m == nil {
		return make([]value.Field, n)
	}
	return m.fields.Carve(n)
}

// valuesOf returns n list items of m's memory, with capacity n; m nil: a new slice.
func (m *Memory) valuesOf(n int) []value.Value {
	if m == nil {
		return make([]value.Value, n)
	}
	return m.values.Carve(n)
}

// with returns map v with field key set to val (v itself is unchanged), as value.Value.With, in m's memory.
func (m *Memory) with(v value.Value, key string, val value.Value) value.Value {
	fs := v.Fields()
	i := 0
	for i < len(fs) && fs[i].Key < key {
		i++
	}
	rest := fs[i:]
	if len(rest) > 0 && rest[0].Key == key {
		rest = rest[1:]
	}
	out := m.fieldsOf(i + 1 + len(rest))
	copy(out, fs[:i])
	out[i] = value.Field{Key: key, Value: val}
	copy(out[i+1:], rest)
	return value.MapFromSorted(out)
}

// appendItemKeyFields appends to out the merge-key fields entries that only name an item (delete directives,
// $setElementOrder) carry: the item's own value, or itemType's key default for a field it leaves out or nulls
// (elements.KeyFields), a field the item leaves out and that has no default left out.
func appendItemKeyFields(out []value.Field, item value.Value, mergeKey []string, itemType *openapi.Type) []value.Field {
	for _, name := range mergeKey {
		v, present := item.Get(name)
		if !present || v.IsNull() {
			v = value.Null
			if d, ok := itemType.KeyDefault(name); ok {
				v = d
			}
		}
		if present || !v.IsNull() {
			out = append(out, value.Field{Key: name, Value: v})
		}
	}
	return out
}
