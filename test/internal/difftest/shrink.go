package difftest

import (
	"slices"

	"github.com/plyproject/ply/pkg/value"
)

// Shrink reduces a failing outcome's inputs while the case keeps failing
// with the same Class (and, for object mismatches, any diff path): it
// repeatedly tries to delete one map field or list item from recorded,
// local or live, keeping each deletion that preserves the failure. It runs
// at most budget cases and returns the smallest failing outcome found.
// Deleting a merge key or producing an invalid triple makes the oracle
// fail, which changes the class, so such deletions are rejected.
func (t *Target) Shrink(o Outcome, budget int) Outcome {
	if !o.Class.Failed() {
		return o
	}
	best := o
	runs := 0
	for progress := true; progress && runs < budget; {
		progress = false
		for doc := range 3 {
			// Walk the candidate deletions of this document from the
			// first; after a successful deletion, retry the same index
			// (it now names the next node).
			for idx := 0; runs < budget; {
				c := best.Case
				in := docOf(&c, doc)
				out, ok := deleteNth(*in, idx)
				if !ok {
					break
				}
				*in = out
				c.Shrunk = true
				runs++
				if r := t.Run(c); r.Class == best.Class {
					best = r
					progress = true
					continue
				}
				idx++
			}
		}
	}
	return best
}

func docOf(c *Case, i int) *value.Value {
	switch i {
	case 0:
		return &c.Recorded
	case 1:
		return &c.Local
	}
	return &c.Live
}

// deleteNth deletes the n-th deletable node of v in pre-order (map fields
// and list items; the root itself is not deletable). ok is false when v
// has fewer than n+1 such nodes.
func deleteNth(v value.Value, n int) (value.Value, bool) {
	out, rest := del(v, n)
	return out, rest < 0
}

// del deletes the n-th node below v; it returns the new value and n minus
// the nodes it walked past, or -1 once the deletion was made.
func del(v value.Value, n int) (value.Value, int) {
	switch v.Kind() {
	case value.KindMap:
		fs := v.Fields()
		for _, f := range fs {
			if n == 0 {
				return v.Without(f.Key), -1
			}
			n--
			nv, rest := del(f.Value, n)
			if rest < 0 {
				return v.With(f.Key, nv), -1
			}
			n = rest
		}
	case value.KindList:
		items := v.Items()
		for i, it := range items {
			if n == 0 {
				return value.List(slices.Delete(slices.Clone(items), i, i+1)), -1
			}
			n--
			nv, rest := del(it, n)
			if rest < 0 {
				cp := slices.Clone(items)
				cp[i] = nv
				return value.List(cp), -1
			}
			n = rest
		}
	}
	return v, n
}
