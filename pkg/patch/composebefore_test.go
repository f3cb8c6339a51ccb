package patch_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
)

// Compose of a second patch naming a part's key twice, its repeat ordering by "$setElementOrder" a field it sets to a
// string ("value") after a field it holds that the collation merges onto its key's outcome first: a map at a field the
// schema types as a list, holding "$" keys or not, over a map of the outcome's ("map onto a map"), or a list it leaves
// out and only orders, over the outcome's list of items drawn from scalars of two classes, nulls, objects and lists
// ("list it orders", with a "$deleteFromPrimitiveList" of it beside the order: "beside a deletion"), or a list merged
// by key it holds over the outcome's list ("keyed list it merges"); maps and keyed items holding "$retainKeys" other
// than a list of strings ("retaining other than strings"). Random shapes of testdata/nested.json's Part, every gate
// off (and, maps onto maps, gate MultiFieldMergeKeys on): Compose gives what the same merge made as two Composes gives
// (the second's items one at a time, no key named twice), the same object or the same error. The report counts the
// repeats of each shape and those the front-end applied again, at most as many as each entry says: Phase 2 decides
// them all (visitors' orderFails: otherKindOnto, heldOrder, keyedFieldFailure). Maps onto maps whose repeats end with
// the map ("nothing after it") are decided too: visitors' composeDisagrees comparing a "$retainKeys" as the patch holds
// it, dollarOnto merging "$" fields as data, and, gate MultiFieldMergeKeys on, otherKindFirst's kind check.
var _ = Describe("Compose of a repeat ordering a field it sets to a string after a field merged onto the outcome, random shapes, against the front-end", func() {
	var repeats, again atomic.Int64
	BeforeEach(func() {
		countRepeats(&repeats, &again)
	})

	top := func() *openapi.Type {
		schema, err := openapi.LoadV2Named("nested.json", mustRead(filepath.Join("testdata", "nested.json")))
		Expect(err).NotTo(HaveOccurred())
		t, ok := schema.Kubectl().ByName("dev.ply.nested.v1.Top")
		Expect(ok).To(BeTrue())
		return t
	}

	DescribeTable("agree on random shapes",
		func(shape func(r *rand.Rand) (held, item string), tail string, n int, mostAgain int64, multiField bool) {
			t := top()
			gates := features.Kubectl().With(features.MultiFieldMergeKeys, multiField)
			head := jsonv.MustDecode(`{"groups":[{"name":"g","parts":[{"name":"p"}]}]}`)
			failed := 0
			for i := range n {
				r := rand.New(rand.NewPCG(33, uint64(i)))
				held, item := shape(r)
				item = `{"name":"p",` + item + tail + `}`
				first := jsonv.MustDecode(`{"groups":[{"name":"g","parts":[{"name":"p",` + held + `}]}]}`)
				second := jsonv.MustDecode(`{"groups":[{"name":"g","parts":[{"name":"p"},` + item + `]}]}`)
				rest := jsonv.MustDecode(`{"groups":[{"name":"g","parts":[` + item + `]}]}`)
				got, err := patch.Compose(first, second, t, gates)
				mid, midErr := patch.Compose(first, head, t, gates)
				Expect(midErr).NotTo(HaveOccurred())
				counted := again.Load()
				want, wantErr := patch.Compose(mid, rest, t, gates)
				Expect(again.Load()).To(Equal(counted), "the two Composes name no key twice")
				if expectComposedInTurn(got, err, want, wantErr, first, second) {
					failed++
				}
			}
			Expect(repeats.Load()).To(BeNumerically(">=", n), "each case applies a repeat to its key's outcome")
			line := fmt.Sprintf("%d cases, %d failing; front-end re-applications: %d of %d repeats", n, failed, again.Load(), repeats.Load())
			AddReportEntry("repeats", line)
			fmt.Fprintln(GinkgoWriter, line)
			Expect(again.Load()).To(BeNumerically("<=", mostAgain), "the front-end applied too many repeats again: %s", line)
		},
		Entry("a map onto a map", mapOntoMap, orderedValue, 2000, int64(0), false),
		Entry("a list it orders", listItOrders, orderedValue, 2000, int64(0), false),
		Entry("a keyed list it merges", keyedItMerges, orderedValue, 2000, int64(0), false),
		Entry("a list it orders beside a deletion", listItOrdersDeleting, orderedValue, 2000, int64(0), false),
		Entry("a map onto a map retaining other than strings", mapOntoMapRetaining, orderedValue, 2000, int64(0), false),
		Entry("a keyed list it merges retaining other than strings", keyedItMergesRetaining, orderedValue, 2000, int64(0), false),
		Entry("a map onto a map retaining other than strings, nothing after it", mapOntoMapRetaining, "", 2000, int64(0), false),
		Entry("a map onto a map retaining other than strings, nothing after it, gate MultiFieldMergeKeys on", mapOntoMapRetaining, "", 2000, int64(0), true),
		Entry("a map onto a map, nothing after it", mapOntoMap, "", 2000, int64(0), false),
		Entry("a map onto a map, nothing after it, gate MultiFieldMergeKeys on", mapOntoMap, "", 2000, int64(0), true),
		Entry("a map onto a map, gate MultiFieldMergeKeys on (the kind check's error at the map)", mapOntoMap, orderedValue, 2000, int64(0), true),
	)
})

