package differential_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/oracle"
	"github.com/plyproject/ply/test/patchdiff"
)

// Objects whose merged lists name one merge key twice, with every feature
// gate off (UniqueMergeKeys among them): ply must merge them as kubectl
// apply does, its three-way patch (items paired by their rank among the
// items of a key in kubectl's sort) applied by the API server, and make
// that patch byte for byte. The cases are the generated triples of the
// differential targets with repeats added to local and, each with even
// odds, to recorded and live (repeatObject). PLY_DIFF_REPEATS_N sets the
// cases per target and mode.
var _ = Describe("objects naming a merge key twice, every feature gate off, against kubectl's pipeline", func() {
	for _, spec := range difftest.Specs {
		for _, overwrite := range []bool{true, false} {
			It(fmt.Sprintf("agree on random %s triples (overwrite %t)", spec.Name, overwrite), func() {
				runRepeats(spec.Name+"/"+difftest.Kubectl, overwrite, keyRepeats)
			})
		}
	}
})

// Objects whose merged lists of scalars (sets) name one value twice, every
// feature gate off: as above, the repeats added by repeatSetValue. A set
// value repeated in recorded or local may meet strategicpatch's defect of
// deleting every copy of a value local keeps ($deleteFromPrimitiveList
// names the value: class oracle-drops-set-value).
var _ = Describe("objects naming a set's value twice, every feature gate off, against kubectl's pipeline", func() {
	for _, spec := range difftest.Specs {
		for _, overwrite := range []bool{true, false} {
			It(fmt.Sprintf("agree on random %s triples (overwrite %t)", spec.Name, overwrite), func() {
				runRepeats(spec.Name+"/"+difftest.Kubectl, overwrite, setRepeats)
			})
		}
	}
})

// repeater adds repeats to an object's lists of one kind (repeated: it found such a list); tag names its cases' seeds.
type repeater struct {
	add      func(v value.Value, t *openapi.Type, r *rand.Rand) (_ value.Value, repeated bool)
	tag, env string
	label    string // what the repeats are, in the report
	none     string // the count of cases without such a list
}

var (
	keyRepeats = repeater{add: repeatObject, tag: "/repeats", env: "PLY_DIFF_REPEATS_N", label: "repeated keys", none: "no keyed list"}
	setRepeats = repeater{add: repeatSetValue, tag: "/set-repeats", env: "PLY_DIFF_REPEATS_N", label: "repeated set values", none: "no set"}
)

