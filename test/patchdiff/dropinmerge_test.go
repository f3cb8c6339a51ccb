package patchdiff_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	ply "github.com/plyproject/ply/pkg/strategicpatch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/patchdiff"
)

// pkg/strategicpatch's MergeStrategicMergeMapPatchUsingLookupPatchMeta against strategicpatch's (oracle.MergedPatches),
// every gate off, the schema the oracle's LookupPatchMeta, on the patches the compose suite's "patches of every kind"
// composes (composeFirst, then the ApplyDirectives generator's patch), both decoded as encoding/json decodes them. In
// about half the cases a set of the first patch names one of its values again (repeatSetValue; "set-value-twice"
// counts them), and in about a third a field of the second holding a list or a scalar holds a map with "$patch"
// instead (directField; "directed-field" counts them), or a plain map ("plain-field"). Classes (dropInMerge): agree, agree-error (both fail), oracle-no-meta-below-map,
// oracle-aliases-first; any other difference fails the case. PLY_DIFF_DROPIN_N sets the cases per target.
var _ = Describe("pkg/strategicpatch's merge of two patches against strategicpatch's", func() {
	for _, spec := range difftest.Specs {
		It(fmt.Sprintf("agrees on random %s patches of every kind, a set of the first naming a value twice in half the cases", spec.Name), func() {
			run := kubectlRun{mode: patchdiff.ApplyDirectives, tag: "dropin-merge", label: "pkg/strategicpatch merge of patches", env: "PLY_DIFF_DROPIN_N", def: 150}
			_, counts, line := run.cases(spec.Name, func(t *difftest.Target, i int, c patchdiff.Case, counts map[string]int) string {
				first := composeFirst(t, i, c)
				if r := rand.New(rand.NewPCG(c.Seed, 35)); r.IntN(2) == 0 {
					var repeated bool
					if first, repeated = repeatSetValue(first, t.Root, r); repeated {
						counts["set-value-twice"]++
					}
				}
				second := c.Patch
				if r := rand.New(rand.NewPCG(c.Seed, 34)); r.IntN(3) == 0 {
					var directed, plain bool
					second, directed, plain = directField(second, t.Root, r)
					countDirected(counts, directed, plain)
				}
				class, fail := dropInMerge(t, c, first, second)
				counts[class]++
				return fail
			})
			Expect(counts["set-value-twice"]).To(BeNumerically(">", 0), "no first patch names a set's value twice: %s", line)
			Expect(counts["directed-field"]).To(BeNumerically(">", 0), "no second patch holds a \"$patch\" map at a list or a scalar: %s", line)
			Expect(counts["plain-field"]).To(BeNumerically(">", 0), "no second patch holds a plain map at a list or a scalar: %s", line)
		})
	}
})

// dropInMerge merges second into first with pkg/strategicpatch's and strategicpatch's
// MergeStrategicMergeMapPatchUsingLookupPatchMeta and returns the class of the outcome and, for a failed class, a
// description. oracle-no-meta-below-map: strategicpatch finds no merge metadata below a map of objects and fails.
// oracle-aliases-first: ply's merge is strategicpatch's once the lists of its merge of the first patch into {} have no
// room to grow (aliasesFirst, the compose suites' judge, given that merge as the first patch).
func dropInMerge(t *difftest.Target, c patchdiff.Case, first, second value.Value) (class, fail string) {
	want, werr := t.Oracle.MergedPatches(first.JSON(), second.JSON())
	var f, s map[string]interface{}
	Expect(json.Unmarshal(first.JSON(), &f)).To(Succeed())
	Expect(json.Unmarshal(second.JSON(), &s)).To(Succeed())
	out, err := ply.MergeStrategicMergeMapPatchUsingLookupPatchMeta(t.Oracle.Meta(), f, s)
	var got value.Value
	if err == nil {
		data, merr := json.Marshal(out)
		Expect(merr).NotTo(HaveOccurred())
		got = jsonv.MustDecode(string(data))
	}
	switch {
	case werr != nil && err != nil:
		return "agree-error", ""
	case werr != nil && strings.Contains(werr.Error(), "expected kind, but got map"):
		return "oracle-no-meta-below-map", ""
	case werr != nil:
		class = "oracle-error-only"
	case err != nil:
		class = "ply-error-only"
	case value.Equal(got, jsonv.MustDecode(string(want))):
		return "agree", ""
	case aliasesFirst(t, firstMerged(t, first), second, got):
		return "oracle-aliases-first", ""
	default:
		class = "mismatch"
	}
	return class, fmt.Sprintf("%s: %s\n  first %s\n  second %s\n  strategicpatch %v %s\n  ply %v %s",
		class, c.ID(), first.JSON(), second.JSON(), werr, want, err, got.JSON())
}

// firstMerged is strategicpatch's merge of patch first alone into {}: what the exported merge merges the second
// patch into.
func firstMerged(t *difftest.Target, first value.Value) value.Value {
	merged, err := t.Oracle.MergedPatches(first.JSON(), []byte("{}"))
	Expect(err).NotTo(HaveOccurred())
	return jsonv.MustDecode(string(merged))
}