// orderedValue is the fields the repeats of the random spec above end with: an order of "value", set to a string.
const orderedValue = `,"$setElementOrder/value":["x"],"value":"w"`

// mapOntoMap is a shape of the random spec above: a map at aliases, ports or args (lists of the schema's) over a map
// of the outcome's there, each drawn from "$retainKeys", "$patch", "$deleteFromPrimitiveList/<f>", "$setElementOrder/<f>"
// and "$x" fields, plain scalars and maps, maps holding "$patch" among them.
func mapOntoMap(r *rand.Rand) (held, item string) {
	field := pick(r, `"aliases"`, `"ports"`, `"args"`)
	held = field + ":" + drawMap(r, 3,
		`"b":1`, `"c":"s"`, `"$retainKeys":["b"]`, `"$retainKeys":["b","c"]`, `"$x":{"a":1}`, `"$x":["l"]`, `"d":{"e":1}`,
		`"$deleteFromPrimitiveList/c":["y"]`)
	item = field + ":" + drawMap(r, 3,
		`"$retainKeys":["b"]`, `"$retainKeys":["c"]`, `"$retainKeys":["b","c"]`, `"$patch":"merge"`, `"$patch":"replace"`,
		`"$patch":"delete"`, `"$patch":"bogus"`, `"$deleteFromPrimitiveList/c":["y"]`, `"$x":{"$patch":"merge"}`,
		`"$x":{"a":2}`, `"$x":{"$patch":"replace","q":1}`, `"$x":["m"]`, `"b":2`, `"d":{"$patch":"bogus"}`, `"d":{"f":1}`,
		`"e":{"$patch":"delete"}`, `"$setElementOrder/q":["x"]`)
	return held, item
}

// listItOrders is a shape of the random spec above: a list at aliases, ports, args or env the repeat leaves out and
// orders by "$setElementOrder" alone, over the outcome's list there.
func listItOrders(r *rand.Rand) (held, item string) {
	field := pick(r, `aliases`, `ports`, `args`, `env`)
	entries := []string{`"a"`, `"b"`, `1`, `2`, `null`, `{"a":1}`, `{"name":"A"}`, `["x"]`, `true`, `{"name":null}`, `{"name":1}`,
		`{"name":{"x":1}}`, `{"name":"B","$patch":"delete"}`, `{"$patch":"replace"}`, `{"$patch":"delete"}`,
		`{"name":"A","$patch":"replace"}`, `{"name":"A","$retainKeys":["name"]}`, `{"name":"B","v":{"$patch":"bogus"}}`}
	held = `"` + field + `":` + drawList(r, 1+r.IntN(3), entries...)
	item = `"$setElementOrder/` + field + `":` + drawList(r, r.IntN(3), entries...)
	return held, item
}

