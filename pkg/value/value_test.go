package value_test

import (
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/value"
)

// f is shorthand for a map field.
func fld(k string, v value.Value) value.Field { return value.Field{Key: k, Value: v} }

// keys lists the keys of a map value in stored order.
func mapKeys(v value.Value) []string {
	var out []string
	for _, fl := range v.Fields() {
		out = append(out, fl.Key)
	}
	return out
}

var _ = Describe("constructors and accessors", func() {
	It("makes the zero Value and Null the explicit null", func() {
		Expect(value.Value{}.Kind()).To(Equal(value.KindNull))
		Expect(value.Null.IsNull()).To(BeTrue())
		Expect(value.Null.IsScalar()).To(BeFalse())
		Expect(value.Null.Len()).To(Equal(0))
	})

	It("builds booleans", func() {
		b, ok := value.Bool(true).AsBool()
		Expect(ok).To(BeTrue())
		Expect(b).To(BeTrue())
		b, ok = value.Bool(false).AsBool()
		Expect(ok).To(BeTrue())
		Expect(b).To(BeFalse())
		Expect(value.Bool(false).Kind()).To(Equal(value.KindBool))
		Expect(value.Bool(false).IsScalar()).To(BeTrue())
		_, ok = value.Int(1).AsBool()
		Expect(ok).To(BeFalse())
	})

	It("keeps integers exact over the whole int64 range", func() {
		for _, i := range []int64{0, -1, 1, math.MaxInt64, math.MinInt64, 1<<53 + 1} {
			got, ok := value.Int(i).AsInt()
			Expect(ok).To(BeTrue())
			Expect(got).To(Equal(i))
			Expect(value.Int(i).Kind()).To(Equal(value.KindInt))
		}
		fl, ok := value.Int(7).AsFloat()
		Expect(ok).To(BeTrue())
		Expect(fl).To(Equal(7.0))
		_, ok = value.Float(7).AsInt()
		Expect(ok).To(BeFalse())
	})

	It("builds floats and strings", func() {
		fl, ok := value.Float(2.5).AsFloat()
		Expect(ok).To(BeTrue())
		Expect(fl).To(Equal(2.5))
		Expect(value.Float(2.5).Kind()).To(Equal(value.KindFloat))
		s, ok := value.String("x").AsString()
		Expect(ok).To(BeTrue())
		Expect(s).To(Equal("x"))
		_, ok = value.Int(1).AsString()
		Expect(ok).To(BeFalse())
		_, ok = value.String("1").AsFloat()
		Expect(ok).To(BeFalse())
	})

	It("makes an empty list, not null, from a nil slice", func() {
		l := value.List(nil)
		Expect(l.Kind()).To(Equal(value.KindList))
		Expect(l.IsList()).To(BeTrue())
		Expect(l.Len()).To(Equal(0))
		Expect(string(l.JSON())).To(Equal("[]"))
	})

	It("makes an empty map, not null, from nil fields", func() {
		m := value.MapFromSorted(nil)
		Expect(m.IsMap()).To(BeTrue())
		Expect(m.Len()).To(Equal(0))
		Expect(string(m.JSON())).To(Equal("{}"))
	})

	It("reports Len, Items and Fields for each kind", func() {
		l := value.List([]value.Value{value.Int(1), value.String("a")})
		Expect(l.Len()).To(Equal(2))
		Expect(l.Items()).To(HaveLen(2))
		Expect(l.Fields()).To(BeNil())
		m := value.MustMap(fld("a", value.Int(1)))
		Expect(m.Len()).To(Equal(1))
		Expect(m.Items()).To(BeNil())
		Expect(value.String("abc").Len()).To(Equal(0))
	})

	DescribeTable("Kind.String names JSON-schema kinds",
		func(k value.Kind, want string) { Expect(k.String()).To(Equal(want)) },
		Entry("null", value.KindNull, "null"),
		Entry("bool", value.KindBool, "boolean"),
		Entry("int", value.KindInt, "integer"),
		Entry("float", value.KindFloat, "number"),
		Entry("string", value.KindString, "string"),
		Entry("map", value.KindMap, "object"),
		Entry("list", value.KindList, "array"),
		Entry("out of range", value.Kind(200), "invalid"),
	)

	DescribeTable("Short renders scalars for messages",
		func(v value.Value, want string) { Expect(v.Short()).To(Equal(want)) },
		Entry("string as written", value.String(`a"b<`), `a"b<`),
		Entry("int", value.Int(-80), "-80"),
		Entry("float", value.Float(1.5), "1.5"),
		Entry("bool", value.Bool(true), "true"),
		Entry("null", value.Null, "null"),
		Entry("map by kind", value.MustMap(), "object"),
		Entry("list by kind", value.List(nil), "array"),
	)
})

