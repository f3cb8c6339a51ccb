package patchdiff_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/pkg/visitors"
	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/patchdiff"
)

// Patches naming merge keys two or three times (nested repeats among them: the items of a keyed list repeat keys of
// their own lists too) and set values twice, every feature gate off, under depth limits 0 (the default), 5 and 7:
// patch.Apply must give what the patch's items give applied one after another (inTurn), the definition of a repeat,
// an error where they fail. strategicpatch has no depth limit: this is ply against ply. The cases are the
// ApplyDirectives cases of the Pod and Deployment targets given repeats by repeatN and repeatSetValue, under a limit
// some of their maps at it given as "$retainKeys" alone (retainAtLimit), and some given a repeat nested in a repeat
// down to a map live holds with fields at the limit (nestedRepeat): a repeat the front-end applies again, at its depth
// in the patch. A case whose repeats lie where no split stands for them (below a directive, or after an item with a
// null merge key the split's first part appends to a list its second merges: appendsNullKey) is counted "not in
// turn" and left out. The report's front-end re-applications are patch.Apply's alone: the steps hold no repeat applied to
// an outcome. PLY_DIFF_INTURN_N sets the cases per target and limit, PLY_DIFF_SEED the seed.
var _ = Describe("patches repeating merge keys, against their items applied one after another, under depth limits", func() {
	for _, spec := range []string{"pod", "deployment"} {
		for _, maxDepth := range []int{0, 5, 7} {
			It(fmt.Sprintf("agree on random %s cases, MaxDepth %d", spec, maxDepth), func() {
				run := kubectlRun{mode: patchdiff.ApplyDirectives, tag: fmt.Sprintf("inturn-%d", maxDepth),
					label: fmt.Sprintf("items in turn, MaxDepth %d", maxDepth), env: "PLY_DIFF_INTURN_N", def: 150}
				n, counts, line := run.cases(spec, func(t *difftest.Target, i int, c patchdiff.Case, counts map[string]int) string {
					return judgeInTurn(t, c, maxDepth, counts)
				})
				Expect(counts["agree"]+counts["agree error"]+counts["agree error, another first"]).To(BeNumerically(">", n/10), "too few cases repeat in turn: %s", line)
				// (An error against another error passes only where the steps meet another first: a rare class, bounded, so
				// that a change giving wrong errors fails here.)
				Expect(counts["agree error, another first"]).To(BeNumerically("<=", max(2, n/200)), "errors differing from the steps': %s", line)
			})
		}
	}
})

// A null-keyed item before a repeat, every gate off, MaxDepth 0: Apply gives strategicpatch's result or error on the
// whole patch (compared as the API server stores it, nulls dropped), and the case is judged against its items in turn
// (class), left out ("not in turn") where the items before the split append the null-keyed item to a list the items
// from it on merge: the outcome holds the item without its key (ply drops the nulls of content live lacks), so those
// items fail on it, where strategicpatch's one call keeps the null and merges.
var _ = DescribeTable("patches repeating merge keys after a null-keyed item, against strategicpatch and their items applied one after another",
	func(live, p, class string) {
		t, err := difftest.LoadTarget("pod/" + difftest.Kubectl)
		Expect(err).NotTo(HaveOccurred())
		want, werr := sp.StrategicMergePatchUsingLookupPatchMeta([]byte(live), []byte(p), t.Oracle.Meta())
		opts := patch.Options{Schema: t.Schema, TypeName: t.TypeName, Gates: features.Kubectl()}
		got, err := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(p), opts)
		if werr != nil { // (patch.Apply's messages are ply's own: pkg/strategicpatch gives strategicpatch's)
			Expect(err).To(HaveOccurred())
		} else {
			Expect(err).NotTo(HaveOccurred())
			Expect(value.Equal(got, visitors.StripNulls(jsonv.MustDecode(string(want))))).To(BeTrue(), "ply %s\nstrategicpatch %s", got.JSON(), want)
		}
		counts := map[string]int{}
		Expect(judgeSteps(t, "null key", jsonv.MustDecode(live), jsonv.MustDecode(p), 0, counts)).To(BeEmpty())
		Expect(counts).To(Equal(map[string]int{class: 1}))
	},
	Entry("appended before a repeat of another key in its list: left out",
		`{"metadata":{"ownerReferences":[{"uid":"a"}]}}`,
		`{"metadata":{"ownerReferences":[{"uid":null,"kind":"b"},{"uid":"a","kind":"c"},{"uid":"a","name":"n"}]}}`, "not in turn"),
	Entry("appended to a list the split passes through: left out",
		`{"spec":{"containers":[{"name":"e","env":[{"name":"x"}]}]}}`,
		`{"spec":{"containers":[{"name":null,"image":"i"},{"name":"e","env":[{"name":"y","value":"1"},{"name":"y","value":"2"}]}]}}`, "not in turn"),
	Entry("merged into live's null-keyed item: both fail",
		`{"metadata":{"ownerReferences":[{"uid":"a"},{"uid":null,"kind":"k"}]}}`,
		`{"metadata":{"ownerReferences":[{"uid":null,"kind":"b"},{"uid":"a","kind":"c"},{"uid":"a","name":"n"}]}}`, "agree error"),
	Entry("appended after the repeat: in turn",
		`{"metadata":{"ownerReferences":[{"uid":"a"}]}}`,
		`{"metadata":{"ownerReferences":[{"uid":"a","kind":"c"},{"uid":"a","name":"n"},{"uid":null,"kind":"b"}]}}`, "agree"),
)

