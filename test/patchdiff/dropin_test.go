package patchdiff_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/patchgen"
	ply "github.com/plyproject/ply/pkg/strategicpatch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/patchdiff"
)

// dropInApply is patchdiff's ply side through pkg/strategicpatch: JSON in and out, the schema the oracle's
// LookupPatchMeta (the same document, read by apimachinery's PatchMetaFromOpenAPI or PatchMetaFromOpenAPIV3).
func dropInApply(t *difftest.Target, live, p value.Value) (value.Value, error) {
	if live.IsNull() {
		live = value.MustMap()
	}
	out, err := ply.StrategicMergePatchUsingLookupPatchMeta(live.JSON(), patchdiff.PatchText(p), t.Oracle.Meta())
	if err != nil {
		return value.Value{}, err
	}
	return parse.Document(out)
}

// dropInApplyMap is dropInApply on maps, decoded as the API server decodes them (StrategicMergeMapPatch's path).
func dropInApplyMap(t *difftest.Target, live, p value.Value) (value.Value, error) {
	var lm, pm map[string]interface{}
	if err := utiljson.Unmarshal(live.JSON(), &lm); err != nil {
		return value.Value{}, err
	}
	if err := utiljson.Unmarshal(patchdiff.PatchText(p), &pm); err != nil {
		return value.Value{}, err
	}
	out, err := ply.StrategicMergeMapPatchUsingLookupPatchMeta(lm, pm, t.Oracle.Meta())
	if err != nil {
		return value.Value{}, err
	}
	data, err := json.Marshal(out)
	if err != nil {
		return value.Value{}, err
	}
	return parse.Document(data)
}

// The apply modes again, every gate off, with ply's side pkg/strategicpatch (on JSON and on maps) and its schema the
// oracle's LookupPatchMeta: the classes and verdicts of pkg/patch, and none failed.
var _ = Describe("pkg/strategicpatch against strategicpatch", func() {
	forms := []struct {
		name  string
		apply func(*difftest.Target, value.Value, value.Value) (value.Value, error)
	}{{"JSON", dropInApply}, {"maps", dropInApplyMap}}
	for _, form := range forms {
		for _, mode := range []patchdiff.Mode{patchdiff.ApplyThreeWay, patchdiff.ApplyTwoWay, patchdiff.ApplyDirectives} {
			for _, spec := range difftest.Specs {
				It(fmt.Sprintf("%s: agree on random %s cases, every gate off, the schema a LookupPatchMeta, on %s", mode, spec.Name, form.name), func() {
					t, err := difftest.LoadTarget(spec.Name + "/" + difftest.Kubectl)
					Expect(err).NotTo(HaveOccurred())
					n := int(envInt("PLY_DIFF_DROPIN_N", 150))
					patchdiff.PlyApply = form.apply
					defer func() { patchdiff.PlyApply = defaultApply }()
					stats, fails := patchdiff.RunMany(t, mode, envInt("PLY_DIFF_SEED", defaultSeed), n, min(2, runtime.GOMAXPROCS(0)), 3)
					AddReportEntry("cases", stats.String())
					var reports []string
					for _, o := range fails {
						reports = append(reports, patchdiff.Report(o, "(not written)"))
					}
					Expect(reports).To(BeEmpty(), stats.String())
				})
			}
		}
	}
})

var defaultApply = patchdiff.PlyApply

// errOraclePanicked marks a triple strategicpatch panics on (its conflict check indexes past a list it deduplicated:
// docs/differential.md, class duplicate-items); it has no answer to compare with.
var errOraclePanicked = errors.New("strategicpatch panicked")

// engineVerdict marks a triple where pkg/strategicpatch gives pkg/patchgen's verdict with overwrite false, which
// differs from strategicpatch's in a class test/patchdiff's gen-conflicts mode counts.
const engineVerdict = "engine-verdict"

