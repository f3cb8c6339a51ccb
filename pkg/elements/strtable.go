package elements

import (
	"hash/maphash"

	"github.com/plyproject/ply/pkg/value"
)

// strTable finds the IDs of an Index's single-field string keys: open addressing with linear probing over slots, each
// 0 (empty) or 1 + the ID of a key, whose string is byID[ID].Str; the table is kept at most half full. Finding a key
// and numbering a new one is one probe sequence (a Go map takes a look-up and an insertion), and emptying it clears
// integers only. used counts the keys it holds.
type strTable struct {
	slots []int32
	used  int
}

// strSeed hashes every strTable's keys (a table holds nothing across processes).
var strSeed = maphash.MakeSeed()

// strTableMin is the fewest slots a table has.
const strTableMin = 32

// reset empties t, keeping its slots (cleared) when there are at most keep of them, and readies it for size keys.
func (t *strTable) reset(size, keep int) {
	if len(t.slots) > keep {
		t.slots = nil
	} else if t.used > 0 {
		clear(t.slots)
	}
	t.used = 0
	if want := tableSize(size); len(t.slots) < want {
		t.slots = make([]int32, want)
	}
}

// tableSize is the number of slots for n keys: a power of two at least 2n.
func tableSize(n int) int {
	size := strTableMin
	for size < 2*n {
		size *= 2
	}
	return size
}

// find returns the ID of key s among byID's keys, or numbers it next (ID next) and returns fresh.
func (t *strTable) find(s string, byID []value.ScalarKey, next int) (id int, fresh bool) {
	if 2*(t.used+1) > len(t.slots) {
		t.grow(byID)
	}
	i, id, found := t.probe(s, byID)
	if found {
		return id, false
	}
	t.slots[i] = int32(next + 1)
	t.used++
	return next, true
}

// lookup returns the ID of key s among byID's keys, and false where t holds no such key.
func (t *strTable) lookup(s string, byID []value.ScalarKey) (id int, found bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	_, id, found = t.probe(s, byID)
	return id, found
}

// probe follows s's probe sequence in t (which has an empty slot) to the slot of key s (found: its ID) or to the
// empty slot where s would go.
func (t *strTable) probe(s string, byID []value.ScalarKey) (slotAt uint64, id int, found bool) {
	mask := uint64(len(t.slots) - 1)
	for i := maphash.String(strSeed, s) & mask; ; i = (i + 1) & mask {
		slot := t.slots[i]
		if slot == 0 {
			return i, 0, false
		}
		if byID[slot-1].Str == s {
			return i, int(slot - 1), true
		}
	}
}

// grow doubles t's slots and places the keys again.
func (t *strTable) grow(byID []value.ScalarKey) {
	old := t.slots
	t.slots = make([]int32, 2*max(len(old), strTableMin/2))
	mask := uint64(len(t.slots) - 1)
	for _, slot := range old {
		if slot == 0 {
			continue
		}
		i := maphash.String(strSeed, byID[slot-1].Str) & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = slot
	}
}