// judgeInTurn judges case c of target t, its patch given repeats, under maxDepth: Apply against inTurn, an error
// against an error (the same text, or another where the steps number items otherwise or meet another error first),
// else the same object. It counts the case's class and returns the report of a failed case, else "".
func judgeInTurn(t *difftest.Target, c patchdiff.Case, maxDepth int, counts map[string]int) string {
	p, r, repeated := repeatedPatch(t, c, counts)
	if !repeated {
		return ""
	}
	if maxDepth > 0 && r.IntN(2) == 0 {
		p = retainAtLimit(p, 0, maxDepth, r)
	}
	if sites := limitSites(c.Live, t.Root, 0, maxDepth, nil, nil); len(sites) > 0 && r.IntN(3) == 0 {
		site := sites[r.IntN(len(sites))]
		p = p.With(site[0].field, nestedRepeat(site[1:], site[len(site)-1].field))
	}
	return judgeSteps(t, c.ID(), c.Live, p, maxDepth, counts)
}

// repeatedPatch returns case c's patch (of target t) given repeats by repeatN, or by repeatSetValue in about half the
// cases where it applies, and the source they drew from (seeded by the case), which the caller draws on; repeated is
// false, the case counted "no repeat", where neither gives one.
func repeatedPatch(t *difftest.Target, c patchdiff.Case, counts map[string]int) (p value.Value, r *rand.Rand, repeated bool) {
	r = rand.New(rand.NewPCG(c.Seed, 33))
	p, repeated = repeatN(c.Patch, t.Root, 1+r.IntN(2), r)
	if sets, ok := repeatSetValue(p, t.Root, r); ok && r.IntN(2) == 0 {
		p, repeated = sets, true
	}
	if !repeated {
		counts["no repeat"]++
	}
	return p, r, repeated
}

// judgeSteps judges patch p (given repeats) onto live under maxDepth, case id of target t: Apply against inTurn, as
// judgeInTurn says.
func judgeSteps(t *difftest.Target, id string, live, p value.Value, maxDepth int, counts map[string]int) string {
	opts := patch.Options{Schema: t.Schema, TypeName: t.TypeName, Gates: features.Kubectl(), MaxDepth: maxDepth}
	got, err := patch.Apply(live, p, opts)
	want, steps, werr := inTurn(live, p, t.Root, opts)
	switch {
	case steps < 0:
		counts["not in turn"]++
		return ""
	case err != nil && werr != nil && err.Error() == werr.Error():
		counts["agree error"]++
		return ""
	case err != nil && werr != nil: // (a split renumbers items, and finds another of several errors first)
		counts["agree error, another first"]++
		return ""
	case err == nil && werr == nil && value.Equal(got, want):
		counts["agree"]++
		return ""
	}
	counts["differ"]++
	return fmt.Sprintf("differ: %v MaxDepth %d\n  patch %s\n  live %s\n  in turn (%d steps) %v %s\n  ply %v %s",
		id, maxDepth, p.JSON(), live.JSON(), steps, werr, want.JSON(), err, got.JSON())
}

