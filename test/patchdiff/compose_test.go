package patchdiff_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/internal/probe"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/patchdiff"
)

// pkg/patch.Compose merges the two halves of kubectl's three-way patch as
// kubectl does (strategicpatch's mergeMap, oracle.MergePatches): for
// generated triples of each target, every feature gate off, the halves
// are ply's own (delta.Deletions and delta.Delta of the collated triple),
// and in about half the cases a keyed list of the delta half names one of
// its keys again (repeat; in a third of those, one of the deletions half
// too), the deletions half then given the delta half's
// "$setElementOrder" lists (syncOrders), as local's repeated key gives
// both. Classes: agree (objects equal; "agree
// repeated" when the delta half repeats a key), agree-error (both fail),
// mismatch, ply-error-only, oracle-error-only, no-input (ply's producer
// fails on the triple). Unrepeated cases also check Compose against the
// producer's own merge of the halves, delta.ThreeWay ("three-way" counts
// those equal). PLY_DIFF_COMPOSE_N sets the cases per target.
var _ = Describe("Compose of kubectl's two patch halves, every feature gate off, against strategicpatch", func() {
	for _, spec := range difftest.Specs {
		It("agree on random "+spec.Name+" cases", func() {
			run := kubectlRun{mode: patchdiff.GenThreeWay, tag: "compose", label: "compose", env: "PLY_DIFF_COMPOSE_N", def: 300}
			n, counts, line := run.cases(spec.Name, func(t *difftest.Target, i int, c patchdiff.Case, counts map[string]int) string {
				first, second, threeWay, err := halves(t, c)
				if err != nil {
					counts["no-input"]++
					return ""
				}
				repeated := false
				if r := rand.New(rand.NewPCG(c.Seed, 11)); r.IntN(2) == 0 {
					if second, repeated = repeat(second, t.Root, r); repeated {
						if r.IntN(3) == 0 { // the first half repeating a key as well
							first, _ = repeat(first, t.Root, r)
						}
						first = syncOrders(first, second, t.Root)
					}
				}
				class, got, fail := composeCase(t, c, first, second)
				if repeated && strings.HasPrefix(class, "agree") {
					class += " repeated"
				}
				counts[class]++
				if !repeated && class == "agree" && value.Equal(got, threeWay) {
					counts["three-way"]++
				}
				return fail
			})
			Expect(counts["agree repeated"]).To(BeNumerically(">", n/20), "too few cases repeat a key: %s", line)
		})

		// Patches of every kind the ApplyDirectives generator writes
		// ("$patch" maps and items, replaced lists, directives of every
		// kind, nulls), the first one in two cases the live object
		// itself; in about a third of the cases a field of the second
		// holding a list or a scalar holds a map with "$patch" instead
		// (directField; "directed-field" counts them), or a plain map
		// ("plain-field").
		// oracle-no-meta-below-map: strategicpatch finds no merge
		// metadata below a map of objects and fails (a known class).
		It("agree on random "+spec.Name+" patches of every kind", func() {
			run := kubectlRun{mode: patchdiff.ApplyDirectives, tag: "compose", label: "compose of patches", env: "PLY_DIFF_COMPOSE_N", def: 300}
			_, counts, line := run.cases(spec.Name, func(t *difftest.Target, i int, c patchdiff.Case, counts map[string]int) string {
				first, second := composeFirst(t, i, c), c.Patch
				if r := rand.New(rand.NewPCG(c.Seed, 34)); r.IntN(3) == 0 {
					var directed, plain bool
					second, directed, plain = directField(second, t.Root, r)
					countDirected(counts, directed, plain)
				}
				class, _, fail := composeCase(t, c, first, second)
				counts[class]++
				return fail
			})
			Expect(counts["directed-field"]).To(BeNumerically(">", 0), "no second patch holds a \"$patch\" map at a list or a scalar: %s", line)
			Expect(counts["plain-field"]).To(BeNumerically(">", 0), "no second patch holds a plain map at a list or a scalar: %s", line)
		})
	}
})

