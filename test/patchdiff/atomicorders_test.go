package patchdiff_test

import (
	"math/rand/v2"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/patchdiff"
)

// Patches whose lists of scalars merged by no strategy (a container's args, a
// Service's externalIPs) carry a "$setElementOrder", every feature gate off:
// ply must give what strategicpatch gives, which orders the list it takes by
// the directive. The cases are the ApplyDirectives cases of the kubectl
// targets whose patch agrees without the directives, some of those lists
// given one of the shapes of atomicOrderShapes (orderAtomic), in maps live
// holds: in content live lacks strategicpatch copies the patch raw, its
// directives inside, where ply applies them as in content live has (the
// deliberate difference of docs/strategicpatch.md).
var _ = Describe("patches ordering lists merged by no strategy, every feature gate off, against strategicpatch", func() {
	repeatedRun{tag: "atomic-orders", label: "ordered atomic lists", none: "no atomic list",
		repeated: func(p, live value.Value, t *openapi.Type, r *rand.Rand) (value.Value, bool) {
			return orderAtomic(p, live, t, r, atomicOrderShapes)
		}, least: 100}.specs()
})

// The same in patches naming a merge key twice: the lists ordered first, in
// the shapes a later item of a key is applied in wherever strategicpatch puts
// it (followed, alone), then each keyed list given a repeat (repeat), which
// copies another item's lists and directives.
var _ = Describe("patches ordering lists merged by no strategy in repeated items, every feature gate off, against strategicpatch", func() {
	repeatedRun{tag: "atomic-orders-repeats", label: "ordered atomic lists, repeated keys", none: "no atomic list or keyed list",
		repeated: func(p, live value.Value, t *openapi.Type, r *rand.Rand) (value.Value, bool) {
			ordered, ok := orderAtomic(p, live, t, r, []atomicOrderShape{orderFollowed, orderAlone})
			if !ok {
				return p, false
			}
			repeated, ok := repeat(ordered, t, r)
			return withoutOrdersOfNulls(repeated), ok
		}, least: 100}.specs()
})

// pkg/patch.Compose of two patches, the second ordering lists merged by no
// strategy (orderAtomic, the first patch for live; in half the cases its keyed
// lists given a repeat first, "repeated" classes: the second with its repeats
// composed and judged first, a class composeCase accepts other than an
// agreement counted "base <class> repeated" and its orders not judged),
// every feature gate off,
// against strategicpatch's merge of patches, which orders the first's list
// by the second's directive and keeps it. The first patch is the live object
// itself in half the cases, else another generated patch.
// PLY_DIFF_COMPOSE_N sets the cases per target.
var _ = Describe("Compose of kubectl patches ordering lists merged by no strategy, every feature gate off, against strategicpatch", func() {
	for _, spec := range difftest.Specs {
		It("agree on random "+spec.Name+" patches", func() {
			run := kubectlRun{mode: patchdiff.ApplyDirectives, tag: "compose-atomic-orders", label: "compose of ordered atomic lists", env: "PLY_DIFF_COMPOSE_N", def: 300}
			n, counts, line := run.cases(spec.Name, func(t *difftest.Target, i int, c patchdiff.Case, counts map[string]int) string {
				first := composeFirst(t, i, c)
				r := rand.New(rand.NewPCG(c.Seed, 13))
				second, repeated := c.Patch, false
				if r.IntN(2) == 0 {
					second, repeated = repeat(second, t.Root, r)
				}
				if base, _, fail := composeCase(t, c, first, second); repeated && !strings.HasPrefix(base, "agree") {
					// (What the orders change is judged where the repeat composes alike; a repeat that does not
					// fails the spec, but for a class composeCase accepts.)
					counts["base "+base+" repeated"]++
					return fail
				}
				second, ordered := orderAtomic(second, first, t.Root, r, atomicOrderShapes)
				if !ordered {
					counts["no atomic list"]++
					return ""
				}
				class, _, fail := composeCase(t, c, first, second)
				if repeated {
					class += " repeated"
				}
				counts[class]++
				return fail
			})
			Expect(counts["agree"]+counts["agree repeated"]).To(BeNumerically(">", n/100), "too few cases order and compose: %s", line)
		})
	}
})

// atomicOrderShape is a way of ordering a list merged by no strategy.
type atomicOrderShape uint8

const (
	orderFollowed atomicOrderShape = iota // the list's items in its order, other values among them
	orderEmpty                            // an empty directive beside the list
	orderDeleting                         // followed or empty, beside "$deleteFromPrimitiveList" of one of its values
	orderAlone                            // the directive alone, reordering live's list: the list's items reversed
	orderEmptied                          // the list emptied, the directive naming its items
)

// atomicOrderShapes are all the shapes.
var atomicOrderShapes = []atomicOrderShape{orderFollowed, orderEmpty, orderDeleting, orderAlone, orderEmptied}