// inTurn applies patch p (of root type t) to live under opts as the API server applies a list naming a key again:
// each later item of the key onto the outcome of the ones before. It splits p at the first keyed list naming a key
// again (repeatSite) into the patch before that item (the list's items before it, p's other fields) and the patch of
// the items from it on (the path to the list alone: maps, and items by their key), each applied in turn so, as a
// patch from the root (depths as in p). It returns the outcome, the patches applied (-1: p's repeats lie where no
// split stands for them: below a directive, or after a null-keyed item appended, appendsNullKey), and the first error.
func inTurn(live, p value.Value, t *openapi.Type, opts patch.Options) (value.Value, int, error) {
	path, at, ok := repeatSite(live, p, t, nil)
	if !ok {
		return value.Value{}, -1, nil
	}
	if path == nil {
		out, err := patch.Apply(live, p, opts)
		return out, 1, err
	}
	head, tail := splitAt(p, path, at)
	mid, n, err := inTurn(live, head, t, opts)
	if n < 0 || err != nil {
		return mid, n, err
	}
	out, m, err := inTurn(mid, tail, t, opts)
	if m < 0 {
		return out, m, err
	}
	return out, n + m, err
}

// pathStep is one step of a path to a keyed list in a patch: a map's field, then, for a field that is a keyed list
// the path goes through, the merge key field and value of its item.
type pathStep struct {
	field    string
	key      string
	keyValue value.Value
	item     bool
}

// repeatSite finds, depth first, the first list of patch map p (of type t, cur its place in the outcome so far)
// merged by a one-field key that names a key again where cur holds a list (the API server merges its items in
// turn): it returns the path to it and the position of its first item repeating a key. Where cur lacks a value, or
// holds another kind, the server takes p's whole (repeats kept apart, applied to nothing) and it looks no further
// below. ok is false where a list naming a key again lies below a "$patch", "$retainKeys" or list directive it
// passes, or a list whose items hold "$patch", or where cur names the key twice, and where the split's list, or one on
// the path to it, holds before the split an item with a null key its list in cur lacks (appendsNullKey).
func repeatSite(cur, p value.Value, t *openapi.Type, path []pathStep) (site []pathStep, at int, ok bool) {
	if _, directed := p.Get("$patch"); directed {
		return nil, 0, !namesKeyAgain(p, t)
	}
	if _, retains := p.Get("$retainKeys"); retains {
		return nil, 0, !namesKeyAgain(p, t)
	}
	for _, f := range p.Fields() {
		if strings.HasPrefix(f.Key, "$") || t == nil {
			continue
		}
		ct, meta := t.Child(f.Key)
		cf, held := cur.Get(f.Key)
		step := append(append([]pathStep(nil), path...), pathStep{field: f.Key})
		switch {
		case f.Value.IsMap() && held && cf.IsMap():
			if site, at, ok := repeatSite(cf, f.Value, ct, step); !ok || site != nil {
				return site, at, ok
			}
		case f.Value.IsList() && ct != nil && ct.Kind == openapi.KindList && meta.Strategy.Has(openapi.StrategyMerge) && len(meta.MergeKey) == 1:
			if !held || !cf.IsList() {
				continue
			}
			site, at, ok := keyedSite(p, f.Key, cf, f.Value, ct, meta.MergeKey[0], step)
			if !ok || site != nil {
				return site, at, ok
			}
		}
	}
	return nil, 0, true
}

