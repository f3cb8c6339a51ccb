package patchdiff_test

import (
	"fmt"
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

// Patches whose lists name one merge key twice, with every feature gate
// off (UniqueMergeKeys among them): ply must give what the API server's
// strategicpatch gives, each item of a key merged in turn into the first
// item of it. The cases are the ApplyDirectives cases of the kubectl
// targets whose patch agrees without repeats, each keyed list of the
// patch given one item more (repeat).
// PLY_DIFF_REPEATS_N sets the cases per target.
var _ = Describe("patches naming a merge key twice, every feature gate off, against strategicpatch", func() {
	repeatedRun{tag: "repeats", label: "repeated keys", none: "no keyed list", repeated: ignoringLive(repeat), least: 10}.specs()
})

// Patches whose lists name one merge key three times, every feature gate
// off: each later item of the key merges in turn into the outcome of the
// ones before, the third onto what the second made. The cases are those of
// the suite above, each keyed list given two items more of one key
// (repeatTwice).
var _ = Describe("patches naming a merge key three times, every feature gate off, against strategicpatch", func() {
	repeatedRun{tag: "repeats-twice", label: "keys named three times", none: "no keyed list", repeated: ignoringLive(repeatTwice), least: 10}.specs()
})

// Patches whose lists of scalars (sets) name one value twice, every feature
// gate off: ply must give what strategicpatch gives, the repeats collapsing
// into their value where live has the list and kept where the server takes
// the patch's list whole. The cases are the ApplyDirectives cases of the
// kubectl targets whose patch agrees without repeats, some set lists of the
// patch given one of their values again (repeatSetValue).
var _ = Describe("patches naming a set's value twice, every feature gate off, against strategicpatch", func() {
	repeatedRun{tag: "set-repeats", label: "repeated set values", none: "no set", repeated: ignoringLive(repeatSetValue), least: 25}.specs()
})

// repeatedRun is a suite of the ApplyDirectives cases of each kubectl target, their patches given repeats by
// repeated (judgeRepeated; none counts a case it finds nothing to repeat in), seeded under tag, reported under label;
// more than one case in least must agree.
type repeatedRun struct {
	tag, label, none string
	repeated         rewrite
	least            int
}

// rewrite returns patch p, of type t, onto live, changed (some of its lists given repeats, say), and whether it
// changed anything.
type rewrite func(p, live value.Value, t *openapi.Type, r *rand.Rand) (value.Value, bool)

// ignoringLive is the rewrite f, which reads the patch alone.
func ignoringLive(f func(value.Value, *openapi.Type, *rand.Rand) (value.Value, bool)) rewrite {
	return func(p, _ value.Value, t *openapi.Type, r *rand.Rand) (value.Value, bool) { return f(p, t, r) }
}

// specs adds the suite's spec for each target.
func (r repeatedRun) specs() {
	for _, spec := range difftest.Specs {
		It("agree on random "+spec.Name+" cases", func() {
			run := kubectlRun{mode: patchdiff.ApplyDirectives, tag: r.tag, label: r.label, env: "PLY_DIFF_REPEATS_N", def: 400}
			n, counts, line := run.cases(spec.Name, func(t *difftest.Target, i int, c patchdiff.Case, counts map[string]int) string {
				return judgeRepeated(t, c, counts, r.repeated, r.none)
			})
			Expect(counts["agree"]).To(BeNumerically(">", n/r.least), "too few cases repeat and merge: %s", line)
		})
	}
}

// judgeRepeated judges case c of target t with its patch given repeats by
// repeated (counted as none when it finds nothing to repeat): only what the
// repeats change is judged, so a case whose patch differs already without
// them (a known class) is left out, counted by its class. It returns the
// report of a failed case, else "".
func judgeRepeated(t *difftest.Target, c patchdiff.Case, counts map[string]int, repeated rewrite, none string) string {
	p, ok := repeated(c.Patch, c.Live, t.Root, rand.New(rand.NewPCG(c.Seed, 7)))
	if !ok {
		counts[none]++
		return ""
	}
	if base := patchdiff.Run(t, c).Class; base != patchdiff.Agree && base != patchdiff.AgreeError {
		counts["base "+base.String()]++
		return ""
	}
	c.Patch = p
	o := patchdiff.Run(t, c)
	counts[o.Class.String()]++
	if o.Class.Failed() {
		return fmt.Sprintf("%s: %v\n  patch %s\n  live %s\n  strategicpatch %v %s\n  ply %v %s",
			o.Class, c.ID(), c.Patch.JSON(), c.Live.JSON(), o.OracleErr, o.OracleObject.JSON(), o.PlyErr, o.PlyObject.JSON())
	}
	return ""
}

// repeatSetValue returns patch p (of type t) with, in some of its merged
// lists of scalars that have items, one of them again, right after it or at
// the end; it looks into maps and the items of lists merged by key, never
// into directives. repeated is false when p has no such list.
func repeatSetValue(p value.Value, t *openapi.Type, r *rand.Rand) (_ value.Value, repeated bool) {
	if !p.IsMap() {
		return p, false
	}
	out := p
	for _, f := range p.Fields() {
		if strings.HasPrefix(f.Key, "$") {
			continue
		}
		ct, meta := t.Child(f.Key)
		v := f.Value
		merged := v.IsList() && ct.Kind == openapi.KindList && meta.Strategy.Has(openapi.StrategyMerge)
		switch {
		case v.IsMap():
			if nv, ok := repeatSetValue(v, ct, r); ok {
				out, repeated = out.With(f.Key, nv), true
			}
		case merged && len(meta.MergeKey) > 0:
			items := slices.Clone(v.Items())
			for i, it := range items {
				if nv, ok := repeatSetValue(it, ct.Item(), r); ok {
					items[i], repeated = nv, true
				}
			}
			out = out.With(f.Key, value.List(items))
		case merged && ct.Item().Kind == openapi.KindPrimitive && v.Len() > 0 && r.IntN(3) > 0:
			items := slices.Clone(v.Items())
			j := r.IntN(len(items))
			at := j + 1
			if r.IntN(2) == 0 {
				at = len(items)
			}
			out, repeated = out.With(f.Key, value.List(slices.Insert(items, at, items[j]))), true
		}
	}
	return out, repeated
}

// repeatsInList is repeatN's step for list v, field field of patch map out, merged by key (items of type ct.Item()):
// the items repeated within, then times items more repeating the key of a random data item (repeatedItem), each right
// after it or at the end, and in field's "$setElementOrder" likewise. It returns out with the new list, and whether
// anything was repeated.
func repeatsInList(out value.Value, field string, v value.Value, ct *openapi.Type, key string, times int, r *rand.Rand) (value.Value, bool) {
	repeated := false
	items := slices.Clone(v.Items())
	for i, it := range items {
		if nv, ok := repeatN(it, ct.Item(), times, r); ok {
			items[i], repeated = nv, true
		}
	}
	var data []int
	for i, it := range items {
		if _, directive := it.Get("$patch"); it.IsMap() && !directive {
			if _, keyed := it.Get(key); keyed {
				data = append(data, i)
			}
		}
	}
	if len(data) == 0 {
		return out.With(field, value.List(items)), repeated
	}
	j := data[r.IntN(len(data))]
	kv, _ := items[j].Get(key)
	for range times {
		extra := repeatedItem(items, data, j, key, kv, r)
		last := r.IntN(2) == 0 // at the end of the list, else right after item j
		at := j + 1
		if last {
			at = len(items)
		}
		items = slices.Insert(items, at, extra)
		out = out.With(field, value.List(items))
		if order, ok := out.Get("$setElementOrder/" + field); ok && order.IsList() {
			entries := slices.Clone(order.Items())
			if at := slices.IndexFunc(entries, func(e value.Value) bool { ek, _ := e.Get(key); return value.Equal(ek, kv) }); at >= 0 {
				if last {
					entries = append(entries, entries[at])
				} else {
					entries = slices.Insert(entries, at+1, entries[at])
				}
				out = out.With("$setElementOrder/"+field, value.List(entries))
			}
		}
	}
	return out, true
}

// repeatedItem is the item that repeats key value kv of items[j] (data: the indexes of the data items): the other
// fields of another data item, or, when j is the only one, its own with a random field other than key nulled.
func repeatedItem(items []value.Value, data []int, j int, key string, kv value.Value, r *rand.Rand) value.Value {
	if len(data) > 1 {
		other := data[r.IntN(len(data))]
		for other == j {
			other = data[r.IntN(len(data))]
		}
		return items[other].With(key, kv)
	}
	extra := items[j]
	var others []string
	for _, g := range extra.Fields() {
		if g.Key != key && !strings.HasPrefix(g.Key, "$") {
			others = append(others, g.Key)
		}
	}
	if len(others) > 0 {
		extra = extra.With(others[r.IntN(len(others))], value.Null)
	}
	return extra
}

// repeat returns patch p (of type t) with one item more in each list
// merged by key that has a data item: an item with the key of a random
// one of them, and the other fields of another (or, in a list of one, its
// own with a field nulled), placed right after it or at the end of the
// list, and likewise in the list's "$setElementOrder" when there is one. repeated is false when p has
// no such list.
func repeat(p value.Value, t *openapi.Type, r *rand.Rand) (_ value.Value, repeated bool) {
	return repeatN(p, t, 1, r)
}

// repeatTwice is repeat giving each list two items more of one key: its key named three times, the second repeat
// merging onto the outcome of the first.
func repeatTwice(p value.Value, t *openapi.Type, r *rand.Rand) (_ value.Value, repeated bool) {
	return repeatN(p, t, 2, r)
}

// repeatN is repeat giving each list times items more of the key it repeats (repeatsInList).
func repeatN(p value.Value, t *openapi.Type, times int, r *rand.Rand) (_ value.Value, repeated bool) {
	if !p.IsMap() {
		return p, false
	}
	out := p
	for _, f := range p.Fields() {
		if strings.HasPrefix(f.Key, "$") {
			continue
		}
		ct, meta := t.Child(f.Key)
		v := f.Value
		switch {
		case v.IsMap():
			nv, ok := repeatN(v, ct, times, r)
			if !ok {
				continue
			}
			out, repeated = out.With(f.Key, nv), true
		case v.IsList() && ct.Kind == openapi.KindList && meta.Strategy.Has(openapi.StrategyMerge) && len(meta.MergeKey) == 1:
			var ok bool
			if out, ok = repeatsInList(out, f.Key, v, ct, meta.MergeKey[0], times, r); ok {
				repeated = true
			}
		}
	}
	return out, repeated
}