var _ = Describe("Get, With, Without", func() {
	var m value.Value
	BeforeEach(func() {
		m = value.MustMap(fld("b", value.Int(2)), fld("d", value.Int(4)), fld("a", value.Int(1)))
	})

	It("finds every key by binary search and misses absent ones", func() {
		for i, k := range []string{"a", "b", "d"} {
			got, ok := m.Get(k)
			Expect(ok).To(BeTrue(), k)
			Expect(intOf(got)).To(Equal([]int64{1, 2, 4}[i]))
		}
		for _, k := range []string{"", "0", "c", "e", "bb"} {
			_, ok := m.Get(k)
			Expect(ok).To(BeFalse(), k)
		}
	})

	It("tells an explicit null field from an absent one", func() {
		n := m.With("n", value.Null)
		got, ok := n.Get("n")
		Expect(ok).To(BeTrue())
		Expect(got.IsNull()).To(BeTrue())
		_, ok = n.Get("x")
		Expect(ok).To(BeFalse())
	})

	It("finds nothing in non-maps", func() {
		for _, v := range []value.Value{value.Null, value.String("a"), value.List([]value.Value{value.String("a")})} {
			_, ok := v.Get("a")
			Expect(ok).To(BeFalse())
		}
	})

	It("With inserts in order and leaves the receiver unchanged", func() {
		before := string(m.JSON())
		for _, k := range []string{"0", "c", "z"} {
			n := m.With(k, value.String("new"))
			Expect(n.Len()).To(Equal(4))
			Expect(isStrictlySorted(mapKeys(n))).To(BeTrue(), "%v", mapKeys(n))
			got, ok := n.Get(k)
			Expect(ok).To(BeTrue())
			Expect(got.Short()).To(Equal("new"))
		}
		Expect(string(m.JSON())).To(Equal(before))
		Expect(mapKeys(m)).To(Equal([]string{"a", "b", "d"}))
	})

	It("With replaces an existing key without changing the receiver", func() {
		n := m.With("b", value.String("two"))
		Expect(mapKeys(n)).To(Equal([]string{"a", "b", "d"}))
		got, _ := n.Get("b")
		Expect(got.Short()).To(Equal("two"))
		old, _ := m.Get("b")
		Expect(intOf(old)).To(Equal(int64(2)))
	})

	It("With does not alias the receiver's backing array", func() {
		// A map whose fields slice has spare capacity: appending into it
		// would overwrite what another With wrote.
		fs := make([]value.Field, 2, 8)
		fs[0], fs[1] = fld("a", value.Int(1)), fld("b", value.Int(2))
		base := value.MapFromSorted(fs)
		x := base.With("c", value.String("x"))
		y := base.With("c", value.String("y"))
		gx, _ := x.Get("c")
		gy, _ := y.Get("c")
		Expect(gx.Short()).To(Equal("x"))
		Expect(gy.Short()).To(Equal("y"))
		Expect(base.Len()).To(Equal(2))
	})

	It("With on a non-map starts from an empty map", func() {
		n := value.String("s").With("a", value.Int(1))
		Expect(n.IsMap()).To(BeTrue())
		Expect(string(n.JSON())).To(Equal(`{"a":1}`))
	})

	It("Without removes a key and leaves the receiver unchanged", func() {
		n := m.Without("b")
		Expect(mapKeys(n)).To(Equal([]string{"a", "d"}))
		Expect(mapKeys(m)).To(Equal([]string{"a", "b", "d"}))
		_, ok := m.Get("b")
		Expect(ok).To(BeTrue())
	})

	It("Without an absent key returns an equal map", func() {
		n := m.Without("zz")
		Expect(value.Equal(n, m)).To(BeTrue())
		Expect(m.Without("a").Without("b").Without("d").Len()).To(Equal(0))
	})
})

