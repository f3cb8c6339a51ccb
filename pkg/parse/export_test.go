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
