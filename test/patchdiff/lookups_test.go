package patchdiff_test

import (
	"fmt"
	"math/rand/v2"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/patchdiff"
)

// Patches given what strategicpatch decides by its schema look-up alone, on every target with ply's gates (the
// embedded v2 schema on both sides) and with every gate off (the v3 documents): in a map both live and the patch hold,
// a "$setElementOrder/<f>" for a declared field f that is not a list, which neither holds (refused where the reader of
// the schema refuses the look-up, v2 for a primitive or a map, followed elsewhere: both must agree, as objects or as
// errors), and a field no type declares that both hold as objects, or both as lists (strategicpatch's look-up fails,
// ply merges it: class oracle-no-meta-undeclared, ply's object strategicpatch's for the patch without the field plus
// the field merged by the no-schema rules). The cases are ApplyDirectives cases whose patch agrees as it stands;
// PLY_DIFF_LOOKUPS_N sets the cases per target.
var _ = Describe("look-ups of fields as strategicpatch's schema readers make them, against strategicpatch", func() {
	for _, spec := range difftest.Specs {
		for _, variant := range []string{"", "/" + difftest.Kubectl} {
			It("agree on random "+spec.Name+variant+" patches", func() {
				t, err := difftest.LoadTarget(spec.Name + variant)
				Expect(err).NotTo(HaveOccurred())
				n := int(envInt("PLY_DIFF_LOOKUPS_N", 200))
				seed := envInt("PLY_DIFF_SEED", defaultSeed)
				counts := map[string]int{}
				var fails []string
				for i := range n {
					c := patchdiff.Generate(t, patchdiff.ApplyDirectives, patchdiff.CaseSeed(seed, patchdiff.ApplyDirectives, t.ID()+"/lookups", i))
					if fail := judgeLookups(t, c, counts); fail != "" {
						fails = append(fails, fail)
					}
				}
				line := reportCounts(t.ID()+", look-ups: ", n, counts)
				Expect(fails).To(BeEmpty(), "%s\n%s", line, strings.Join(fails[:min(len(fails), 3)], "\n"))
				Expect(counts["order: agree"]+counts["order: agree-error"]).To(BeNumerically(">", n/4), line)
				Expect(counts["undeclared: oracle-no-meta-undeclared"]).To(BeNumerically(">", n/4), line)
			})
		}
	}
})

// judgeLookups judges case c of target t given each rewrite in turn, counting the classes, and returns the report of
// a failed one, else "".
func judgeLookups(t *difftest.Target, c patchdiff.Case, counts map[string]int) string {
	base := patchdiff.Run(t, c)
	if base.Class != patchdiff.Agree {
		counts["base "+base.Class.String()]++
		return ""
	}
	r := rand.New(rand.NewPCG(c.Seed, 17))
	var places [][]string
	mergedMaps(t.Root, c.Live, c.Patch, nil, &places)
	if len(places) == 0 {
		counts["no map both hold"]++
		return ""
	}
	if fail := judgeOrder(t, c, places[r.IntN(len(places))], r, counts); fail != "" {
		return fail
	}
	return judgeUndeclared(t, c, base.OracleObject, places[r.IntN(len(places))], r, counts)
}