// intOf returns the integer v holds, failing the spec for another kind.
func intOf(v value.Value) int64 {
	i, ok := v.AsInt()
	ExpectWithOffset(1, ok).To(BeTrue(), "not an integer: %s", v.JSON())
	return i
}

func isStrictlySorted(s []string) bool {
	for i := 1; i < len(s); i++ {
		if s[i-1] >= s[i] {
			return false
		}
	}
	return true
}

var _ = Describe("NewMap and MustMap", func() {
	It("sorts fields given in any order", func() {
		v, dup, ok := value.NewMap([]value.Field{fld("c", value.Int(3)), fld("a", value.Int(1)), fld("b", value.Int(2))})
		Expect(ok).To(BeTrue())
		Expect(dup).To(BeEmpty())
		Expect(mapKeys(v)).To(Equal([]string{"a", "b", "c"}))
		Expect(string(v.JSON())).To(Equal(`{"a":1,"b":2,"c":3}`))
	})

	It("reports a duplicated key", func() {
		_, dup, ok := value.NewMap([]value.Field{fld("x", value.Int(1)), fld("a", value.Int(1)), fld("x", value.Int(2))})
		Expect(ok).To(BeFalse())
		Expect(dup).To(Equal("x"))
	})

	It("reports the first duplicated key in key order", func() {
		_, dup, ok := value.NewMap([]value.Field{fld("z", value.Int(1)), fld("b", value.Int(1)), fld("z", value.Int(2)), fld("b", value.Int(2))})
		Expect(ok).To(BeFalse())
		Expect(dup).To(Equal("b"))
	})

	It("accepts an empty and a nil field list", func() {
		v, _, ok := value.NewMap(nil)
		Expect(ok).To(BeTrue())
		Expect(v.IsMap()).To(BeTrue())
		Expect(v.Len()).To(Equal(0))
	})

	It("keys differing only in case or by a prefix are distinct", func() {
		v, _, ok := value.NewMap([]value.Field{fld("a", value.Int(1)), fld("A", value.Int(2)), fld("aa", value.Int(3))})
		Expect(ok).To(BeTrue())
		Expect(mapKeys(v)).To(Equal([]string{"A", "a", "aa"}))
	})

	It("MustMap keeps the last value of a duplicated key", func() {
		v := value.MustMap(fld("k", value.Int(1)), fld("a", value.Int(0)), fld("k", value.Int(2)), fld("k", value.Int(3)))
		Expect(mapKeys(v)).To(Equal([]string{"a", "k"}))
		got, _ := v.Get("k")
		Expect(intOf(got)).To(Equal(int64(3)))
	})

	It("MustMap with no fields is the empty map", func() {
		Expect(string(value.MustMap().JSON())).To(Equal("{}"))
	})
})