// sameAsEngine reports whether pkg/strategicpatch's three-way result with overwrite false (patch got, error gerr) is
// pkg/patchgen's on the target's own schema: both a conflict, or the same bytes.
func sameAsEngine(t *difftest.Target, c patchdiff.Case, got []byte, gerr error) bool {
	p, err := patchgen.ThreeWay(c.Recorded, c.Local, c.Live, t.PatchgenOptions(false))
	var ce *apply.ConflictError
	if errors.As(err, &ce) || gerr != nil {
		return errors.As(err, &ce) && mergepatch.IsConflict(gerr)
	}
	return err == nil && string(p.JSON()) == string(got)
}

// noVerdict marks a triple whose conflict check strategicpatch fails on its own "$deleteFromPrimitiveList" directive.
const noVerdict = "no-verdict"

// oracle runs f, a call of strategicpatch's, turning a panic into errOraclePanicked.
func oracle(f func() ([]byte, error)) (out []byte, err error) {
	defer func() {
		if recover() != nil {
			out, err = nil, errOraclePanicked
		}
	}()
	return f()
}

// creation compares the patches of pkg/strategicpatch and strategicpatch for one triple: the same bytes, or both fail
// (a conflict on both sides with overwrite false). It returns "" when they agree, errOraclePanicked's message when
// strategicpatch panics, else what differs.
func creation(t *difftest.Target, c patchdiff.Case) string {
	return creationOf(t, c, value.Value.JSON)
}

// creationOf is creation with the documents written by write.
func creationOf(t *difftest.Target, c patchdiff.Case, write func(value.Value) []byte) string {
	enc := func(v value.Value) []byte {
		if v.IsNull() {
			return nil
		}
		return write(v)
	}
	meta := t.Oracle.Meta()
	for _, overwrite := range []bool{true, false} {
		want, werr := oracle(func() ([]byte, error) {
			return sp.CreateThreeWayMergePatch(enc(c.Recorded), enc(c.Local), enc(c.Live), meta, overwrite)
		})
		if werr == errOraclePanicked {
			return werr.Error()
		}
		if !overwrite && werr != nil && strings.Contains(werr.Error(), `unable to find api field "$deleteFromPrimitiveList/`) {
			// Class no-verdict (docs/differential.md): strategicpatch's conflict check looks its own directive up.
			return noVerdict
		}
		got, gerr := ply.CreateThreeWayMergePatch(enc(c.Recorded), enc(c.Local), enc(c.Live), meta, overwrite)
		if (werr != nil) != (gerr != nil) || (werr == nil && string(got) != string(want)) ||
			mergepatch.IsConflict(werr) != mergepatch.IsConflict(gerr) {
			if !overwrite && sameAsEngine(t, c, got, gerr) {
				// pkg/patchgen's own verdict on the same triple: the differences test/patchdiff's gen-conflicts mode
				// classifies (duplicate-items, strategicpatch's conflict check failing on its own input).
				return engineVerdict
			}
			return fmt.Sprintf("%s three-way (overwrite %v):\n ply    %s %v\n oracle %s %v", c.ID(), overwrite, got, gerr, want, werr)
		}
	}
	want, werr := sp.CreateTwoWayMergePatchUsingLookupPatchMeta(enc(c.Recorded), enc(c.Local), meta)
	got, gerr := ply.CreateTwoWayMergePatchUsingLookupPatchMeta(enc(c.Recorded), enc(c.Local), meta)
	if (werr != nil) != (gerr != nil) || (werr == nil && string(got) != string(want)) {
		return fmt.Sprintf("%s two-way:\n ply    %s %v\n oracle %s %v", c.ID(), got, gerr, want, werr)
	}
	return ""
}

var _ = Describe("pkg/strategicpatch's patches against strategicpatch's", func() {
	for _, spec := range difftest.Specs {
		It(fmt.Sprintf("are the same bytes on random %s triples, every gate off, the schema a LookupPatchMeta", spec.Name), func() {
			t, err := difftest.LoadTarget(spec.Name + "/" + difftest.Kubectl)
			Expect(err).NotTo(HaveOccurred())
			n := int(envInt("PLY_DIFF_DROPIN_N", 150))
			seed := envInt("PLY_DIFF_SEED", defaultSeed)
			var diffs []string
			panics, noVerdicts, engine := 0, 0, 0
			for i := range n {
				c := patchdiff.Generate(t, patchdiff.GenThreeWay, patchdiff.CaseSeed(seed, patchdiff.GenThreeWay, t.Name, i))
				switch d := creation(t, c); d {
				case "":
				case errOraclePanicked.Error():
					panics++
				case noVerdict:
					noVerdicts++
				case engineVerdict:
					engine++
				default:
					diffs = append(diffs, d)
				}
			}
			AddReportEntry("cases", fmt.Sprintf("%s: %d triples, %d differ; strategicpatch without an answer: %d panics, %d no-verdict; "+
				"pkg/patchgen's conflict verdict: %d", t.ID(), n, len(diffs), panics, noVerdicts, engine))
			Expect(diffs).To(BeEmpty())
		})
	}
})