// orderAtomic returns patch p (of type t, onto live) with, in some of its
// lists of scalars that the schema merges by no strategy, a
// "$setElementOrder" of one of shapes; it looks into maps and the items of
// lists merged by key (live's the first item of the key), never into
// directives. In content live lacks, which strategicpatch copies as the patch
// has it where ply orders it as in content live has, only orderFollowed, for
// lists naming no value twice: there both give the list as it stands. ordered
// is false when p has no such list.
func orderAtomic(p, live value.Value, t *openapi.Type, r *rand.Rand, shapes []atomicOrderShape) (_ value.Value, ordered bool) {
	if !p.IsMap() {
		return p, false
	}
	if !live.IsMap() {
		live, shapes = value.MustMap(), []atomicOrderShape{orderFollowed}
	}
	out := p
	for _, f := range p.Fields() {
		if strings.HasPrefix(f.Key, "$") {
			continue
		}
		ct, meta := t.Child(f.Key)
		v := f.Value
		lv, _ := live.Get(f.Key)
		merged := meta.Strategy.Has(openapi.StrategyMerge)
		switch {
		case v.IsMap():
			if nv, ok := orderAtomic(v, lv, ct, r, shapes); ok {
				out, ordered = out.With(f.Key, nv), true
			}
		case v.IsList() && ct.Kind == openapi.KindList && merged && len(meta.MergeKey) == 1:
			items := slices.Clone(v.Items())
			for i, it := range items {
				if nv, ok := orderAtomic(it, liveItemOf(lv, it, meta.MergeKey[0]), ct.Item(), r, shapes); ok {
					items[i], ordered = nv, true
				}
			}
			out = out.With(f.Key, value.List(items))
		case atomicScalars(v, ct, meta) && (len(shapes) > 1 || !namesTwice(v.Items())) && r.IntN(3) > 0:
			out, ordered = withAtomicOrder(out, f.Key, v.Items(), shapes[r.IntN(len(shapes))], r), true
		}
	}
	// Lists live holds that the patch leaves out: reordered by a directive alone.
	for _, f := range live.Fields() {
		ct, meta := t.Child(f.Key)
		if _, set := p.Get(f.Key); !set && atomicScalars(f.Value, ct, meta) && slices.Contains(shapes, orderAlone) && r.IntN(3) == 0 {
			out, ordered = withAtomicOrder(out, f.Key, f.Value.Items(), orderAlone, r), true
		}
	}
	return out, ordered
}

// atomicScalars reports whether v, of type t with metadata meta, is a list of scalars with items that the schema merges
// by no strategy.
func atomicScalars(v value.Value, t *openapi.Type, meta openapi.Meta) bool {
	return v.IsList() && t.Kind == openapi.KindList && !meta.Strategy.Has(openapi.StrategyMerge) &&
		t.Item().Kind == openapi.KindPrimitive && v.Len() > 0 && allScalars(v.Items())
}

// liveItemOf is the first item of live list l holding item's value of merge key key (null: none).
func liveItemOf(l, item value.Value, key string) value.Value {
	kv, ok := item.Get(key)
	if !ok || !l.IsList() {
		return value.Null
	}
	for _, it := range l.Items() {
		if lk, found := it.Get(key); found && value.Equal(lk, kv) {
			return it
		}
	}
	return value.Null
}

// withAtomicOrder returns patch map out with field name's list items ordered in shape.
func withAtomicOrder(out value.Value, name string, items []value.Value, shape atomicOrderShape, r *rand.Rand) value.Value {
	order := slices.Clone(items)
	if items[0].Kind() == value.KindString {
		// Values live's list may hold, not the patch's (strategicpatch passes them over).
		at := r.IntN(len(order) + 1)
		order = slices.Insert(order, at, value.String("x-order-"+string(rune('a'+r.IntN(3)))))
	}
	switch shape {
	case orderEmpty:
		order = nil
	case orderDeleting:
		out = out.With("$deleteFromPrimitiveList/"+name, value.List([]value.Value{items[r.IntN(len(items))]}))
		if r.IntN(2) == 0 {
			order = nil
		}
	case orderAlone:
		out = out.Without(name)
		order = slices.Clone(items)
		slices.Reverse(order)
	case orderEmptied:
		out = out.With(name, value.List(nil))
	}
	return out.With("$setElementOrder/"+name, value.List(order))
}

// withoutOrdersOfNulls is patch p less the "$setElementOrder" of each field a
// map of it sets to null (a repeat copies another item's directive beside a
// field it nulls: a shape of its own, not this suite's), at any depth.
func withoutOrdersOfNulls(p value.Value) value.Value {
	switch {
	case p.IsList():
		items := slices.Clone(p.Items())
		for i, it := range items {
			items[i] = withoutOrdersOfNulls(it)
		}
		return value.List(items)
	case !p.IsMap():
		return p
	}
	out := p
	for _, f := range p.Fields() {
		if name, ok := strings.CutPrefix(f.Key, "$setElementOrder/"); ok {
			if v, set := p.Get(name); set && v.IsNull() {
				out = out.Without(f.Key)
			}
			continue
		}
		out = out.With(f.Key, withoutOrdersOfNulls(f.Value))
	}
	return out
}

// namesTwice reports whether scalar items name one value twice.
func namesTwice(items []value.Value) bool {
	for i, v := range items {
		if slices.ContainsFunc(items[:i], func(w value.Value) bool { return value.Equal(v, w) }) {
			return true
		}
	}
	return false
}

// allScalars reports whether items holds no map and no list.
func allScalars(items []value.Value) bool {
	return !slices.ContainsFunc(items, func(v value.Value) bool { return v.IsMap() || v.IsList() })
}
