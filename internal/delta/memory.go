package delta

import (
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// memory is where one walk builds its patch's maps and lists: each map's fields (list's items) are gathered on stack
// (items), the entries of the maps (lists) being visited, nested ones above their parents', and, once complete, carved
// into chunk (itemChunk), so that a patch of n maps and lists costs O(log n) allocations, not n. The patch's memory is
// its own (chunks are never reused), so results stay valid whatever walk comes next.
type memory struct {
	stack     []value.Field
	chunk     []value.Field
	items     []value.Value
	itemChunk []value.Value
}

// memoryChunk bounds a chunk, in fields or items; larger maps and lists get memory of their own.
const memoryChunk = 4096

// fields returns n fields of memory of their own, with capacity n; m nil: a new slice.
func (m *memory) fields(n int) []value.Field {
	if m == nil {
		return make([]value.Field, n)
	}
	return carve(&m.chunk, n)
}

// values returns n list items of memory of their own, with capacity n; m nil: a new slice.
func (m *memory) values(n int) []value.Value {
	if m == nil {
		return make([]value.Value, n)
	}
	return carve(&m.itemChunk, n)
}

// carve returns n elements of chunk, with capacity n: a new chunk when it has not room, memory of their own when n is
// more than half of memoryChunk.
func carve[T any](chunk *[]T, n int) []T {
	if n > memoryChunk/2 {
		return make([]T, n)
	}
	if cap(*chunk)-len(*chunk) < n {
		*chunk = make([]T, 0, max(n, min(max(2*cap(*chunk), 8), memoryChunk)))
	}
	at := len(*chunk)
	*chunk = (*chunk)[:at+n]
	return (*chunk)[at : at+n : at+n]
}

// with returns map v with field key set to val (v itself is unchanged), as value.Value.With, in m's memory.
func (m *memory) with(v value.Value, key string, val value.Value) value.Value {
	fs := v.Fields()
	i := 0
	for i < len(fs) && fs[i].Key < key {
		i++
	}
	rest := fs[i:]
	if len(rest) > 0 && rest[0].Key == key {
		rest = rest[1:]
	}
	out := m.fields(i + 1 + len(rest))
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
