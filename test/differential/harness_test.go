package differential_test

import (
	"fmt"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/jsonv"
)

// These specs check the harness itself: that the generator produces what
// the oracle accepts and covers the test schema, and that case files
// round-trip. They say nothing about ply.

// checkWellFormed walks v, a value of type t with metadata m, and returns
// the problems that would make strategicpatch reject it: keyed-list items
// without their key or with a duplicated key, duplicated set items, and
// (when noNulls) nulls. It records every visited struct field in seen.
func checkWellFormed(v value.Value, t *openapi.Type, m openapi.Meta, path string, noNulls bool, seen map[string]bool) []string {
	var probs []string
	if v.IsNull() {
		if noNulls {
			probs = append(probs, path+": null")
		}
		return probs
	}
	switch t.Kind {
	case openapi.KindStruct:
		for _, f := range v.Fields() {
			fd := t.Field(f.Key)
			if fd == nil {
				continue
			}
			seen[t.Name+"."+f.Key] = true
			probs = append(probs, checkWellFormed(f.Value, fd.Type, fd.Meta, path+"."+f.Key, noNulls, seen)...)
		}
	case openapi.KindMap:
		for _, f := range v.Fields() {
			probs = append(probs, checkWellFormed(f.Value, t.Elem, openapi.Meta{}, path+"."+f.Key, noNulls, seen)...)
		}
	case openapi.KindList:
		merge := m.Strategy.Has(openapi.StrategyMerge)
		keys := map[value.ScalarKey]bool{}
		for i, it := range v.Items() {
			ip := fmt.Sprintf("%s[%d]", path, i)
			switch {
			case merge && t.Elem.Kind == openapi.KindStruct:
				if len(m.MergeKey) != 1 {
					probs = append(probs, ip+": list with merge key "+fmt.Sprint(m.MergeKey)+" generated")
					break
				}
				kv, ok := it.Get(m.MergeKey[0])
				k, _ := kv.Key()
				switch {
				case !ok:
					probs = append(probs, ip+": no merge key "+m.MergeKey[0])
				case keys[k]:
					probs = append(probs, ip+": duplicated merge key "+kv.Short())
				}
				keys[k] = true
			case merge:
				k, _ := it.Key()
				if keys[k] {
					probs = append(probs, ip+": duplicated set item "+it.Short())
				}
				keys[k] = true
			}
			if it.IsNull() {
				probs = append(probs, ip+": null list item")
			}
			probs = append(probs, checkWellFormed(it, t.Elem, openapi.Meta{}, ip, noNulls, seen)...)
		}
	}
	return probs
}

