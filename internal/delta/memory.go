package delta

import (
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
	fields chunks[value.Field]
	items  []value.Value
	values chunks[value.Value]
}

// Reset ends the life of the patches built in m (see the type) and makes its memory available again, cleared, so that
// m refers to none of their values; it keeps at most memoryChunksKept chunks of each kind.
func (m *Memory) Reset() {
	clear(m.stack[:cap(m.stack)])
	clear(m.items[:cap(m.items)])
	m.stack, m.items = m.stack[:0], m.items[:0]
	m.fields.reset()
	m.values.reset()
}

// memoryChunk bounds a chunk, in fields or items; larger maps and lists get memory of their own. memoryChunksKept
// bounds the chunks Reset keeps.
const (
	memoryChunk      = 4096
	memoryChunksKept = 16
)

// fieldsOf returns n fields of m's memory, with capacity n; m nil: a new slice.
func (m *Memory) fieldsOf(n int) []value.Field {
	if m == nil {
		return make([]value.Field, n)
	}
	return m.fields.carve(n)
}

// valuesOf returns n list items of m's memory, with capacity n; m nil: a new slice.
func (m *Memory) valuesOf(n int) []value.Value {
	if m == nil {
		return make([]value.Value, n)
	}
	return m.values.carve(n)
}

// chunks hands out slices of its chunks in turn. Invariant: list[:used] hold what was handed out since the last reset,
// the last of them maybe partly; the others are empty, and every chunk is zero beyond its length.
type chunks[T any] struct {
	list [][]T
	used int
}

// carve returns n elements, with capacity n: from the chunk in use, else the next one (made, or made larger, if it
// has not room), or memory of their own when n is more than half of memoryChunk.
func (c *chunks[T]) carve(n int) []T {
	if n > memoryChunk/2 {
		return make([]T, n)
	}
	if c.used == 0 || cap(c.list[c.used-1])-len(c.list[c.used-1]) < n {
		if c.used == len(c.list) || cap(c.list[c.used]) < n {
			size := 8
			if c.used > 0 {
				size = min(2*cap(c.list[c.used-1]), memoryChunk)
			}
			chunk := make([]T, 0, max(n, size))
			if c.used == len(c.list) {
				c.list = append(c.list, chunk)
			} else {
				c.list[c.used] = chunk
			}
		}
		c.used++
	}
	chunk := &c.list[c.used-1]
	at := len(*chunk)
	*chunk = (*chunk)[:at+n]
	return (*chunk)[at : at+n : at+n]
}

// reset clears what c handed out and makes its chunks available again, keeping at most memoryChunksKept.
func (c *chunks[T]) reset() {
	for i, chunk := range c.list[:c.used] {
		clear(chunk)
		c.list[i] = chunk[:0]
	}
	kept := min(len(c.list), memoryChunksKept)
	clear(c.list[kept:])
	c.list, c.used = c.list[:kept], 0
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