// pick returns one of choices.
func pick(r *rand.Rand, choices ...string) string { return choices[r.IntN(len(choices))] }

// drawMap returns a JSON object of up to most fields drawn from fields (a key drawn twice kept once, the last).
func drawMap(r *rand.Rand, most int, fields ...string) string {
	m := map[string]value.Value{}
	var keys []string
	for range 1 + r.IntN(most) {
		f := jsonv.MustDecode("{" + pick(r, fields...) + "}").Fields()[0]
		if _, seen := m[f.Key]; !seen {
			keys = append(keys, f.Key)
		}
		m[f.Key] = f.Value
	}
	out := value.MustMap()
	for _, k := range keys {
		out = out.With(k, m[k])
	}
	return string(out.JSON())
}

// drawList returns a JSON array of n items drawn from items.
func drawList(r *rand.Rand, n int, items ...string) string {
	s := "["
	for i := range n {
		if i > 0 {
			s += ","
		}
		s += pick(r, items...)
	}
	return s + "]"
}

// keyedItMerges is a shape of the random spec above: a list at env (merged by key "name") the repeat holds, each key
// once, ordered by a "$setElementOrder" naming its data items in their order or not, over the outcome's list there,
// their items drawn from scalars, sets (flags) of strings or numbers, "$retainKeys", "$" fields, undeclared maps
// holding "$patch" or not, and "$patch: delete" items.
func keyedItMerges(r *rand.Rand) (held, item string) {
	held = `"env":` + drawList(r, 1+r.IntN(2), `{"name":"A","value":"v"}`, `{"name":"A","flags":["a"]}`,
		`{"name":"A","flags":[1]}`, `{"name":"A","$retainKeys":["name"]}`, `{"name":"B","x":{"a":1}}`,
		`{"name":"A","$x":{"a":1}}`, `{"name":"B"}`, `{"name":"A","x":{"a":1}}`)
	pool := []string{`{"name":"A","value":"w"}`, `{"name":"A","flags":["b"]}`, `{"name":"A","flags":[2]}`,
		`{"name":"A","$retainKeys":["value"]}`, `{"name":"A","$retainKeys":["name"]}`, `{"name":"A","x":{"$patch":"merge"}}`,
		`{"name":"A","x":{"$patch":"bogus"}}`, `{"name":"A","$x":{"$patch":"merge"}}`, `{"name":"A","x":{"b":2}}`,
		`{"name":"B","value":"u"}`, `{"name":"B","x":{"$patch":"merge"}}`, `{"name":"B","$retainKeys":["value"]}`,
		`{"name":"A","$patch":"delete"}`, `{"name":"C"}`}
	return held, drawKeyedEnv(r, pool)
}

// listItOrdersDeleting is listItOrders with a "$deleteFromPrimitiveList" of the list beside the order.
func listItOrdersDeleting(r *rand.Rand) (held, item string) {
	field := pick(r, `aliases`, `ports`, `args`, `env`)
	entries := []string{`"a"`, `"b"`, `1`, `2`, `null`, `{"a":1}`, `{"name":"A"}`, `["x"]`, `true`, `{"name":null}`, `{"name":1}`,
		`{"name":{"x":1}}`, `{"name":"B","$patch":"delete"}`, `{"$patch":"replace"}`, `{"name":"A","$patch":"replace"}`}
	held = `"` + field + `":` + drawList(r, 1+r.IntN(3), entries...)
	item = `"$setElementOrder/` + field + `":` + drawList(r, r.IntN(3), entries...) +
		`,"$deleteFromPrimitiveList/` + field + `":` + pick(r, drawList(r, r.IntN(3), entries...), `"a"`, `{"a":1}`, `null`)
	return held, item
}