func runRepeats(target string, overwrite bool, rep repeater) {
	t, err := difftest.LoadTarget(target)
	Expect(err).NotTo(HaveOccurred())
	n := int(envInt(rep.env, 300))
	seed := envInt("PLY_DIFF_SEED", defaultSeed)
	counts := map[string]int{}
	var fails []string
	for i := range n {
		c := t.Generate(difftest.CaseSeed(seed, target+rep.tag, overwrite, i), overwrite)
		r := rand.New(rand.NewPCG(c.Seed, 11))
		local, repeated := rep.add(c.Local, t.Root, r)
		if !repeated {
			counts[rep.none]++
			continue
		}
		c.Local = local
		if !c.Recorded.IsNull() && r.IntN(2) == 0 {
			c.Recorded, _ = rep.add(c.Recorded, t.Root, r)
		}
		if !c.Live.IsNull() && r.IntN(2) == 0 {
			c.Live, _ = rep.add(c.Live, t.Root, r)
		}
		o := t.Run(c)
		class := o.Class.String()
		if o.Class == difftest.PlyErrorOnly && o.OraclePatch != nil {
			// kubectl's own patch, applied by ply's patch front-end, may hit a
			// known strategicpatch defect of patch application: ply must then
			// fail just as applying that patch does, for that reason.
			p, err := parse.Document(o.OraclePatch)
			Expect(err).NotTo(HaveOccurred())
			pc := patchdiff.Case{Mode: patchdiff.ApplyDirectives, Target: target, Seed: c.Seed, Live: c.Live, Patch: p}
			var pe, me *elements.Error
			if po := patchdiff.Run(t, pc); po.Class == patchdiff.OracleCopiesUnchecked && errors.As(po.PlyErr, &pe) && errors.As(o.PlyErr, &me) &&
				me.Path.String() == pe.Path.String() && strings.HasSuffix(me.Msg, pe.Msg) {
				class = po.Class.String()
				o.Class = difftest.Agree // counted under class, not a failure
			}
		}
		if o.Class == difftest.ObjectMismatch || o.Class == difftest.DuplicateItems {
			// The harness names one known defect per case, and duplicate
			// items before any: kubectl's patches for repeated keys can meet
			// several, and its patch can add and delete one set value.
			if known := knownDefect(t, c, o); known != "" {
				class, o.Class = known, difftest.Agree
			}
		}
		if o.Class == difftest.AgreeError && !sameReason(o.OracleErr.Error(), o.PlyErr.Error()) {
			class = "agree-error (other reasons)"
		}
		if class == "agree" && o.OraclePatch != nil {
			// The patch too: kubectl's, as ply makes it.
			want, err := parse.Document(o.OraclePatch)
			Expect(err).NotTo(HaveOccurred())
			opts := t.MergeOptions(overwrite)
			got, err := patchgen.ThreeWay(c.Recorded, c.Local, c.Live, patchgen.Options{Schema: opts.Schema, TypeName: opts.TypeName, Overwrite: overwrite, Gates: opts.Gates})
			if err != nil || string(got.JSON()) != string(want.JSON()) {
				class = "patch-differs"
				fails = append(fails, fmt.Sprintf("patch-differs: %s\n  recorded %s\n  local %s\n  live %s\n  kubectl %s\n  ply %v %s",
					c.ID(), c.Recorded.JSON(), c.Local.JSON(), c.Live.JSON(), want.JSON(), err, got.JSON()))
			}
		}
		counts[class]++
		if o.Class.Failed() {
			fails = append(fails, fmt.Sprintf("%s: %s (at %s)\n  recorded %s\n  local %s\n  live %s\n  patch %s\n  strategicpatch %v %s\n  ply %v %s",
				o.Class, c.ID(), o.DiffPath, c.Recorded.JSON(), c.Local.JSON(), c.Live.JSON(), o.OraclePatch, o.OracleErr, o.OracleObject.JSON(), o.PlyErr, o.PlyObject.JSON()))
		}
	}
	line := countsLine(fmt.Sprintf("%s overwrite=%t, %s: %d cases,", target, overwrite, rep.label, n), counts)
	AddReportEntry("cases", line)
	fmt.Fprintln(GinkgoWriter, line)
	Expect(fails).To(BeEmpty(), "%s\n%s", line, strings.Join(fails[:min(len(fails), 3)], "\n"))
	Expect(counts["agree"]+counts["agree-conflict"]).To(BeNumerically(">", n/10), "too few cases repeat a key and agree: %s", line)
}

// countsLine is head followed by each class and its count, in name order.
func countsLine(head string, counts map[string]int) string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		head += fmt.Sprintf(" %s %d", k, counts[k])
	}
	return head
}