// keyedSite is repeatSite for list v, field field of patch map p, merged by key onto cur's list cl: the list itself
// where it names a key again, else the first site in its items, each below cl's item of its key.
func keyedSite(p value.Value, field string, cl, v value.Value, ct *openapi.Type, key string, path []pathStep) ([]pathStep, int, bool) {
	_, ordered := p.Get("$setElementOrder/" + field)
	_, deletes := p.Get("$deleteFromPrimitiveList/" + field)
	seen := map[string]bool{}
	for i, it := range v.Items() {
		kv, _ := it.Get(key)
		_, directive := it.Get("$patch")
		if directive || ordered || deletes || !it.IsMap() {
			return nil, 0, !listNamesKeyAgain(v, ct, key)
		}
		if seen[string(kv.JSON())] {
			return path, i, !appendsNullKey(v.Items()[:i], cl, key)
		}
		seen[string(kv.JSON())] = true
	}
	for _, it := range v.Items() {
		kv, _ := it.Get(key)
		ci, n := itemOf(cl, key, kv)
		if n > 1 {
			return nil, 0, !namesKeyAgain(it, ct.Item())
		}
		if n == 0 {
			continue // (a new item: taken whole)
		}
		step := append(append([]pathStep(nil), path...), pathStep{key: key, keyValue: kv, item: true})
		if site, at, ok := repeatSite(ci, it, ct.Item(), step); !ok || site != nil {
			return site, at, ok && !appendsNullKey(v.Items(), cl, key)
		}
	}
	return nil, 0, true
}

// appendsNullKey reports whether items (of a patch's list merged by key onto live's list cl) hold an item whose key
// field is null where cl holds none: the patch appends it, and applying the patch, ply drops the nulls of content
// live lacks (docs/strategicpatch.md, "Null merge keys"), key included. A split there stands for no repeat: the
// items before the split give an outcome holding the item without its key, on which the items from the split on,
// merging that list, fail, where the whole patch (strategicpatch's one call keeping the null key) merges.
func appendsNullKey(items []value.Value, cl value.Value, key string) bool {
	if _, n := itemOf(cl, key, value.Null); n > 0 {
		return false
	}
	return slices.ContainsFunc(items, func(it value.Value) bool {
		kv, ok := it.Get(key)
		return ok && kv.IsNull()
	})
}

// itemOf returns the item of list l whose key field holds kv, and how many items do.
func itemOf(l value.Value, key string, kv value.Value) (value.Value, int) {
	i, n := difftest.ItemIndex(l.Items(), key, kv)
	if n == 0 {
		return value.Null, 0
	}
	return l.Items()[i], n
}

// namesKeyAgain reports whether patch value v (of type t; nil: unknown, any list counts) holds, anywhere, a list merged
// by a one-field key naming a key again.
func namesKeyAgain(v value.Value, t *openapi.Type) bool {
	if !v.IsMap() {
		return false
	}
	for _, f := range v.Fields() {
		var ct *openapi.Type
		var meta openapi.Meta
		if t != nil {
			ct, meta = t.Child(f.Key)
		}
		switch {
		case f.Value.IsMap() && namesKeyAgain(f.Value, ct):
			return true
		case f.Value.IsList() && (t == nil || len(meta.MergeKey) == 1):
			key := ""
			if len(meta.MergeKey) == 1 {
				key = meta.MergeKey[0]
			}
			if listNamesKeyAgain(f.Value, ct, key) {
				return true
			}
		}
	}
	return false
}

// listNamesKeyAgain reports whether list v (of type ct; nil: unknown) names key again (key "": any item's "name"),
// or an item's value does (namesKeyAgain).
func listNamesKeyAgain(v value.Value, ct *openapi.Type, key string) bool {
	if key == "" {
		key = "name"
	}
	seen := map[string]bool{}
	for _, it := range v.Items() {
		var itemType *openapi.Type
		if ct != nil {
			itemType = ct.Item()
		}
		if kv, ok := it.Get(key); ok && it.IsMap() {
			if seen[string(kv.JSON())] {
				return true
			}
			seen[string(kv.JSON())] = true
		}
		if namesKeyAgain(it, itemType) {
			return true
		}
	}
	return false
}

// splitAt splits patch map p at the keyed list path leads to, before its item at: head is p with the list's items
// before at, tail the path to the list alone (its maps' other fields left out, its items' but their key) with the
// list's items from at on.
func splitAt(p value.Value, path []pathStep, at int) (head, tail value.Value) {
	field, rest := path[0].field, path[1:]
	child, _ := p.Get(field)
	switch {
	case len(rest) == 0:
		items := child.Items()
		return p.With(field, value.List(items[:at])), value.MustMap().With(field, value.List(items[at:]))
	case !rest[0].item:
		h, tl := splitAt(child, rest, at)
		return p.With(field, h), value.MustMap().With(field, tl)
	}
	items := append([]value.Value(nil), child.Items()...)
	key, kv := rest[0].key, rest[0].keyValue
	i, _ := difftest.ItemIndex(items, key, kv)
	h, tl := splitAt(items[i], rest[1:], at)
	items[i] = h
	return p.With(field, value.List(items)), value.MustMap().With(field, value.List([]value.Value{tl.With(key, kv)}))
}