// mapOntoMapRetaining is mapOntoMap with "$retainKeys" other than a list of strings, held or in the item.
func mapOntoMapRetaining(r *rand.Rand) (held, item string) {
	field := pick(r, `"aliases"`, `"ports"`, `"args"`)
	retains := []string{`"$retainKeys":[1]`, `"$retainKeys":"b"`, `"$retainKeys":[{"a":1}]`, `"$retainKeys":[null]`,
		`"$retainKeys":null`, `"$retainKeys":{"b":1}`, `"$retainKeys":["b",2]`, `"$retainKeys":[]`, `"$retainKeys":["b"]`,
		`"$retainKeys":[["b"]]`, `"$retainKeys":true`,
		`"$retainKeys":{"$patch":"delete"}`, `"$retainKeys":[{"$patch":"replace"}]`, `"$retainKeys":{"a":{"$patch":"merge"}}`,
		`"$retainKeys":{"$patch":"bogus","b":1}`, `"$retainKeys":{"b":{"c":1}}`}
	held = field + ":" + drawMap(r, 3, append([]string{`"b":1`, `"c":"s"`, `"d":{"e":1}`}, retains...)...)
	item = field + ":" + drawMap(r, 3, append([]string{`"b":2`, `"c":"t"`, `"d":{"f":1}`, `"$patch":"merge"`,
		`"$x":{"a":2}`}, retains...)...)
	return held, item
}

// keyedItMergesRetaining is keyedItMerges with items holding "$retainKeys" other than a list of strings.
func keyedItMergesRetaining(r *rand.Rand) (held, item string) {
	held = `"env":` + drawList(r, 1+r.IntN(2), `{"name":"A","value":"v"}`, `{"name":"A","$retainKeys":[1]}`,
		`{"name":"A","$retainKeys":"name"}`, `{"name":"A","$retainKeys":{"a":1}}`, `{"name":"B","$retainKeys":[null]}`,
		`{"name":"A","$retainKeys":["name"]}`, `{"name":"B"}`)
	pool := []string{`{"name":"A","value":"w"}`, `{"name":"A","$retainKeys":[1]}`, `{"name":"A","$retainKeys":"name"}`,
		`{"name":"A","$retainKeys":{"a":1}}`, `{"name":"A","$retainKeys":{"a":2}}`, `{"name":"A","$retainKeys":{"$patch":"delete"}}`,
		`{"name":"A","$retainKeys":[{"$patch":"replace"}]}`, `{"name":"B","$retainKeys":[null]}`, `{"name":"B","$retainKeys":true}`,
		`{"name":"A","$retainKeys":["name"]}`, `{"name":"B","value":"u","$retainKeys":[["value"]]}`, `{"name":"A","$patch":"delete"}`,
		`{"name":"C","$retainKeys":{"b":{"$patch":"merge"}}}`}
	return held, drawKeyedEnv(r, pool)
}

// drawKeyedEnv is an item's "env": one to three items drawn from pool, each key once (a later draw of a key drawn is
// dropped), and with even odds a "$setElementOrder/env" naming the items but "$patch" ones, in their order.
func drawKeyedEnv(r *rand.Rand, pool []string) string {
	var items, order []string
	named := map[string]bool{}
	for range 1 + r.IntN(3) {
		it := jsonv.MustDecode(pick(r, pool...))
		name, _ := it.Get("name")
		if key, _ := name.AsString(); !named[key] {
			named[key] = true
			items = append(items, string(it.JSON()))
			if _, deletes := it.Get("$patch"); !deletes {
				order = append(order, `{"name":"`+key+`"}`)
			}
		}
	}
	item := `"env":[` + strings.Join(items, ",") + `]`
	if r.IntN(2) == 0 {
		item += `,"$setElementOrder/env":[` + strings.Join(order, ",") + `]`
	}
	return item
}