// repeatObject returns v (of type t) with one item more in some of its lists
// merged by a one-field key: the key of a random item of the list and the
// other fields of another item (or, in a list of one, its own with a field
// changed), right after that item or at the end. repeated is false when v
// has no such list.
func repeatObject(v value.Value, t *openapi.Type, r *rand.Rand) (_ value.Value, repeated bool) {
	if !v.IsMap() {
		return v, false
	}
	out := v
	for _, f := range v.Fields() {
		ct, meta := t.Child(f.Key)
		fv := f.Value
		switch {
		case fv.IsMap():
			if nv, ok := repeatObject(fv, ct, r); ok {
				out, repeated = out.With(f.Key, nv), true
			}
		case fv.IsList() && ct.Kind == openapi.KindList && meta.Strategy.Has(openapi.StrategyMerge) && len(meta.MergeKey) == 1:
			items := slices.Clone(fv.Items())
			for i, it := range items {
				if nv, ok := repeatObject(it, ct.Item(), r); ok && r.IntN(2) == 0 {
					items[i], repeated = nv, true
				}
			}
			key := meta.MergeKey[0]
			var keyed []int
			for i, it := range items {
				if _, ok := it.Get(key); ok && it.IsMap() {
					keyed = append(keyed, i)
				}
			}
			if len(keyed) == 0 || r.IntN(3) == 0 {
				out = out.With(f.Key, value.List(items))
				continue
			}
			j := keyed[r.IntN(len(keyed))]
			kv, _ := items[j].Get(key)
			extra := items[keyed[r.IntN(len(keyed))]].With(key, kv)
			if value.Equal(extra, items[j]) {
				var others []string
				for _, g := range extra.Fields() {
					if g.Key != key {
						others = append(others, g.Key)
					}
				}
				if len(others) == 0 {
					// The repeat would equal its first item: the list is
					// left as it is (these repeats differ from their first).
					out = out.With(f.Key, value.List(items))
					continue
				}
				extra = extra.Without(others[r.IntN(len(others))])
			}
			at := j + 1
			if r.IntN(2) == 0 {
				at = len(items)
			}
			items = slices.Insert(items, at, extra)
			out, repeated = out.With(f.Key, value.List(items)), true
		}
	}
	return out, repeated
}

// repeatSetValue returns v (of type t) with, in some of its merged lists of
// scalars that have items, one of them again: right after it or at the end.
// It looks into maps and into the items of lists merged by key. repeated is
// false when v has no such list.
func repeatSetValue(v value.Value, t *openapi.Type, r *rand.Rand) (_ value.Value, repeated bool) {
	if !v.IsMap() {
		return v, false
	}
	out := v
	for _, f := range v.Fields() {
		ct, meta := t.Child(f.Key)
		fv := f.Value
		merged := fv.IsList() && ct.Kind == openapi.KindList && meta.Strategy.Has(openapi.StrategyMerge)
		switch {
		case fv.IsMap():
			if nv, ok := repeatSetValue(fv, ct, r); ok {
				out, repeated = out.With(f.Key, nv), true
			}
		case merged && len(meta.MergeKey) > 0:
			items := slices.Clone(fv.Items())
			for i, it := range items {
				if nv, ok := repeatSetValue(it, ct.Item(), r); ok {
					items[i], repeated = nv, true
				}
			}
			out = out.With(f.Key, value.List(items))
		case merged && ct.Item().Kind == openapi.KindPrimitive && fv.Len() > 0 && r.IntN(3) > 0:
			items := slices.Clone(fv.Items())
			j := r.IntN(len(items))
			at := j + 1
			if r.IntN(2) == 0 {
				at = len(items)
			}
			items = slices.Insert(items, at, items[j])
			out, repeated = out.With(f.Key, value.List(items)), true
		}
	}
	return out, repeated
}

// knownDefect names the strategicpatch defects that account for a case's
// differing object, or "": ply's object equals strategicpatch's once the
// leaked delete directives are dropped (oracle-leaks-directive) and, without
// overwrite, with the result of overwrite, whose patch its conflict check
// has not sorted (oracle-sorts-list); or kubectl's patch both adds a set's
// value and deletes it ($deleteFromPrimitiveList), which strategicpatch
// applies in Go map order and ply as a deletion (docs/patches.md).
func knownDefect(t *difftest.Target, c difftest.Case, o difftest.Outcome) string {
	if p, err := parse.Document(o.OraclePatch); err == nil && addsAndDeletes(p) {
		return "oracle-map-order"
	}
	type try struct {
		raw   value.Value
		class string
	}
	tries := []try{{o.OracleRaw, "oracle-leaks-directive"}}
	if raw, err := serverApply(t, c.Live, o.OraclePatch); err == nil {
		tries = append(tries, try{raw, "oracle-aliases-live"})
	}
	if !c.Overwrite {
		if res, err := t.Oracle.Apply(jsonOrNil(c.Recorded), c.Local.JSON(), jsonOrNil(c.Live), true); err == nil {
			if raw, err := parse.Document(res.Object); err == nil {
				tries = append(tries, try{raw, "oracle-sorts-list"})
			}
		}
	}
	for _, tr := range tries {
		for _, raw := range []value.Value{tr.raw, dropLeaked(tr.raw)} {
			if norm, _ := difftest.ServerNormalize(raw); value.Equal(norm, o.PlyObject) {
				return tr.class
			}
		}
	}
	return ""
}

