package apply

import (
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/smp"
)

// findConflicts lists the conflicts of a collated tree (Overwrite false),
// by kubectl's rule (see smp.Conflicts).
func findConflicts(tree elements.Element) []Conflict {
	cs := smp.Conflicts(tree)
	out := make([]Conflict, len(cs))
	for i, c := range cs {
		out[i] = Conflict(c)
	}
	return out
}
