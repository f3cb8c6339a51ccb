package patchgen_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/value"
)

// Design 001's forward-compatibility rule: a server that ignores
// $setElementOrder and $retainKeys must still reach the right fields, so
// every field the patch sets and every deletion is explicit. Checked by
// applying the patches with those directives stripped, with strategicpatch
// as the server.
var _ = Describe("forward compatibility", func() {
	DescribeTable("a two-way patch without $setElementOrder and $retainKeys still turns original into modified (list order aside)",
		func(path string) {
			f := loadFixture(path)
			if !f.flag("oracle", true) {
				Skip("strategicpatch cannot apply multi-field merge keys")
			}
			original, modified := f.input("original"), f.input("modified")
			p, err := f.generate()
			Expect(err).NotTo(HaveOccurred())
			meta := f.patchMeta(rootOf(f.schema(), modified).Name)
			base := original
			if base.IsNull() {
				base = value.MustMap()
			}
			got := kubectlApply(meta, base, stripDirectives(p))
			Expect(canonical(got)).To(equalJSON(canonical(dropNulls(modified))))
		},
		entries("twoway"),
	)

	DescribeTable("a three-way patch without them still sets every field local sets and removes every field local dropped since recorded",
		func(path string) {
			f := loadFixture(path)
			if _, conflicts := f.get("wantConflicts"); conflicts || !f.flag("oracle", true) {
				Skip("no patch to apply with strategicpatch")
			}
			original, modified, current := f.input("original"), f.input("modified"), f.input("current")
			p, err := patchgen.ThreeWay(original, modified, current, patchgen.Options{Schema: f.schema(), Overwrite: true})
			Expect(err).NotTo(HaveOccurred())
			root := rootOf(f.schema(), modified)
			meta := f.patchMeta(root.Name)
			base := current
			if base.IsNull() {
				base = value.MustMap()
			}
			got := kubectlApply(meta, base, stripDirectives(p))
			expectSets(got, dropNulls(modified), root, openapi.Meta{}, "")
			expectDropped(got, original, modified, root, openapi.Meta{}, "")
		},
		entries("threeway"),
	)
})

// dropNulls removes null fields: what a server stores for them.
func dropNulls(v value.Value) value.Value {
	switch v.Kind() {
	case value.KindMap:
		var fs []value.Field
		for _, f := range v.Fields() {
			if !f.Value.IsNull() {
				fs = append(fs, value.Field{Key: f.Key, Value: dropNulls(f.Value)})
			}
		}
		return value.MustMap(fs...)
	case value.KindList:
		items := make([]value.Value, v.Len())
		for i, it := range v.Items() {
			items[i] = dropNulls(it)
		}
		return value.List(items)
	}
	return v
}

// expectSets checks that got holds every field of want: maps field by
// field, merged lists of maps item by merge key, sets value by value,
// anything else equal.
func expectSets(got, want value.Value, t *openapi.Type, meta openapi.Meta, at string) {
	switch {
	case want.IsMap() && !meta.Strategy.Has(openapi.StrategyReplace):
		Expect(got.IsMap()).To(BeTrue(), at)
		for _, f := range want.Fields() {
			g, ok := got.Get(f.Key)
			Expect(ok).To(BeTrue(), at+"."+f.Key+" is missing")
			ct, cm := t.Child(f.Key)
			expectSets(g, f.Value, ct, cm, at+"."+f.Key)
		}
	case want.IsList() && t.Kind == openapi.KindList && meta.Strategy.Has(openapi.StrategyMerge):
		Expect(got.IsList()).To(BeTrue(), at)
		for _, w := range want.Items() {
			found := false
			for _, g := range got.Items() {
				if len(meta.MergeKey) == 0 && value.Equal(g, w) {
					found = true
				}
				if len(meta.MergeKey) > 0 && g.IsMap() && sameKey(g, w, meta.MergeKey) {
					expectSets(g, w, t.Item(), openapi.Meta{}, at+"[]")
					found = true
				}
			}
			Expect(found).To(BeTrue(), at+": item "+string(w.JSON())+" is missing")
		}
	default:
		Expect(got).To(equalJSON(want), at)
	}
}

func sameKey(a, b value.Value, mk []string) bool {
	for _, k := range mk {
		av, _ := a.Get(k)
		bv, _ := b.Get(k)
		if !value.Equal(av, bv) {
			return false
		}
	}
	return true
}

// expectDropped checks that got lacks every field recorded had and local
// dropped (through maps local and recorded both hold).
func expectDropped(got, recorded, local value.Value, t *openapi.Type, meta openapi.Meta, at string) {
	if !recorded.IsMap() || !local.IsMap() || !got.IsMap() || meta.Strategy.Has(openapi.StrategyReplace) {
		return
	}
	for _, f := range recorded.Fields() {
		lv, inLocal := local.Get(f.Key)
		g, inGot := got.Get(f.Key)
		if !inLocal || lv.IsNull() {
			Expect(inGot).To(BeFalse(), at+"."+f.Key+" should be removed")
			continue
		}
		if inGot {
			ct, cm := t.Child(f.Key)
			expectDropped(g, f.Value, lv, ct, cm, at+"."+f.Key)
		}
	}
}

var _ = Describe("ThreeWay and apply.Merge", func() {
	DescribeTable("the patch, applied by strategicpatch, gives the object apply.Merge gives with kubectl's order",
		func(path string) {
			f := loadFixture(path)
			if _, conflicts := f.get("wantConflicts"); conflicts || !f.flag("oracle", true) {
				Skip("no patch to apply with strategicpatch")
			}
			original, modified, current := f.input("original"), f.input("modified"), f.input("current")
			p, err := patchgen.ThreeWay(original, modified, current, patchgen.Options{Schema: f.schema(), Overwrite: true})
			Expect(err).NotTo(HaveOccurred())
			merged, err := apply.Merge(original, modified, current, apply.Options{Schema: f.schema(), Overwrite: true, Ordering: apply.OrderingKubectl})
			Expect(err).NotTo(HaveOccurred())
			base := current
			if base.IsNull() {
				base = value.MustMap()
			}
			got := kubectlApply(f.patchMeta(rootOf(f.schema(), modified).Name), base, p)
			Expect(dropNulls(got)).To(equalJSON(dropNulls(merged.Object)))
		},
		entries("threeway"),
	)
})