// serverApply applies kubectl's patch to live as the API server does: on
// maps whose lists have no room to grow, as runtime.DefaultUnstructuredConverter
// makes them of a typed object. strategicpatch's result for a set that live
// lists a value of twice and the patch names otherwise depends on that room:
// it deduplicates live's list appended with the patch's in place, which
// rewrites live's list (the order it then sorts by) when the append found
// room, as it does on lists JSON decoding made (class oracle-aliases-live;
// oracle.ClipLists gives them none).
func serverApply(t *difftest.Target, live value.Value, patch []byte) (value.Value, error) {
	var liveMap, patchMap map[string]any
	if err := json.Unmarshal(live.JSON(), &liveMap); err != nil {
		return value.Value{}, err
	}
	if err := json.Unmarshal(patch, &patchMap); err != nil {
		return value.Value{}, err
	}
	out, err := strategicpatch.StrategicMergeMapPatchUsingLookupPatchMeta(oracle.ClipLists(liveMap).(map[string]any), patchMap, t.Oracle.Meta())
	if err != nil {
		return value.Value{}, err
	}
	text, err := json.Marshal(out)
	if err != nil {
		return value.Value{}, err
	}
	return parse.Document(text)
}

func dropLeaked(v value.Value) value.Value {
	out, _ := difftest.DropLeakedDeletes(v)
	return out
}

func jsonOrNil(v value.Value) []byte {
	if v.IsNull() {
		return nil
	}
	return v.JSON()
}

// addsAndDeletes reports whether patch p holds, in some map, a list field
// and its "$deleteFromPrimitiveList" sharing a value.
func addsAndDeletes(p value.Value) bool {
	switch p.Kind() {
	case value.KindMap:
		for _, f := range p.Fields() {
			if name, ok := strings.CutPrefix(f.Key, "$deleteFromPrimitiveList/"); ok {
				if l, has := p.Get(name); has && l.IsList() {
					for _, d := range f.Value.Items() {
						if slices.ContainsFunc(l.Items(), func(x value.Value) bool { return value.Equal(x, d) }) {
							return true
						}
					}
				}
			}
			if addsAndDeletes(f.Value) {
				return true
			}
		}
	case value.KindList:
		for _, it := range p.Items() {
			if addsAndDeletes(it) {
				return true
			}
		}
	}
	return false
}

// sameReason reports whether strategicpatch's error oe and ply's pe, on
// one case, say kubectl's patch for repeated keys breaks the same rule of
// its own: a "$retainKeys" that leaves out a field, or that the two halves
// give differently; a "$setElementOrder" the list contradicts, that the
// halves give differently, or that meets no list. kubectl checks a list's
// order while it makes the patch where the deletions hold the list's
// parent, else the server does when it applies it: ply checks it applying
// the patch, so without overwrite it may report the conflicts first.
func sameReason(oe, pe string) bool {
	for _, r := range [][2]string{
		{"invalid patch format of retainKeys", "$retainKeys does not list it"},
		{"are not deep equal", "$retainKeys differs"},
		{"order in patch list", "contradicts $setElementOrder"},
		{"order in patch list", "apply conflicts with changes made on the server"},
		{"invalid patch format of setElementOrder list", "differs from the first patch's"},
		{"expected a []interface {}, but received a %!s(<nil>)", "orders a list, but the first patch's value is null"},
	} {
		if strings.Contains(oe, r[0]) && strings.Contains(pe, r[1]) {
			return true
		}
	}
	return false
}
