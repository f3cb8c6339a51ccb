package engine

import (
	"encoding/binary"
	"maps"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/plyproject/ply/openapi"
)

// TypeCacher is a Lookup that keeps the schema types the engine builds for the objects it describes, so that calls
// on objects of the same shape share them instead of building them again: package strategicpatch's look-ups of a Go
// type are one per type, and keep one Types each.
type TypeCacher interface {
	Types() *Types
}

// Types holds the struct types built for the objects of one Lookup, each under its shape: the mode of the call and,
// for each field the type declares, its name, metadata (toMeta's: no rule) and type (a type kept itself, named by its
// address). A type is fully given by its shape, so a type found by shape is the one the engine would build. Types only grows, up to
// typesMax shapes; the zero Types is ready to use, and it is safe for concurrent use.
type Types struct {
	byShape readMostly[string, *openapi.Type]
}

// typesMax bounds the shapes a Types keeps: objects of one Go type declaring various subsets of its fields each have
// a shape of their own, and past the bound their types are built for each call.
const typesMax = 1024

// Len is the number of shapes c keeps.
func (c *Types) Len() int { return c.byShape.len() }

// get returns the type kept for shape, or nil.
func (c *Types) get(shape []byte) *openapi.Type {
	if m := c.byShape.load(); m != nil {
		return m[string(shape)]
	}
	return nil
}

// put keeps t for shape unless a type is kept for it already or c is full, and returns the type kept for shape (nil
// when none is).
func (c *Types) put(shape []byte, t *openapi.Type) *openapi.Type {
	kept, _ := c.byShape.add(string(shape), t, typesMax)
	return kept
}

// readMostly is a map read far more often than written, as the look-ups and types kept for later calls are: readers
// load the current map with one atomic read and look it up without locking (a lock's atomic writes on every read are
// what the engine's calls spent in it); add replaces the map by a copy holding one key more. The zero readMostly is
// empty and ready to use; it is safe for concurrent use.
type readMostly[K comparable, V any] struct {
	mu  sync.Mutex // held by add
	cur atomic.Pointer[map[K]V]
}

// load returns the current map (nil when empty), never to be modified.
func (r *readMostly[K, V]) load() map[K]V {
	if m := r.cur.Load(); m != nil {
		return *m
	}
	return nil
}

// len is the number of keys r holds.
func (r *readMostly[K, V]) len() int { return len(r.load()) }

// add keeps v for k unless r holds k already or holds limit keys, and returns the value r holds for k and whether it
// holds one (the zero V and false when full).
func (r *readMostly[K, V]) add(k K, v V, limit int) (V, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.load()
	if kept, ok := old[k]; ok {
		return kept, true
	}
	if len(old) >= limit {
		var none V
		return none, false
	}
	next := make(map[K]V, len(old)+1)
	maps.Copy(next, old)
	next[k] = v
	r.cur.Store(&next)
	return v, true
}

// appendShape appends the shape of field f of a struct type to shape: each string with its length before it, so
// that no two shapes read alike.
func appendShape(shape []byte, f *openapi.Field) []byte {
	shape = appendString(shape, f.Name)
	set := byte(0)
	if f.Meta.Set {
		set = 1
	}
	shape = binary.AppendUvarint(append(shape, byte(f.Meta.Strategy), set), uint64(len(f.Meta.MergeKey)))
	for _, k := range f.Meta.MergeKey {
		shape = appendString(shape, k)
	}
	return appendAddress(shape, f.Type)
}

// appendString appends s's length and s.
func appendString(shape []byte, s string) []byte {
	return append(binary.AppendUvarint(shape, uint64(len(s))), s...)
}

// appendAddress appends t's address, which names it while it is kept.
func appendAddress(shape []byte, t *openapi.Type) []byte {
	p := uint64(uintptr(unsafe.Pointer(t)))
	for range 8 {
		shape = append(shape, byte(p))
		p >>= 8
	}
	return shape
}

// listTypes holds one list type per kept item type (*openapi.Type keys and values).
var listTypes sync.Map

// listOf returns the type of lists of elem items: the one kept for elem when elem is kept itself (stable), a new one
// otherwise.
func listOf(elem *openapi.Type, stable bool) (*openapi.Type, bool) {
	if stable {
		if t, ok := listTypes.Load(elem); ok {
			return t.(*openapi.Type), true
		}
	}
	t := &openapi.Type{Name: "strategicpatch list", Kind: openapi.KindList, Elem: elem}
	if !stable {
		return t, false
	}
	kept, _ := listTypes.LoadOrStore(elem, t)
	return kept.(*openapi.Type), true
}