// kubectlRun is a random suite over a target with every feature gate off: cases of generator mode, seeded under
// tag, as many as the environment variable env says (def without it), reported under label.
type kubectlRun struct {
	mode       patchdiff.Mode
	tag, label string
	env        string
	def        uint64
}

// cases runs judge on each case of spec's kubectl target. judge counts the case's classes and returns a
// description of a failed one (else ""). cases reports the counts (reportCounts) and how many of the repeats of a
// merge key applied to an outcome the front-end applied again (reportRepeats), and asserts that no case failed; it
// returns the number of cases, the counts and the report line.
func (r kubectlRun) cases(spec string, judge func(t *difftest.Target, i int, c patchdiff.Case, counts map[string]int) string) (int, map[string]int, string) {
	t, err := difftest.LoadTarget(spec + "/" + difftest.Kubectl)
	Expect(err).NotTo(HaveOccurred())
	n := int(envInt(r.env, r.def))
	seed := envInt("PLY_DIFF_SEED", defaultSeed)
	counts := map[string]int{}
	var fails []string
	var repeats, frontEnd atomic.Int64
	DeferCleanup(probe.OnRepeat(func(again bool) {
		repeats.Add(1)
		if again {
			frontEnd.Add(1)
		}
	}))
	for i := range n {
		c := patchdiff.Generate(t, r.mode, patchdiff.CaseSeed(seed, r.mode, t.ID()+"/"+r.tag, i))
		if fail := judge(t, i, c, counts); fail != "" {
			fails = append(fails, fail)
		}
	}
	line := reportCounts(spec+"/kubectl, "+r.label+": ", n, counts)
	reportRepeats(spec+"/kubectl, "+r.label+": ", frontEnd.Load(), repeats.Load())
	Expect(fails).To(BeEmpty(), "%s\n%s", line, strings.Join(fails[:min(len(fails), 3)], "\n"))
	return n, counts, line
}

// composeFirst is the first patch of the i-th compose case c of patches of every kind: c's live object itself in
// half the cases, else another generated patch.
func composeFirst(t *difftest.Target, i int, c patchdiff.Case) value.Value {
	if i%2 == 0 {
		return t.Gen.Patch(c.Seed^0x5eed, c.Live)
	}
	return c.Live
}

// composeCase composes first and second with ply and strategicpatch and
// returns the class of the outcome, ply's patch, and for a failed class
// a description.
func composeCase(t *difftest.Target, c patchdiff.Case, first, second value.Value) (class string, got value.Value, fail string) {
	want, werr := t.Oracle.MergePatches(first.JSON(), second.JSON())
	got, err := patch.Compose(first, second, t.Root, features.Kubectl())
	switch {
	case werr != nil && err != nil:
		return "agree-error", got, ""
	case werr != nil && strings.Contains(werr.Error(), "expected kind, but got map"):
		return "oracle-no-meta-below-map", got, ""
	case werr != nil:
		class = "oracle-error-only"
	case err != nil:
		class = "ply-error-only"
	case !value.Equal(got, jsonv.MustDecode(string(want))) && aliasesFirst(t, first, second, got):
		return "oracle-aliases-first", got, ""
	case !value.Equal(got, jsonv.MustDecode(string(want))):
		class = "mismatch"
	default:
		return "agree", got, ""
	}
	return class, got, fmt.Sprintf("%s: %s\n  first %s\n  second %s\n  strategicpatch %v %s\n  ply %v %s",
		class, c.ID(), first.JSON(), second.JSON(), werr, want, err, got.JSON())
}