// retainAtLimit returns patch value v, at depth depth, with some of the maps it holds as a map's field at depth limit
// (whose fields lie beyond it) given as a map without fields holding "$retainKeys" alone: where live holds fields
// there, a collation fails at the first of them, and a repeat holding one is applied again by the front-end, at its
// depth in the patch (elements.Repeat.Depth). Directive maps are left as they are.
func retainAtLimit(v value.Value, depth, limit int, r *rand.Rand) value.Value {
	switch {
	case v.IsList():
		items := slices.Clone(v.Items())
		for i := range items {
			items[i] = retainAtLimit(items[i], depth+1, limit, r)
		}
		return value.List(items)
	case !v.IsMap() || depth >= limit:
		return v
	}
	out := v
	for _, f := range v.Fields() {
		switch {
		case strings.HasPrefix(f.Key, "$"):
		case depth+1 == limit && f.Value.IsMap() && f.Value.Len() > 0 && !hasDirective(f.Value) && r.IntN(3) == 0:
			out = out.With(f.Key, value.MustMap().With("$retainKeys", value.List([]value.Value{value.String(f.Value.Fields()[0].Key)})))
		default:
			out = out.With(f.Key, retainAtLimit(f.Value, depth+1, limit, r))
		}
	}
	return out
}

// hasDirective reports whether map m holds a "$" key.
func hasDirective(m value.Value) bool {
	return slices.ContainsFunc(m.Fields(), func(f value.Field) bool { return strings.HasPrefix(f.Key, "$") })
}

// limitSites returns the paths from live value v (of type t, at depth depth) to the maps at depth limit holding fields
// (each path's last step that map's field) that pass through two items or more of lists merged by a one-field key
// (their item steps: each item by its key), after path.
func limitSites(v value.Value, t *openapi.Type, depth, limit int, path []pathStep, sites [][]pathStep) [][]pathStep {
	if limit <= 0 || t == nil || !v.IsMap() || depth >= limit {
		return sites
	}
	for _, f := range v.Fields() {
		ct, meta := t.Child(f.Key)
		step := append(slices.Clip(path), pathStep{field: f.Key})
		switch {
		case depth+1 == limit && f.Value.IsMap() && f.Value.Len() > 0:
			items := 0
			for _, s := range step {
				if s.item {
					items++
				}
			}
			if items >= 2 {
				sites = append(sites, step)
			}
		case f.Value.IsMap():
			sites = limitSites(f.Value, ct, depth+1, limit, step, sites)
		case f.Value.IsList() && ct != nil && ct.Kind == openapi.KindList && meta.Strategy.Has(openapi.StrategyMerge) && len(meta.MergeKey) == 1:
			for _, it := range f.Value.Items() {
				if kv, ok := it.Get(meta.MergeKey[0]); ok {
					item := append(slices.Clip(step), pathStep{key: meta.MergeKey[0], keyValue: kv, item: true})
					sites = limitSites(it, ct.Item(), depth+2, limit, item, sites)
				}
			}
		}
	}
	return sites
}

// nestedRepeat returns the patch value for the field path's first step leads to (path: steps after that field; held:
// the limit map's field, last) naming each item on the path twice: first alone, by its key, then holding the rest of
// the path, down to the limit map given as a map without fields holding "$retainKeys" alone: a repeat nested in a
// repeat's tree, whose collation with its member's outcome fails at that map's first field.
func nestedRepeat(path []pathStep, held string) value.Value {
	if len(path) == 0 {
		return value.MustMap().With("$retainKeys", value.List([]value.Value{value.String(held)}))
	}
	step := path[0]
	if !step.item {
		return value.MustMap().With(step.field, nestedRepeat(path[1:], held))
	}
	member := value.MustMap().With(step.key, step.keyValue)
	return value.List([]value.Value{member, nestedRepeat(path[1:], held).With(step.key, step.keyValue)})
}

