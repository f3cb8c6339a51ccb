package patchdiff_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/patchdiff"
)

// These specs check the harness itself: that the random patches exercise
// every directive of the format and are mostly accepted by strategicpatch,
// and that case files round-trip. They say nothing about ply.

// directives records in seen the directive forms found in patch p:
// "$patch: <v> in a map", "$patch: <v> in a list", the "$...Prefix/" keys,
// "$retainKeys" and "null".
func directives(p value.Value, inList bool, seen map[string]int) {
	switch p.Kind() {
	case value.KindMap:
		for _, f := range p.Fields() {
			switch {
			case f.Key == "$patch":
				s, _ := f.Value.AsString()
				where := "map"
				if inList {
					where = "list"
				}
				seen["$patch: "+s+" in a "+where]++
			case strings.HasPrefix(f.Key, "$setElementOrder/"):
				kind := "primitives"
				if f.Value.Len() > 0 && f.Value.Items()[0].IsMap() {
					kind = "maps"
				}
				seen["$setElementOrder of "+kind]++
			case strings.HasPrefix(f.Key, "$deleteFromPrimitiveList/"):
				seen["$deleteFromPrimitiveList"]++
			case f.Key == "$retainKeys":
				seen["$retainKeys"]++
			case f.Value.IsNull():
				seen["null"]++
			}
			directives(f.Value, false, seen)
		}
	case value.KindList:
		for _, it := range p.Items() {
			directives(it, true, seen)
		}
	}
}

var _ = Describe("the patch differential harness", func() {
	It("builds directive patches that use every directive, mostly valid for strategicpatch", func() {
		seen := map[string]int{}
		rejected, total := 0, 0
		for _, spec := range difftest.Specs {
			t, err := difftest.LoadTarget(spec.Name)
			Expect(err).NotTo(HaveOccurred())
			for i := range 500 {
				c := patchdiff.Generate(t, patchdiff.ApplyDirectives, patchdiff.CaseSeed(5, patchdiff.ApplyDirectives, spec.Name, i))
				again := patchdiff.Generate(t, patchdiff.ApplyDirectives, c.Seed)
				Expect(value.Equal(c.Patch, again.Patch)).To(BeTrue(), "seed %#x generates different patches", c.Seed)
				if spec.Name == "widget" {
					directives(c.Patch, false, seen)
				}
				total++
				if _, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(c.Live.JSON(), c.Patch.JSON(), t.Oracle.Meta()); err != nil {
					rejected++
				}
			}
		}
		for _, d := range []string{
			"$patch: replace in a map", "$patch: replace in a list", "$patch: delete in a map", "$patch: delete in a list",
			"$patch: merge in a map", "$patch: bogus in a map", "$setElementOrder of maps", "$setElementOrder of primitives",
			"$deleteFromPrimitiveList", "$retainKeys", "null",
		} {
			Expect(seen[d]).To(BeNumerically(">", 5), "%q is rarely generated: %v", d, seen)
		}
		GinkgoWriter.Printf("directive patches: %d of %d rejected by strategicpatch; forms: %v\n", rejected, total, seen)
		Expect(rejected).To(BeNumerically(">", 0), "no invalid patch generated: error handling is not compared")
		Expect(rejected).To(BeNumerically("<", total/5), "strategicpatch rejects too many generated patches")
	})

	It("gets patches with every directive from strategicpatch on the test schema's triples", func() {
		t, err := difftest.LoadTarget("widget")
		Expect(err).NotTo(HaveOccurred())
		seen := map[string]int{}
		fields := map[string]int{}
		for i := range 1500 {
			c := patchdiff.Generate(t, patchdiff.ApplyThreeWay, patchdiff.CaseSeed(6, patchdiff.ApplyThreeWay, "widget", i))
			p, err := strategicpatch.CreateThreeWayMergePatch(enc(c.Recorded), c.Local.JSON(), c.Live.JSON(), t.Oracle.Meta(), true)
			if err != nil {
				continue
			}
			pv := mustJSON(p)
			directives(pv, false, seen)
			spec, _ := pv.Get("spec")
			for _, f := range spec.Fields() {
				fields[f.Key]++
			}
		}
		for _, d := range []string{"$patch: delete in a list", "$setElementOrder of maps", "$setElementOrder of primitives",
			"$deleteFromPrimitiveList", "$retainKeys", "null"} {
			Expect(seen[d]).To(BeNumerically(">", 5), "%q is rarely generated: %v", d, seen)
		}
		// Replace-strategy fields (a struct, lists of primitives and of
		// maps), atomic lists, maps, keyed lists, sets, retainKeys unions.
		for _, f := range []string{"quota", "command", "rules", "args", "hosts", "selector", "limits", "settings", "extra", "parts", "ports", "tags", "source", "volumes"} {
			Expect(fields[f]).To(BeNumerically(">", 5), "spec.%s is rarely patched: %v", f, fields)
		}
	})

	It("writes case files that read back to the same case", func() {
		dir := GinkgoT().TempDir()
		for _, mode := range patchdiff.Modes {
			t, err := difftest.LoadTarget("widget")
			Expect(err).NotTo(HaveOccurred())
			for i := range 10 {
				c := patchdiff.Generate(t, mode, patchdiff.CaseSeed(3, mode, "widget", i))
				o := patchdiff.Run(t, c)
				path, err := patchdiff.WriteCase(dir, fmt.Sprintf("%s-%d.yaml", mode, i), o)
				Expect(err).NotTo(HaveOccurred())
				back, err := patchdiff.ReadCase(path)
				Expect(err).NotTo(HaveOccurred())
				Expect([]any{back.Mode, back.Target, back.Seed}).To(Equal([]any{c.Mode, c.Target, c.Seed}))
				for _, p := range [][2]value.Value{{c.Recorded, back.Recorded}, {c.Local, back.Local}, {c.Live, back.Live}, {c.Patch, back.Patch}} {
					Expect(value.Equal(p[0], p[1])).To(BeTrue(), "%s: wrote %s, read %s", path, p[0].JSON(), p[1].JSON())
				}
				Expect(patchdiff.Run(t, back).Class).To(Equal(o.Class), path)
			}
		}
	})

	It("parses case ids it renders", func() {
		c := patchdiff.Case{Mode: patchdiff.GenTwoWay, Target: "pod", Seed: 0xbeef}
		mode, target, seed, err := patchdiff.ParseID(c.ID())
		Expect(err).NotTo(HaveOccurred())
		Expect([]any{mode, target, seed}).To(Equal([]any{c.Mode, c.Target, c.Seed}))
		_, _, _, err = patchdiff.ParseID("nope:pod@1")
		Expect(err).To(HaveOccurred())
	})
})

func enc(v value.Value) []byte {
	if v.IsNull() {
		return nil
	}
	return v.JSON()
}

func mustJSON(b []byte) value.Value {
	GinkgoHelper()
	v, err := jsonv.Decode(b)
	Expect(err).NotTo(HaveOccurred())
	return v
}
