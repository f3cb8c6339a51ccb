package delta

import (
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// memory is where one walk builds its patch's maps: each map's fields are gathered on stack (the entries of the maps
// being visited, nested maps above their parents') and, once complete, carved into chunk, so that a patch of n maps
// costs O(log n) allocations, not n. The patch's memory is its own (chunks are never reused), so results stay valid
// whatever walk comes next.
type memory struct {
	stack []value.Field
	chunk []value.Field
}

// memoryChunk bounds a chunk, in fields; larger maps get memory of their own.
const memoryChunk = 4096

// fields returns n fields of memory of their own, with capacity n; m nil: a new slice.
func (m *memory) fields(n int) []value.Field {
	if m == nil || n > memoryChunk/2 {
		return make([]value.Field, n)
	}
	if cap(m.chunk)-len(m.chunk) < n {
		m.chunk = make([]value.Field, 0, min(max(2*cap(m.chunk), 8), memoryChunk))
	}
	at := len(m.chunk)
	m.chunk = m.chunk[:at+n]
	return m.chunk[at : at+n : at+n]
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
