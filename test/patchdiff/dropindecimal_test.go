package patchdiff_test

import (
	"fmt"
	"math/rand/v2"

	. "github.com/onsi/ginkgo/v2"

	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/patchdiff"
)

// decimalWholeNumber is the class of a triple whose patches differ only because some whole numbers of its documents
// are written as decimals (docs/strategicpatch.md, "What stays different": strategicpatch types a number by its text,
// int64 80 and float64 80 being two values to its diff and its conflict check): written as integers, the triple's
// patches are the same bytes.
const decimalWholeNumber = "decimal-whole-number"

// noDifference reports whether creation's answer diff is no difference between the patches: the same, or
// strategicpatch without an answer, or pkg/patchgen's conflict verdict.
func noDifference(diff string) bool {
	return diff == "" || diff == errOraclePanicked.Error() || diff == noVerdict || diff == engineVerdict
}

// decimalInts is v with each integer below it of less than 2^53 (so held exactly by a float64) held as value.Float
// with even odds, which jsonv.DecimalJSON writes with a fraction ("80.0").
func decimalInts(v value.Value, r *rand.Rand) value.Value {
	switch v.Kind() {
	case value.KindInt:
		if n, _ := v.AsInt(); n > -1<<53 && n < 1<<53 && r.IntN(2) == 0 {
			return value.Float(float64(n))
		}
	case value.KindMap:
		fs := make([]value.Field, len(v.Fields()))
		for i, f := range v.Fields() {
			fs[i] = value.Field{Key: f.Key, Value: decimalInts(f.Value, r)}
		}
		return value.MapFromSorted(fs)
	case value.KindList:
		items := make([]value.Value, len(v.Items()))
		for i, it := range v.Items() {
			items[i] = decimalInts(it, r)
		}
		return value.List(items)
	}
	return v
}

// withDecimals is triple c with the integers of its documents written as decimals with even odds each, and whether
// any is.
func withDecimals(c patchdiff.Case, r *rand.Rand) (patchdiff.Case, bool) {
	any := false
	for _, doc := range []*value.Value{&c.Recorded, &c.Local, &c.Live} {
		*doc = decimalInts(*doc, r)
		any = any || jsonv.HasDecimal(*doc)
	}
	return c, any
}

// The triples of "pkg/strategicpatch's patches against strategicpatch's" again, each integer of their documents
// written as a decimal with even odds: the patches are the same bytes, or they differ only by the decimals (class
// decimal-whole-number, counted: written as integers, the triple's patches show no difference).
var _ = Describe("pkg/strategicpatch's patches against strategicpatch's, whole numbers written as decimals", func() {
	classes := []string{"same", "no integer", decimalWholeNumber, errOraclePanicked.Error(), noVerdict, engineVerdict}
	for _, spec := range difftest.Specs {
		It(fmt.Sprintf("are the same bytes on random %s triples with decimals, or differ only by them, every gate off", spec.Name), func() {
			dropInTriples(spec.Name, "/decimals", "decimals", classes, decimalsClass)
		})
	}
})

// decimalsClass is the class of triple c with decimals (the suite above), or what differs ("" for a class).
func decimalsClass(t *difftest.Target, c patchdiff.Case) (class, diff string) {
	d, any := withDecimals(c, rand.New(rand.NewPCG(c.Seed, 0xdec1a1)))
	if !any {
		return "no integer", ""
	}
	switch diff := creationOf(t, d, jsonv.DecimalJSON); {
	case diff == "":
		return "same", ""
	case noDifference(diff):
		return diff, ""
	case noDifference(creation(t, c)):
		return decimalWholeNumber, ""
	default:
		return "", diff
	}
}