// Patches repeating merge keys as the suite above gives them (the same cases, repeatN and repeatSetValue), whose items
// after the first of a repeated key hold, at one or two places, directive values kubectl never writes (judgeMutated): "$deleteFromPrimitiveList"
// values of mixed classes, objects, lists, nulls, none; "$setElementOrder" entries naming absent values, values twice,
// objects, nulls, or no list; "$retainKeys" naming non-strings, absent fields, or null; "$patch" unknown, a number, or
// "merge", on maps and list items; directives in maps the outcome lacks. Every gate off, MaxDepth 0 and 5: patch.Apply
// must give what the items give applied one after another (judgeSteps), an error where they fail.
// PLY_DIFF_INTURN_N sets the cases per target and limit, PLY_DIFF_SEED the seed.
var _ = Describe("patches repeating merge keys, their later items' directives malformed, against their items applied in turn", func() {
	for _, spec := range []string{"pod", "deployment"} {
		for _, maxDepth := range []int{0, 5} {
			It(fmt.Sprintf("agree on random %s cases, MaxDepth %d", spec, maxDepth), func() {
				run := kubectlRun{mode: patchdiff.ApplyDirectives, tag: fmt.Sprintf("inturn-%d", maxDepth),
					label: fmt.Sprintf("items in turn, directives malformed, MaxDepth %d", maxDepth), env: "PLY_DIFF_INTURN_N", def: 2000}
				n, counts, line := run.cases(spec, func(t *difftest.Target, i int, c patchdiff.Case, counts map[string]int) string {
					return judgeMutated(t, c, maxDepth, counts)
				})
				Expect(counts["agree"]+counts["agree error"]+counts["agree error, another first"]).To(BeNumerically(">", n/10), "too few cases repeat in turn: %s", line)
				Expect(counts["mutated"]).To(BeNumerically(">", n/10), "too few cases mutated: %s", line)
				Expect(counts["agree error, another first"]).To(BeNumerically("<=", max(2, n/100)), "errors differing from the steps': %s", line)
			})
		}
	}
})

// judgeMutated judges case c of target t as judgeInTurn does, its patch given repeats as there, its later items'
// directives malformed at one or two places of those mutator.later passes, picked at random (counted "mutated"; a
// patch without such places, "nothing to mutate", is left out).
func judgeMutated(t *difftest.Target, c patchdiff.Case, maxDepth int, counts map[string]int) string {
	p, r, repeated := repeatedPatch(t, c, counts)
	if !repeated {
		return ""
	}
	var sites mutator // (a walk mutating nothing counts the places it may mutate)
	sites.later(p, c.Live, t.Root)
	if sites.sites == 0 {
		counts["nothing to mutate"]++
		return ""
	}
	r = rand.New(rand.NewPCG(c.Seed, 34))
	m := mutator{r: r, pick: map[int]bool{r.IntN(sites.sites): true}}
	if r.IntN(4) == 0 {
		m.pick[r.IntN(sites.sites)] = true
	}
	counts["mutated"]++
	return judgeSteps(t, c.ID(), c.Live, m.later(p, c.Live, t.Root), maxDepth, counts)
}

// mutator malforms the directives of patch values at the places pick names, counting the places it passes (a
// directive, a map a directive may be added to, a list item) in sites, in the order of its walk, drawing from r.
type mutator struct {
	r     *rand.Rand
	pick  map[int]bool
	sites int
}

// take reports whether the place the walk is at is one to mutate.
func (m *mutator) take() bool {
	m.sites++
	return m.pick[m.sites-1]
}

