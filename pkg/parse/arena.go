package parse

import (
	"unsafe"

	"github.com/plyproject/ply/pkg/value"
)

// Arena is memory for the maps and lists of documents that are used for
// one piece of work and then dropped together, such as the three objects
// of a merge whose result is encoded before the next one: documents read
// into an Arena (Limits.OwnedDocumentIn) take its memory instead of a new
// allocation each, and Reset hands that memory to the next documents.
//
// Invariant: a document read into an Arena, and every value taken from it
// or built to share its maps and lists (a merge's result, the key values
// in the paths of its changes), is valid only until the Arena's next
// Reset, which overwrites them. The zero Arena is ready to use; an Arena
// is not safe for concurrent use. Documents read as YAML, and JSON input
// estimated at more than one slab (8,192 fields), are allocated as
// without an Arena, as is whatever part of a document its slab turns out
// too small for.
type Arena struct {
	// slabs[:used] hold documents read since the last Reset, each as long
	// as what its document used (filled); every slab is zero beyond its
	// length, so that Reset clears only what was used.
	slabs [][]value.Field
	used  int
	// kin holds the top-level maps and lists, and the longer lists below, of the documents read with
	// JSONDocumentSharingIn since the last Reset, for the documents read after them to share.
	kin []kinField
}

// slab returns room for n fields: the next slab of a when it is large
// enough, a new one kept for next time otherwise. A nil Arena allocates.
func (a *Arena) slab(n int) []value.Field {
	if a == nil {
		return make([]value.Field, 0, n)
	}
	if a.used < len(a.slabs) && cap(a.slabs[a.used]) >= n {
		a.used++
		return a.slabs[a.used-1][:0]
	}
	s := make([]value.Field, 0, n)
	if a.used < len(a.slabs) {
		a.slabs[a.used] = s
	} else {
		a.slabs = append(a.slabs, s)
	}
	a.used++
	return s
}

// filled records how much of the slab handed out last its document used:
// s is the scanner's slab at the end, that slab unless it ran out (carve
// went on in new memory), in which case all of it counts.
func (a *Arena) filled(s []value.Field) {
	last := &a.slabs[a.used-1]
	if unsafe.SliceData(s) == unsafe.SliceData(*last) {
		*last = (*last)[:len(s)]
	} else {
		*last = (*last)[:cap(*last)]
	}
}

// Reset ends the life of every document read into a so far (see the
// type's invariant) and makes its memory available again. It clears that
// memory, so that a holds on to no string of the documents it held. A nil
// Arena has nothing to reset.
func (a *Arena) Reset() {
	if a == nil {
		return
	}
	for i, s := range a.slabs[:a.used] {
		clear(s)
		a.slabs[i] = s[:0]
	}
	a.used = 0
	clear(a.kin)
	a.kin = a.kin[:0]
}