var _ = Describe("Equal", func() {
	list := func(vs ...value.Value) value.Value { return value.List(vs) }
	DescribeTable("compares JSON values",
		func(a, b value.Value, want bool) {
			Expect(value.Equal(a, b)).To(Equal(want))
			Expect(value.Equal(b, a)).To(Equal(want), "symmetry")
		},
		Entry("null null", value.Null, value.Null, true),
		Entry("null vs false", value.Null, value.Bool(false), false),
		Entry("null vs empty string", value.Null, value.String(""), false),
		Entry("null vs empty map", value.Null, value.MustMap(), false),
		Entry("true true", value.Bool(true), value.Bool(true), true),
		Entry("true false", value.Bool(true), value.Bool(false), false),
		Entry("int int", value.Int(5), value.Int(5), true),
		Entry("int int differ", value.Int(5), value.Int(-5), false),
		Entry("int vs integral float", value.Int(1), value.Float(1.0), true),
		Entry("int vs fractional float", value.Int(1), value.Float(1.5), false),
		Entry("zero vs negative zero", value.Int(0), value.Float(math.Copysign(0, -1)), true),
		Entry("float float", value.Float(0.1), value.Float(0.1), true),
		Entry("number vs string", value.Int(1), value.String("1"), false),
		Entry("bool vs string", value.Bool(true), value.String("true"), false),
		Entry("strings", value.String("a"), value.String("a"), true),
		Entry("strings differ", value.String("a"), value.String("A"), false),
		Entry("maps built in different orders",
			value.MustMap(fld("a", value.Int(1)), fld("b", value.Int(2))),
			value.MustMap(fld("b", value.Float(2)), fld("a", value.Int(1))), true),
		Entry("maps with different keys",
			value.MustMap(fld("a", value.Int(1))), value.MustMap(fld("b", value.Int(1))), false),
		Entry("map with an extra field",
			value.MustMap(fld("a", value.Int(1))), value.MustMap(fld("a", value.Int(1)), fld("b", value.Null)), false),
		Entry("nested maps differ deep",
			value.MustMap(fld("a", value.MustMap(fld("x", value.Int(1))))),
			value.MustMap(fld("a", value.MustMap(fld("x", value.Int(2))))), false),
		Entry("lists in order", list(value.Int(1), value.String("a")), list(value.Float(1), value.String("a")), true),
		Entry("lists in another order", list(value.Int(1), value.Int(2)), list(value.Int(2), value.Int(1)), false),
		Entry("lists of different length", list(value.Int(1)), list(value.Int(1), value.Int(1)), false),
		Entry("empty list vs empty map", list(), value.MustMap(), false),
		Entry("empty lists", list(), value.List([]value.Value{}), true),
	)
})

var _ = Describe("Key", func() {
	key := func(v value.Value) value.ScalarKey {
		k, ok := v.Key()
		ExpectWithOffset(1, ok).To(BeTrue())
		return k
	}

	It("keys integral floats as integers", func() {
		Expect(key(value.Float(80))).To(Equal(key(value.Int(80))))
		Expect(key(value.Float(-3))).To(Equal(key(value.Int(-3))))
		Expect(key(value.Float(math.Copysign(0, -1)))).To(Equal(key(value.Int(0))))
	})

	It("keeps fractional floats apart from integers", func() {
		Expect(key(value.Float(80.5))).NotTo(Equal(key(value.Int(80))))
		Expect(key(value.Float(0.1))).To(Equal(key(value.Float(0.1))))
	})

	It("keeps strings apart from numbers and booleans", func() {
		Expect(key(value.String("80"))).NotTo(Equal(key(value.Int(80))))
		Expect(key(value.String("true"))).NotTo(Equal(key(value.Bool(true))))
		Expect(key(value.String(""))).NotTo(Equal(key(value.Null)))
		Expect(key(value.Int(0))).NotTo(Equal(key(value.Bool(false))))
		Expect(key(value.Int(1))).NotTo(Equal(key(value.Bool(true))))
		Expect(key(value.String("a"))).To(Equal(key(value.String("a"))))
	})

	It("is a usable map key", func() {
		idx := map[value.ScalarKey]int{key(value.Int(1)): 1, key(value.String("1")): 2}
		Expect(idx[key(value.Float(1))]).To(Equal(1))
		Expect(idx[key(value.String("1"))]).To(Equal(2))
	})

	It("refuses maps and lists", func() {
		_, ok := value.MustMap().Key()
		Expect(ok).To(BeFalse())
		_, ok = value.List(nil).Key()
		Expect(ok).To(BeFalse())
	})

	It("keeps floats beyond the int64 range as floats", func() {
		Expect(key(value.Float(1e19))).To(Equal(key(value.Float(1e19))))
		Expect(key(value.Float(1e19)).Kind).To(Equal(value.KindFloat))
		Expect(key(value.Float(-1e300)).Kind).To(Equal(value.KindFloat))
	})

	// ScalarKey promises: two scalars have equal keys exactly when Equal
	// holds for them.
	DescribeTable("agrees with Equal",
		func(a, b value.Value) {
			ka, kb := key(a), key(b)
			Expect(ka == kb).To(Equal(value.Equal(a, b)),
				"Equal(%s, %s)=%v but keys equal=%v", a.JSON(), b.JSON(), value.Equal(a, b), ka == kb)
		},
		Entry("1 and 1.0", value.Int(1), value.Float(1)),
		Entry("1 and 1.5", value.Int(1), value.Float(1.5)),
		Entry("small negatives", value.Int(-7), value.Float(-7)),
		Entry("2^53 exactly", value.Int(1<<53), value.Float(1<<53)),
		// An int64 above 2^53 that no float64 holds: Equal converts the int
		// to float64 (rounding it) and so finds it equal to a neighbouring
		// float, while Key keeps the exact integer.
		Entry("2^53+1 and the float 2^53", value.Int(1<<53+1), value.Float(1<<53)),
		Entry("MaxInt64 and the float 2^63", value.Int(math.MaxInt64), value.Float(math.Exp2(63))),
		Entry("MinInt64 and the float -2^63", value.Int(math.MinInt64), value.Float(-math.Exp2(63))),
		Entry("string vs int", value.String("1"), value.Int(1)),
	)

	DescribeTable("Same is ==",
		func(a, b value.Value) {
			ka, kb := key(a), key(b)
			Expect(ka.Same(&kb)).To(Equal(ka == kb), "%s vs %s", a.JSON(), b.JSON())
			Expect(kb.Same(&ka)).To(Equal(ka == kb))
		},
		Entry("equal strings", value.String("VAR_00001"), value.String("VAR_00001")),
		Entry("strings differing at the end", value.String("VAR_00001"), value.String("VAR_00002")),
		Entry("strings differing at the start", value.String("aVAR_0001"), value.String("bVAR_0001")),
		Entry("strings of other lengths", value.String("web"), value.String("webs")),
		Entry("empty strings", value.String(""), value.String("")),
		Entry("the empty string and null", value.String(""), value.Null),
		Entry("a string and a number", value.String("1"), value.Int(1)),
		Entry("equal numbers", value.Int(80), value.Float(80)),
		Entry("other numbers", value.Int(80), value.Int(81)),
		Entry("booleans", value.Bool(true), value.Bool(false)),
	)
})

