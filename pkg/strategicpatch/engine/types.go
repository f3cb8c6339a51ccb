package engine

import (
	"encoding/binary"
	"maps"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
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
	// bySkeleton holds the types of ApplyMap's and ApplyJSON's calls, each under its documents' skeletons (scopedSchemaOf).
	bySkeleton readMostly[string, keptSchema]
}

// keptSchema is a kept root type and its one-type schema.
type keptSchema struct {
	schema *openapi.Schema
	t      *openapi.Type
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
	shape = appendString(shape, f.NotAList)
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
	t := openapi.KubectlBuilt(&openapi.Type{Name: "strategicpatch list", Kind: openapi.KindList, Elem: elem})
	if !stable {
		return t, false
	}
	kept, _ := listTypes.LoadOrStore(elem, t)
	return kept.(*openapi.Type), true
}

// scopedSchemaOf is schemaOf(l, merging, original, p) for ApplyMap and ApplyJSON, original scoped (trimmed) to what
// patch p reaches: a Lookup
// that is a TypeCacher keeps the type of a call under the skeletons of its two documents (appendSkeleton), so that a
// later call whose documents have the same skeletons builds no type. The builder reads of the documents their keys
// and the kinds of their values (but where a field holds both objects and lists, or a look-up fails, which values pair:
// such a type is not kept by skeleton); both documents are small here, as original holds only what p reaches, so
// that their skeletons cost less than building the type. The skeletons are written in *room, the buffer a goReader (or
// a trimmer) keeps for its next calls.
func scopedSchemaOf(l Lookup, original, p value.Value, room *[]byte) (*openapi.Schema, *openapi.Type, error) {
	cache, ok := l.(TypeCacher)
	if !ok {
		return schemaOf(l, merging, original, p)
	}
	if *room == nil {
		*room = make([]byte, 0, skeletonRoom)
	}
	sig, ok := appendSkeleton((*room)[:0], original, 0)
	if ok {
		sig, ok = appendSkeleton(sig, p, 0)
	}
	if cap(sig) <= skeletonRoom {
		*room = sig[:0] // (kept for the next call; a skeleton outgrows it only by a long key past skeletonMax)
	}
	if !ok {
		return schemaOf(l, merging, original, p)
	}
	if kept, found := cache.Types().bySkeleton.load()[string(sig)]; found {
		return kept.schema, kept.t, nil
	}
	t, stable, pairs, err := buildType(l, merging, original, p)
	if err != nil {
		return nil, nil, err
	}
	s := schemaOfType(t, stable)
	if stable && !pairs {
		cache.Types().bySkeleton.add(string(sig), keptSchema{schema: s, t: t}, typesMax)
	}
	return s, t, nil
}

// schemaOfType is the one-type schema of root type t: the one kept for t when t is kept itself (stable).
func schemaOfType(t *openapi.Type, stable bool) *openapi.Schema {
	if !stable {
		return openapi.FromTypes(map[string]*openapi.Type{rootName: t})
	}
	if s, ok := schemas.Load(t); ok {
		return s.(*openapi.Schema)
	}
	s, _ := schemas.LoadOrStore(t, openapi.FromTypes(map[string]*openapi.Type{rootName: t}))
	return s.(*openapi.Schema)
}

// skeletonMax bounds the skeletons kept, in bytes: documents with larger ones have their types built each call.
const skeletonMax = 2048

// skeletonRoom is the room of the skeleton buffer a goReader keeps for the next call (keptScratch.skeleton).
const skeletonRoom = skeletonMax + 256

// appendSkeleton appends v's skeleton to sig: the keys of its maps and the kinds of its values (null, a scalar, a map,
// a list), all the way down, each map's and list's length first, so that no two skeletons read alike. It reports
// false when v nests deeper than maxDepth or the skeleton grows past skeletonMax, stopping at the field or item that
// takes it past (so it holds at most skeletonMax bytes and one field's). A null or a scalar inside a map or a list is
// appended without a call.
func appendSkeleton(sig []byte, v value.Value, depth int) ([]byte, bool) {
	if depth > maxDepth || len(sig) > skeletonMax {
		return sig, false
	}
	ok := true
	switch k := v.Kind(); k {
	case value.KindMap:
		fields := v.Fields()
		sig = appendLength(append(sig, '{'), len(fields))
		for i := range fields {
			sig = append(appendLength(sig, len(fields[i].Key)), fields[i].Key...)
			if k := fields[i].Value.Kind(); k != value.KindMap && k != value.KindList {
				sig = append(sig, leafMark(k))
			} else if sig, ok = appendSkeleton(sig, fields[i].Value, depth+1); !ok {
				return sig, false
			}
			if len(sig) > skeletonMax {
				return sig, false
			}
		}
	case value.KindList:
		items := v.Items()
		sig = appendLength(append(sig, '['), len(items))
		for i := range items {
			if k := items[i].Kind(); k != value.KindMap && k != value.KindList {
				sig = append(sig, leafMark(k))
			} else if sig, ok = appendSkeleton(sig, items[i], depth+1); !ok {
				return sig, false
			}
			if len(sig) > skeletonMax {
				return sig, false
			}
		}
	default:
		sig = append(sig, leafMark(k))
	}
	return sig, len(sig) <= skeletonMax
}

// leafMark is the skeleton of a value of kind k, neither a map nor a list: 'n' for null, 's' for a scalar.
func leafMark(k value.Kind) byte {
	if k == value.KindNull {
		return 'n'
	}
	return 's'
}

// appendLength appends n as binary.AppendUvarint does, a length below 128 as its one byte without a loop.
func appendLength(sig []byte, n int) []byte {
	if n < 0x80 {
		return append(sig, byte(n))
	}
	return binary.AppendUvarint(sig, uint64(n))
}
