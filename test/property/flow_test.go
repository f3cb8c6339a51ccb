package property

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"

	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/gen"
)

// One collation per operation: the conflict check (Overwrite false) reads a view of recorded and live that the tree's
// own collation builds (collate.Options.Conflicts). It must be the tree those two alone collate to, leniently, as the
// check collated them before: same elements, values, members and errors, only numbered after the tree's nodes.
var _ = Describe("the conflict check's view, collated in the tree's pass", func() {
	It("is the tree recorded and live collate to alone", func() {
		forEachCase(5, func(t *target, tr gen.Triple) []string {
			var probs []string
			// Live as generated, and with one of its maps or lists turned into another kind (which the view, live
			// collated as local leniently, holds atomic) or a list repeating an item (a key or a set value twice).
			for k := range 4 {
				probs = append(probs, sameView(t, tr.Recorded, tr.Local, altered(tr.Live, k))...)
			}
			return probs
		})
	})
})

// sameView reports where the view CountIn builds beside the tree of the three objects differs from the tree recorded
// and live collate to alone, under every gate and under kubectl's.
func sameView(t *target, recorded, local, live value.Value) []string {
	vals, err := collate.RootValues(recorded, local, live)
	if err != nil {
		return nil
	}
	var probs []string
	for _, gates := range []features.Gates{{}, features.Kubectl()} {
		_, nodes, arena, err := collate.CountIn(vals, t.root, collate.Options{Gates: gates, Patches: true, Conflicts: true})
		if err != nil {
			continue
		}
		view, viewErr := arena.Conflicts()
		empty := value.MapFromSorted(nil)
		alone, aloneErr := collate.Collate(elements.Values{Recorded: orEmpty(vals.Recorded, vals.HasRecorded, empty), HasRecorded: true,
			Local: orEmpty(vals.Live, vals.HasLive, empty), HasLocal: true}, t.root, collate.Options{Lenient: true, Gates: gates})
		switch {
		case fmt.Sprint(viewErr) != fmt.Sprint(aloneErr):
			probs = append(probs, fmt.Sprintf("gates %v: view error %v, alone %v", gates, viewErr, aloneErr))
		case viewErr == nil && render(view) != render(alone):
			probs = append(probs, fmt.Sprintf("gates %v: view\n%s\nalone\n%s", gates, render(view), render(alone)))
		case viewErr == nil && view.Base().ID < int32(nodes):
			probs = append(probs, fmt.Sprintf("gates %v: the view's root is numbered %d, among the tree's %d nodes", gates, view.Base().ID, nodes))
		}
		arena.Release()
	}
	return probs
}

// altered returns live with its k-th map or list below the root (in walk order) of another kind, a list's first item
// repeated, or live itself for k 0 (or no such value).
func altered(live value.Value, k int) value.Value {
	if k == 0 {
		return live
	}
	at := 3 * k // (spread over the object)
	var walk func(v value.Value, root bool) value.Value
	walk = func(v value.Value, root bool) value.Value {
		switch {
		case !v.IsMap() && !v.IsList():
			return v
		case !root && at == 0:
			at = -1
			switch {
			case v.IsMap():
				return value.List([]value.Value{value.String("x")})
			case k%2 == 0 && v.Len() > 0:
				return value.List(append([]value.Value{v.Items()[0]}, v.Items()...))
			}
			return value.String("x")
		case !root:
			at--
		}
		if v.IsList() {
			items := make([]value.Value, v.Len())
			for i, it := range v.Items() {
				items[i] = walk(it, false)
			}
			return value.List(items)
		}
		fields := make([]value.Field, v.Len())
		for i, f := range v.Fields() {
			fields[i] = value.Field{Key: f.Key, Value: walk(f.Value, false)}
		}
		return value.MapFromSorted(fields)
	}
	return walk(live, true)
}

func orEmpty(v value.Value, has bool, empty value.Value) value.Value {
	if has {
		return v
	}
	return empty
}

// render writes a tree as text: each element's kind, name, values and members, not its ID.
func render(e elements.Element) string {
	var sb strings.Builder
	var walk func(e elements.Element, depth int)
	walk = func(e elements.Element, depth int) {
		n := e.Base()
		fmt.Fprintf(&sb, "%s%T %q r=%v:%s l=%v:%s v=%v:%s\n", strings.Repeat(" ", depth), e, n.Name,
			n.HasRecorded, n.Recorded.JSON(), n.HasLocal, n.Local.JSON(), n.HasLive, n.Live.JSON())
		items := func(its []elements.Item) {
			for _, it := range its {
				fmt.Fprintf(&sb, "%s- %d %d %d of=%d order=%d deleted=%v\n", strings.Repeat(" ", depth),
					it.RecordedIndex, it.LocalIndex, it.LiveIndex, it.Of, it.OrderIndex, it.Deleted)
				walk(it.Element, depth+1)
			}
		}
		switch e := e.(type) {
		case *elements.MapElement:
			for _, f := range e.Fields {
				walk(f.Element, depth+1)
			}
		case *elements.ListElement:
			fmt.Fprintf(&sb, "%sranked=%v repeats=%v\n", strings.Repeat(" ", depth), e.Ranked, e.Repeats)
			items(e.Items)
			items(e.LiveExtra)
		case *elements.SetElement:
			items(e.Items)
		}
	}
	walk(e, 0)
	return sb.String()
}