var _ = Describe("Identical", func() {
	obj := func(fs ...value.Field) value.Value { return value.MustMap(fs...) }
	f := func(k string, v value.Value) value.Field { return value.Field{Key: k, Value: v} }
	list := func(items ...value.Value) value.Value { return value.List(items) }
	DescribeTable("holds for the same JSON, kinds included, and nothing else",
		func(a, b value.Value, want bool) {
			Expect(value.Identical(a, b)).To(Equal(want), "%s vs %s", a.JSON(), b.JSON())
			Expect(value.Identical(b, a)).To(Equal(want))
		},
		Entry("equal objects built apart",
			obj(f("a", list(value.Int(1), value.String("x"), value.Null, value.Bool(true))), f("b", obj(f("c", value.Float(1.5))))),
			obj(f("a", list(value.Int(1), value.String("x"), value.Null, value.Bool(true))), f("b", obj(f("c", value.Float(1.5))))), true),
		Entry("1 and 1.0, which Equal takes as equal", list(value.Int(1)), list(value.Float(1)), false),
		Entry("0 and -0, which Equal takes as equal", list(value.Float(0)), list(value.Float(math.Copysign(0, -1))), false),
		Entry("a longer list", list(value.Int(1)), list(value.Int(1), value.Int(2)), false),
		Entry("a field more", obj(f("a", value.Int(1))), obj(f("a", value.Int(1)), f("b", value.Int(1))), false),
		Entry("another key", obj(f("a", value.Int(1))), obj(f("b", value.Int(1))), false),
		Entry("null and null", value.Null, value.Null, true),
		Entry("the zero Value and null", value.Value{}, value.Null, true),
		Entry("null and an empty map", obj(f("a", value.Null)), obj(f("a", obj())), false),
		Entry("equal strings built apart", value.String("ab"+string([]byte{'c'})), value.String("abc"), true),
		Entry("other strings", value.String("ab"), value.String("ac"), false),
		Entry("true and false", value.Bool(true), value.Bool(false), false),
		Entry("2 and 3", value.Int(2), value.Int(3), false),
	)
})
