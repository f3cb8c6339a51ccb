package changes

import (
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// Op is the kind of a Change.
type Op uint8

// The operations a Change can make.
const (
	// Add puts a field or item live does not hold.
	Add Op = iota + 1
	// Replace changes a value live holds (a scalar, an atomic value, or the
	// order of a list whose items are otherwise unchanged).
	Replace
	// Remove deletes a field or item live holds.
	Remove
)

var opNames = [...]string{"", "add", "replace", "remove"}

// String names the op.
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "invalid"
}

// Change is one difference between live and the merged result, reported at
// the outermost path where they differ. Its path is materialised only when
// asked for (Path), so listing thousands of changes stays cheap.
type Change struct {
	Op Op
	// Source is the input that decided the change: Local (local sets the
	// value, nulls it, or leaves out a field of a retainKeys union) or
	// Recorded (local dropped it since the last apply).
	Source elements.Source
	node   *elements.Node
}

// Path returns where the change is. Each call builds a new Path.
func (c Change) Path() fieldpath.Path {
	if c.node == nil {
		return nil
	}
	return c.node.Path()
}

// Collect lists the changes of a decided tree in walk order: map fields by
// name, list items local's first (local order), then live-only ones (live
// order), then recorded-only ones.
func Collect(root elements.Element) []Change {
	var out []Change
	collect(root, &out)
	return out
}

func collect(e elements.Element, out *[]Change) {
	n := e.Base()
	liveOK := n.HasLive && !n.Live.IsNull()
	res := n.Outcome
	present := res.Present && !res.Value.IsNull()
	switch {
	case !liveOK && !present:
		return
	case !liveOK:
		*out = append(*out, Change{node: n, Op: Add, Source: elements.Local})
		return
	case !present:
		src := elements.Local
		if !n.HasLocal && n.HasRecorded {
			src = elements.Recorded
		}
		*out = append(*out, Change{node: n, Op: Remove, Source: src})
		return
	}
	before := len(*out)
	switch e := e.(type) {
	case *elements.TypeElement:
		collectFields(e.Fields, out)
		return
	case *elements.MapElement:
		collectFields(e.Fields, out)
		return
	case *elements.ListElement:
		collectItems(e.Items, out)
		for i := range e.LiveExtra {
			x := &e.LiveExtra[i]
			mark := len(*out)
			collect(x.Element, out)
			// A live duplicate goes with the item whose key it repeats:
			// removed because local dropped that key since the last apply.
			if x.Of >= 0 && e.Items[x.Of].RemovedSinceRecorded() {
				for k := mark; k < len(*out); k++ {
					(*out)[k].Source = elements.Recorded
				}
			}
		}
	case *elements.SetElement:
		collectItems(e.Items, out)
	}
	if len(*out) == before && !value.Equal(n.Live, res.Value) {
		*out = append(*out, Change{node: n, Op: Replace, Source: elements.Local})
	}
}

func collectFields(fs elements.Fields, out *[]Change) {
	for _, f := range fs {
		collect(f.Element, out)
	}
}

func collectItems(items []elements.Item, out *[]Change) {
	for i := range items {
		collect(items[i].Element, out)
	}
}