// aliasesFirst reports whether ply's composed patch got is strategicpatch's
// merge of second into first once the patches' lists have no room to grow
// (class oracle-aliases-first): strategicpatch's order for a set that names
// a value twice depends on that room (it deduplicates the lists appended in
// place, rewriting the list it then ranks by, when the append found room,
// as it does in lists JSON decoding made). The set is first's, or second's
// in an item of a key new to first that a later item of the key merges a
// set into; ply ranks by the list as given.
func aliasesFirst(t *difftest.Target, first, second, got value.Value) bool {
	want, err := t.Oracle.MergePatchesWithoutRoom(first.JSON(), second.JSON())
	return err == nil && value.Equal(got, jsonv.MustDecode(string(want)))
}

// reportCounts adds the report entry "cases" for n cases counted by class
// (prefix, then the counts) and returns it.
func reportCounts(prefix string, n int, counts map[string]int) string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	line := prefix + fmt.Sprint(n) + " cases,"
	for _, k := range keys {
		line += fmt.Sprintf(" %s %d", k, counts[k])
	}
	AddReportEntry("cases", line)
	fmt.Fprintln(GinkgoWriter, line)
	return line
}

// reportRepeats adds the report entry "repeats": of the repeats of a merge key
// applied to an outcome, how many the front-end applied again (a collation
// more each, visitors.InTurn answered), after prefix.
func reportRepeats(prefix string, frontEnd, repeats int64) {
	line := fmt.Sprintf("%sfront-end re-applications: %d of %d repeats", prefix, frontEnd, repeats)
	AddReportEntry("repeats", line)
	fmt.Fprintln(GinkgoWriter, line)
}

// halves returns the two halves of kubectl's three-way patch for case c as
// ply's producer computes them, and the producer's three-way patch ({}
// for a half or patch without entries).
func halves(t *difftest.Target, c patchdiff.Case) (deletions, delta_, threeWay value.Value, err error) {
	vals, err := collate.RootValues(c.Recorded, c.Local, c.Live)
	if err != nil {
		return
	}
	tree, _, arena, err := collate.CountIn(vals, t.Root, collate.Options{Gates: features.Kubectl(), Patches: true})
	if err != nil {
		return
	}
	out := [3]value.Value{}
	for i, f := range []func() (value.Value, bool, error){
		func() (value.Value, bool, error) {
			return delta.Patch(tree, arena, delta.Deletions, features.Kubectl())
		},
		func() (value.Value, bool, error) { return delta.Patch(tree, arena, delta.Delta, features.Kubectl()) },
		func() (value.Value, bool, error) { return delta.ThreeWay(tree, arena, features.Kubectl(), true) },
	} {
		p, ok, perr := f()
		if perr != nil {
			return deletions, delta_, threeWay, perr
		}
		if out[i] = p; !ok {
			out[i] = value.MustMap()
		}
	}
	return out[0], out[1], out[2], nil
}

// syncOrders returns first with each "$setElementOrder/<f>" that second has
// at the same place (list items matched by merge key) set to second's: a
// key local names twice is in both halves' orders twice.
func syncOrders(first, second value.Value, t *openapi.Type) value.Value {
	if !first.IsMap() || !second.IsMap() {
		return first
	}
	out := first
	for _, f := range first.Fields() {
		s, ok := second.Get(f.Key)
		ct, meta := t.Child(f.Key)
		switch {
		case !ok:
		case strings.HasPrefix(f.Key, "$setElementOrder/"):
			out = out.With(f.Key, s)
		case f.Value.IsMap():
			out = out.With(f.Key, syncOrders(f.Value, s, ct))
		case f.Value.IsList() && s.IsList() && len(meta.MergeKey) == 1:
			items := slices.Clone(f.Value.Items())
			for i, it := range items {
				k, _ := it.Get(meta.MergeKey[0])
				if j := slices.IndexFunc(s.Items(), func(si value.Value) bool { sk, ok := si.Get(meta.MergeKey[0]); return ok && value.Equal(sk, k) }); j >= 0 {
					items[i] = syncOrders(it, s.Items()[j], ct.Item())
				}
			}
			out = out.With(f.Key, value.List(items))
		}
	}
	return out
}
