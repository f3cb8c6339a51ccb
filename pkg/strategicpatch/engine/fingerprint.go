package engine

import (
	"encoding/binary"
	"strings"
	"sync"

	"github.com/plyproject/ply/pkg/value"
)

// A patch's fingerprint names everything typeOf reads of a patch and the object it applies to (mode merging): the
// patch's skeleton (every key and the kind of every value, list items included) and, of the object, the kind of each
// value at a place the patch holds values or names a list by a directive, whether each of its maps there holds a map,
// a list or a "$" key (objects.nested), and its list items there likewise, against the patch's items. typeOf reads no
// more (a failed look-up aside, whose error is never kept), so that documents of one fingerprint have one type under
// one Lookup: a TypeCacher's Types keeps it (Types.byDocs), and a call whose documents have a fingerprint seen before
// walks the documents once, for the fingerprint, instead of building their type. Fingerprints are prefix-free: each
// part is told by its kind byte, lengths or end markers.

// fingerprintMax bounds a fingerprint kept, in bytes: documents of a larger one get their type built each call.
const fingerprintMax = 4096

// fingerprinter builds fingerprints in memory kept for the next call.
type fingerprinter struct {
	fp    []byte
	stack []value.Value // the patch's values at the places being read, the places' above them
}

var fingerprinters = sync.Pool{New: func() any { return new(fingerprinter) }}

// release clears f's memory, which refers to the documents, and returns f to the pool.
func (f *fingerprinter) release() {
	clear(f.stack[:cap(f.stack)])
	f.stack, f.fp = f.stack[:0], f.fp[:0]
	fingerprinters.Put(f)
}

// of returns the fingerprint of patch p applied to object o, valid until f is released; ok false when it is longer
// than fingerprintMax.
func (f *fingerprinter) of(p, o value.Value) (fp []byte, ok bool) {
	f.fp = appendSkeleton(f.fp[:0], p)
	f.stack = append(f.stack[:0], p)
	f.appendObject(0, o)
	return f.fp, len(f.fp) <= fingerprintMax
}

// appendSkeleton appends v's kind and, of a map, its length and each key and value's skeleton, of a list, its length
// and each item's skeleton.
func appendSkeleton(fp []byte, v value.Value) []byte {
	fp = append(fp, byte(v.Kind()))
	switch {
	case v.IsMap():
		fp = binary.AppendUvarint(fp, uint64(v.Len()))
		for _, fd := range v.Fields() {
			fp = appendSkeleton(appendString(fp, fd.Key), fd.Value)
		}
	case v.IsList():
		fp = binary.AppendUvarint(fp, uint64(v.Len()))
		for _, it := range v.Items() {
			fp = appendSkeleton(fp, it)
		}
	}
	return fp
}

// appendObject appends what typeOf reads of object value o at a place where the patch holds f.stack[from:]: o's kind;
// of a map, whether it holds a map, a list or a "$" key, then each field the patch's maps there hold or name by a list
// directive (marked 1; 0 ends them), its key and what is read there; of a list, its length and each item, against
// the items of the patch's lists there.
func (f *fingerprinter) appendObject(from int, o value.Value) {
	f.fp = append(f.fp, byte(o.Kind()))
	switch {
	case o.IsMap():
		f.fp = append(f.fp, boolByte(holdsNested(o)))
		for _, fd := range o.Fields() {
			at := len(f.stack)
			if !f.pushField(from, at, fd.Key) {
				continue
			}
			f.fp = appendString(append(f.fp, 1), fd.Key)
			f.appendObject(at, fd.Value)
			clear(f.stack[at:])
			f.stack = f.stack[:at]
		}
		f.fp = append(f.fp, 0)
	case o.IsList():
		at := len(f.stack)
		for i := from; i < at; i++ {
			f.stack = append(f.stack, f.stack[i].Items()...) // (none of a value not a list)
		}
		f.fp = binary.AppendUvarint(f.fp, uint64(o.Len()))
		for _, it := range o.Items() {
			f.appendObject(at, it)
		}
		clear(f.stack[at:])
		f.stack = f.stack[:at]
	}
}

// pushField pushes the values the patch's maps among f.stack[from:to] hold at key and reports whether any holds key or
// names it by a "$setElementOrder" or "$deleteFromPrimitiveList" directive.
func (f *fingerprinter) pushField(from, to int, key string) bool {
	named := false
	for i := from; i < to; i++ {
		m := f.stack[i]
		if v, ok := m.Get(key); ok {
			f.stack, named = append(f.stack, v), true
		}
		if !named && m.IsMap() {
			_, ordered := m.Get(setOrderPrefix + key)
			_, deleted := m.Get(deletePrimPrefix + key)
			named = ordered || deleted
		}
	}
	return named
}

// holdsNested reports whether map m holds a map, a list or a key starting with "$" (objects.nested).
func holdsNested(m value.Value) bool {
	for _, fd := range m.Fields() {
		if fd.Value.IsMap() || fd.Value.IsList() || strings.HasPrefix(fd.Key, "$") {
			return true
		}
	}
	return false
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}
