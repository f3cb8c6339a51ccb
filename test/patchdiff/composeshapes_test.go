package patchdiff_test

import (
	"math/rand/v2"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/patchdiff"
)

// Shapes the patch generator (gen.Generator.Patch) does not write, given to the first and second patches of the
// compose suite's "patches of every kind" cases, one shape per case in turn (composeShapes): a set of the first
// naming one of its values again (repeatSetValue: class oracle-aliases-first where strategicpatch's in-place
// deduplication rewrote the first's list); a keyed list both patches hold made a "$patch: replace" list in the
// second, ordered by a "$setElementOrder" naming its items' keys and one more, the first's list given a delete item
// of one of those keys (replaceOverDelete); a "$setElementOrder" for a field the map's type does not declare, or in a
// map of values, where both patches hold the map (orderOfNoField: strategicpatch's look-up fails, so must ply).
// "shape <name>" counts the cases given each shape; a case the shape finds no place for is judged as it is.
var _ = Describe("Compose of kubectl's patches given shapes the generator leaves out, every feature gate off, against strategicpatch", func() {
	for _, spec := range difftest.Specs {
		It("agree on random "+spec.Name+" cases", func() {
			run := kubectlRun{mode: patchdiff.ApplyDirectives, tag: "compose-shapes", label: "compose of shaped patches", env: "PLY_DIFF_COMPOSE_N", def: 300}
			_, counts, line := run.cases(spec.Name, func(t *difftest.Target, i int, c patchdiff.Case, counts map[string]int) string {
				first := composeFirst(t, i, c)
				r := rand.New(rand.NewPCG(c.Seed, 34))
				shape := composeShapes[i%len(composeShapes)]
				f, s, ok := shape.give(first, c.Patch, t.Root, r)
				if ok {
					counts["shape "+shape.name]++
				}
				class, _, fail := composeCase(t, c, f, s)
				counts[class]++
				return fail
			})
			for _, shape := range composeShapes {
				Expect(counts["shape "+shape.name]).To(BeNumerically(">", 0), "no case given shape %s: %s", shape.name, line)
			}
		})
	}
})

// composeShape gives patches first and second, of type t, a shape: give returns them changed, and whether it found a
// place for the shape.
type composeShape struct {
	name string
	give func(first, second value.Value, t *openapi.Type, r *rand.Rand) (value.Value, value.Value, bool)
}

var composeShapes = []composeShape{
	{"set-value-twice", func(first, second value.Value, t *openapi.Type, r *rand.Rand) (value.Value, value.Value, bool) {
		f, ok := repeatSetValue(first, t, r)
		return f, second, ok
	}},
	{"replace-over-delete", replaceOverDelete},
	{"order-of-no-field", orderOfNoField},
}

// bothMaps calls visit on each place where first and second both hold a map (the roots, their fields, and the items
// of keyed lists matched by their one-field merge key), with its type, until visit returns true; it returns the
// patches as visit changed them, and whether it did.
func bothMaps(first, second value.Value, t *openapi.Type, visit func(f, s value.Value, t *openapi.Type) (value.Value, value.Value, bool)) (value.Value, value.Value, bool) {
	if !first.IsMap() || !second.IsMap() {
		return first, second, false
	}
	if f, s, ok := visit(first, second, t); ok {
		return f, s, true
	}
	for _, fl := range second.Fields() {
		fv, has := first.Get(fl.Key)
		ct, meta := t.Child(fl.Key)
		if !has || strings.HasPrefix(fl.Key, "$") {
			continue
		}
		if f, s, ok := bothMaps(fv, fl.Value, ct, visit); ok {
			return first.With(fl.Key, f), second.With(fl.Key, s), true
		}
		if !fv.IsList() || !fl.Value.IsList() || len(meta.MergeKey) != 1 {
			continue
		}
		fItems, sItems := slices.Clone(fv.Items()), slices.Clone(fl.Value.Items())
		for j, si := range sItems {
			k := keyOf(si, meta.MergeKey[0])
			i := slices.IndexFunc(fItems, func(fi value.Value) bool {
				return k.Kind() != value.KindNull && value.Equal(keyOf(fi, meta.MergeKey[0]), k)
			})
			if i < 0 {
				continue
			}
			if f, s, ok := bothMaps(fItems[i], si, ct.Item(), visit); ok {
				fItems[i], sItems[j] = f, s
				return first.With(fl.Key, value.List(fItems)), second.With(fl.Key, value.List(sItems)), true
			}
		}
	}
	return first, second, false
}