// The same on triples whose lists repeat items: each with even odds a set's value (repeatSetValue) or a keyed list's
// key (repeat) added to local, and likewise to recorded and live with even odds each. The patch differential's own
// repeat functions serve: an object holds no directive for them to skip.
var _ = Describe("pkg/strategicpatch's patches against strategicpatch's, lists repeating items", func() {
	classes := []string{"same", "no list to repeat in", "strategicpatch panicked", "no-verdict", "pkg/patchgen's conflict verdict"}
	for _, spec := range difftest.Specs {
		It(fmt.Sprintf("are the same bytes on random %s triples with repeats, every gate off", spec.Name), func() {
			dropInTriples(spec.Name, "/repeats", "repeated items", classes, repeatsClass)
		})
	}
})

// repeatsClass is the class of triple c with repeated items (the suite above), or what differs ("" for a class).
func repeatsClass(t *difftest.Target, c patchdiff.Case) (class, diff string) {
	r := rand.New(rand.NewPCG(c.Seed, 13))
	add := repeatSetValue
	if r.IntN(2) == 0 {
		add = repeat
	}
	local, repeated := add(c.Local, t.Root, r)
	if !repeated {
		return "no list to repeat in", ""
	}
	c.Local = local
	for _, doc := range []*value.Value{&c.Recorded, &c.Live} {
		if !doc.IsNull() && r.IntN(2) == 0 {
			*doc, _ = add(*doc, t.Root, r)
		}
	}
	switch d := creation(t, c); d {
	case "":
		return "same", ""
	case errOraclePanicked.Error(), noVerdict:
		return d, ""
	case engineVerdict:
		return "pkg/patchgen's conflict verdict", ""
	default:
		return "", d
	}
}

// dropInTriples checks pkg/strategicpatch's patches against strategicpatch's on random triples of target spec's
// kubectl variant: PLY_DIFF_DROPIN_N of them (150 by default), generated three-way from seed PLY_DIFF_SEED in the
// target's stream named with suffix, each classified by classify (its class, or what differs). It reports the triples
// under name, those that differ and the count of each of classes, in that order, and expects none to differ and more
// than a fifth of them in class "same".
func dropInTriples(spec, suffix, name string, classes []string,
	classify func(*difftest.Target, patchdiff.Case) (class, diff string)) {
	t, err := difftest.LoadTarget(spec + "/" + difftest.Kubectl)
	Expect(err).NotTo(HaveOccurred())
	n := int(envInt("PLY_DIFF_DROPIN_N", 150))
	seed := envInt("PLY_DIFF_SEED", defaultSeed)
	counts := map[string]int{}
	var diffs []string
	for i := range n {
		c := patchdiff.Generate(t, patchdiff.GenThreeWay, patchdiff.CaseSeed(seed, patchdiff.GenThreeWay, t.Name+suffix, i))
		if class, diff := classify(t, c); diff != "" {
			diffs = append(diffs, diff)
		} else {
			counts[class]++
		}
	}
	line := fmt.Sprintf("%s, %s: %d triples, %d differ;", t.ID(), name, n, len(diffs))
	for _, k := range classes {
		line += fmt.Sprintf(" %s %d", k, counts[k])
	}
	AddReportEntry("cases", line)
	Expect(diffs).To(BeEmpty(), "%s\n%s", line, strings.Join(diffs[:min(len(diffs), 3)], "\n"))
	Expect(counts["same"]).To(BeNumerically(">", n/5), line)
}