// Compose of a second patch naming a part's key two or three times, its later items ordering by "$setElementOrder" its
// lists env (merged by key), ports and aliases (sets) and args (merged by no strategy), holding them, empty or not, or
// leaving them out, over a first patch holding some of them: Compose gives what the Composes of its items in turn give,
// the same object or the same error. The report counts the repeats and those the front-end applied again, at most as
// many as the entry says (a later item whose list without items fails after an order of an earlier field the outcome
// holds, among them: visitors' emptyOrderFailure).
var _ = Describe("Compose of a part named two or three times, later items ordering lists, random shapes, against the front-end", func() {
	var repeats, again atomic.Int64
	BeforeEach(func() {
		countRepeats(&repeats, &again)
	})

	DescribeTable("agree on random shapes",
		func(shape func(r *rand.Rand) (held string, items []string), n int, mostAgain int64) {
			schema, err := openapi.LoadV2Named("nested.json", mustRead(filepath.Join("testdata", "nested.json")))
			Expect(err).NotTo(HaveOccurred())
			t, ok := schema.Kubectl().ByName("dev.ply.nested.v1.Top")
			Expect(ok).To(BeTrue())
			gates := features.Kubectl()
			wrap := func(parts string) value.Value {
				return jsonv.MustDecode(`{"groups":[{"name":"g","parts":[` + parts + `]}]}`)
			}
			failed := 0
			for i := range n {
				r := rand.New(rand.NewPCG(33, uint64(i)))
				held, items := shape(r)
				first := wrap(`{"name":"p"` + held + `}`)
				second := wrap(strings.Join(items, ","))
				got, err := patch.Compose(first, second, t, gates)
				counted := again.Load()
				want, wantErr := first, error(nil)
				for _, it := range items {
					if want, wantErr = patch.Compose(want, wrap(it), t, gates); wantErr != nil {
						break
					}
				}
				Expect(again.Load()).To(Equal(counted), "the Composes in turn name no key twice")
				if expectComposedInTurn(got, err, want, wantErr, first, second) {
					failed++
				}
			}
			line := fmt.Sprintf("%d cases, %d failing; front-end re-applications: %d of %d repeats", n, failed, again.Load(), repeats.Load())
			AddReportEntry("repeats", line)
			fmt.Fprintln(GinkgoWriter, line)
			Expect(again.Load()).To(BeNumerically("<=", mostAgain), "the front-end applied too many repeats again: %s", line)
		},
		Entry("later parts ordering their lists", laterPartsOrdering, 2000, int64(413)),
	)
})

// drawPartLists returns fields of a part (each led by a comma): env, ports, args and aliases, each with even odds, as
// lists of up to two items, and with withOrders, with even odds, a "$setElementOrder" of each, of up to two entries.
func drawPartLists(r *rand.Rand, withOrders bool) string {
	var s string
	for _, f := range []string{"env", "ports", "args", "aliases"} {
		var pool []string
		switch f {
		case "env":
			pool = []string{`{"name":"A"}`, `{"name":"B","value":"v"}`, `{"name":"C","flags":["x"]}`}
		case "ports":
			pool = []string{`1`, `2`, `3`}
		default:
			pool = []string{`"x"`, `"y"`, `"z"`}
		}
		if r.IntN(2) == 0 {
			s += `,"` + f + `":` + drawList(r, r.IntN(3), pool...)
		}
		if withOrders && r.IntN(2) == 0 {
			s += `,"$setElementOrder/` + f + `":` + drawList(r, r.IntN(3), pool...)
		}
	}
	return s
}

// laterPartsOrdering is a shape of the random spec above: a first patch's part lists, and the second's items of the
// part, two or three, the first ordering its lists with even odds, the later ones with even odds each.
func laterPartsOrdering(r *rand.Rand) (held string, items []string) {
	held = drawPartLists(r, false)
	items = []string{`{"name":"p"` + drawPartLists(r, r.IntN(2) == 0) + `}`}
	for range 1 + r.IntN(2) {
		items = append(items, `{"name":"p"`+drawPartLists(r, true)+`}`)
	}
	return held, items
}

