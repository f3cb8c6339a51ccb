package value_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/value"
)

// jsonGen builds random Values together with the equivalent Go value that
// encoding/json marshals (map[string]any, []any, int64, float64, string,
// bool, nil).
type jsonGen struct{ r *rand.Rand }

// jsonPieces are the fragments random strings are made of: plain text, every
// character class the encoder treats specially, multi-byte runes and
// invalid UTF-8.
var jsonPieces = []string{
	"a", "Z", "0", " ", "name", "-", ".", "/",
	"\"", "\\", "<", ">", "&", "\n", "\r", "\t", "\b", "\f", "\x00", "\x01", "\x1f", "\x7f",
	"é", "世", "😀", "\u2028", "\u2029", "\u2027", "\u202a", "\ufeff", "\ufffd",
	"\xff", "\x80", "\xe2\x82", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80",
}

func (g jsonGen) str() string {
	var sb strings.Builder
	n := g.r.IntN(6)
	for range n {
		if g.r.IntN(4) == 0 {
			sb.WriteByte(byte(g.r.IntN(256)))
		} else {
			sb.WriteString(jsonPieces[g.r.IntN(len(jsonPieces))])
		}
	}
	return sb.String()
}

var jsonSpecialFloats = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.1, 1e20, 1e21, 1e-6, 1e-7, 9.999999e20, 1.0000001e-6,
	math.MaxFloat64, math.SmallestNonzeroFloat64, -math.MaxFloat64, 1 << 53, 1<<53 + 2, math.Exp2(63),
}

func (g jsonGen) float() float64 {
	switch g.r.IntN(4) {
	case 0:
		return jsonSpecialFloats[g.r.IntN(len(jsonSpecialFloats))]
	case 1:
		return (g.r.Float64() - 0.5) * math.Pow(10, float64(g.r.IntN(60)-30))
	default:
		for {
			fl := math.Float64frombits(g.r.Uint64())
			if !math.IsNaN(fl) && !math.IsInf(fl, 0) {
				return fl
			}
		}
	}
}

func (g jsonGen) int() int64 {
	switch g.r.IntN(3) {
	case 0:
		return int64(g.r.IntN(2000) - 1000)
	case 1:
		return []int64{0, math.MaxInt64, math.MinInt64, 1 << 53, 1<<53 + 1}[g.r.IntN(5)]
	}
	return int64(g.r.Uint64())
}

func (g jsonGen) value(depth int) (value.Value, any) {
	k := g.r.IntN(7)
	if depth <= 0 && k >= 5 {
		k = g.r.IntN(5)
	}
	switch k {
	case 0:
		return value.Null, nil
	case 1:
		b := g.r.IntN(2) == 0
		return value.Bool(b), b
	case 2:
		i := g.int()
		return value.Int(i), i
	case 3:
		fl := g.float()
		return value.Float(fl), fl
	case 4:
		s := g.str()
		return value.String(s), s
	case 5:
		n := g.r.IntN(5)
		fs := make([]value.Field, 0, n)
		m := make(map[string]any, n)
		for range n {
			key := g.str()
			v, x := g.value(depth - 1)
			fs = append(fs, value.Field{Key: key, Value: v})
			m[key] = x // the last value of a repeated key wins, as in MustMap
		}
		return value.MustMap(fs...), m
	default:
		n := g.r.IntN(5)
		vs := make([]value.Value, n)
		xs := make([]any, n)
		for i := range n {
			vs[i], xs[i] = g.value(depth - 1)
		}
		return value.List(vs), xs
	}
}

var _ = Describe("JSON against encoding/json", func() {
	It("writes the same bytes as json.Marshal for random values", func() {
		seed := uint64(GinkgoRandomSeed())
		g := jsonGen{r: rand.New(rand.NewPCG(seed, 0x706c79))}
		const n = 3000
		var mismatches []string
		for range n {
			v, x := g.value(4)
			want, err := json.Marshal(x)
			Expect(err).NotTo(HaveOccurred())
			if got := v.JSON(); string(got) != string(want) {
				mismatches = append(mismatches, "got  "+string(got)+"\nwant "+string(want))
			}
		}
		if len(mismatches) > 3 {
			mismatches = append(mismatches[:3], "...")
		}
		Expect(mismatches).To(BeEmpty(), "seed %d: %d of %d values differ:\n%s",
			seed, len(mismatches), n, strings.Join(mismatches, "\n"))
	})

	It("writes the same bytes as json.MarshalIndent for random values", func() {
		seed := uint64(GinkgoRandomSeed())
		g := jsonGen{r: rand.New(rand.NewPCG(seed, 0x696e64))}
		var mismatches int
		first := ""
		for range 500 {
			v, x := g.value(3)
			want, err := json.MarshalIndent(x, "", "  ")
			Expect(err).NotTo(HaveOccurred())
			if got := v.IndentJSON("  "); string(got) != string(want)+"\n" {
				if mismatches == 0 {
					first = "got  " + string(got) + "\nwant " + string(want)
				}
				mismatches++
			}
		}
		Expect(mismatches).To(BeZero(), "seed %d, first:\n%s", seed, first)
	})

	It("keeps Equal and Key consistent with the JSON text for random scalars", func() {
		g := jsonGen{r: rand.New(rand.NewPCG(uint64(GinkgoRandomSeed()), 7))}
		for range 2000 {
			a, _ := g.value(0)
			Expect(value.Equal(a, a) || isNaNValue(a)).To(BeTrue())
			ka, ok := a.Key()
			Expect(ok).To(BeTrue())
			// A float that is a whole int64 is Equal to, and keys like, that int.
			if fl, isF := a.AsFloat(); isF && a.Kind() == value.KindFloat && fl == math.Trunc(fl) && math.Abs(fl) < 1<<62 {
				i := value.Int(int64(fl))
				ki, _ := i.Key()
				Expect(value.Equal(a, i)).To(BeTrue())
				Expect(ki).To(Equal(ka))
			}
		}
	})
})

func isNaNValue(v value.Value) bool {
	fl, ok := v.AsFloat()
	return ok && math.IsNaN(fl)
}
