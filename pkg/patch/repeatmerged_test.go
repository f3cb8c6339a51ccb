package patch_test

import (
	"path/filepath"
	"strings"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/pkg/visitors"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// A later item of a repeated key whose own collation Phase 1 refused for what its key's outcome decides (an empty
// "$setElementOrder" beside the items of a list merged by no strategy), holding a list merged by one key (a
// container's ports, env; testdata/nested.json's parts' env) or a set of scalars (the parts' aliases, ports), ordered
// by its "$setElementOrder" or not: merged into the outcome's list in Phase 2 as strategicpatch's mergeMap merges it,
// under kubectl's order, the front-end applying no repeat again (probe.OnRepeat); the same as strategicpatch's result
// and as the items applied one after another. Its items may hold nulls (deleting the fields of the items they merge
// into), lists the schema merges (merged in turn), a "$setElementOrder" of one in a map the outcome holds, and name a
// key or a value twice (the later merged into the first), as may the outcome's list and a list ordered by its
// "$setElementOrder" (which names it twice too, else the collation's error). An appended item holding a null, or a
// list the outcome lacks ordered so, is taken less its nulls: strategicpatch keeps them (docs/strategicpatch.md,
// "What stays different"), compared with its result less its nulls. Its maps (the item's own too) may hold
// "$retainKeys" (clearing the fields of the outcome's map it does not name first) and "$deleteFromPrimitiveList/<f>"
// (deleting from the outcome's list of scalars there), and set a value where the outcome holds another kind (taken as
// onto nothing, less its nulls). Its sets may hold numbers with a fraction, and its "$setElementOrder" may be empty
// (the merged list sorted by the outcome's places). A "$setElementOrder" of a merged list in a map the outcome lacks is
// applied: strategicpatch copies it (docs/strategicpatch.md, "What stays different"), compared with its result less it.
// Sets mixing numbers with a fraction and integers, which strategicpatch refuses as two Go types, are merged as the
// collation merges them. "$patch: delete" maps (beside other "$" keys, in its maps and its keyed lists' items) empty the
// outcome's map or, with gate PatchDeleteRemovesMap, remove it; "$patch: replace" maps and undeclared values are taken
// cleaned of nulls, maps holding "$patch" and other "$" keys, where strategicpatch keeps them (compared with its result
// so cleaned). Orders of lists the outcome holds as a null or without items, deletions of another class and maps
// strategicpatch cannot merge, in the item or below, fail with the collation's error (several in one map: the first's
// by name); so do maps of an unknown "$patch" and lists their map orders by "$setElementOrder" in undeclared values,
// outside their lists, which strategicpatch drops or copies; the collation drops those values' lists' "$" keys.
var _ = Describe("Apply of a later item of a repeated key holding a merged list", func() {
	var again atomic.Int64
	BeforeEach(func() {
		countRepeats(nil, &again)
	})

	// A schema a case is read with: strategicpatch's oracle, ply's options and the patch of a list's items (wrap).
	type schemaCase struct {
		sp   *oracle.Oracle
		opts patch.Options
		wrap func(items string) string
	}
	pod := func() schemaCase {
		sp, err := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
		Expect(err).NotTo(HaveOccurred())
		return schemaCase{sp, patch.Options{Gates: features.Kubectl(), Ordering: patch.OrderKubectl},
			func(items string) string { return `{"spec":{"containers":[` + items + `]}}` }}
	}
	nested := func() schemaCase {
		data := mustRead(filepath.Join("testdata", "nested.json"))
		models, err := oracle.Load(data)
		Expect(err).NotTo(HaveOccurred())
		sp, err := models.Oracle("dev.ply.nested.v1.Top")
		Expect(err).NotTo(HaveOccurred())
		schema, err := openapi.LoadV2Named("nested.json", data)
		Expect(err).NotTo(HaveOccurred())
		return schemaCase{sp, patch.Options{Schema: schema, TypeName: "dev.ply.nested.v1.Top", Gates: features.Kubectl(),
			Ordering: patch.OrderKubectl}, func(items string) string { return `{"groups":[{"name":"g","parts":[` + items + `]}]}` }}
	}

	var appliesAs func(s schemaCase, liveItems, key, first, item string, cleaned adjustment)

	// applies applies to live (the schema's list of items liveItems) the patch of item's first item and a later one of
	// its key, each given its fields: strategicpatch's result, the items' applied one after another, no repeat applied
	// again by the front-end.
	applies := func(s schemaCase, liveItems, key, first, item string) {
		appliesAs(s, liveItems, key, first, item, asGiven)
	}
	// appliesCleaned is applies where strategicpatch keeps nulls the collation drops (content live lacks, taken with
	// nulls: docs/strategicpatch.md, "What stays different"): its result compared with its nulls stripped.
	appliesCleaned := func(s schemaCase, liveItems, key, first, item string) {
		appliesAs(s, liveItems, key, first, item, nullsKept)
	}
	// appliesOrdered is applies where strategicpatch copies a "$setElementOrder/<f>" into content the outcome lacks,
	// which the collation applies (docs/strategicpatch.md, "What stays different"): its result compared less those
	// directives.
	appliesOrdered := func(s schemaCase, liveItems, key, first, item string) {
		appliesAs(s, liveItems, key, first, item, ordersCopied)
	}
	// appliesDropped is applies where strategicpatch copies "$" keys into content the outcome lacks or keeps an
	// unknown one, which the collation drops (docs/strategicpatch.md, "What stays different"): its result compared
	// less its "$" keys.
	appliesDropped := func(s schemaCase, liveItems, key, first, item string) {
		appliesAs(s, liveItems, key, first, item, directivesCopied)
	}
	appliesAs = func(s schemaCase, liveItems, key, first, item string, cleaned adjustment) {
		live := jsonv.MustDecode(s.wrap(liveItems))
		if s.opts.TypeName == "" {
			live = jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},` + s.wrap(liveItems)[1:])
		}
		p := jsonv.MustDecode(s.wrap(`{"name":"` + key + `"` + first + `},{"name":"` + key + `"` + item + `}`))
		want, werr := strategicMergePatchRecovered(live.JSON(), p.JSON(), s.sp.Meta())
		Expect(werr).NotTo(HaveOccurred())
		got, err := patch.Apply(live, p, s.opts)
		Expect(err).NotTo(HaveOccurred())
		if wantV := jsonv.MustDecode(string(want)); cleaned == nullsKept {
			Expect(wantV).NotTo(equalValue(visitors.StripNulls(wantV)), "strategicpatch keeps a null here")
			Expect(got).To(equalValue(visitors.StripNulls(wantV)))
		} else if cleaned == ordersCopied {
			Expect(wantV).NotTo(equalValue(withoutOrders(wantV)), "strategicpatch copies an order here")
			Expect(got).To(equalValue(withoutOrders(wantV)))
		} else if cleaned == directivesCopied {
			Expect(wantV).NotTo(equalValue(withoutDirectives(wantV)), "strategicpatch copies a \"$\" key here")
			Expect(got).To(equalValue(withoutDirectives(wantV)))
		} else {
			Expect(got).To(equalValue(wantV))
		}
		Expect(again.Load()).To(BeZero(), "repeats the front-end applied again")
		step, err := patch.Apply(live, jsonv.MustDecode(s.wrap(`{"name":"`+key+`"`+first+`}`)), s.opts)
		Expect(err).NotTo(HaveOccurred())
		inTurn, err := patch.Apply(step, jsonv.MustDecode(s.wrap(`{"name":"`+key+`"`+item+`}`)), s.opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(equalValue(inTurn))
	}
	const unordered = `,"$setElementOrder/args":[],"args":["c","a"]` // (Phase 1 refuses it for what the outcome decides)

	DescribeTable("off, every gate, a later item of a repeated key onto its key's outcome lacking the list it orders, holding a list merged by key",
		func(liveItems, first, item string) { applies(pod(), liveItems, "a", first, item) },
		Entry("ports merged by containerPort into the first item's: merged in place, new ones after",
			`{"name":"b"}`, `,"ports":[{"containerPort":80,"name":"http"},{"containerPort":443}]`,
			unordered+`,"ports":[{"containerPort":8080},{"containerPort":80,"protocol":"TCP"}]`),
		Entry("env the outcome lacks: taken as it stands",
			`{"name":"b"}`, `,"tty":true`, unordered+`,"env":[{"name":"Y","value":"2"},{"name":"X","value":"1"}]`),
		Entry("env merged into live's item of the key, interleaved by live's places",
			`{"name":"a","env":[{"name":"A","value":"1"},{"name":"B","value":"2"},{"name":"C"}]}`, `,"tty":true`,
			unordered+`,"env":[{"name":"D","value":"4"},{"name":"C","value":"3"},{"name":"A","value":"9"}]`),
		Entry("env whose items hold maps, merged field by field",
			`{"name":"a","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}}]}`, `,"tty":true`,
			unordered+`,"env":[{"name":"A","valueFrom":{"fieldRef":{"apiVersion":"v1"}}}]`),
		Entry("an empty list onto the first item's ports: kept",
			`{"name":"b"}`, `,"ports":[{"containerPort":80}]`, unordered+`,"ports":[]`),
		Entry("ports ordered by $setElementOrder: merged, then ordered by it, the outcome's others by their places",
			`{"name":"b"}`, `,"ports":[{"containerPort":80},{"containerPort":443},{"containerPort":9}]`,
			unordered+`,"$setElementOrder/ports":[{"containerPort":443},{"containerPort":8080},{"containerPort":80}],"ports":[{"containerPort":8080},{"containerPort":80,"name":"h"}]`),
		Entry("env left out and ordered by $setElementOrder: the outcome's reordered",
			`{"name":"a","env":[{"name":"A"},{"name":"B"},{"name":"C"}]}`, `,"tty":true`,
			unordered+`,"$setElementOrder/env":[{"name":"C"},{"name":"A"}]`),
		Entry("env left out and ordered where the outcome lacks it: absent",
			`{"name":"b"}`, `,"tty":true`, unordered+`,"$setElementOrder/env":[{"name":"C"},{"name":"A"}]`),
		Entry("env ordered where the outcome lacks it: sorted by the order",
			`{"name":"b"}`, `,"tty":true`,
			unordered+`,"$setElementOrder/env":[{"name":"C"},{"name":"A"}],"env":[{"name":"C"},{"name":"A","value":"1"}]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key onto its key's outcome lacking the list it orders, holding a set or a list merged by key",
		func(liveItems, first, item string) { applies(nested(), liveItems, "p", first, item) },
		Entry("a set of strings merged into the first part's",
			`{"name":"q"}`, `,"aliases":["a","b","d"]`, unordered+`,"aliases":["c","d","a"]`),
		Entry("a set of integers merged into live's part of the key",
			`{"name":"p","ports":[3,1,2]}`, `,"value":"v"`, unordered+`,"ports":[4,2,5]`),
		Entry("a set the outcome lacks: taken as it stands",
			`{"name":"q"}`, `,"value":"v"`, unordered+`,"aliases":["y","x"]`),
		Entry("a set ordered by $setElementOrder: merged, then ordered by it",
			`{"name":"q"}`, `,"aliases":["a","b","d"]`,
			unordered+`,"$setElementOrder/aliases":["d","c","a"],"aliases":["c","a"]`),
		Entry("a set left out and ordered: the outcome's reordered",
			`{"name":"p","aliases":["a","b","c"]}`, `,"value":"v"`, unordered+`,"$setElementOrder/aliases":["c","a"]`),
		Entry("env merged by name into the first part's",
			`{"name":"q"}`, `,"env":[{"name":"A","value":"1"},{"name":"B"}]`,
			unordered+`,"env":[{"name":"C","value":"3"},{"name":"A","value":"2"}]`),
	)

	DescribeTable("off, every gate, a later item of a repeated key holding nulls in the items of a merged list",
		func(liveItems, first, item string) { applies(pod(), liveItems, "a", first, item) },
		Entry("an env item's null deleting a field of live's item of the key, below a map too",
			`{"name":"a","env":[{"name":"A","value":"1"},{"name":"B","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"x"}}}]}`, `,"tty":true`,
			unordered+`,"env":[{"name":"B","valueFrom":{"fieldRef":{"apiVersion":null}}},{"name":"A","value":null}]`),
		Entry("a port's null deleting a field of the first item's port of the key",
			`{"name":"b"}`, `,"ports":[{"containerPort":80,"name":"http","protocol":"TCP"}]`,
			unordered+`,"ports":[{"containerPort":80,"name":null}]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding nulls, nested merged lists, or a key or value named twice",
		func(liveItems, first, item string) { applies(nested(), liveItems, "p", first, item) },
		Entry("an env item's null deleting a field of live's item of the key",
			`{"name":"p","env":[{"name":"A","value":"1","flags":["y"]}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","value":null}]`),
		Entry("a map's null beside a set it merges",
			`{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`,
			unordered+`,"extra":{"mode":null,"tags":["b","a"]}`),
		Entry("a list the outcome lacks: taken less its nulls",
			`{"name":"q"}`, `,"value":"v"`, unordered+`,"env":[{"name":"B","value":null,"flags":["x"]}]`),
		Entry("an env item's set merged into live's item's set",
			`{"name":"p","env":[{"name":"A","value":"1","flags":["y"]}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","flags":["x","y","z"]}]`),
		Entry("the same where Phase 1 collated the item without error",
			`{"name":"p","env":[{"name":"A","value":"1","flags":["y"]}]}`, `,"value":"v"`, `,"env":[{"name":"A","flags":["x"]}]`),
		Entry("an env item holding a set appended as it stands",
			`{"name":"p","env":[{"name":"A","flags":["y"]}]}`, `,"value":"v"`, unordered+`,"env":[{"name":"D","flags":["q","r"]}]`),
		Entry("a map's set merged into the outcome's",
			`{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`, unordered+`,"extra":{"tags":["b","a"]}`),
		Entry("env naming live's key twice: both merged into live's item in turn",
			`{"name":"p","env":[{"name":"A","value":"1","flags":["y"]},{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","value":"2"},{"name":"A","flags":["q"]}]`),
		Entry("env naming a new key twice: the later merged into the first, its null deleting",
			`{"name":"p","env":[{"name":"A"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"D","flags":["q"],"value":"4"},{"name":"D","value":null,"flags":["r"]}]`),
		Entry("a set naming a value twice merged into the outcome's",
			`{"name":"p","aliases":["a","b"]}`, `,"value":"v"`, unordered+`,"aliases":["c","c","a"]`),
		Entry("an env item's set naming a value twice merged into live's item's",
			`{"name":"p","env":[{"name":"A","flags":["y"]}]}`, `,"value":"v"`, unordered+`,"env":[{"name":"A","flags":["q","y","q"]}]`),
		Entry("env naming a new key twice, the first appended holding a null the later sets",
			`{"name":"p","env":[{"name":"A"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"D","value":null,"flags":["q"]},{"name":"D","value":"5"}]`),
		Entry("env naming a key twice where the outcome lacks it: taken as it stands",
			`{"name":"q"}`, `,"value":"v"`, unordered+`,"env":[{"name":"B","flags":["x"]},{"name":"B","value":"1"}]`),
	)

	DescribeTable("off, every gate, a later item of a repeated key appending an item holding a null (strategicpatch keeps it, the collation drops it: \"What stays different\")",
		func(s func() schemaCase, liveItems, first, item string) {
			appliesCleaned(s(), liveItems, "p", first, item)
		},
		Entry("an env item of a new key holding a null value: appended less it",
			nested, `{"name":"p","env":[{"name":"A","value":"1"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"D","value":null,"flags":["x"]},{"name":"A","value":"2"}]`),
		Entry("an appended env item holding only its key and a null",
			nested, `{"name":"p","env":[{"name":"A"}]}`, `,"value":"v"`, unordered+`,"env":[{"name":"B","value":null}]`),
		Entry("a new key named twice, the first holding a null the later leaves",
			nested, `{"name":"p","env":[{"name":"A"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"D","value":null},{"name":"D","flags":["q"]}]`),
		Entry("appended into the first part's env, merged beside an item of the first's key",
			nested, `{"name":"q"}`, `,"env":[{"name":"A","value":"1"}]`,
			unordered+`,"env":[{"name":"A","value":null},{"name":"C","value":null,"flags":["z"]}]`),
		Entry("an appended item's null beside the part's extra",
			nested, `{"name":"p","extra":{"mode":"m"},"env":[{"name":"A"}]}`, `,"value":"v"`,
			unordered+`,"extra":{"tags":["t"]},"env":[{"name":"E","value":null}]`),
		Entry("an env item of a new key holding a map with a null, in a pod's container",
			pod,
			`{"name":"p","env":[{"name":"A","value":"1"}]}`, `,"tty":true`,
			unordered+`,"env":[{"name":"B","valueFrom":{"fieldRef":{"fieldPath":"x","apiVersion":null}}}]`),
		Entry("a port of a new containerPort holding a null name, in a pod's container",
			pod,
			`{"name":"p","ports":[{"containerPort":80}]}`, `,"tty":true`,
			unordered+`,"ports":[{"containerPort":443,"name":null,"protocol":"TCP"}]`),
	)

	// failsAgainst applies to live the patch of item's first item and a later one of its key: ply fails with the error
	// the items applied one after another give (the collation's), no repeat applied again; strategicpatch fails too, or,
	// with oracleSucceeds, succeeds (it copies unchecked what the collation checks).
	failsAgainst := func(s schemaCase, liveItems, key, first, item string, oracleSucceeds bool) {
		live := jsonv.MustDecode(s.wrap(liveItems))
		p := jsonv.MustDecode(s.wrap(`{"name":"` + key + `"` + first + `},{"name":"` + key + `"` + item + `}`))
		_, werr := strategicMergePatchRecovered(live.JSON(), p.JSON(), s.sp.Meta())
		if oracleSucceeds {
			Expect(werr).NotTo(HaveOccurred())
		} else {
			Expect(werr).To(HaveOccurred())
		}
		_, err := patch.Apply(live, p, s.opts)
		Expect(err).To(HaveOccurred())
		Expect(again.Load()).To(BeZero(), "repeats the front-end applied again")
		step, serr := patch.Apply(live, jsonv.MustDecode(s.wrap(`{"name":"`+key+`"`+first+`}`)), s.opts)
		Expect(serr).NotTo(HaveOccurred())
		_, inTurn := patch.Apply(step, jsonv.MustDecode(s.wrap(`{"name":"`+key+`"`+item+`}`)), s.opts)
		Expect(inTurn).To(HaveOccurred())
		Expect(err.Error()).To(Equal(inTurn.Error()))
	}

	// fails is failsAgainst where strategicpatch fails too.
	fails := func(s schemaCase, liveItems, key, first, item string) {
		failsAgainst(s, liveItems, key, first, item, false)
	}

	DescribeTable("off, every gate, a later part of a repeated key holding a merged list its $setElementOrder orders, naming a key twice or holding a null",
		func(liveItems, first, item string) { applies(nested(), liveItems, "p", first, item) },
		Entry("env and its order naming a key twice, merged into the outcome's env, then ordered",
			`{"name":"p","env":[{"name":"A"},{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/env":[{"name":"C"},{"name":"A"},{"name":"C"}],"env":[{"name":"C"},{"name":"A","value":"1"},{"name":"C","value":"3"}]`),
		Entry("env and its order naming a key twice where the outcome lacks env: both items kept, sorted by the order",
			`{"name":"q"}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/env":[{"name":"C"},{"name":"A"},{"name":"C"}],"env":[{"name":"C"},{"name":"A","value":"1"},{"name":"C","value":"3"}]`),
		Entry("a set and its order naming a value twice, merged into the outcome's",
			`{"name":"p","aliases":["a","b"]}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/aliases":["c","a","c"],"aliases":["c","a","c"]`),
		Entry("a set and its order naming a value twice where the outcome lacks it: kept twice",
			`{"name":"q"}`, `,"value":"v"`, unordered+`,"$setElementOrder/aliases":["c","a","c"],"aliases":["c","a","c"]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding a merged list its $setElementOrder orders where the outcome lacks it, holding a null (strategicpatch keeps it, the collation drops it: \"What stays different\")",
		func(liveItems, first, item string) { appliesCleaned(nested(), liveItems, "p", first, item) },
		Entry("an env item's null: taken less it, sorted by the order",
			`{"name":"q"}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/env":[{"name":"C"},{"name":"A"}],"env":[{"name":"C","value":null},{"name":"A","value":"1"}]`),
		Entry("an appended env item's null onto the outcome's env, ordered",
			`{"name":"p","env":[{"name":"A"},{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/env":[{"name":"C"},{"name":"A"}],"env":[{"name":"C","value":null,"flags":["x"]},{"name":"A","value":"1"}]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding a merged list its $setElementOrder does not order so",
		func(liveItems, first, item string) { fails(nested(), liveItems, "p", first, item) },
		Entry("env naming a key twice, its order once: the order contradicted",
			`{"name":"p","env":[{"name":"A"},{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/env":[{"name":"C"},{"name":"A"}],"env":[{"name":"C"},{"name":"A","value":"1"},{"name":"C","value":"3"}]`),
		Entry("the same where the outcome lacks env",
			`{"name":"q"}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/env":[{"name":"C"},{"name":"A"}],"env":[{"name":"C"},{"name":"A","value":"1"},{"name":"C","value":"3"}]`),
		Entry("env naming a key twice out of its order",
			`{"name":"p","env":[{"name":"A"},{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/env":[{"name":"B"},{"name":"C"},{"name":"A"}],"env":[{"name":"C"},{"name":"C","value":"3"}]`),
		Entry("env out of its order",
			`{"name":"p","env":[{"name":"A"},{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/env":[{"name":"A"},{"name":"C"}],"env":[{"name":"C"},{"name":"A","value":"1"}]`),
		Entry("an env item its order lacks",
			`{"name":"p","env":[{"name":"A"},{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/env":[{"name":"A"}],"env":[{"name":"C"},{"name":"A","value":"1"}]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key onto an outcome whose merged list names a key or a value twice",
		func(s func() schemaCase, liveItems, first, item string) { applies(s(), liveItems, "p", first, item) },
		Entry("env merged into the first item of a key live names twice, a new item before it",
			nested, `{"name":"p","env":[{"name":"A"},{"name":"B"},{"name":"A","value":"x"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"C"},{"name":"A","value":"1"}]`),
		Entry("env merged into an item of a key live names once, beside a key it names twice",
			nested, `{"name":"p","env":[{"name":"A"},{"name":"B"},{"name":"A","value":"x"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"B","value":"1"}]`),
		Entry("env deleting a field of live's first item of a key named twice, appending an item holding a null",
			nested, `{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"},{"name":"A","value":"2"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","value":null},{"name":"E"}]`),
		Entry("a set merged into live's set naming a value twice",
			nested, `{"name":"p","aliases":["a","b","a"]}`, `,"value":"v"`, unordered+`,"aliases":["c","b"]`),
		Entry("a set merged into the first part's set naming a value twice",
			nested, `{"name":"q"}`, `,"aliases":["a","b","a"]`, unordered+`,"aliases":["c","b"]`),
		Entry("env merged into the first part's env naming a key twice",
			nested, `{"name":"q"}`, `,"env":[{"name":"A"},{"name":"A","value":"y"}]`, unordered+`,"env":[{"name":"A","value":"1"}]`),
		Entry("an env item's set merged into live's item's set naming a value twice",
			nested, `{"name":"p","env":[{"name":"A","flags":["x","y","x"]},{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","flags":["z","y"]}]`),
		Entry("env left out and ordered: live's list naming a key twice reordered",
			nested, `{"name":"p","env":[{"name":"A"},{"name":"B"},{"name":"A","value":"x"},{"name":"C"}]}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/env":[{"name":"C"},{"name":"A"}]`),
		Entry("env ordered: merged into live's list naming a key twice, then ordered",
			nested, `{"name":"p","env":[{"name":"A"},{"name":"B"},{"name":"A","value":"x"},{"name":"C"}]}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/env":[{"name":"C"},{"name":"D"},{"name":"A"}],"env":[{"name":"C","value":"c"},{"name":"D"},{"name":"A","value":"1"}]`),
		Entry("a set left out and ordered: live's set naming a value twice reordered",
			nested, `{"name":"p","aliases":["a","b","a","c"]}`, `,"value":"v"`, unordered+`,"$setElementOrder/aliases":["c","a"]`),
		Entry("ports merged into live's ports naming a containerPort twice, in a pod's container",
			pod, `{"name":"p","ports":[{"containerPort":80,"name":"a"},{"containerPort":443},{"containerPort":80,"name":"b"}]}`,
			`,"tty":true`, unordered+`,"ports":[{"containerPort":8080},{"containerPort":80,"protocol":"TCP"}]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding a $setElementOrder in a map the outcome holds",
		func(liveItems, first, item string) { applies(nested(), liveItems, "p", first, item) },
		Entry("an env item's set ordered and merged into live's item's",
			`{"name":"p","env":[{"name":"A","flags":["x","y"]},{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$setElementOrder/flags":["z","y","x"],"flags":["z"]}]`),
		Entry("an env item's set left out and ordered: live's item's reordered",
			`{"name":"p","env":[{"name":"A","flags":["x","y"]},{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$setElementOrder/flags":["y","x"]}]`),
		Entry("a map's set ordered and merged into live's map's, the others by their places",
			`{"name":"p","extra":{"mode":"m","tags":["a","b","c"]}}`, `,"value":"v"`,
			unordered+`,"extra":{"$setElementOrder/tags":["c","d","a"],"tags":["d"]}`),
		Entry("a map's set left out and ordered",
			`{"name":"p","extra":{"mode":"m","tags":["a","b","c"]}}`, `,"value":"v"`,
			unordered+`,"extra":{"$setElementOrder/tags":["c","a"]}`),
		Entry("a map's set ordered where live's map lacks it",
			`{"name":"p","extra":{"mode":"m"}}`, `,"value":"v"`, unordered+`,"extra":{"$setElementOrder/tags":["c","a"],"tags":["c","a"]}`),
		Entry("a new key named twice, the later ordering the set of the first, appended",
			`{"name":"p","env":[{"name":"A"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"D","flags":["x","y"]},{"name":"D","$setElementOrder/flags":["y","z","x"],"flags":["z"]}]`),
		Entry("a new key named twice, the later ordering a set the first lacks",
			`{"name":"p","env":[{"name":"A"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"D","value":"1"},{"name":"D","$setElementOrder/flags":["y","x"],"flags":["y","x"]}]`),
		Entry("an env item's set ordered and merged into the first part's item",
			`{"name":"q"}`, `,"env":[{"name":"A","flags":["x","y"]}]`,
			unordered+`,"env":[{"name":"A","$setElementOrder/flags":["y","q","x"],"flags":["q"]}]`),
	)

	DescribeTable("off, every gate, a later item of a repeated key holding $retainKeys or $deleteFromPrimitiveList/<f> onto an outcome holding the map",
		func(s func() schemaCase, liveItems, first, item string) { applies(s(), liveItems, "p", first, item) },
		Entry("a map's $retainKeys clearing the outcome's fields it does not name, its set merged",
			nested, `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`,
			unordered+`,"extra":{"$retainKeys":["tags"],"tags":["b"]}`),
		Entry("a map's $retainKeys beside a null deleting a field it names",
			nested, `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`,
			unordered+`,"extra":{"$retainKeys":["tags","mode"],"mode":null}`),
		Entry("the item's own $retainKeys clearing the first item's fields",
			nested, `{"name":"p","value":"x"}`, `,"aliases":["z"]`, unordered+`,"$retainKeys":["name","args"]`),
		Entry("the item's $retainKeys and a map's of it",
			nested, `{"name":"p","value":"x","extra":{"mode":"m"}}`, `,"aliases":["z"]`,
			unordered+`,"$retainKeys":["name","args","extra"],"extra":{"$retainKeys":["tags"],"tags":["q"]}`),
		Entry("a map's $deleteFromPrimitiveList/<f> of a set naming a value twice",
			nested, `{"name":"p","extra":{"mode":"m","tags":["a","b","a"]}}`, `,"value":"v"`,
			unordered+`,"extra":{"$deleteFromPrimitiveList/tags":["a","z"]}`),
		Entry("a map's $deleteFromPrimitiveList/<f> where the outcome's map lacks the list: absent",
			nested, `{"name":"p","extra":{"mode":"m"}}`, `,"value":"v"`, unordered+`,"extra":{"$deleteFromPrimitiveList/tags":["a"]}`),
		Entry("a map's $deleteFromPrimitiveList/<f> where the outcome holds a scalar there: kept",
			nested, `{"name":"p","extra":{"mode":"m","tags":"x"}}`, `,"value":"v"`, unordered+`,"extra":{"$deleteFromPrimitiveList/tags":["a"]}`),
		Entry("a map's empty $deleteFromPrimitiveList/<f>",
			nested, `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`,
			unordered+`,"extra":{"$deleteFromPrimitiveList/tags":[]}`),
		Entry("a map's $retainKeys clearing the list its $deleteFromPrimitiveList/<f> names",
			nested, `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`,
			unordered+`,"extra":{"$retainKeys":["mode"],"$deleteFromPrimitiveList/tags":["a"]}`),
		Entry("a map's $retainKeys naming the list it deletes from",
			nested, `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`,
			unordered+`,"extra":{"$retainKeys":["tags"],"$deleteFromPrimitiveList/tags":["a"]}`),
		Entry("the item's own $deleteFromPrimitiveList/<f> of a set of integers the first item set",
			nested, `{"name":"p"}`, `,"ports":[1,2,3]`, unordered+`,"$deleteFromPrimitiveList/ports":[2]`),
		Entry("an env item's $retainKeys and $deleteFromPrimitiveList/<f> merged into live's item",
			nested, `{"name":"p","env":[{"name":"A","value":"1","flags":["x","y"]}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$retainKeys":["name","flags"],"$deleteFromPrimitiveList/flags":["x"]}]`),
		Entry("a container's resources' $retainKeys, in a pod",
			pod, `{"name":"p","resources":{"limits":{"cpu":"1"},"requests":{"cpu":"1"}}}`, `,"tty":true`,
			unordered+`,"resources":{"$retainKeys":["limits"],"limits":{"memory":"1Gi"}}`),
		Entry("a container's $deleteFromPrimitiveList/command, in a pod",
			pod, `{"name":"p","command":["x","y"]}`, `,"tty":true`, unordered+`,"$deleteFromPrimitiveList/command":["x"]`),
	)

	DescribeTable("off, every gate, a later item of a repeated key setting a scalar, a map or a list where the outcome holds another kind",
		func(s func() schemaCase, liveItems, first, item string) { applies(s(), liveItems, "p", first, item) },
		Entry("a scalar over the outcome's map", nested, `{"name":"p","value":{"x":1}}`, `,"aliases":["z"]`, unordered+`,"value":"v"`),
		Entry("a scalar over the outcome's list", nested, `{"name":"p","value":["x"]}`, `,"aliases":["z"]`, unordered+`,"value":"v"`),
		Entry("a scalar over the outcome's null", nested, `{"name":"p","value":null}`, `,"aliases":["z"]`, unordered+`,"value":"v"`),
		Entry("a map over the outcome's scalar: taken less its nulls",
			nested, `{"name":"p","extra":"s"}`, `,"aliases":["z"]`, unordered+`,"extra":{"mode":"m","tags":null}`),
		Entry("a map over the outcome's list", nested, `{"name":"p","extra":["s"]}`, `,"aliases":["z"]`, unordered+`,"extra":{"mode":"m"}`),
		Entry("a map over the first item's scalar", nested, `{"name":"p"}`, `,"extra":"s"`, unordered+`,"extra":{"mode":"m"}`),
		Entry("a set over the outcome's map", nested, `{"name":"p","aliases":{"x":1}}`, `,"value":"v"`, unordered+`,"aliases":["a"]`),
		Entry("a set over the outcome's scalar", nested, `{"name":"p","aliases":"s"}`, `,"value":"v"`, unordered+`,"aliases":["a"]`),
		Entry("a keyed list over the outcome's map: taken less its nulls",
			nested, `{"name":"p","env":{"x":1}}`, `,"value":"v"`, unordered+`,"env":[{"name":"A","value":null}]`),
		Entry("a keyed list naming a key twice over the outcome's null",
			nested, `{"name":"p","env":null}`, `,"value":"v"`, unordered+`,"env":[{"name":"A","value":null},{"name":"A","value":"2"}]`),
		Entry("an env item's scalar over its map in live's item",
			nested, `{"name":"p","env":[{"name":"A","value":{"q":1}}]}`, `,"value":"v"`, unordered+`,"env":[{"name":"A","value":"1"}]`),
		Entry("an env item's set over its scalar in live's item",
			nested, `{"name":"p","env":[{"name":"A","flags":"s"}]}`, `,"value":"v"`, unordered+`,"env":[{"name":"A","flags":["x"]}]`),
		Entry("a map's set over the outcome's map there",
			nested, `{"name":"p","extra":{"tags":{"a":1}}}`, `,"value":"v"`, unordered+`,"extra":{"tags":["x"]}`),
		Entry("a map's scalar over the outcome's list there",
			nested, `{"name":"p","extra":{"mode":["a"]}}`, `,"value":"v"`, unordered+`,"extra":{"mode":"m"}`),
		Entry("a container's command, merged by no strategy, over a map, in a pod",
			pod, `{"name":"p","command":{"x":1}}`, `,"stdin":true`, unordered+`,"command":["q"]`),
		Entry("a container's tty over a map, in a pod", pod, `{"name":"p","tty":{"x":1}}`, `,"stdin":true`, unordered+`,"tty":true`),
		Entry("a container's resources over a scalar, in a pod",
			pod, `{"name":"p","resources":"s"}`, `,"stdin":true`, unordered+`,"resources":{"limits":{"cpu":"1"}}`),
		Entry("a container's ports over a map, in a pod",
			pod, `{"name":"p","ports":{"a":1}}`, `,"stdin":true`, unordered+`,"ports":[{"containerPort":80,"name":null}]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding a set of numbers with a fraction, or an empty $setElementOrder",
		func(liveItems, first, item string) { applies(nested(), liveItems, "p", first, item) },
		Entry("a set of decimals merged into live's set naming a value twice",
			`{"name":"p","ports":[1.5,2.5,1.5]}`, `,"value":"v"`, unordered+`,"ports":[3.5,2.5]`),
		Entry("a set of decimals merged into the first part's",
			`{"name":"p"}`, `,"ports":[1.5,2.5]`, unordered+`,"ports":[3.5,1.5]`),
		Entry("a set of decimals ordered by $setElementOrder",
			`{"name":"p","ports":[1.5,2.5]}`, `,"value":"v"`, unordered+`,"$setElementOrder/ports":[2.5,3.5,1.5],"ports":[3.5]`),
		Entry("a $deleteFromPrimitiveList/<f> of decimals",
			`{"name":"p","ports":[1.5,2.5]}`, `,"value":"v"`, unordered+`,"$deleteFromPrimitiveList/ports":[1.5]`),
		Entry("a set merged and sorted by the outcome's places under an empty $setElementOrder",
			`{"name":"p","aliases":["a","b"]}`, `,"value":"v"`, unordered+`,"$setElementOrder/aliases":[],"aliases":["c","b","d","a"]`),
		Entry("a set left out under an empty $setElementOrder: the outcome's naming a value twice, sorted",
			`{"name":"p","aliases":["a","b","a"]}`, `,"value":"v"`, unordered+`,"$setElementOrder/aliases":[]`),
		Entry("a set under an empty $setElementOrder where the outcome lacks it",
			`{"name":"p"}`, `,"value":"v"`, unordered+`,"$setElementOrder/aliases":[],"aliases":["c","a","b","e","d"]`),
		Entry("an empty $setElementOrder alone where the outcome lacks the list",
			`{"name":"p"}`, `,"value":"v"`, unordered+`,"$setElementOrder/aliases":[]`),
		Entry("a keyed list merged and sorted under an empty $setElementOrder",
			`{"name":"p","env":[{"name":"A"},{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/env":[],"env":[{"name":"C"},{"name":"B","value":"1"},{"name":"D"}]`),
		Entry("a keyed list under an empty $setElementOrder where the outcome lacks it",
			`{"name":"p"}`, `,"value":"v"`, unordered+`,"$setElementOrder/env":[],"env":[{"name":"C"},{"name":"B","value":"1"},{"name":"D"}]`),
		Entry("an env item's set under an empty $setElementOrder, merged into live's item's",
			`{"name":"p","env":[{"name":"A","flags":["x"]}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$setElementOrder/flags":[],"flags":["y"]}]`),
		Entry("a map's set under an empty $setElementOrder",
			`{"name":"p","extra":{"tags":["x","y"]}}`, `,"value":"v"`, unordered+`,"extra":{"$setElementOrder/tags":[],"tags":["z","y"]}`),
		Entry("a map's set left out under an empty $setElementOrder",
			`{"name":"p","extra":{"tags":["x"]}}`, `,"value":"v"`, unordered+`,"extra":{"$setElementOrder/tags":[]}`),
	)

	DescribeTable("off, every gate, a later item of a repeated key holding a keyed list with \"$patch\" items",
		func(s func() schemaCase, liveItems, first, item string) { applies(s(), liveItems, "p", first, item) },
		Entry("a delete item removing live's item of its key",
			nested, `{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"}]}`, `,"value":"v"`, unordered+`,"env":[{"name":"A","$patch":"delete"}]`),
		Entry("a delete item removing every item of a key live names twice, a new item appended",
			nested, `{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"},{"name":"A","value":"2"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"C"},{"name":"A","$patch":"delete"}]`),
		Entry("a delete item of a key a data item before it names: the data item appended after live's is removed",
			nested, `{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","value":"3"},{"name":"A","$patch":"delete"}]`),
		Entry("a delete item, then data items of its key and a new key",
			nested, `{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"C","value":"1"},{"name":"A","$patch":"delete"},{"name":"A","value":"2"}]`),
		Entry("a delete item of a key the outcome lacks, its other fields ignored, beside a data item",
			nested, `{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"Z","$patch":"delete","value":"x"},{"name":"B","value":"3"}]`),
		Entry("a delete item removing an item of the first part's env",
			nested, `{"name":"q"}`, `,"env":[{"name":"A","value":"1"},{"name":"B"}]`, unordered+`,"env":[{"name":"B","$patch":"delete"}]`),
		Entry("a delete item where the outcome lacks env: dropped, the data items taken",
			nested, `{"name":"q"}`, `,"value":"v"`, unordered+`,"env":[{"name":"C","$patch":"delete"},{"name":"D"}]`),
		Entry("delete items alone where the outcome lacks env: an empty list",
			nested, `{"name":"q"}`, `,"value":"v"`, unordered+`,"env":[{"name":"C","$patch":"delete"}]`),
		Entry("a delete item over the outcome's map there: dropped, the data items taken",
			nested, `{"name":"p","env":{"x":1}}`, `,"value":"v"`, unordered+`,"env":[{"name":"C","$patch":"delete"},{"name":"D"}]`),
		Entry("a delete item removing live's only item: an empty list",
			nested, `{"name":"p","env":[{"name":"A"}]}`, `,"value":"v"`, unordered+`,"env":[{"name":"A","$patch":"delete"}]`),
		Entry("a replace item: the list the data items",
			nested, `{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"C","value":"1"},{"name":"D","flags":["y","x"]},{"$patch":"replace"}]`),
		Entry("a replace item beside a delete item and data naming a key twice: each later item after its key's first",
			nested, `{"name":"p","env":[{"name":"A","value":"1"},{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"C","value":"1"},{"name":"D"},{"name":"A","$patch":"delete"},{"name":"C","value":"2"},{"$patch":"replace"}]`),
		Entry("a replace item alone: an empty list",
			nested, `{"name":"p","env":[{"name":"A","value":"1"}]}`, `,"value":"v"`, unordered+`,"env":[{"name":"C","$patch":"replace"}]`),
		Entry("a replace item where the outcome lacks env: dropped, the data items taken",
			nested, `{"name":"q"}`, `,"value":"v"`, unordered+`,"env":[{"$patch":"replace"},{"name":"D","value":"1"}]`),
		Entry("a container's port deleted, in a pod",
			pod, `{"name":"p","ports":[{"containerPort":80},{"containerPort":443}]}`, `,"tty":true`,
			unordered+`,"ports":[{"containerPort":80,"$patch":"delete"},{"containerPort":8080}]`),
	)

	DescribeTable("off, every gate, a later item of a repeated key holding an empty set where the outcome's names a value twice",
		func(liveItems, first, item string) { applies(nested(), liveItems, "p", first, item) },
		Entry("live's set deduplicated in place, a later copy moving the last value forward",
			`{"name":"p","aliases":["a","a","b","c"]}`, `,"value":"v"`, unordered+`,"aliases":[]`),
		Entry("live's set naming values three times",
			`{"name":"p","aliases":["a","b","a","b","c","a"]}`, `,"value":"v"`, unordered+`,"aliases":[]`),
		Entry("the first part's set",
			`{"name":"p"}`, `,"aliases":["a","a","b","c"]`, unordered+`,"aliases":[]`),
		Entry("an env item's empty set onto live's item's",
			`{"name":"p","env":[{"name":"A","flags":["x","x","y","z"]}]}`, `,"value":"v"`, unordered+`,"env":[{"name":"A","flags":[]}]`),
		Entry("a map's empty set onto live's map's",
			`{"name":"p","extra":{"tags":["a","a","b","c"]}}`, `,"value":"v"`, unordered+`,"extra":{"tags":[]}`),
		Entry("a set of integers",
			`{"name":"p","ports":[3,3,1,2]}`, `,"value":"v"`, unordered+`,"ports":[]`),
		Entry("beside its order: ranked by live's set as deduplicated in place",
			`{"name":"p","aliases":["a","a","b","c"]}`, `,"value":"v"`, unordered+`,"$setElementOrder/aliases":["c","a"],"aliases":[]`),
		Entry("beside its order naming a value neither holds",
			`{"name":"p","aliases":["a","b","a","b","c","a"]}`, `,"value":"v"`, unordered+`,"$setElementOrder/aliases":["b","x"],"aliases":[]`),
		Entry("a map's, beside its order",
			`{"name":"p","extra":{"tags":["a","a","b","c"]}}`, `,"value":"v"`, unordered+`,"extra":{"$setElementOrder/tags":["b","a"],"tags":[]}`),
		Entry("an env item's, beside its order",
			`{"name":"p","env":[{"name":"A","flags":["x","x","y","z"]}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$setElementOrder/flags":["z","x"],"flags":[]}]`),
		Entry("the first part's, beside its order",
			`{"name":"p"}`, `,"aliases":["a","a","b","c"]`, unordered+`,"$setElementOrder/aliases":["c","b"],"aliases":[]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding integral decimals among integers (strategicpatch's int64s)",
		func(liveItems, first, item string) { applies(nested(), liveItems, "p", first, item) },
		Entry("an integral decimal merged into live's integers", `{"name":"p","ports":[1,2]}`, `,"value":"v"`, unordered+`,"ports":[3.0]`),
		Entry("integral decimals merged into live's, a value named in both",
			`{"name":"p","ports":[1.0,2.0]}`, `,"value":"v"`, unordered+`,"ports":[3.0,1.0]`),
		Entry("an exponent", `{"name":"p","ports":[1,2]}`, `,"value":"v"`, unordered+`,"ports":[1e2,2]`),
		Entry("a $deleteFromPrimitiveList/<f> of an integral decimal",
			`{"name":"p","ports":[1,2,3]}`, `,"value":"v"`, unordered+`,"$deleteFromPrimitiveList/ports":[2.0]`),
		Entry("the first part's integral decimals", `{"name":"p"}`, `,"ports":[1.0,2]`, unordered+`,"ports":[4,2.0]`),
		Entry("integral decimals ordered by $setElementOrder naming one so",
			`{"name":"p","ports":[1,2]}`, `,"value":"v"`, unordered+`,"$setElementOrder/ports":[2.0,3,1],"ports":[3.0]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key ordering a merged list neither it nor the outcome holds items of",
		func(liveItems, first, item string) { fails(nested(), liveItems, "p", first, item) },
		Entry("an empty set under an empty order onto an empty one",
			`{"name":"p","aliases":[]}`, `,"value":"v"`, unordered+`,"$setElementOrder/aliases":[],"aliases":[]`),
		Entry("an empty order alone onto an empty set",
			`{"name":"p","aliases":[]}`, `,"value":"v"`, unordered+`,"$setElementOrder/aliases":[]`),
		Entry("an empty set under an empty order where the outcome lacks it",
			`{"name":"p"}`, `,"value":"v"`, unordered+`,"$setElementOrder/aliases":[],"aliases":[]`),
		Entry("an empty keyed list under an empty order onto an empty one",
			`{"name":"p","env":[]}`, `,"value":"v"`, unordered+`,"$setElementOrder/env":[],"env":[]`),
		Entry("an empty set under an order naming values where the outcome lacks it",
			`{"name":"p"}`, `,"value":"v"`, unordered+`,"$setElementOrder/aliases":["a"],"aliases":[]`),
		Entry("an empty set under an order naming values onto an empty one, beside a scalar",
			`{"name":"p","aliases":[]}`, `,"value":"v"`, unordered+`,"$setElementOrder/aliases":["a","b"],"aliases":[],"value":"x"`),
		Entry("the first part's empty set",
			`{"name":"p"}`, `,"aliases":[]`, unordered+`,"$setElementOrder/aliases":[],"aliases":[]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding \"$\" keys the collation drops (strategicpatch copies them: \"What stays different\")",
		func(liveItems, first, item string) { appliesDropped(nested(), liveItems, "p", first, item) },
		Entry("an unknown \"$\" key in an appended env item",
			`{"name":"p","env":[{"name":"A"}]}`, `,"value":"v"`, unordered+`,"env":[{"name":"C","$foo":1,"value":"x"}]`),
		Entry("an unknown \"$\" key in an env item merged into live's item",
			`{"name":"p","env":[{"name":"A","value":"1"}]}`, `,"value":"v"`, unordered+`,"env":[{"name":"A","$foo":"y","flags":["x"]}]`),
		Entry("an unknown \"$\" key in an env list the outcome lacks",
			`{"name":"q"}`, `,"value":"v"`, unordered+`,"env":[{"name":"C","$foo":"y","value":"x"}]`),
		Entry("an unknown \"$\" key in a map the outcome holds",
			`{"name":"p","extra":{"mode":"x"}}`, `,"value":"v"`, unordered+`,"extra":{"$foo":1,"mode":"m"}`),
		Entry("an unknown \"$\" key in a map the outcome lacks",
			`{"name":"q"}`, `,"value":"v"`, unordered+`,"extra":{"$foo":1,"mode":"m"}`),
		Entry("an unknown \"$\" key in the item's own map",
			`{"name":"p","extra":{"mode":"x"}}`, `,"value":"v"`, unordered+`,"$foo":1,"value":"w"`),
		Entry("a $retainKeys naming every field in an appended env item",
			`{"name":"p","env":[{"name":"A"}]}`, `,"value":"v"`, unordered+`,"env":[{"name":"C","$retainKeys":["name","value"],"value":"x"}]`),
		Entry("a $retainKeys in an env list the outcome lacks",
			`{"name":"q"}`, `,"value":"v"`, unordered+`,"env":[{"name":"C","$retainKeys":["name","value"],"value":"x"}]`),
		Entry("a $retainKeys in a map the outcome lacks",
			`{"name":"q"}`, `,"value":"v"`, unordered+`,"extra":{"$retainKeys":["mode"],"mode":"m"}`),
		Entry("a $deleteFromPrimitiveList/<f> alone in an appended env item",
			`{"name":"p","env":[{"name":"A"}]}`, `,"value":"v"`, unordered+`,"env":[{"name":"C","$deleteFromPrimitiveList/flags":["x"]}]`),
		Entry("a $deleteFromPrimitiveList/<f> alone in a map the outcome lacks: the map taken empty",
			`{"name":"q"}`, `,"value":"v"`, unordered+`,"extra":{"$deleteFromPrimitiveList/tags":["a"]}`),
		Entry("a $setElementOrder/<f> its set follows in an env list the outcome lacks",
			`{"name":"q"}`, `,"value":"v"`, unordered+`,"env":[{"name":"C","$setElementOrder/flags":["y","x"],"flags":["y","x"]}]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding a \"$patch\" map where the outcome lacks the field",
		func(liveItems, first, item string) { applies(nested(), liveItems, "p", first, item) },
		Entry("a replace map: dropped", `{"name":"q"}`, `,"value":"v"`, unordered+`,"extra":{"$patch":"replace","mode":"m"}`),
		Entry("a delete map: dropped", `{"name":"q"}`, `,"value":"v"`, unordered+`,"extra":{"$patch":"delete"}`),
		Entry("a replace map over the outcome's scalar: the field deleted",
			`{"name":"p","extra":"s"}`, `,"value":"v"`, unordered+`,"extra":{"$patch":"replace","mode":"m"}`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding a $retainKeys strategicpatch and the collation refuse",
		func(liveItems, first, item string) { fails(nested(), liveItems, "p", first, item) },
		Entry("the item's own, not naming a field it sets",
			`{"name":"p","value":"x"}`, `,"value":"v"`, `,"$retainKeys":["name"],"value":"y"`),
		Entry("the item's own, not a list", `{"name":"p","value":"x"}`, `,"value":"v"`, `,"$retainKeys":"name","value":"y"`),
		Entry("the item's own, naming a field by an integer", `{"name":"p","value":"x"}`, `,"value":"v"`, `,"$retainKeys":[1,"name"],"value":"y"`),
		Entry("the item's own, beside an order refused for what the outcome decides",
			`{"name":"p","value":"x"}`, `,"value":"v"`, unordered+`,"$retainKeys":["name","value"],"value":"y"`),
		Entry("a map's, not naming a field it sets, where the outcome holds the map",
			`{"name":"p","extra":{"mode":"m"}}`, `,"value":"v"`, unordered+`,"extra":{"$retainKeys":["tags"],"mode":"y"}`),
		Entry("a map's, not a list, where the outcome holds the map",
			`{"name":"p","extra":{"mode":"m"}}`, `,"value":"v"`, unordered+`,"extra":{"$retainKeys":"tags","mode":"y"}`),
		Entry("a map's, naming a field by an integer, where the outcome holds the map",
			`{"name":"p","extra":{"mode":"m"}}`, `,"value":"v"`, unordered+`,"extra":{"$retainKeys":[1],"mode":"y"}`),
		Entry("a map's, beside a set the item merges",
			`{"name":"p","extra":{"mode":"m"},"aliases":["a"]}`, `,"value":"v"`, unordered+`,"aliases":["b"],"extra":{"$retainKeys":["tags"],"mode":"y"}`),
		Entry("a map's, where the first part set the map",
			`{"name":"p"}`, `,"extra":{"mode":"m"}`, unordered+`,"extra":{"$retainKeys":["tags"],"mode":"y","tags":["t"]}`),
	)

	DescribeTable("off, every gate, a later part of a repeated key ordering a merged list in a map the outcome holds that neither holds items of",
		func(liveItems, first, item string) { fails(nested(), liveItems, "p", first, item) },
		Entry("an empty set under an empty order onto the map's empty set",
			`{"name":"p","extra":{"mode":"m","tags":[]}}`, `,"value":"v"`, unordered+`,"extra":{"$setElementOrder/tags":[],"tags":[]}`),
		Entry("an empty set under an order naming values, the outcome's map lacking it",
			`{"name":"p","extra":{"mode":"m"}}`, `,"value":"v"`, unordered+`,"extra":{"$setElementOrder/tags":["b","a"],"tags":[]}`),
		Entry("an order alone onto the map's empty set",
			`{"name":"p","extra":{"tags":[]}}`, `,"value":"v"`, unordered+`,"extra":{"$setElementOrder/tags":["b","a"]}`),
		Entry("beside a scalar the map sets",
			`{"name":"p","extra":{"mode":"m","tags":[]}}`, `,"value":"v"`, unordered+`,"extra":{"$setElementOrder/tags":[],"mode":"y","tags":[]}`),
		Entry("beside a $retainKeys naming the list",
			`{"name":"p","extra":{"mode":"m","tags":[]}}`, `,"value":"v"`, unordered+`,"extra":{"$retainKeys":["tags"],"$setElementOrder/tags":[],"tags":[]}`),
		Entry("where the first part set the map",
			`{"name":"p"}`, `,"extra":{"mode":"m"}`, unordered+`,"extra":{"$setElementOrder/tags":["a"],"tags":[]}`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding a set naming a value twice that its $setElementOrder contradicts, onto the outcome's set",
		func(liveItems, first, item string) { fails(nested(), liveItems, "p", first, item) },
		Entry("a value named twice, once in the order", `{"name":"p","aliases":["x"]}`, `,"value":"v"`, `,"$setElementOrder/aliases":["a"],"aliases":["a","a"]`),
		Entry("out of the order", `{"name":"p","aliases":["x"]}`, `,"value":"v"`, `,"$setElementOrder/aliases":["b","a"],"aliases":["a","b","a"]`),
		Entry("a later copy after a value the order names after it",
			`{"name":"p","aliases":["x","a"]}`, `,"value":"v"`, `,"$setElementOrder/aliases":["a","b"],"aliases":["a","b","a"]`),
		Entry("beside a later field", `{"name":"p","aliases":["x"],"args":["q"]}`, `,"value":"v"`,
			`,"$setElementOrder/aliases":["a"],"aliases":["a","a"],"args":["z"]`),
		Entry("where the first part set the set", `{"name":"p"}`, `,"aliases":["x"]`, `,"$setElementOrder/aliases":["a"],"aliases":["a","a"]`),
		Entry("a set of integers", `{"name":"p","ports":[1]}`, `,"value":"v"`, `,"$setElementOrder/ports":[2],"ports":[2,2]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding two fields strategicpatch fails on: the collation's error at the first by name",
		func(liveItems, first, item string) { fails(nested(), liveItems, "p", first, item) },
		Entry("two sets ordered without items",
			`{"name":"p","aliases":[],"ports":[]}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/aliases":[],"aliases":[],"$setElementOrder/ports":[],"ports":[]`),
		Entry("a set ordered without items before a keyed list out of its order",
			`{"name":"p","aliases":[],"env":[{"name":"A"}]}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/aliases":[],"aliases":[],"$setElementOrder/env":[{"name":"A"},{"name":"C"}],"env":[{"name":"C"},{"name":"A"}]`),
		Entry("a keyed list out of its order before a set ordered without items",
			`{"name":"p","env":[{"name":"A"}],"ports":[]}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/env":[{"name":"A"},{"name":"C"}],"env":[{"name":"C"},{"name":"A"}],"$setElementOrder/ports":[],"ports":[]`),
		Entry("a map's refused $retainKeys before a set ordered without items",
			`{"name":"p","extra":{"mode":"m"},"ports":[]}`, `,"value":"v"`,
			unordered+`,"extra":{"$retainKeys":["tags"],"mode":"y"},"$setElementOrder/ports":[],"ports":[]`),
		Entry("a keyed list out of its order before a map's list ordered without items",
			`{"name":"p","env":[{"name":"A"}],"extra":{"mode":"m","tags":[]}}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/env":[{"name":"A"},{"name":"C"}],"env":[{"name":"C"},{"name":"A"}],"extra":{"$setElementOrder/tags":[],"tags":[]}`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding a set beside a $deleteFromPrimitiveList/<f> of values it lacks",
		func(liveItems, first, item string) { applies(nested(), liveItems, "p", first, item) },
		Entry("merged into live's set, less the values deleted",
			`{"name":"p","aliases":["a","b","c"]}`, `,"value":"v"`, unordered+`,"$deleteFromPrimitiveList/aliases":["b"],"aliases":["d","a"]`),
		Entry("a value deleted that neither holds",
			`{"name":"p","aliases":["a","b","c"]}`, `,"value":"v"`, unordered+`,"$deleteFromPrimitiveList/aliases":["b","z"],"aliases":["c","d"]`),
		Entry("where the outcome lacks the set: the patch's",
			`{"name":"p"}`, `,"value":"v"`, unordered+`,"$deleteFromPrimitiveList/aliases":["b"],"aliases":["c","d"]`),
		Entry("an empty set", `{"name":"p","aliases":["a","b","c"]}`, `,"value":"v"`, unordered+`,"$deleteFromPrimitiveList/aliases":["b"],"aliases":[]`),
		Entry("over the outcome's scalar: the patch's",
			`{"name":"p","aliases":"s"}`, `,"value":"v"`, unordered+`,"$deleteFromPrimitiveList/aliases":["b"],"aliases":["c","d"]`),
		Entry("a set of integers", `{"name":"p","ports":[1,2,3]}`, `,"value":"v"`, unordered+`,"$deleteFromPrimitiveList/ports":[2],"ports":[4,1]`),
		Entry("a map's, where the outcome holds the map",
			`{"name":"p","extra":{"tags":["a","b","c"]}}`, `,"value":"v"`, unordered+`,"extra":{"$deleteFromPrimitiveList/tags":["a"],"tags":["d","c"]}`),
		Entry("where the first part set the set",
			`{"name":"p"}`, `,"aliases":["a","b"]`, unordered+`,"$deleteFromPrimitiveList/aliases":["a"],"aliases":["c"]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding a \"$patch: replace\" map where the outcome holds a map",
		func(liveItems, first, item string) { applies(nested(), liveItems, "p", first, item) },
		Entry("the map taken as it stands, less the directive",
			`{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`, unordered+`,"extra":{"$patch":"replace","mode":"y"}`),
		Entry("its set naming a value twice kept so",
			`{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`, unordered+`,"extra":{"$patch":"replace","tags":["b","b"]}`),
		Entry("where the first part set the map",
			`{"name":"p"}`, `,"extra":{"mode":"m"}`, unordered+`,"extra":{"$patch":"replace","tags":["z"]}`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding a \"$patch: delete\" map where the outcome holds a map",
		func(liveItems, first, item string) { applies(nested(), liveItems, "p", first, item) },
		Entry("the map emptied", `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`, unordered+`,"extra":{"$patch":"delete"}`),
		Entry("beside other fields it deletes too", `{"name":"p","extra":{"mode":"m"}}`, `,"value":"v"`, unordered+`,"extra":{"$patch":"delete","mode":"y"}`),
		Entry("where the first part set the map", `{"name":"p"}`, `,"extra":{"mode":"m"}`, unordered+`,"extra":{"$patch":"delete"}`),
		Entry("without the refused order", `{"name":"p","extra":{"mode":"m"}}`, `,"value":"v"`, `,"extra":{"$patch":"delete"}`),
	)

	DescribeTable("gate PatchDeleteRemovesMap on, a later part of a repeated key holding a \"$patch: delete\" map where the outcome holds a map: the field removed",
		func(liveItems, first, item string) {
			s := nested()
			s.opts.Gates = s.opts.Gates.With(features.PatchDeleteRemovesMap, true)
			live := jsonv.MustDecode(s.wrap(liveItems))
			got, err := patch.Apply(live, jsonv.MustDecode(s.wrap(`{"name":"p"`+first+`},{"name":"p"`+item+`}`)), s.opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(again.Load()).To(BeZero(), "repeats the front-end applied again")
			step, err := patch.Apply(live, jsonv.MustDecode(s.wrap(`{"name":"p"`+first+`}`)), s.opts)
			Expect(err).NotTo(HaveOccurred())
			inTurn, err := patch.Apply(step, jsonv.MustDecode(s.wrap(`{"name":"p"`+item+`}`)), s.opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(equalValue(inTurn))
			Expect(got).To(equalValue(jsonv.MustDecode(`{"groups":[{"name":"g","parts":[{"name":"p","value":"v","args":["a","c"]}]}]}`)))
		},
		Entry("live's map", `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`, unordered+`,"extra":{"$patch":"delete","mode":"y"}`),
		Entry("the first part's map", `{"name":"p"}`, `,"value":"v","extra":{"mode":"m"}`, unordered+`,"extra":{"$patch":"delete"}`),
	)

	// appliesWanting applies the patch as applies does, where strategicpatch copies a "$" key into content the outcome
	// lacks that the collation applies (docs/strategicpatch.md, "What stays different"): the result is want (the
	// outcome's part), the items applied one after another, no repeat applied again by the front-end.
	appliesWanting := func(s schemaCase, liveItems, first, item, want string) {
		live := jsonv.MustDecode(s.wrap(liveItems))
		got, err := patch.Apply(live, jsonv.MustDecode(s.wrap(`{"name":"p"`+first+`},{"name":"p"`+item+`}`)), s.opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(again.Load()).To(BeZero(), "repeats the front-end applied again")
		step, err := patch.Apply(live, jsonv.MustDecode(s.wrap(`{"name":"p"`+first+`}`)), s.opts)
		Expect(err).NotTo(HaveOccurred())
		inTurn, err := patch.Apply(step, jsonv.MustDecode(s.wrap(`{"name":"p"`+item+`}`)), s.opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(equalValue(inTurn))
		Expect(got).To(equalValue(jsonv.MustDecode(s.wrap(want))))
	}

	DescribeTable("off, every gate, a later part of a repeated key holding a $deleteFromPrimitiveList/<f> beside its list in a map the outcome lacks (strategicpatch copies it, the collation deletes: \"What stays different\")",
		func(liveItems, first, item, want string) { appliesWanting(nested(), liveItems, first, item, want) },
		Entry("the values deleted from the map's set", `{"name":"p","value":"x"}`, `,"value":"v"`,
			unordered+`,"extra":{"$deleteFromPrimitiveList/tags":["a"],"tags":["b","a","c"]}`,
			`{"name":"p","value":"v","args":["a","c"],"extra":{"tags":["b","c"]}}`),
		Entry("beside a scalar", `{"name":"p","value":"x"}`, `,"value":"v"`,
			unordered+`,"extra":{"$deleteFromPrimitiveList/tags":["z"],"mode":"m","tags":["b"]}`,
			`{"name":"p","value":"v","args":["a","c"],"extra":{"mode":"m","tags":["b"]}}`),
		Entry("without the refused order", `{"name":"p","value":"x"}`, `,"value":"v"`,
			`,"extra":{"$deleteFromPrimitiveList/tags":["a"],"tags":["a","b"]}`,
			`{"name":"p","value":"v","extra":{"tags":["b"]}}`),
		Entry("an appended env item's set", `{"name":"p","env":[{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$deleteFromPrimitiveList/flags":["a"],"flags":["a","b"]}]`,
			`{"name":"p","value":"v","args":["a","c"],"env":[{"name":"A","flags":["b"]},{"name":"B"}]}`),
		Entry("an env item's set, in an env list the outcome lacks", `{"name":"p","value":"x"}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$deleteFromPrimitiveList/flags":["a"],"flags":["a","b"]}]`,
			`{"name":"p","value":"v","args":["a","c"],"env":[{"name":"A","flags":["b"]}]}`),
	)

	// failsCollated is fails where strategicpatch copies the item's map the outcome lacks unchecked, which the collation
	// checks (docs/strategicpatch.md, "What stays different": class oracle-copies-unchecked): strategicpatch succeeds.
	failsCollated := func(s schemaCase, liveItems, first, item string) { failsAgainst(s, liveItems, "p", first, item, true) }

	DescribeTable("off, every gate, a later part of a repeated key holding a set naming a value twice that its $setElementOrder contradicts, in a map the outcome lacks (strategicpatch copies it: \"What stays different\")",
		func(liveItems, first, item string) { failsCollated(nested(), liveItems, first, item) },
		Entry("a value named twice, out of the order", `{"name":"p","value":"x"}`, `,"value":"v"`,
			unordered+`,"extra":{"$setElementOrder/tags":["b","a"],"tags":["b","a","b"]}`),
		Entry("a value named twice in a row", `{"name":"p","value":"x"}`, `,"value":"v"`,
			unordered+`,"extra":{"$setElementOrder/tags":["b","a"],"tags":["b","b","a"]}`),
		Entry("beside a scalar", `{"name":"p","value":"x"}`, `,"value":"v"`,
			unordered+`,"extra":{"$setElementOrder/tags":["c","a"],"mode":"m","tags":["c","a","a"]}`),
		Entry("without the refused order", `{"name":"p","value":"x"}`, `,"value":"v"`,
			`,"extra":{"$setElementOrder/tags":["b","a"],"tags":["b","a","b"]}`),
		Entry("beside a later field", `{"name":"p","value":"x"}`, `,"value":"v"`,
			unordered+`,"extra":{"$setElementOrder/tags":["b","a"],"tags":["b","a","b"]},"value":"w"`),
	)

	DescribeTable("off, every gate, a later part of a repeated key ordering a set without items in a map the outcome lacks (strategicpatch copies it: \"What stays different\")",
		func(liveItems, first, item string) { failsCollated(nested(), liveItems, first, item) },
		Entry("an empty set under an empty order", `{"name":"p","value":"x"}`, `,"value":"v"`,
			unordered+`,"extra":{"$setElementOrder/tags":[],"tags":[]}`),
		Entry("an empty set under an order naming values", `{"name":"p","value":"x"}`, `,"value":"v"`,
			unordered+`,"extra":{"$setElementOrder/tags":["a"],"tags":[]}`),
		Entry("beside a scalar", `{"name":"p","value":"x"}`, `,"value":"v"`,
			unordered+`,"extra":{"$setElementOrder/tags":[],"mode":"m","tags":[]}`),
		Entry("without the refused order", `{"name":"p","value":"x"}`, `,"value":"v"`,
			`,"extra":{"$setElementOrder/tags":[],"tags":[]}`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding an env item whose $retainKeys strategicpatch and the collation refuse",
		func(liveItems, first, item string) { fails(nested(), liveItems, "p", first, item) },
		Entry("not naming a field it sets", `{"name":"p","env":[{"name":"A","value":"x"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$retainKeys":["name"],"value":"y"}]`),
		Entry("not a list", `{"name":"p","env":[{"name":"A","value":"x"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$retainKeys":"name","value":"y"}]`),
		Entry("after a plain item", `{"name":"p","env":[{"name":"A","value":"x"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"B","value":"z"},{"name":"A","$retainKeys":["name"],"value":"y"}]`),
		Entry("where the first part set the item", `{"name":"p"}`, `,"env":[{"name":"A","value":"x"}]`,
			unordered+`,"env":[{"name":"A","$retainKeys":[1],"value":"y"}]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key appending an env item whose $retainKeys the collation refuses (strategicpatch copies it: \"What stays different\")",
		func(liveItems, first, item string) { failsCollated(nested(), liveItems, first, item) },
		Entry("onto the outcome's env", `{"name":"p","env":[{"name":"B","value":"x"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$retainKeys":["name"],"value":"y"}]`),
		Entry("where the outcome lacks env", `{"name":"p","value":"x"}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$retainKeys":["name"],"value":"y"}]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding a map or a list at a field the schema does not declare, over another kind or nothing",
		func(liveItems, first, item string) { applies(nested(), liveItems, "p", first, item) },
		Entry("a map over a scalar, less its nulls", `{"name":"p","odd":"s"}`, `,"value":"v"`, unordered+`,"odd":{"x":1,"w":null,"y":{"z":null}}`),
		Entry("a list over a scalar, less its nulls", `{"name":"p","odd":"s"}`, `,"value":"v"`, unordered+`,"odd":[1,{"a":null}]`),
		Entry("a map over a list", `{"name":"p","odd":[1]}`, `,"value":"v"`, unordered+`,"odd":{"x":1}`),
		Entry("a list over a map", `{"name":"p","odd":{"q":1}}`, `,"value":"v"`, unordered+`,"odd":[2]`),
		Entry("a map the outcome lacks", `{"name":"p"}`, `,"value":"v"`, unordered+`,"odd":{"x":1}`),
		Entry("a map over the first part's scalar", `{"name":"p"}`, `,"odd":1`, unordered+`,"odd":{"x":[1]}`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding a map the outcome lacks whose $retainKeys the collation refuses (strategicpatch copies it: \"What stays different\")",
		func(liveItems, first, item string) { failsCollated(nested(), liveItems, first, item) },
		Entry("not naming a field it sets", `{"name":"p","value":"x"}`, `,"value":"v"`, unordered+`,"extra":{"$retainKeys":["tags"],"mode":"y"}`),
		Entry("not a list", `{"name":"p","value":"x"}`, `,"value":"v"`, unordered+`,"extra":{"$retainKeys":"tags","mode":"y"}`),
		Entry("naming a field by an integer", `{"name":"p","value":"x"}`, `,"value":"v"`, unordered+`,"extra":{"$retainKeys":[1],"mode":"y"}`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding a map of another \"$patch\" where the outcome holds a map",
		func(liveItems, first, item string) { fails(nested(), liveItems, "p", first, item) },
		Entry("merge", `{"name":"p","extra":{"mode":"m"}}`, `,"value":"v"`, unordered+`,"extra":{"$patch":"merge","mode":"q"}`),
		Entry("an unknown value", `{"name":"p","extra":{"mode":"m"}}`, `,"value":"v"`, unordered+`,"extra":{"$patch":"bogus"}`),
		Entry("merge, where the first part set the map", `{"name":"p"}`, `,"extra":{"mode":"m"}`, unordered+`,"extra":{"$patch":"merge"}`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding a $setElementOrder of a merged list in a map the outcome lacks (strategicpatch copies it, the collation applies it: \"What stays different\")",
		func(liveItems, first, item string) { appliesOrdered(nested(), liveItems, "p", first, item) },
		Entry("a map's set following its order: the map taken, the set as ordered",
			`{"name":"p","value":"x"}`, `,"value":"v"`, unordered+`,"extra":{"$setElementOrder/tags":["b","a"],"tags":["b","a"]}`),
		Entry("a map's set, its order naming a value it lacks, beside a scalar",
			`{"name":"p","value":"x"}`, `,"value":"v"`, unordered+`,"extra":{"$setElementOrder/tags":["b","c","a"],"tags":["b","a"],"mode":"m"}`),
		Entry("a map's order alone: the map taken empty",
			`{"name":"p","value":"x"}`, `,"value":"v"`, unordered+`,"extra":{"$setElementOrder/tags":["b","a"]}`),
		Entry("a map's set ordered over the outcome's scalar there",
			`{"name":"p","extra":"s"}`, `,"value":"v"`, unordered+`,"extra":{"$setElementOrder/tags":["b","a"],"tags":["b","a"]}`),
		Entry("an appended env item's set ordered",
			`{"name":"p","env":[{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$setElementOrder/flags":["b","a"],"flags":["b","a"]}]`),
		Entry("an appended env item's order alone",
			`{"name":"p","env":[{"name":"B"}]}`, `,"value":"v"`, unordered+`,"env":[{"name":"A","$setElementOrder/flags":["b","a"]}]`),
		Entry("a map's set, its order naming a value twice",
			`{"name":"p","value":"x"}`, `,"value":"v"`, unordered+`,"extra":{"$setElementOrder/tags":["b","a","b"],"tags":["b","a"]}`),
		Entry("a map's order alone naming a value twice: the map taken empty",
			`{"name":"p","value":"x"}`, `,"value":"v"`, unordered+`,"extra":{"$setElementOrder/tags":["b","a","b"]}`),
		Entry("an appended env item's set, its order naming a value twice",
			`{"name":"p","env":[{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$setElementOrder/flags":["y","c","x","y"],"flags":["y","x"]}]`),
		Entry("an env item's set, its order naming a value twice, in an env list the outcome lacks",
			`{"name":"q"}`, `,"value":"v"`, unordered+`,"env":[{"name":"A","$setElementOrder/flags":["y","x","y"],"flags":["y","x"]}]`),
		Entry("an appended env item's set ordered, a later item of its key merged into it",
			`{"name":"p","env":[{"name":"B"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$setElementOrder/flags":["b","a"],"flags":["b","a"]},{"name":"A","flags":["c"]}]`),
	)
	DescribeTable("off, every gate, a later part of a repeated key ordering a list the outcome holds as a null",
		func(liveItems, first, item string) { fails(nested(), liveItems, "p", first, item) },
		Entry("a set and its order", `{"name":"p","aliases":null}`, `,"value":"v"`, unordered+`,"$setElementOrder/aliases":["a"],"aliases":["a"]`),
		Entry("an order alone", `{"name":"p","aliases":null}`, `,"value":"v"`, unordered+`,"$setElementOrder/aliases":["a"]`),
		Entry("an empty order beside a set", `{"name":"p","aliases":null}`, `,"value":"v"`, unordered+`,"$setElementOrder/aliases":[],"aliases":["a"]`),
		Entry("the list merged by no strategy the refused order orders", `{"name":"p","args":null}`, `,"value":"v"`, unordered),
		Entry("a keyed list and its order", `{"name":"p","env":null}`, `,"value":"v"`, unordered+`,"$setElementOrder/env":[{"name":"A"}],"env":[{"name":"A"}]`),
		Entry("two such lists: the first by name", `{"name":"p","aliases":null,"env":null}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/env":[{"name":"A"}],"$setElementOrder/aliases":["a"]`),
		Entry("before a keyed list out of its order", `{"name":"p","aliases":null,"env":[{"name":"A"}]}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/env":[{"name":"A"},{"name":"C"}],"env":[{"name":"C"},{"name":"A"}],"$setElementOrder/aliases":["a"]`),
		Entry("without the refused order", `{"name":"p","aliases":null}`, `,"value":"v"`, `,"$setElementOrder/aliases":["a"],"aliases":["a"]`),
		Entry("a map's set, where the outcome holds the map", `{"name":"p","extra":{"tags":null}}`, `,"value":"v"`,
			unordered+`,"extra":{"$setElementOrder/tags":["a"],"tags":["a"]}`),
		Entry("a map's order alone beside a scalar", `{"name":"p","extra":{"tags":null,"mode":"x"}}`, `,"value":"v"`,
			unordered+`,"extra":{"$setElementOrder/tags":["a"],"mode":"y"}`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding maps of \"$patch\" in a map or a list at a field the schema does not declare, over another kind or nothing",
		func(s func() schemaCase, liveItems, first, item string) { applies(s(), liveItems, "p", first, item) },
		Entry("a \"$patch: delete\" map in a map over a scalar: dropped", nested, `{"name":"p","odd":"s"}`, `,"value":"v"`, unordered+`,"odd":{"x":{"$patch":"delete"},"y":1}`),
		Entry("a \"$patch: merge\" map in a map over a scalar: dropped", nested, `{"name":"p","odd":"s"}`, `,"value":"v"`, unordered+`,"odd":{"x":{"$patch":"merge","a":1},"y":1}`),
		Entry("maps of \"$patch\" in a list over a map, nulls beside them", nested, `{"name":"p","odd":{"q":1}}`, `,"value":"v"`,
			unordered+`,"odd":[{"a":null,"b":1},{"$patch":"replace","c":1},[{"$patch":"delete"}]]`),
		Entry("deeper, holding nulls, over a list", nested, `{"name":"p","odd":[1]}`, `,"value":"v"`,
			unordered+`,"odd":{"x":{"$patch":"delete","n":null},"z":null,"w":{"v":{"$patch":"replace"}}}`),
		Entry("the value itself a \"$patch: delete\" map over a list: absent", nested, `{"name":"p","odd":[1]}`, `,"value":"v"`, unordered+`,"odd":{"$patch":"delete"}`),
		Entry("the value itself a \"$patch: replace\" map over a scalar: absent", nested, `{"name":"p","odd":"s"}`, `,"value":"v"`, unordered+`,"odd":{"$patch":"replace","x":1}`),
		Entry("the value itself a \"$patch: merge\" map over a scalar: absent", nested, `{"name":"p","odd":"s"}`, `,"value":"v"`, unordered+`,"odd":{"$patch":"merge","a":1}`),
		Entry("the value itself a \"$patch: delete\" map the outcome lacks: absent", nested, `{"name":"p"}`, `,"value":"v"`, unordered+`,"odd":{"$patch":"delete","a":1}`),
		Entry("a map the outcome lacks holding one", nested, `{"name":"p"}`, `,"value":"v"`, unordered+`,"odd":{"y":{"$patch":"delete"},"x":1}`),
		Entry("in a list, a \"$patch\" map holding a null, and one in a map of a list", nested, `{"name":"p","odd":"s"}`, `,"value":"v"`,
			unordered+`,"odd":[{"$patch":"replace","a":null},{"b":[{"c":null,"$patch":"merge"},2]}]`),
		Entry("in a pod's container", pod, `{"name":"p","odd":"s"}`, `,"stdin":true`, unordered+`,"odd":{"x":{"$patch":"delete"},"y":1}`),
		Entry("without the refused order", nested, `{"name":"p","odd":"s"}`, `,"value":"v"`, `,"odd":{"x":{"$patch":"delete"},"y":1}`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding a \"$patch: delete\" map beside other \"$\" keys, or in a map, where the outcome holds a map",
		func(s func() schemaCase, liveItems, first, item string) { applies(s(), liveItems, "p", first, item) },
		Entry("beside a $retainKeys", nested, `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`, unordered+`,"extra":{"$patch":"delete","$retainKeys":["mode"]}`),
		Entry("beside a $retainKeys not a list", nested, `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`, unordered+`,"extra":{"$patch":"delete","$retainKeys":"mode"}`),
		Entry("beside a $setElementOrder without items", nested, `{"name":"p","extra":{"mode":"m"}}`, `,"value":"v"`, unordered+`,"extra":{"$patch":"delete","$setElementOrder/tags":[],"tags":[]}`),
		Entry("beside a $deleteFromPrimitiveList of a scalar", nested, `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`, unordered+`,"extra":{"$patch":"delete","$deleteFromPrimitiveList/mode":["m"]}`),
		Entry("beside a \"$\" key the collation ignores", nested, `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`, unordered+`,"extra":{"$patch":"delete","$foo":1}`),
		Entry("holding a map of an unknown \"$patch\", in a pod", pod, `{"name":"p","securityContext":{"runAsUser":1,"capabilities":{"add":["X"]}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"$patch":"delete","capabilities":{"$patch":"bogus"}}`),
		Entry("in a map, in a pod", pod, `{"name":"p","securityContext":{"runAsUser":1,"capabilities":{"add":["X"]}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"capabilities":{"$patch":"delete"}}`),
		Entry("in a map, beside a $retainKeys, in a pod", pod, `{"name":"p","securityContext":{"runAsUser":1,"capabilities":{"add":["X"]}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"capabilities":{"$patch":"delete","$retainKeys":["add"]}}`),
		Entry("in a map, beside a $setElementOrder of a list merged by no strategy, in a pod", pod, `{"name":"p","securityContext":{"runAsUser":1,"capabilities":{"add":["X"]}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"capabilities":{"$patch":"delete","$setElementOrder/add":["a"]}}`),
		Entry("in a map beside its fields, in a pod", pod, `{"name":"p","resources":{"limits":{"cpu":"1"},"requests":{"cpu":"1"}}}`, `,"stdin":true`,
			unordered+`,"resources":{"limits":{"$patch":"delete","cpu":"2"}}`),
		Entry("in a map holding a $retainKeys, in a pod", pod, `{"name":"p","resources":{"limits":{"cpu":"1"}}}`, `,"stdin":true`,
			unordered+`,"resources":{"$retainKeys":["limits"],"limits":{"$patch":"delete"}}`),
		Entry("in a map, where the first item set it, in a pod", pod, `{"name":"p"}`, `,"securityContext":{"runAsUser":1,"capabilities":{"add":["X"]}}`,
			unordered+`,"securityContext":{"capabilities":{"$patch":"delete"}}`),
		Entry("in an env item's map, merged into the outcome's item, in a pod", pod, `{"name":"p","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}}]}`, `,"stdin":true`,
			unordered+`,"env":[{"name":"A","valueFrom":{"$patch":"delete"}}]`),
		Entry("below an env item's map, beside a $retainKeys, before an appended item, in a pod",
			pod, `{"name":"p","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"},"secretKeyRef":{"key":"k"}}}]}`, `,"stdin":true`,
			unordered+`,"env":[{"name":"A","valueFrom":{"fieldRef":{"$patch":"delete","$retainKeys":["x"]}}},{"name":"B","value":"b"}]`),
		Entry("in an env item's map, beside a \"$patch: delete\" item, in a pod", pod,
			`{"name":"p","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}},{"name":"B","value":"b"}]}`, `,"stdin":true`,
			unordered+`,"env":[{"name":"B","$patch":"delete"},{"name":"A","valueFrom":{"$patch":"delete"}}]`),
		Entry("in an env item's map, the env ordered by its $setElementOrder, in a pod", pod,
			`{"name":"p","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}},{"name":"B","value":"b"}]}`, `,"stdin":true`,
			unordered+`,"$setElementOrder/env":[{"name":"B"},{"name":"A"}],"env":[{"name":"A","valueFrom":{"$patch":"delete"}}]`),
		Entry("below an env item's map, the env under an empty $setElementOrder, in a pod", pod,
			`{"name":"p","env":[{"name":"B","value":"b"},{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"},"secretKeyRef":{"key":"k"}}}]}`, `,"stdin":true`,
			unordered+`,"$setElementOrder/env":[],"env":[{"name":"C","value":"c"},{"name":"A","valueFrom":{"fieldRef":{"$patch":"delete"}}}]`),
		Entry("in an env item's map, where the first item set the env, in a pod", pod, `{"name":"p"}`,
			`,"env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}}]`,
			unordered+`,"$setElementOrder/env":[{"name":"A"}],"env":[{"name":"A","valueFrom":{"$patch":"delete"}}]`),
		Entry("without the refused order", nested, `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`, `,"extra":{"$patch":"delete","$retainKeys":["mode"]}`),
	)

	DescribeTable("gate PatchDeleteRemovesMap on, a later part of a repeated key holding a \"$patch: delete\" map beside other \"$\" keys, or in a map, where the outcome holds a map: the field removed",
		func(s func() schemaCase, liveItems, first, item, want string) {
			c := s()
			c.opts.Gates = c.opts.Gates.With(features.PatchDeleteRemovesMap, true)
			doc := func(items string) value.Value {
				if c.opts.TypeName == "" {
					return jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},` + c.wrap(items)[1:])
				}
				return jsonv.MustDecode(c.wrap(items))
			}
			live := doc(liveItems)
			got, err := patch.Apply(live, doc(`{"name":"p"`+first+`},{"name":"p"`+item+`}`), c.opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(again.Load()).To(BeZero(), "repeats the front-end applied again")
			step, err := patch.Apply(live, doc(`{"name":"p"`+first+`}`), c.opts)
			Expect(err).NotTo(HaveOccurred())
			inTurn, err := patch.Apply(step, doc(`{"name":"p"`+item+`}`), c.opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(equalValue(inTurn))
			Expect(got).To(equalValue(doc(want)))
		},
		Entry("beside a $retainKeys", nested, `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`,
			unordered+`,"extra":{"$patch":"delete","$retainKeys":["mode"]}`, `{"name":"p","value":"v","args":["a","c"]}`),
		Entry("in a map, in a pod", pod, `{"name":"p","securityContext":{"runAsUser":1,"capabilities":{"add":["X"]}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"capabilities":{"$patch":"delete"}}`, `{"name":"p","stdin":true,"args":["a","c"],"securityContext":{"runAsUser":1}}`),
		Entry("in a map, beside a $retainKeys, in a pod", pod, `{"name":"p","securityContext":{"runAsUser":1,"capabilities":{"add":["X"]}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"capabilities":{"$patch":"delete","$retainKeys":["add"]}}`,
			`{"name":"p","stdin":true,"args":["a","c"],"securityContext":{"runAsUser":1}}`),
		Entry("in an env item's map, in a pod", pod, `{"name":"p","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}}]}`, `,"stdin":true`,
			unordered+`,"env":[{"name":"A","valueFrom":{"$patch":"delete"}}]`, `{"name":"p","stdin":true,"args":["a","c"],"env":[{"name":"A"}]}`),
		Entry("below an env item's map, in a pod", pod, `{"name":"p","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"},"secretKeyRef":{"key":"k"}}}]}`, `,"stdin":true`,
			unordered+`,"env":[{"name":"A","valueFrom":{"fieldRef":{"$patch":"delete"}}}]`,
			`{"name":"p","stdin":true,"args":["a","c"],"env":[{"name":"A","valueFrom":{"secretKeyRef":{"key":"k"}}}]}`),
		Entry("in an env item's map, beside a \"$patch: delete\" item, in a pod", pod,
			`{"name":"p","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}},{"name":"B","value":"b"}]}`, `,"stdin":true`,
			unordered+`,"env":[{"name":"B","$patch":"delete"},{"name":"A","valueFrom":{"$patch":"delete"}}]`,
			`{"name":"p","stdin":true,"args":["a","c"],"env":[{"name":"A"}]}`),
		Entry("in an env item's map, the env ordered by its $setElementOrder, in a pod", pod,
			`{"name":"p","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}},{"name":"B","value":"b"}]}`, `,"stdin":true`,
			unordered+`,"$setElementOrder/env":[{"name":"B"},{"name":"A"}],"env":[{"name":"A","valueFrom":{"$patch":"delete"}}]`,
			`{"name":"p","stdin":true,"args":["a","c"],"env":[{"name":"B","value":"b"},{"name":"A"}]}`),
		Entry("below an env item's map, the env under an empty $setElementOrder, in a pod", pod,
			`{"name":"p","env":[{"name":"B","value":"b"},{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"},"secretKeyRef":{"key":"k"}}}]}`, `,"stdin":true`,
			unordered+`,"$setElementOrder/env":[],"env":[{"name":"C","value":"c"},{"name":"A","valueFrom":{"fieldRef":{"$patch":"delete"}}}]`,
			`{"name":"p","stdin":true,"args":["a","c"],"env":[{"name":"B","value":"b"},{"name":"A","valueFrom":{"secretKeyRef":{"key":"k"}}},{"name":"C","value":"c"}]}`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding a set of numbers with a fraction and integers (integral decimals too), which strategicpatch refuses as two Go types and the collation merges",
		func(liveItems, first, item string) {
			s := nested()
			live := jsonv.MustDecode(s.wrap(liveItems))
			p := jsonv.MustDecode(s.wrap(`{"name":"p"` + first + `},{"name":"p"` + item + `}`))
			_, werr := strategicMergePatchRecovered(live.JSON(), p.JSON(), s.sp.Meta())
			Expect(werr).To(MatchError(ContainSubstring("list element types are not identical")))
			got, err := patch.Apply(live, p, s.opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(again.Load()).To(BeZero(), "repeats the front-end applied again")
			step, err := patch.Apply(live, jsonv.MustDecode(s.wrap(`{"name":"p"`+first+`}`)), s.opts)
			Expect(err).NotTo(HaveOccurred())
			inTurn, err := patch.Apply(step, jsonv.MustDecode(s.wrap(`{"name":"p"`+item+`}`)), s.opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(equalValue(inTurn))
		},
		Entry("an integral decimal merged into live's numbers with a fraction", `{"name":"p","ports":[1.5,2.5]}`, `,"value":"v"`, unordered+`,"ports":[2.0]`),
		Entry("numbers with a fraction merged into live's, an integral decimal among them", `{"name":"p","ports":[1.5,2.0]}`, `,"value":"v"`, unordered+`,"ports":[3.5]`),
		Entry("an integer merged into live's numbers with a fraction", `{"name":"p","ports":[1.5,2.5]}`, `,"value":"v"`, unordered+`,"ports":[2]`),
		Entry("merged into the first part's", `{"name":"p"}`, `,"ports":[1.5]`, unordered+`,"ports":[2.0,1.5]`),
		Entry("an integer and an integral decimal of one value", `{"name":"p","ports":[2,1.5]}`, `,"value":"v"`, unordered+`,"ports":[2.0,2.5]`),
		Entry("a $deleteFromPrimitiveList/<f> of an integral decimal", `{"name":"p","ports":[1.5,2.0]}`, `,"value":"v"`, unordered+`,"$deleteFromPrimitiveList/ports":[2.0]`),
		Entry("a $deleteFromPrimitiveList/<f> of both", `{"name":"p","ports":[1.5,2,3]}`, `,"value":"v"`, unordered+`,"$deleteFromPrimitiveList/ports":[3,1.5]`),
		Entry("beside a $deleteFromPrimitiveList/<f> of a value it lacks", `{"name":"p","ports":[1.5,2,3]}`, `,"value":"v"`, unordered+`,"$deleteFromPrimitiveList/ports":[2],"ports":[4.5,1.5]`),
		Entry("ordered by $setElementOrder", `{"name":"p","ports":[1.5,2.5]}`, `,"value":"v"`, unordered+`,"$setElementOrder/ports":[2.0,1.5,2.5],"ports":[2.0]`),
		Entry("live's left out and ordered", `{"name":"p","ports":[1.5,2,3]}`, `,"value":"v"`, unordered+`,"$setElementOrder/ports":[3,1.5]`),
		Entry("under an empty $setElementOrder", `{"name":"p","ports":[1.5,2]}`, `,"value":"v"`, unordered+`,"$setElementOrder/ports":[],"ports":[3,1.5,2.5]`),
		Entry("an empty set onto live's naming a value twice", `{"name":"p","ports":[1.5,2,1.5,3]}`, `,"value":"v"`, unordered+`,"ports":[]`),
		Entry("an empty set beside its order onto live's naming a value twice", `{"name":"p","ports":[1.5,2,1.5,3]}`, `,"value":"v"`, unordered+`,"$setElementOrder/ports":[3,2],"ports":[]`),
		Entry("without the refused order", `{"name":"p","ports":[1.5,2.5]}`, `,"value":"v"`, `,"ports":[2.0]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding an env item ordering a set neither it nor the outcome's item holds items of",
		func(liveItems, first, item string) { fails(nested(), liveItems, "p", first, item) },
		Entry("an empty set under an empty order, the outcome's item's empty", `{"name":"p","env":[{"name":"A","flags":[]}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$setElementOrder/flags":[],"flags":[]}]`),
		Entry("an empty set under an empty order, the outcome's item lacking it", `{"name":"p","env":[{"name":"A"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$setElementOrder/flags":[],"flags":[]}]`),
		Entry("an order alone, the outcome's item's empty", `{"name":"p","env":[{"name":"A","flags":[]}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$setElementOrder/flags":[]}]`),
		Entry("an order naming values, beside a scalar", `{"name":"p","env":[{"name":"A","value":"x"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$setElementOrder/flags":["a"],"flags":[],"value":"y"}]`),
		Entry("after a plain item", `{"name":"p","env":[{"name":"A"},{"name":"B","value":"x"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"B","value":"z"},{"name":"A","$setElementOrder/flags":[],"flags":[]}]`),
		Entry("where the first part set the item", `{"name":"p"}`, `,"env":[{"name":"A","flags":[]}]`,
			unordered+`,"env":[{"name":"A","$setElementOrder/flags":[],"flags":[]}]`),
		Entry("the outcome's item holding it as a null", `{"name":"p","env":[{"name":"A","flags":null}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$setElementOrder/flags":["a"],"flags":["a"]}]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key ordering a set without items in a map or an item the outcome lacks or holds as another kind (strategicpatch copies it: \"What stays different\")",
		func(liveItems, first, item string) { failsCollated(nested(), liveItems, first, item) },
		Entry("a map over the outcome's scalar", `{"name":"p","extra":"s"}`, `,"value":"v"`, unordered+`,"extra":{"$setElementOrder/tags":[],"tags":[]}`),
		Entry("a map over the outcome's list", `{"name":"p","extra":[1]}`, `,"value":"v"`, unordered+`,"extra":{"$setElementOrder/tags":["a"],"tags":[]}`),
		Entry("a map over the outcome's null", `{"name":"p","extra":null}`, `,"value":"v"`, unordered+`,"extra":{"$setElementOrder/tags":[],"tags":[],"mode":"m"}`),
		Entry("an env item in an env list the outcome lacks", `{"name":"p","value":"x"}`, `,"value":"v"`, unordered+`,"env":[{"name":"A","$setElementOrder/flags":[],"flags":[]}]`),
		Entry("an appended env item", `{"name":"p","env":[{"name":"B"}]}`, `,"value":"v"`, unordered+`,"env":[{"name":"A","$setElementOrder/flags":[],"flags":[]}]`),
	)

	// appliesCleanedWhole is applies where a "$patch: replace" map strategicpatch takes as it stands is taken cleaned of
	// its nulls, its maps holding "$patch" and its other "$" keys, as ply takes values whole (docs/strategicpatch.md,
	// "What stays different"): strategicpatch's result compared so cleaned.
	appliesCleanedWhole := func(s schemaCase, liveItems, first, item string) {
		live := jsonv.MustDecode(s.wrap(liveItems))
		if s.opts.TypeName == "" {
			live = jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},` + s.wrap(liveItems)[1:])
		}
		p := jsonv.MustDecode(s.wrap(`{"name":"p"` + first + `},{"name":"p"` + item + `}`))
		want, werr := strategicMergePatchRecovered(live.JSON(), p.JSON(), s.sp.Meta())
		Expect(werr).NotTo(HaveOccurred())
		got, err := patch.Apply(live, p, s.opts)
		Expect(err).NotTo(HaveOccurred())
		wantV := jsonv.MustDecode(string(want))
		Expect(wantV).NotTo(equalValue(cleanedWhole(wantV)), "strategicpatch keeps a null or a directive here")
		Expect(got).To(equalValue(cleanedWhole(wantV)))
		Expect(again.Load()).To(BeZero(), "repeats the front-end applied again")
		step, err := patch.Apply(live, jsonv.MustDecode(s.wrap(`{"name":"p"`+first+`}`)), s.opts)
		Expect(err).NotTo(HaveOccurred())
		inTurn, err := patch.Apply(step, jsonv.MustDecode(s.wrap(`{"name":"p"`+item+`}`)), s.opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(equalValue(inTurn))
	}

	DescribeTable("off, every gate, a later part of a repeated key holding a \"$patch: replace\" map holding nulls or \"$\" keys where the outcome holds a map (taken cleaned: \"What stays different\")",
		func(s func() schemaCase, liveItems, first, item string) {
			appliesCleanedWhole(s(), liveItems, first, item)
		},
		Entry("a null", nested, `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`, unordered+`,"extra":{"$patch":"replace","mode":null,"tags":["b"]}`),
		Entry("a null, where the first part set the map", nested, `{"name":"p"}`, `,"extra":{"mode":"m"}`, unordered+`,"extra":{"$patch":"replace","mode":null,"tags":["z"]}`),
		Entry("a $setElementOrder: the list as it stands", nested, `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`,
			unordered+`,"extra":{"$patch":"replace","$setElementOrder/tags":["b","a"],"tags":["a","b"]}`),
		Entry("a $retainKeys", nested, `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`, unordered+`,"extra":{"$patch":"replace","$retainKeys":["mode"],"mode":"y"}`),
		Entry("a $retainKeys not naming a field it sets", nested, `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`,
			unordered+`,"extra":{"$patch":"replace","$retainKeys":["tags"],"mode":"y"}`),
		Entry("a $deleteFromPrimitiveList/<f>: the list as it stands", nested, `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`,
			unordered+`,"extra":{"$patch":"replace","$deleteFromPrimitiveList/tags":["a"],"tags":["a","b"]}`),
		Entry("a \"$\" key the collation ignores", nested, `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`, unordered+`,"extra":{"$patch":"replace","$foo":1,"mode":"y"}`),
		Entry("a map holding \"$patch: delete\", in a pod", pod, `{"name":"p","securityContext":{"runAsUser":1,"capabilities":{"add":["X"]}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"$patch":"replace","runAsUser":2,"capabilities":{"$patch":"delete"}}`),
		Entry("a map holding \"$patch: replace\", in a pod", pod, `{"name":"p","securityContext":{"runAsUser":1,"capabilities":{"add":["X"]}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"$patch":"replace","capabilities":{"$patch":"replace","add":["Y"]}}`),
		Entry("a map holding an unknown \"$patch\", in a pod", pod, `{"name":"p","securityContext":{"runAsUser":1,"capabilities":{"add":["X"]}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"$patch":"replace","capabilities":{"$patch":"bogus"}}`),
		Entry("a map holding a null, in a pod", pod, `{"name":"p","securityContext":{"runAsUser":1,"capabilities":{"add":["X"]}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"$patch":"replace","capabilities":{"add":["Y"],"drop":null}}`),
		Entry("a list holding a \"$patch: delete\" item, in a pod", pod, `{"name":"p","resources":{"limits":{"cpu":"1"}}}`, `,"stdin":true`,
			unordered+`,"resources":{"$patch":"replace","claims":[{"name":"a"},{"$patch":"delete","name":"b"}]}`),
		Entry("in a map the outcome holds, in a pod", pod, `{"name":"p","securityContext":{"runAsUser":1,"capabilities":{"add":["X"]}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"capabilities":{"$patch":"replace","drop":null,"add":["Y"]}}`),
		Entry("in an env item merged into the outcome's, in a pod", pod, `{"name":"p","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}}]}`, `,"stdin":true`,
			unordered+`,"env":[{"name":"A","valueFrom":{"$patch":"replace","fieldRef":{"fieldPath":"y","apiVersion":null}}}]`),
		Entry("without the refused order", nested, `{"name":"p","extra":{"mode":"m","tags":["a"]}}`, `,"value":"v"`, `,"extra":{"$patch":"replace","mode":null,"tags":["b"]}`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding \"$\" keys the collation drops in a map or a list at a field the schema does not declare, over another kind or nothing (strategicpatch keeps them: \"What stays different\")",
		func(liveItems, first, item string) { appliesDropped(nested(), liveItems, "p", first, item) },
		Entry("a \"$\" key the collation ignores, in the map and an item of its list", `{"name":"p","odd":"s"}`, `,"value":"v"`, unordered+`,"odd":{"$foo":1,"x":[{"$bar":2,"y":1}]}`),
		Entry("a $retainKeys naming every field its map sets, below a map, beside a null", `{"name":"p","odd":[1]}`, `,"value":"v"`,
			unordered+`,"odd":{"a":{"$retainKeys":["x"],"x":1,"n":null}}`),
		Entry("a $retainKeys naming every field, where the outcome lacks the field", `{"name":"p"}`, `,"value":"v"`, unordered+`,"odd":{"$retainKeys":["x","y"],"x":1}`),
		Entry("beside a map of \"$patch\"", `{"name":"p","odd":"s"}`, `,"value":"v"`, unordered+`,"odd":{"$foo":1,"x":{"$patch":"delete"},"y":2}`),
		Entry("a $retainKeys in an item of its list", `{"name":"p","odd":"s"}`, `,"value":"v"`, unordered+`,"odd":[{"$retainKeys":["x"],"x":1}]`),
		Entry("a $setElementOrder and a $deleteFromPrimitiveList in an item of its list, beside their list: dropped unread", `{"name":"p","odd":"s"}`, `,"value":"v"`,
			unordered+`,"odd":[{"$setElementOrder/l":[2,1],"l":[1,2]},{"$deleteFromPrimitiveList/l":[2],"l":[1,2]}]`),
		Entry("a $retainKeys not a list, or not naming its fields, in its list's items", `{"name":"p","odd":{"q":1}}`, `,"value":"v"`,
			unordered+`,"odd":[{"$retainKeys":5,"x":1},[{"$retainKeys":["z"],"x":1,"n":null}]]`),
		Entry("a $setElementOrder not a list in a map in its list's item", `{"name":"p"}`, `,"value":"v"`, unordered+`,"odd":[{"a":{"$setElementOrder/q":"x"},"b":1}]`),
		Entry("a $setElementOrder of a field its map lacks: dropped", `{"name":"p","odd":"s"}`, `,"value":"v"`, unordered+`,"odd":{"$setElementOrder/l":[1],"a":{"$setElementOrder/q":[],"b":1}}`),
		Entry("without the refused order", `{"name":"p","odd":"s"}`, `,"value":"v"`, `,"odd":{"$foo":1,"x":[{"$bar":2,"y":1}]}`),
	)

	// podFails applies to a pod's live containers liveItems the patch of item's first container and a later one of its
	// key: strategicpatch fails, and ply with the error the items applied one after another give, no repeat applied
	// again.
	podFails := func(liveItems, first, item string) {
		s := pod()
		doc := func(items string) value.Value {
			return jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},` + s.wrap(items)[1:])
		}
		live, p := doc(liveItems), doc(`{"name":"p"`+first+`},{"name":"p"`+item+`}`)
		_, werr := strategicMergePatchRecovered(live.JSON(), p.JSON(), s.sp.Meta())
		Expect(werr).To(HaveOccurred())
		_, err := patch.Apply(live, p, s.opts)
		Expect(err).To(HaveOccurred())
		Expect(again.Load()).To(BeZero(), "repeats the front-end applied again")
		step, serr := patch.Apply(live, doc(`{"name":"p"`+first+`}`), s.opts)
		Expect(serr).NotTo(HaveOccurred())
		_, inTurn := patch.Apply(step, doc(`{"name":"p"`+item+`}`), s.opts)
		Expect(inTurn).To(HaveOccurred())
		Expect(err.Error()).To(Equal(inTurn.Error()))
	}

	DescribeTable("off, every gate, a later item of a repeated key holding, below a map the outcome holds, a map that neither strategicpatch nor the collation merges into the outcome's",
		podFails,
		Entry("a \"$patch: merge\" map", `{"name":"p","securityContext":{"runAsUser":1,"capabilities":{"add":["X"]}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"capabilities":{"$patch":"merge","add":["Y"]}}`),
		Entry("an unknown \"$patch\" beside a field", `{"name":"p","securityContext":{"runAsUser":1,"capabilities":{"add":["X"]}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"runAsUser":2,"capabilities":{"$patch":"bogus"}}`),
		Entry("a $retainKeys not naming a field it sets", `{"name":"p","securityContext":{"runAsUser":1,"capabilities":{"add":["X"]}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"capabilities":{"$retainKeys":["drop"],"add":["Y"]}}`),
		Entry("a \"$patch: merge\" map beside the outer map's $retainKeys", `{"name":"p","securityContext":{"runAsUser":1,"capabilities":{"add":["X"]}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"$retainKeys":["capabilities"],"capabilities":{"$patch":"merge","add":["Y"]}}`),
		Entry("an order of a list the outcome holds as a null", `{"name":"p","securityContext":{"capabilities":{"add":null}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"capabilities":{"$setElementOrder/add":["a"],"add":["a"]}}`),
		Entry("where the first item set the maps", `{"name":"p"}`, `,"securityContext":{"seLinuxOptions":{"user":"u"}}`,
			unordered+`,"securityContext":{"seLinuxOptions":{"$patch":"merge"}}`),
		Entry("without the refused order", `{"name":"p","securityContext":{"runAsUser":1,"capabilities":{"add":["X"]}}}`, `,"stdin":true`,
			`,"securityContext":{"capabilities":{"$patch":"merge","add":["Y"]}}`),
	)

	DescribeTable("off, every gate, a later item of a repeated key holding, below a map the outcome holds, two maps that neither strategicpatch nor the collation merges into the outcome's: the collation's error at the first by name",
		podFails,
		Entry("two \"$patch: merge\" maps", `{"name":"p","securityContext":{"capabilities":{"add":["X"]},"seLinuxOptions":{"user":"u"}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"capabilities":{"$patch":"merge","add":["Y"]},"seLinuxOptions":{"$patch":"merge","role":"r"}}`),
		Entry("the later by name first in the patch", `{"name":"p","securityContext":{"capabilities":{"add":["X"]},"seLinuxOptions":{"user":"u"}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"seLinuxOptions":{"$patch":"merge","role":"r"},"capabilities":{"$patch":"merge","add":["Y"]}}`),
		Entry("failing otherwise, beside a field", `{"name":"p","securityContext":{"runAsUser":1,"capabilities":{"add":["X"]},"seLinuxOptions":{"user":"u"}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"seLinuxOptions":{"$retainKeys":["type"],"role":"r"},"runAsUser":2,"capabilities":{"$patch":"bogus"}}`),
		Entry("an order of a list the outcome holds as a null after a \"$patch: merge\" map", `{"name":"p","securityContext":{"capabilities":{"add":null},"windowsOptions":{"hostProcess":true}}}`, `,"stdin":true`,
			unordered+`,"securityContext":{"windowsOptions":{"$patch":"merge"},"capabilities":{"$setElementOrder/add":["a"],"add":["a"]}}`),
		Entry("where the first item set the maps", `{"name":"p"}`, `,"securityContext":{"seLinuxOptions":{"user":"u"},"capabilities":{"add":["X"]}}`,
			unordered+`,"securityContext":{"seLinuxOptions":{"$patch":"merge"},"capabilities":{"$retainKeys":["drop"],"add":["Y"]}}`),
		Entry("without the refused order", `{"name":"p","securityContext":{"capabilities":{"add":["X"]},"seLinuxOptions":{"user":"u"}}}`, `,"stdin":true`,
			`,"securityContext":{"seLinuxOptions":{"$patch":"merge"},"capabilities":{"$patch":"merge","add":["Y"]}}`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding a map of an unknown \"$patch\" in a map at a field the schema does not declare, over another kind or nothing (strategicpatch drops it, the collation refuses it: \"What stays different\")",
		func(liveItems, first, item string) { failsCollated(nested(), liveItems, first, item) },
		Entry("at a map's field over a scalar", `{"name":"p","odd":"s"}`, `,"value":"v"`, unordered+`,"odd":{"x":{"$patch":"bogus"},"y":1}`),
		Entry("the value itself, over a list", `{"name":"p","odd":[1]}`, `,"value":"v"`, unordered+`,"odd":{"$patch":"bogus","y":1}`),
		Entry("where the outcome lacks the field, of another kind", `{"name":"p"}`, `,"value":"v"`, unordered+`,"odd":{"b":{"$patch":1}}`),
		Entry("below a map, before a later field by name", `{"name":"p","odd":"s"}`, `,"value":"v"`,
			unordered+`,"odd":{"b":{"$patch":"bogus"},"a":{"c":{"$patch":"nope"}}}`),
		Entry("two at one map: the first by name", `{"name":"p","odd":"s"}`, `,"value":"v"`, unordered+`,"odd":{"b":{"$patch":"bogus"},"B":{"$patch":"nope"}}`),
		Entry("holding \"$\" keys and maps of \"$patch\", beside a key the collation ignores", `{"name":"p","odd":"s"}`, `,"value":"v"`,
			unordered+`,"odd":{"$foo":1,"b":{"$patch":"bogus","$retainKeys":["z"],"x":{"$patch":"nope"},"n":null}}`),
		Entry("before a later field of the item", `{"name":"p","odd":"s"}`, `,"value":"v"`, unordered+`,"odd":{"a":{"$patch":"bogus"}},"value":"w"`),
		Entry("where the first part set the field", `{"name":"p"}`, `,"odd":"s"`, unordered+`,"odd":{"a":{"$patch":"bogus"}}`),
		Entry("in a map the outcome holds", `{"name":"p","extra":{"mode":"m"}}`, `,"value":"v"`, unordered+`,"extra":{"odd":{"a":{"$patch":"bogus"}},"mode":"n"}`),
		Entry("without the refused order, where the outcome lacks the field", `{"name":"p"}`, `,"value":"v"`, `,"odd":{"x":{"$patch":"bogus"},"y":1}`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding a list its map orders by $setElementOrder in a map at a field the schema does not declare, over another kind or nothing (strategicpatch copies it, the collation refuses it: \"What stays different\")",
		func(liveItems, first, item string) { failsCollated(nested(), liveItems, first, item) },
		Entry("the value's own list, over a scalar", `{"name":"p","odd":"s"}`, `,"value":"v"`, unordered+`,"odd":{"$setElementOrder/l":[2,1],"l":[1,2]}`),
		Entry("empty, under an empty order, where the outcome lacks the field", `{"name":"p"}`, `,"value":"v"`, unordered+`,"odd":{"$setElementOrder/l":[],"l":[]}`),
		Entry("of maps, over a list", `{"name":"p","odd":[1]}`, `,"value":"v"`, unordered+`,"odd":{"$setElementOrder/l":[{"a":1}],"l":[{"a":1}]}`),
		Entry("after a map of an unknown \"$patch\" by name: that map's error", `{"name":"p","odd":"s"}`, `,"value":"v"`,
			unordered+`,"odd":{"a":{"$patch":"bogus"},"$setElementOrder/l":[1],"l":[1]}`),
		Entry("before a map of an unknown \"$patch\" by name", `{"name":"p","odd":"s"}`, `,"value":"v"`,
			unordered+`,"odd":{"z":{"$patch":"bogus"},"$setElementOrder/l":[1],"l":[1]}`),
		Entry("two: the first by name", `{"name":"p","odd":"s"}`, `,"value":"v"`, unordered+`,"odd":{"$setElementOrder/m":[1],"m":[1],"$setElementOrder/l":[1],"l":[1]}`),
		Entry("in maps below, the first by name", `{"name":"p","odd":"s"}`, `,"value":"v"`,
			unordered+`,"odd":{"b":{"$setElementOrder/l":[1],"l":[1]},"a":{"$setElementOrder/l":[1],"l":[2]}}`),
		Entry("in a map the outcome holds", `{"name":"p","extra":{"mode":"m"}}`, `,"value":"v"`, unordered+`,"extra":{"odd":{"$setElementOrder/l":[1],"l":[1]},"mode":"n"}`),
	)

	DescribeTable("off, every gate, a later part of a repeated key holding maps of \"$patch\" holding \"$\" keys, or of an unknown \"$patch\" in a list, at a field the schema does not declare, over another kind or nothing: dropped",
		func(liveItems, first, item string) { applies(nested(), liveItems, "p", first, item) },
		Entry("a list's item of an unknown \"$patch\"", `{"name":"p","odd":"s"}`, `,"value":"v"`, unordered+`,"odd":[{"$patch":"bogus","y":1},1]`),
		Entry("a map of an unknown \"$patch\" in a list's item", `{"name":"p","odd":{"a":1}}`, `,"value":"v"`, unordered+`,"odd":[{"b":{"$patch":"bogus"},"c":2}]`),
		Entry("in lists' items, holding \"$\" keys and maps of \"$patch\"", `{"name":"p","odd":"s"}`, `,"value":"v"`,
			unordered+`,"odd":[[{"$patch":"bogus"}],{"$patch":"replace","$x":1,"x":{"$patch":"bogus"}},{"a":{"b":{"$patch":1}}}]`),
		Entry("a \"$patch: replace\" map holding an unknown \"$patch\" map: absent", `{"name":"p","odd":"s"}`, `,"value":"v"`,
			unordered+`,"odd":{"$patch":"replace","a":{"$patch":"bogus"}}`),
		Entry("a \"$patch: delete\" map holding a $retainKeys not naming its field", `{"name":"p","odd":"s"}`, `,"value":"v"`,
			unordered+`,"odd":{"a":{"$patch":"delete","$retainKeys":["q"],"x":1},"c":2}`),
		Entry("a \"$patch: merge\" map holding an order, over a list", `{"name":"p","odd":[1]}`, `,"value":"v"`,
			unordered+`,"odd":{"a":{"$patch":"merge","$setElementOrder/l":[1],"l":[2]},"c":2}`),
		Entry("maps of \"$patch\" holding deletions and a malformed $retainKeys", `{"name":"p"}`, `,"value":"v"`,
			unordered+`,"odd":{"a":{"$patch":"delete","$deleteFromPrimitiveList/l":[1],"l":[2]},"c":{"$patch":"replace","$retainKeys":3}}`),
		Entry("where the first part set the field", `{"name":"p"}`, `,"odd":"s"`, unordered+`,"odd":[{"$patch":"bogus"},{"a":{"$patch":"nope"}}]`),
		Entry("without the refused order", `{"name":"p","odd":"s"}`, `,"value":"v"`, `,"odd":[{"$patch":"bogus","y":1},1]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key deleting by $deleteFromPrimitiveList/<f> alone values of another class than the outcome's list there",
		func(liveItems, first, item string) { fails(nested(), liveItems, "p", first, item) },
		Entry("strings from integers", `{"name":"p","ports":[1,2]}`, `,"value":"v"`, unordered+`,"$deleteFromPrimitiveList/ports":["a"]`),
		Entry("integers from strings", `{"name":"p","aliases":["a"]}`, `,"value":"v"`, unordered+`,"$deleteFromPrimitiveList/aliases":[1]`),
		Entry("from the outcome's list of mixed classes", `{"name":"p","aliases":["a",1]}`, `,"value":"v"`, unordered+`,"$deleteFromPrimitiveList/aliases":["a"]`),
		Entry("in a map the outcome holds", `{"name":"p","extra":{"tags":["a"]}}`, `,"value":"v"`, unordered+`,"extra":{"$deleteFromPrimitiveList/tags":[1]}`),
		Entry("in a map the outcome holds, beside a field", `{"name":"p","extra":{"tags":["a"],"mode":"m"}}`, `,"value":"v"`,
			unordered+`,"extra":{"$deleteFromPrimitiveList/tags":[true],"mode":"n"}`),
		Entry("from the first part's list", `{"name":"p"}`, `,"aliases":["a","b"]`, unordered+`,"$deleteFromPrimitiveList/aliases":[2]`),
		Entry("before a later field", `{"name":"p","aliases":["a"]}`, `,"value":"v"`, unordered+`,"$deleteFromPrimitiveList/aliases":[1],"value":"w"`),
		Entry("in an env item merged into the outcome's item", `{"name":"p","env":[{"name":"A","flags":["a"]}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$deleteFromPrimitiveList/flags":[1]}]`),
		Entry("in an env item beside a field, before an appended item", `{"name":"p","env":[{"name":"A","flags":["a"]}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","value":"q","$deleteFromPrimitiveList/flags":[true]},{"name":"C"}]`),
		Entry("without the refused order", `{"name":"p","ports":[1,2]}`, `,"value":"v"`, `,"$deleteFromPrimitiveList/ports":["a"]`),
	)

	DescribeTable("off, every gate, a later part of a repeated key deleting by $deleteFromPrimitiveList/<f> values of mixed classes or not scalars where the outcome's list there holds no item: the collation refuses them whatever live holds (strategicpatch reads none of them)",
		func(liveItems, first, item string) { failsAgainst(nested(), liveItems, "p", first, item, true) },
		Entry("mixed classes, the outcome lacking the list", `{"name":"p"}`, `,"value":"v"`, unordered+`,"$deleteFromPrimitiveList/aliases":["a",1]`),
		Entry("maps, the outcome lacking the list", `{"name":"p"}`, `,"value":"v"`, unordered+`,"$deleteFromPrimitiveList/ports":[{"a":1}]`),
		Entry("mixed classes, the outcome's list a null", `{"name":"p","ports":null}`, `,"value":"v"`, unordered+`,"$deleteFromPrimitiveList/ports":[1,true]`),
		Entry("in a map the outcome holds without the list", `{"name":"p","extra":{"mode":"m"}}`, `,"value":"v"`,
			unordered+`,"extra":{"$deleteFromPrimitiveList/tags":["a",1]}`),
		Entry("in a map the outcome lacks", `{"name":"p"}`, `,"value":"v"`, unordered+`,"extra":{"$deleteFromPrimitiveList/tags":[{"a":1}]}`),
		Entry("in an env item merged into the outcome's item without the list", `{"name":"p","env":[{"name":"A"}]}`, `,"value":"v"`,
			unordered+`,"env":[{"name":"A","$deleteFromPrimitiveList/flags":["a",1]}]`),
		Entry("beside its $setElementOrder, the outcome lacking the list", `{"name":"p"}`, `,"value":"v"`,
			unordered+`,"$setElementOrder/aliases":["b"],"$deleteFromPrimitiveList/aliases":["a",1]`),
	)

	// (strategicpatch reads the two keys in Go's map order, so its result is not compared: the collation refuses them.)
	DescribeTable("off, every gate, a later part of a repeated key setting a list beside a $deleteFromPrimitiveList/<f> of it that is not a list, in a map the outcome holds: the collation refuses the two whatever the outcome's list holds",
		func(liveItems, first, item string) {
			s := nested()
			live := jsonv.MustDecode(s.wrap(liveItems))
			p := jsonv.MustDecode(s.wrap(`{"name":"p"` + first + `},{"name":"p"` + item + `}`))
			got, err := patch.Apply(live, p, s.opts)
			Expect(err).To(HaveOccurred(), "ply %s", got.JSON())
			step, serr := patch.Apply(live, jsonv.MustDecode(s.wrap(`{"name":"p"`+first+`}`)), s.opts)
			Expect(serr).NotTo(HaveOccurred())
			_, inTurn := patch.Apply(step, jsonv.MustDecode(s.wrap(`{"name":"p"`+item+`}`)), s.opts)
			Expect(inTurn).To(HaveOccurred())
			Expect(err.Error()).To(Equal(inTurn.Error()))
		},
		Entry("a null beside a string, the outcome holding the list", `{"name":"p","aliases":["a"]}`, `,"value":"v"`,
			`,"aliases":null,"$deleteFromPrimitiveList/aliases":"a"`),
		Entry("a null beside a string, the outcome lacking the list", `{"name":"p"}`, `,"value":"v"`,
			`,"aliases":null,"$deleteFromPrimitiveList/aliases":"a"`),
		Entry("a list beside a null", `{"name":"p","aliases":["a"]}`, `,"value":"v"`,
			`,"aliases":["b"],"$deleteFromPrimitiveList/aliases":null`),
		Entry("a null beside a string, refused order", `{"name":"p","aliases":["a"]}`, `,"value":"v"`,
			unordered+`,"aliases":null,"$deleteFromPrimitiveList/aliases":"a"`),
		Entry("a list beside a string, refused order", `{"name":"p","aliases":["a"]}`, `,"value":"v"`,
			unordered+`,"aliases":["b"],"$deleteFromPrimitiveList/aliases":"a"`),
	)

})

// adjustment is what a repeatmerged_test case removes from strategicpatch's result before comparing: nothing, its
// nulls (nullsKept), its "$setElementOrder/<f>" keys (ordersCopied), or all its "$" keys (directivesCopied).
type adjustment int

const (
	asGiven adjustment = iota
	nullsKept
	ordersCopied
	directivesCopied
)

// withoutDirectives is v less its "$" keys at any depth.
func withoutDirectives(v value.Value) value.Value {
	return withoutKeys(v, "$")
}

// withoutOrders is v less its "$setElementOrder/<f>" keys at any depth.
func withoutOrders(v value.Value) value.Value {
	return withoutKeys(v, "$setElementOrder/")
}

// withoutKeys is v less its map keys starting with prefix at any depth.
func withoutKeys(v value.Value, prefix string) value.Value {
	switch {
	case v.IsMap():
		var fields []value.Field
		for _, f := range v.Fields() {
			if !strings.HasPrefix(f.Key, prefix) {
				fields = append(fields, value.Field{Key: f.Key, Value: withoutKeys(f.Value, prefix)})
			}
		}
		return value.MapFromSorted(fields)
	case v.IsList():
		items := make([]value.Value, v.Len())
		for i, it := range v.Items() {
			items[i] = withoutKeys(it, prefix)
		}
		return value.List(items)
	}
	return v
}

// cleanedWhole is v less its nulls, its maps holding "$patch" and its other "$" keys, at any depth: a value ply takes
// whole, where strategicpatch keeps them (docs/strategicpatch.md, "What stays different").
func cleanedWhole(v value.Value) value.Value {
	switch {
	case v.IsMap():
		var fields []value.Field
		for _, f := range v.Fields() {
			if _, directed := f.Value.Get("$patch"); !strings.HasPrefix(f.Key, "$") && !f.Value.IsNull() && !(f.Value.IsMap() && directed) {
				fields = append(fields, value.Field{Key: f.Key, Value: cleanedWhole(f.Value)})
			}
		}
		return value.MapFromSorted(fields)
	case v.IsList():
		var items []value.Value
		for _, it := range v.Items() {
			if _, directed := it.Get("$patch"); !(it.IsMap() && directed) {
				items = append(items, cleanedWhole(it))
			}
		}
		return value.List(items)
	}
	return v
}
