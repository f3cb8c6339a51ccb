// Package delta is the patch-producing visitor: what a strategic merge
// patch must say to turn one source of a collated tree (internal/collate)
// into local, in kubectl's modes (Mode). It is the one place that decides
// what kubectl's patches hold: pkg/patchgen sends them (Patch, ThreeWay),
// kubectl apply --overwrite=false's conflict check compares two of them
// (Check), and kubectl's list order asks whether a list is touched
// (Touches). Lists are matched by collate's index (elements.KeyOf), so a
// patch is linear in the size of the objects; the output equals
// strategicpatch's JSON byte for byte where both are defined.
package delta

import (
	"sync"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/pkg/value"
)

// Patch returns the patch of mode m for a collated tree whose root holds
// the whole object; ok is false when the patch has no entry. Errors are
// *elements.Error naming the source of the bad value (from's items that
// cannot be put in a patch, a local field named like a directive).
func Patch(root elements.Element, m Mode) (p value.Value, ok bool, err error) {
	en, err := New(m).Entry(root)
	return en.Value, en.Present, err
}

// ThreeWay returns kubectl apply's patch for a collated tree
// (strategicpatch.CreateThreeWayMergePatch): the Delta and the Deletions
// computed in one walk, merged node by node as kubectl merges the
// deletions with the delta (see Visitor). A fault of recorded is reported
// before one of live: on an error, the Deletions alone are asked for
// theirs.
func ThreeWay(root elements.Element) (value.Value, bool, error) {
	p, ok, err := Patch(root, threeWay)
	if err != nil {
		if _, _, derr := Patch(root, Deletions); derr != nil {
			return value.Value{}, false, derr
		}
		return value.Value{}, false, err
	}
	return p, ok, nil
}

// Touches reports whether the patch of mode m has anything for e, a node
// local holds: Entry(e).Any() computed only up to each node's first entry.
// The error is that of Entry when met before the first entry.
func Touches(e elements.Element, m Mode) (bool, error) {
	d, _ := probes.Get().(*Visitor)
	if d == nil {
		d = &Visitor{}
	}
	*d = modes[m]
	d.first = true
	en, err := d.Entry(e)
	probes.Put(d)
	return en.Any(), err
}

// probes keeps the Visitors Touches uses (once or twice per merged list).
var probes sync.Pool