// Compose of a part named twice whose later item orders by "$setElementOrder" several lists it holds empty or leaves
// out, over an outcome holding some of them empty: the collation with the outcome as live fails at the first such
// list by name whose order finds no items or is refused, as the two Composes in turn fail there.
var _ = Describe("Compose of a later part ordering several lists without items, against the Composes in turn", func() {
	var repeats, again atomic.Int64
	BeforeEach(func() {
		countRepeats(&repeats, &again)
	})

	DescribeTable("fails at the first list by name",
		func(held, later, msg string) {
			schema, err := openapi.LoadV2Named("nested.json", mustRead(filepath.Join("testdata", "nested.json")))
			Expect(err).NotTo(HaveOccurred())
			t, ok := schema.Kubectl().ByName("dev.ply.nested.v1.Top")
			Expect(ok).To(BeTrue())
			wrap := func(parts string) value.Value {
				return jsonv.MustDecode(`{"groups":[{"name":"g","parts":[` + parts + `]}]}`)
			}
			first := wrap(`{"name":"p",` + held + `}`)
			mid, err := patch.Compose(first, wrap(`{"name":"p"}`), t, features.Kubectl())
			Expect(err).NotTo(HaveOccurred())
			_, wantErr := patch.Compose(mid, wrap(`{"name":"p",`+later+`}`), t, features.Kubectl())
			Expect(wantErr).To(MatchError(msg))
			Expect(again.Load()).To(BeZero(), "the Composes in turn name no key twice")
			_, err = patch.Compose(first, wrap(`{"name":"p"},{"name":"p",`+later+`}`), t, features.Kubectl())
			Expect(err).To(MatchError(msg))
			Expect(repeats.Load()).To(BeNumerically(">", 0), "a repeat applied to its key's outcome")
		},
		Entry("a list it holds empty before one it leaves out, the outcome holding both empty: at the first",
			`"aliases":[],"ports":[]`, `"$setElementOrder/aliases":["z"],"aliases":[],"$setElementOrder/ports":[3]`,
			"patch groups[name=g].parts[name=p].aliases: $setElementOrder/aliases orders a list that has no items in live or in the patch"),
		Entry("a list it holds empty that the outcome holds items for, before another it holds empty: at the other",
			`"aliases":["z"]`, `"$setElementOrder/aliases":["y"],"aliases":[],"$setElementOrder/ports":[1,2],"ports":[]`,
			"patch groups[name=g].parts[name=p].ports: $setElementOrder/ports orders a list that has no items in live or in the patch"),
		Entry("a list merged by no strategy it holds empty and orders, before one it leaves out: refused at the first",
			`"args":[],"ports":[]`, `"$setElementOrder/args":[],"args":[],"$setElementOrder/ports":[]`,
			"patch groups[name=g].parts[name=p].args: $setElementOrder/args orders lists merged by key or value; the schema does not merge this list"),
	)
})

// expectComposedInTurn expects the Compose of first and second to give got and err as the Composes in turn give want or
// wantErr, and reports whether they failed.
func expectComposedInTurn(got value.Value, err error, want value.Value, wantErr error, first, second value.Value) (failed bool) {
	if wantErr != nil {
		Expect(err).To(HaveOccurred(), "first %s\nsecond %s", first.JSON(), second.JSON())
		Expect(err.Error()).To(Equal(wantErr.Error()), "first %s\nsecond %s", first.JSON(), second.JSON())
		return true
	}
	Expect(err).NotTo(HaveOccurred(), "first %s\nsecond %s", first.JSON(), second.JSON())
	Expect(got).To(equalValue(want), "first %s\nsecond %s", first.JSON(), second.JSON())
	return false
}