// later returns patch map p (of type t, onto live value lv) with the items after the first of each repeated key of
// its keyed lists, at any depth, malformed (item); the other values it looks into for repeats.
func (m *mutator) later(p, lv value.Value, t *openapi.Type) value.Value {
	if !p.IsMap() {
		return p
	}
	out := p
	for _, f := range p.Fields() {
		if strings.HasPrefix(f.Key, "$") {
			continue
		}
		ct, meta := t.Child(f.Key)
		lf, _ := lv.Get(f.Key)
		switch {
		case f.Value.IsMap():
			out = out.With(f.Key, m.later(f.Value, lf, ct))
		case f.Value.IsList() && len(meta.MergeKey) == 1:
			key := meta.MergeKey[0]
			seen := map[string]bool{}
			items := slices.Clone(f.Value.Items())
			for i, it := range items {
				kv, keyed := it.Get(key)
				li, _ := itemOf(lf, key, kv)
				switch {
				case !it.IsMap() || !keyed:
				case seen[string(kv.JSON())]:
					items[i] = m.item(it, li, ct.Item(), key)
				default:
					seen[string(kv.JSON())] = true
					items[i] = m.later(it, li, ct.Item())
				}
			}
			out = out.With(f.Key, value.List(items))
		}
	}
	return out
}

// item returns map pm (of type t, onto the outcome's value lv; key: the merge key of its list, left as it is, "" for
// none) with its directives malformed, a directive added (added), and its maps and the items of its lists malformed
// likewise, "$patch" of such an item among them.
func (m *mutator) item(pm, lv value.Value, t *openapi.Type, key string) value.Value {
	out := pm
	for _, f := range pm.Fields() {
		ct, meta := t.Child(f.Key)
		lf, held := lv.Get(f.Key)
		switch {
		case f.Key == key:
		case strings.HasPrefix(f.Key, "$"):
			out = m.directive(out, f, t)
		case f.Value.IsMap():
			nv := m.item(f.Value, lf, ct, "")
			if !held || !lf.IsMap() {
				nv = m.added(nv, ct)
			}
			out = out.With(f.Key, nv)
		case f.Value.IsList() && ct != nil && ct.Kind == openapi.KindList:
			itemKey := ""
			if len(meta.MergeKey) == 1 {
				itemKey = meta.MergeKey[0]
			}
			items := slices.Clone(f.Value.Items())
			for i, it := range items {
				if !it.IsMap() {
					continue
				}
				kv, _ := it.Get(itemKey)
				li, _ := itemOf(lf, itemKey, kv)
				if items[i] = m.item(it, li, ct.Item(), itemKey); m.take() {
					items[i] = items[i].With("$patch", m.patchValue())
				}
			}
			out = out.With(f.Key, value.List(items))
		}
	}
	return m.added(out, t)
}

// directive returns map pm with its directive f (pm of type t) malformed, where picked: the values a
// "$deleteFromPrimitiveList" deletes (deletedValues), the entries of a "$setElementOrder" (orderEntries), the fields
// "$retainKeys" names (retainedFields), a "$patch" (patchValue).
func (m *mutator) directive(pm value.Value, f value.Field, t *openapi.Type) value.Value {
	if !m.take() {
		return pm
	}
	var nv value.Value
	switch name, _ := strings.CutPrefix(f.Key, "$setElementOrder/"); {
	case strings.HasPrefix(f.Key, "$deleteFromPrimitiveList/"):
		nv = m.deletedValues(f.Value)
	case name != f.Key:
		_, meta := t.Child(name)
		nv = m.orderEntries(f.Value, meta.MergeKey)
	case f.Key == "$retainKeys":
		nv = m.retainedFields(f.Value)
	case f.Key == "$patch":
		nv = m.patchValue()
	default:
		return pm
	}
	return pm.With(f.Key, nv)
}

