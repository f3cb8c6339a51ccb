package elements_test

import (
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

var _ = Describe("Index", func() {
	// keys numbers names, some repeated, through an Index sized for size.
	number := func(size int, names ...string) []int {
		x := elements.NewIndex(1, size)
		ids := make([]int, len(names))
		for i, name := range names {
			k := elements.Key{{Kind: value.KindString, Str: name}}
			ids[i], _ = x.ID(&k)
		}
		return ids
	}
	names := func(n int) []string {
		out := make([]string, 0, 2*n)
		for i := range n {
			out = append(out, string(rune('a'+i%26))+string(rune('a'+i/26)))
		}
		// every key again, in reverse: each must get its first number
		for i := n - 1; i >= 0; i-- {
			out = append(out, out[i])
		}
		return out
	}
	DescribeTable("numbers keys densely in order of first sight, whatever the list size",
		func(keys, size int) {
			ids := number(size, names(keys)...)
			for i := range keys {
				Expect(ids[i]).To(Equal(i), "first sight of key %d", i)
				Expect(ids[2*keys-1-i]).To(Equal(i), "second sight of key %d", i)
			}
		},
		Entry("a small list, searched in place", 5, 5),
		Entry("a list just at the in-place limit", 12, 12),
		Entry("a list that outgrows the in-place search (sized small)", 40, 3),
		Entry("a large list, hashed from the start", 40, 40),
		Entry("a large list that outgrows its hash table (sized small)", 300, 13),
	)
	It("numbers keys that come in increasing order, then again in any order, then one out of order", func() {
		x := elements.NewIndex(1, 40)
		id := func(name string) (int, bool) {
			k := elements.Key{{Kind: value.KindString, Str: name}}
			return x.ID(&k)
		}
		sorted := make([]string, 40)
		for i := range sorted {
			sorted[i] = "k" + string(rune('a'+i/26)) + string(rune('a'+i%26))
		}
		for i, name := range sorted {
			got, fresh := id(name)
			Expect(fresh).To(BeTrue(), "first sight of %q", name)
			Expect(got).To(Equal(i), "first sight of %q", name)
		}
		for _, i := range []int{39, 0, 17, 18, 5, 39} {
			got, fresh := id(sorted[i])
			Expect(fresh).To(BeFalse(), "%q again", sorted[i])
			Expect(got).To(Equal(i), "%q again", sorted[i])
		}
		got, fresh := id("a")
		Expect(fresh).To(BeTrue())
		Expect(got).To(Equal(40))
		for i, name := range append(sorted, "a") {
			got, fresh := id(name)
			Expect(fresh).To(BeFalse(), "%q once out of order", name)
			Expect(got).To(Equal(i), "%q once out of order", name)
		}
		got, fresh = id("kz")
		Expect(fresh).To(BeTrue())
		Expect(got).To(Equal(41))
	})
	It("forgets a list's keys when reset for the next list, its hash table reused", func() {
		x := elements.NewIndex(1, 100)
		for _, name := range names(100)[:100] {
			k := elements.Key{{Kind: value.KindString, Str: name}}
			x.ID(&k)
		}
		x.Reset(1, 20)
		for i, name := range []string{"ba", "aa", "ba"} {
			k := elements.Key{{Kind: value.KindString, Str: name}}
			id, fresh := x.ID(&k)
			Expect(fresh).To(Equal(i < 2), "key %d %q", i, name)
			Expect(id).To(Equal([]int{0, 1, 0}[i]), "key %d %q", i, name)
		}
	})
	It("numbers a list's string keys and other scalar keys apart", func() {
		x := elements.NewIndex(1, 20)
		keys := []value.ScalarKey{{Kind: value.KindString, Str: "1"}, {Kind: value.KindInt, Bits: 1}, {Kind: value.KindString, Str: "2"}}
		for round := range 2 {
			for i, sk := range keys {
				k := elements.Key{sk}
				id, fresh := x.ID(&k)
				Expect(fresh).To(Equal(round == 0), "round %d key %d", round, i)
				Expect(id).To(Equal(i), "round %d key %d", round, i)
			}
		}
	})
	It("tells new keys from known ones and counts them", func() {
		x := elements.NewIndex(1, 2)
		for i, name := range []string{"a", "b", "a", "c", "b"} {
			k := elements.Key{{Kind: value.KindString, Str: name}}
			_, fresh := x.ID(&k)
			Expect(fresh).To(Equal(i == 0 || i == 1 || i == 3), "key %d %q", i, name)
		}
		// Three keys are numbered: the next new one is 3.
		next := elements.Key{{Kind: value.KindString, Str: "d"}}
		id, fresh := x.ID(&next)
		Expect(fresh).To(BeTrue())
		Expect(id).To(Equal(3))
	})
	DescribeTable("finds the keys numbered, by their number, and numbers no key it does not find",
		func(size int, keys []value.ScalarKey, fields int) {
			key := func(sk value.ScalarKey) elements.Key {
				k := elements.Key{sk}
				if fields == 2 {
					k[1] = value.ScalarKey{Kind: value.KindString, Str: "TCP"}
				}
				return k
			}
			x := elements.NewIndex(fields, size)
			numbered := keys[:len(keys)/2]
			for i, sk := range numbered {
				k := key(sk)
				id, fresh := x.ID(&k)
				Expect(fresh).To(BeTrue(), "key %d numbered", i)
				Expect(id).To(Equal(i))
			}
			// Looked up in reverse (each key after the one found last is tried first: none here), then in order.
			for round, order := range [][]int{reversed(len(numbered)), ascending(len(numbered))} {
				for _, i := range order {
					k := key(numbered[i])
					id, found := x.Find(&k)
					Expect(found).To(BeTrue(), "round %d, key %d", round, i)
					Expect(id).To(Equal(i), "round %d, key %d", round, i)
				}
			}
			for i, sk := range keys[len(keys)/2:] {
				k := key(sk)
				_, found := x.Find(&k)
				Expect(found).To(BeFalse(), "key %d not numbered", i)
			}
			// None of the keys not found was numbered: the next new key gets the number after the keys numbered.
			k := key(keys[len(keys)/2])
			id, fresh := x.ID(&k)
			Expect(fresh).To(BeTrue())
			Expect(id).To(Equal(len(numbered)))
		},
		Entry("a small list, searched in place", 5, stringKeys("b", "d", "f", "a", "c", "e"), 1),
		Entry("a large list of keys in increasing order (compared, not hashed)", 40, stringKeys(sortedNames(60)...), 1),
		Entry("a large list of keys in increasing order, looked up by keys before its first", 40,
			stringKeys(append(sortedNames(30)[1:], "a", "0", "ka")...), 1),
		Entry("a large list out of order (hashed)", 40, stringKeys(append(reversedNames(40), "zz", "0")...), 1),
		Entry("a large list of numbers and strings", 20, append(intKeys(30), stringKeys("1", "2")...), 1),
		Entry("keys of two fields", 4, intKeys(6), 2),
	)
	It("keys multi-field identities by every field", func() {
		x := elements.NewIndex(2, 4)
		tcp := elements.Key{{Kind: value.KindInt, Bits: 53}, {Kind: value.KindString, Str: "TCP"}}
		udp := elements.Key{{Kind: value.KindInt, Bits: 53}, {Kind: value.KindString, Str: "UDP"}}
		a, _ := x.ID(&tcp)
		b, fresh := x.ID(&udp)
		Expect(fresh).To(BeTrue())
		Expect(b).NotTo(Equal(a))
		again, fresh := x.ID(&tcp)
		Expect(fresh).To(BeFalse())
		Expect(again).To(Equal(a))
	})
})

// stringKeys is names as string keys.
func stringKeys(names ...string) []value.ScalarKey {
	out := make([]value.ScalarKey, len(names))
	for i, name := range names {
		out[i] = value.ScalarKey{Kind: value.KindString, Str: name}
	}
	return out
}

// intKeys is the integer keys 1 to n.
func intKeys(n int) []value.ScalarKey {
	out := make([]value.ScalarKey, n)
	for i := range out {
		out[i] = value.ScalarKey{Kind: value.KindInt, Bits: uint64(i + 1)}
	}
	return out
}

// sortedNames is n names in increasing order.
func sortedNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "k" + string(rune('a'+i/26)) + string(rune('a'+i%26))
	}
	return out
}

// reversedNames is sortedNames(n) in decreasing order.
func reversedNames(n int) []string {
	names := sortedNames(n)
	slices.Reverse(names)
	return names
}

// ascending is 0 to n-1.
func ascending(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// reversed is n-1 to 0.
func reversed(n int) []int {
	out := ascending(n)
	slices.Reverse(out)
	return out
}