var _ = Describe("the differential harness", func() {
	for _, spec := range difftest.Specs {
		It(fmt.Sprintf("generates well-formed, reproducible %s triples that strategicpatch accepts", spec.Name), func() {
			t, err := difftest.LoadTarget(spec.Name)
			Expect(err).NotTo(HaveOccurred())
			const n = 400
			oracleErrors, first, localEdits, liveEdits := 0, 0, 0, 0
			seen := map[string]bool{}
			for i := range n {
				seed := difftest.CaseSeed(99, spec.Name, true, i)
				c := t.Generate(seed, true)
				again := t.Generate(seed, true)
				Expect(value.Equal(c.Recorded, again.Recorded) && value.Equal(c.Local, again.Local) && value.Equal(c.Live, again.Live)).
					To(BeTrue(), "seed %#x generates different triples", seed)
				var probs []string
				if !c.FirstApply() {
					probs = append(probs, checkWellFormed(c.Recorded, t.Root, openapi.Meta{}, "recorded", false, seen)...)
				}
				probs = append(probs, checkWellFormed(c.Local, t.Root, openapi.Meta{}, "local", false, seen)...)
				probs = append(probs, checkWellFormed(c.Live, t.Root, openapi.Meta{}, "live", true, seen)...)
				Expect(probs).To(BeEmpty(), "case %s", c.ID())
				if c.FirstApply() {
					first++
				} else if !value.Equal(c.Recorded, c.Local) {
					localEdits++
				}
				if !c.FirstApply() && !value.Equal(c.Recorded, c.Live) {
					liveEdits++
				}
				enc := func(v value.Value) []byte {
					if v.IsNull() {
						return nil
					}
					return v.JSON()
				}
				if _, err := t.Oracle.Apply(enc(c.Recorded), enc(c.Local), enc(c.Live), true); err != nil {
					oracleErrors++
					GinkgoWriter.Printf("oracle error on %s: %v\n", c.ID(), err)
				}
			}
			Expect(oracleErrors).To(BeNumerically("<=", n/100), "strategicpatch rejects too many generated triples")
			Expect(first).To(BeNumerically(">", n/20), "too few first applies")
			Expect(localEdits).To(BeNumerically(">", n/2), "local rarely differs from recorded")
			Expect(liveEdits).To(BeNumerically(">", n/2), "live rarely differs from recorded")
		})
	}

	It("reaches every field of the test schema that carries or contains merge metadata", func() {
		t, err := difftest.LoadTarget("widget")
		Expect(err).NotTo(HaveOccurred())
		seen := map[string]bool{}
		for i := range 3000 {
			c := t.Generate(difftest.CaseSeed(7, "widget", true, i), true)
			for _, v := range []value.Value{c.Recorded, c.Local, c.Live} {
				checkWellFormed(v, t.Root, openapi.Meta{}, "", false, seen)
			}
		}
		var missing []string
		visited := map[*openapi.Type]bool{}
		var walk func(ty *openapi.Type)
		walk = func(ty *openapi.Type) {
			if visited[ty] {
				return
			}
			visited[ty] = true
			switch ty.Kind {
			case openapi.KindStruct:
				for _, name := range ty.FieldNames {
					if !seen[ty.Name+"."+name] {
						missing = append(missing, ty.Name+"."+name)
					}
					walk(ty.Fields[name].Type)
				}
			case openapi.KindList, openapi.KindMap:
				walk(ty.Elem)
			}
		}
		walk(t.Root)
		slices.Sort(missing)
		Expect(missing).To(BeEmpty(), "fields never generated")
	})

	It("writes case files that read back to the same case", func() {
		t, err := difftest.LoadTarget("widget")
		Expect(err).NotTo(HaveOccurred())
		dir := GinkgoT().TempDir()
		for i := range 50 {
			c := t.Generate(difftest.CaseSeed(3, "widget", i%2 == 0, i), i%2 == 0)
			o := t.Run(c)
			path, err := difftest.WriteCase(dir, fmt.Sprintf("c%d.yaml", i), o)
			Expect(err).NotTo(HaveOccurred())
			back, err := difftest.ReadCase(path)
			Expect(err).NotTo(HaveOccurred())
			Expect(back.Target).To(Equal(c.Target))
			Expect(back.Seed).To(Equal(c.Seed))
			Expect(back.Overwrite).To(Equal(c.Overwrite))
			for _, p := range [][2]value.Value{{c.Recorded, back.Recorded}, {c.Local, back.Local}, {c.Live, back.Live}} {
				Expect(value.Equal(p[0], p[1])).To(BeTrue(), "%s: wrote %s, read %s", path, p[0].JSON(), p[1].JSON())
			}
		}
	})

	It("parses case ids it renders", func() {
		for _, c := range []difftest.Case{{Target: "pod", Seed: 0xdeadbeef, Overwrite: true}, {Target: "widget", Seed: 1}} {
			target, seed, overwrite, err := difftest.ParseID(c.ID())
			Expect(err).NotTo(HaveOccurred())
			Expect([]any{target, seed, overwrite}).To(Equal([]any{c.Target, c.Seed, c.Overwrite}))
		}
		_, _, _, err := difftest.ParseID("pod")
		Expect(err).To(HaveOccurred())
		Expect(jsonv.MustDecode(`{"a":[1,2.5,"x",null,true]}`).JSON()).To(Equal([]byte(`{"a":[1,2.5,"x",null,true]}`)))
	})
})