// keyOf is item's value of merge key key (null: none, or not a map).
func keyOf(item value.Value, key string) value.Value {
	v, _ := item.Get(key)
	return v
}

// replaceOverDelete finds a keyed list (one-field merge key, merge strategy) that both patches hold in a map and the
// second's holds data items in: the second's becomes a "$patch: replace" list of those items, ordered by a
// "$setElementOrder" naming their keys and one key more, and the first's is given a "$patch: delete" item of one of
// those keys (its items of that key dropped).
func replaceOverDelete(first, second value.Value, t *openapi.Type, r *rand.Rand) (value.Value, value.Value, bool) {
	return bothMaps(first, second, t, func(f, s value.Value, t *openapi.Type) (value.Value, value.Value, bool) {
		for _, fl := range s.Fields() {
			fv, _ := f.Get(fl.Key)
			ct, meta := t.Child(fl.Key)
			if strings.HasPrefix(fl.Key, "$") || !fv.IsList() || !fl.Value.IsList() || len(meta.MergeKey) != 1 ||
				!meta.Strategy.Has(openapi.StrategyMerge) || ct.Item().Kind != openapi.KindStruct {
				continue
			}
			key := meta.MergeKey[0]
			var data, order []value.Value
			for _, it := range fl.Value.Items() {
				if _, directive := it.Get(smp.DirectiveKey); it.IsMap() && !directive && keyOf(it, key).Kind() == value.KindString {
					data = append(data, it)
					order = append(order, value.MustMap(value.Field{Key: key, Value: keyOf(it, key)}))
				}
			}
			if len(data) == 0 {
				continue
			}
			deleted := keyOf(data[r.IntN(len(data))], key)
			order = slices.Insert(order, r.IntN(len(order)+1), value.MustMap(value.Field{Key: key, Value: value.String("shape-extra")}))
			replaced := append([]value.Value{value.MustMap(value.Field{Key: smp.DirectiveKey, Value: value.String(smp.ReplaceValue)})}, data...)
			firstItems := slices.DeleteFunc(slices.Clone(fv.Items()), func(it value.Value) bool { return value.Equal(keyOf(it, key), deleted) })
			firstItems = slices.Insert(firstItems, r.IntN(len(firstItems)+1),
				value.MustMap(value.Field{Key: smp.DirectiveKey, Value: value.String(smp.DeleteValue)}, value.Field{Key: key, Value: deleted}))
			s = s.With(fl.Key, value.List(replaced)).With(smp.SetOrderPrefix+fl.Key, value.List(order))
			return f.With(fl.Key, value.List(firstItems)), s, true
		}
		return f, s, false
	})
}

// orderOfNoField adds to a map both patches hold, of an object type or a map of values, a "$setElementOrder" for a
// field the type does not declare (any key, in a map of values).
func orderOfNoField(first, second value.Value, t *openapi.Type, r *rand.Rand) (value.Value, value.Value, bool) {
	places := 0
	return bothMaps(first, second, t, func(f, s value.Value, t *openapi.Type) (value.Value, value.Value, bool) {
		if t.Kind != openapi.KindStruct && t.Kind != openapi.KindMap {
			return f, s, false
		}
		// Not always the first place: the root is one of every case's.
		if places++; r.IntN(3) > 0 && places < 4 {
			return f, s, false
		}
		return f, s.With(smp.SetOrderPrefix+"shapeUndeclared", value.List([]value.Value{value.String("x")})), true
	})
}