// added returns map pm (of type t) with, where picked, a directive more: "$retainKeys" naming its fields and an
// absent one or a non-string, a "$patch", or for a list field of t (of scalars, for a deletion), a
// "$deleteFromPrimitiveList" or "$setElementOrder" malformed, or both beside a list of scalars set (unordered).
func (m *mutator) added(pm value.Value, t *openapi.Type) value.Value {
	if !m.take() {
		return pm
	}
	var lists, scalars []string
	if t != nil && t.Kind == openapi.KindStruct {
		for _, name := range t.FieldNames {
			if ft, _ := t.Child(name); ft.Kind == openapi.KindList {
				lists = append(lists, name)
				if ft.Item().Kind == openapi.KindPrimitive {
					scalars = append(scalars, name)
				}
			}
		}
	}
	switch k := m.r.IntN(5); {
	case k == 0:
		var names []value.Value
		for _, f := range pm.Fields() {
			if !strings.HasPrefix(f.Key, "$") {
				names = append(names, value.String(f.Key))
			}
		}
		return pm.With("$retainKeys", m.retainedFields(value.List(names)))
	case k == 1 || len(lists) == 0:
		return pm.With("$patch", m.patchValue())
	case k == 2 && len(scalars) > 0:
		name := scalars[m.r.IntN(len(scalars))]
		return pm.With("$deleteFromPrimitiveList/"+name, m.deletedValues(value.List([]value.Value{value.String("a")})))
	case k == 4 && len(scalars) > 0:
		return m.unordered(pm, scalars)
	}
	name := lists[m.r.IntN(len(lists))]
	_, meta := t.Child(name)
	return pm.With("$setElementOrder/"+name, m.orderEntries(value.List(nil), meta.MergeKey))
}

// deletedValues returns the values of a "$deleteFromPrimitiveList" (vals) malformed: of mixed classes, an object, a
// list, a null, none, or no list.
func (m *mutator) deletedValues(vals value.Value) value.Value {
	items := slices.Clone(vals.Items())
	switch m.r.IntN(7) {
	case 0:
		return value.List(append(items, value.String("a"), value.Int(1)))
	case 1:
		return value.List(append(items, value.MustMap().With("x", value.String("y"))))
	case 2:
		return value.List(append(items, value.List([]value.Value{value.String("a")})))
	case 3:
		return value.List(append(items, value.Null))
	case 4:
		return value.List(nil)
	case 5:
		return value.List([]value.Value{value.Bool(true), value.Int(2)})
	}
	return value.String("a")
}

// orderEntries returns the entries of a "$setElementOrder" (entries; key: its list's merge key, none for a list of
// scalars) malformed: naming an absent value, one of its values twice, an object, a null, or no list.
func (m *mutator) orderEntries(entries value.Value, key []string) value.Value {
	items := slices.Clone(entries.Items())
	absent := value.String("zz-absent")
	if len(key) == 1 {
		absent = value.MustMap().With(key[0], absent)
	}
	switch m.r.IntN(6) {
	case 0:
		return value.List(append(items, absent))
	case 1:
		if len(items) > 0 {
			return value.List(append(items, items[m.r.IntN(len(items))]))
		}
		return value.List([]value.Value{absent, absent})
	case 2:
		return value.List(append(items, value.MustMap().With("x", value.String("y"))))
	case 3:
		return value.List(append(items, value.Null))
	case 4:
		return value.Null
	}
	return value.String("x")
}

// retainedFields returns the fields "$retainKeys" names (names) malformed: with a non-string, an absent field, or
// null in place of the list.
func (m *mutator) retainedFields(names value.Value) value.Value {
	items := slices.Clone(names.Items())
	switch m.r.IntN(5) {
	case 0:
		return value.List(append(items, value.Int(1)))
	case 1:
		return value.List(append(items, value.String("zzAbsent")))
	case 2:
		return value.List(append(items, value.Null))
	case 3:
		return value.Null
	}
	return value.String("x")
}

// patchValue is a "$patch" kubectl never writes where the mutator puts it: "merge", an unknown value, or a number.
func (m *mutator) patchValue() value.Value {
	switch m.r.IntN(4) {
	case 0, 1:
		return value.String("merge")
	case 2:
		return value.String("bogus")
	}
	return value.Int(3)
}

// unordered returns map pm with a list field of scalars (of names) set beside an empty "$setElementOrder" of it, which
// the collation of the item without live refuses for what the outcome decides (Phase 2 decides the repeat then, and
// the items in turn take it as merged), and a "$deleteFromPrimitiveList" malformed of one of names.
func (m *mutator) unordered(pm value.Value, names []string) value.Value {
	name := names[m.r.IntN(len(names))]
	pm = pm.With("$setElementOrder/"+name, value.List(nil)).With(name, value.List([]value.Value{value.String("c"), value.String("a")}))
	name = names[m.r.IntN(len(names))]
	return pm.With("$deleteFromPrimitiveList/"+name, m.deletedValues(value.List([]value.Value{value.String("a")})))
}
