package patchdiff

import (
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/jsonv"
)

// decimalShare is the share of ApplyDirectives patches (one in decimalShare) whose integer merge keys may be written
// as decimals: in each, every integer merge-key value of a list merged by a one-field key (an item's, a "$patch:
// delete" item's, a "$setElementOrder" entry's) is, with even odds, held as value.Float, which the harness sends as
// "80.0" (PatchText). The draws come from a generator of their own, so the other patches are the generator's as they
// were.
const decimalShare = 4

// withDecimalKeys is p, the ApplyDirectives patch of seed on a target of root type t, with its integer merge keys
// written as decimals in one case in decimalShare.
func withDecimalKeys(p value.Value, t *openapi.Type, seed uint64) value.Value {
	r := rand.New(rand.NewPCG(seed, 0xdec1a1))
	if r.IntN(decimalShare) != 0 {
		return p
	}
	return decimalKeys(p, t, r)
}

// decimalKeys is patch map p (of type t) with each integer merge-key value below it held as value.Float with even
// odds.
func decimalKeys(p value.Value, t *openapi.Type, r *rand.Rand) value.Value {
	if !p.IsMap() {
		return p
	}
	fields := slices.Clone(p.Fields())
	for i, f := range fields {
		name, order := strings.CutPrefix(f.Key, "$setElementOrder/")
		ct, meta := t.Child(name)
		switch {
		case f.Value.IsMap():
			fields[i].Value = decimalKeys(f.Value, ct, r)
		case f.Value.IsList() && len(meta.MergeKey) == 1:
			items := slices.Clone(f.Value.Items())
			for j, it := range items {
				if !order {
					it = decimalKeys(it, ct.Item(), r)
				}
				if kv, ok := it.Get(meta.MergeKey[0]); ok && kv.Kind() == value.KindInt && r.IntN(2) == 0 {
					n, _ := kv.AsInt()
					it = it.With(meta.MergeKey[0], value.Float(float64(n)))
				}
				items[j] = it
			}
			fields[i].Value = value.List(items)
		}
	}
	return value.MapFromSorted(fields)
}

// PatchText is the JSON text the harness sends a patch as: whole numbers held as value.Float written with a fraction
// (jsonv.DecimalJSON), so that strategicpatch, which types a number by its text, reads a decimal merge key as the
// float64 it is.
func PatchText(p value.Value) []byte { return jsonv.DecimalJSON(p) }

// wholeKeysAgree reports whether a failed ApplyDirectives case c, whose patch holds a whole number written as a
// decimal, is no longer a failure once every such number is written as an integer (class DecimalMergeKey): ply reads
// 80.0 and 80 as the one JSON number they are, where strategicpatch compares the Go values JSON decoding gives (int64
// 80 and float64 80) with ==, so that a decimal merge key matches no item of live (its item appended, a "$patch:
// delete" of it deleting nothing) and a "$setElementOrder" entry written otherwise than its item's key fails.
func wholeKeysAgree(t *difftest.Target, c Case) bool {
	if c.Mode != ApplyDirectives || !jsonv.HasDecimal(c.Patch) {
		return false
	}
	c.Patch = jsonv.WholeNumbers(c.Patch)
	return !Run(t, c).Class.Failed()
}
