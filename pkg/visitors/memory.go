package visitors

import (
	"github.com/plyproject/ply/internal/carve"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// Memory is where Merge and Ordered build the maps and lists of a merge's result, and Ordered its members' outcomes,
// carved from chunks the memory keeps (internal/carve), so that a result of n maps and lists costs O(log n)
// allocations, not n. A result built in a Memory is valid until its Reset, which makes the memory available to the
// next merge, cleared (it then refers to none of the result's values); the zero Memory is ready to use, and a nil
// *Memory gives each map and list memory of its own. A Memory is not safe for concurrent use.
type Memory struct {
	fields   carve.Chunks[value.Field]
	items    carve.Chunks[value.Value]
	outcomes carve.Chunks[elements.Outcome]
	ints     carve.Chunks[int] // lists' orders (internal/order)
}

// Reset ends the life of the results built in m (see the type) and makes its memory available again, cleared.
func (m *Memory) Reset() {
	m.fields.Reset()
	m.items.Reset()
	m.outcomes.Reset()
	m.ints.Reset()
}

// intsOf returns the chunks of m's memory lists' orders are carved from (m nil: nil, memory of their own).
func (m *Memory) intsOf() *carve.Chunks[int] {
	if m == nil {
		return nil
	}
	return &m.ints
}

// fieldsOf returns n zero fields, with capacity n, of m's memory (m nil: of their own).
func (m *Memory) fieldsOf(n int) []value.Field {
	if m == nil {
		return make([]value.Field, n)
	}
	return m.fields.Carve(n)
}

// itemsOf returns n zero list items, with capacity n, of m's memory (m nil: of their own).
func (m *Memory) itemsOf(n int) []value.Value {
	if m == nil {
		return make([]value.Value, n)
	}
	return m.items.Carve(n)
}

// outcomesOf returns n zero outcomes, with capacity n, of m's memory (m nil: of their own).
func (m *Memory) outcomesOf(n int) []elements.Outcome {
	if m == nil {
		return make([]elements.Outcome, n)
	}
	return m.outcomes.Carve(n)
}
