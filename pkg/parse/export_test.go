package parse

import "github.com/plyproject/ply/pkg/value"

// ArenaHeld counts the fields of a's slabs that are not zero: what a
// holds of the documents read into it.
func ArenaHeld(a *Arena) int {
	held := 0
	for _, s := range a.slabs {
		for _, f := range s[:cap(s)] {
			if f != (value.Field{}) {
				held++
			}
		}
	}
	return held
}

// ArenaSlabs returns the length and capacity of each slab a holds
// documents in.
func ArenaSlabs(a *Arena) (lens, caps []int) {
	for _, s := range a.slabs[:a.used] {
		lens, caps = append(lens, len(s)), append(caps, cap(s))
	}
	return lens, caps
}

// ArenaKin returns how many top-level values a holds for documents read
// with JSONDocumentSharingIn to share, and how many of its entries (to its
// capacity) are not zero.
func ArenaKin(a *Arena) (length, held int) {
	for _, f := range a.kin[:cap(a.kin)] {
		if f.text != nil || f.v != (value.Value{}) {
			held++
		}
	}
	return len(a.kin), held
}