// judgeOrder gives the map at path of c's patch a "$setElementOrder" for a declared field that is not a list, which
// neither live nor the patch holds there: ply and strategicpatch must agree, as objects or as errors.
func judgeOrder(t *difftest.Target, c patchdiff.Case, path []string, r *rand.Rand, counts map[string]int) string {
	mt, live, p := typeAt(t.Root, path), valueAt(c.Live, path), valueAt(c.Patch, path)
	var names []string
	for _, name := range mt.FieldNames {
		_, inLive := live.Get(name)
		_, inPatch := p.Get(name)
		_, ordered := p.Get("$setElementOrder/" + name)
		_, deleted := p.Get("$deleteFromPrimitiveList/" + name)
		if mt.Fields[name].Type.Kind != openapi.KindList && !inLive && !inPatch && !ordered && !deleted {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		counts["order: no field"]++
		return ""
	}
	name := names[r.IntN(len(names))]
	c.Patch = withAt(c.Patch, path, p.With("$setElementOrder/"+name, jsonv.MustDecode(`["x"]`)))
	o := patchdiff.Run(t, c)
	counts["order: "+o.Class.String()]++
	if mt.Fields[name].NotAList != "" {
		counts["order: refused by the look-up"]++
	}
	if o.Class != patchdiff.Agree && o.Class != patchdiff.AgreeError {
		return describe(o, c)
	}
	return ""
}

// judgeUndeclared gives the maps at path of c's live object and patch a field no type declares, both objects or both
// lists: class oracle-no-meta-undeclared, ply's object want (strategicpatch's for the patch as it stands) with the
// field merged.
func judgeUndeclared(t *difftest.Target, c patchdiff.Case, want value.Value, path []string, r *rand.Rand, counts map[string]int) string {
	const name = "zzzUndeclared"
	if _, ok := valueAt(want, path).Get(name); !valueAt(want, path).IsMap() || ok {
		counts["undeclared: no place"]++
		return ""
	}
	lv, pv, merged := `{"a":1,"keep":"x"}`, `{"a":2,"b":{"c":1}}`, `{"a":2,"b":{"c":1},"keep":"x"}`
	if r.IntN(2) == 0 {
		lv, pv, merged = `[1,2]`, `[3]`, `[3]`
	}
	c.Live = withAt(c.Live, path, valueAt(c.Live, path).With(name, jsonv.MustDecode(lv)))
	c.Patch = withAt(c.Patch, path, valueAt(c.Patch, path).With(name, jsonv.MustDecode(pv)))
	o := patchdiff.Run(t, c)
	counts["undeclared: "+o.Class.String()]++
	want = withAt(want, path, valueAt(want, path).With(name, jsonv.MustDecode(merged)))
	if o.Class != patchdiff.OracleNoMetaUndeclared || !value.Equal(o.PlyObject, want) {
		return describe(o, c) + "\n  want " + string(want.JSON())
	}
	return ""
}

func describe(o patchdiff.Outcome, c patchdiff.Case) string {
	return fmt.Sprintf("%s: %v\n  patch %s\n  live %s\n  strategicpatch %v %s\n  ply %v %s",
		o.Class, c.ID(), c.Patch.JSON(), c.Live.JSON(), o.OracleErr, o.OracleObject.JSON(), o.PlyErr, o.PlyObject.JSON())
}

// mergedMaps appends to places the path of every map of patch p (of type t) that strategicpatch merges into a map of
// live with t's look-ups: t a struct, the patch map holding no "$patch" or "$retainKeys", reached through declared
// fields both hold as objects, none of strategy replace.
func mergedMaps(t *openapi.Type, live, p value.Value, path []string, places *[][]string) {
	if t == nil || t.Kind != openapi.KindStruct || !live.IsMap() || !p.IsMap() {
		return
	}
	_, directive := p.Get("$patch")
	_, retain := p.Get("$retainKeys")
	if directive || retain {
		return
	}
	*places = append(*places, append([]string(nil), path...))
	for _, f := range p.Fields() {
		fd := t.Field(f.Key)
		if fd == nil || fd.Meta.Strategy.Has(openapi.StrategyReplace) {
			continue
		}
		lv, _ := live.Get(f.Key)
		mergedMaps(fd.Type, lv, f.Value, append(path, f.Key), places)
	}
}

func typeAt(t *openapi.Type, path []string) *openapi.Type {
	for _, k := range path {
		t = t.Field(k).Type
	}
	return t
}

func valueAt(v value.Value, path []string) value.Value {
	for _, k := range path {
		v, _ = v.Get(k)
	}
	return v
}

// withAt returns v with the value at path (maps all the way) replaced by x.
func withAt(v value.Value, path []string, x value.Value) value.Value {
	if len(path) == 0 {
		return x
	}
	child, _ := v.Get(path[0])
	return v.With(path[0], withAt(child, path[1:], x))
}
