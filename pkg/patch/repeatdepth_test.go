package patch_test

import (
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
)

// A repeat nested in a repeat (a list naming a key twice inside a later item of a key) is held to MaxDepth at its
// place in the patch, counted from the patch's root: the patch gives what its items give applied one after another
// (steps: each a patch from the root), an error at the same path, or the same object.
var _ = Describe("a repeat nested in a repeat, near the depth limit", func() {
	const pod = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}]}}`
	DescribeTable("as its items applied one after another, every gate off",
		func(live, p string, steps []string, maxDepth int, wantErr string) {
			opts := patch.Options{Gates: features.Kubectl(), MaxDepth: maxDepth}
			got, err := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(p), opts)
			want, stepErr := jsonv.MustDecode(live), error(nil)
			for _, step := range steps {
				if want, stepErr = patch.Apply(want, jsonv.MustDecode(step), opts); stepErr != nil {
					break
				}
			}
			expectInTurn(got, err, want, stepErr, wantErr)
		},
		Entry("an env item's empty map at the limit onto the outcome's map with fields: refused there",
			pod, `{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"A","value":"x"},{"name":"A","valueFrom":{"fieldRef":{}}}]}]}}`,
			[]string{`{"spec":{"containers":[{"name":"c","image":"i"}]}}`, `{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"x"}]}]}}`,
				`{"spec":{"containers":[{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{}}}]}]}}`}, 7,
			"spec.containers[name=c].env[name=A].valueFrom.fieldRef.fieldPath: nesting is deeper than the limit of 7 levels"),
		Entry("the same one level above the limit: merged",
			pod, `{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"A","value":"x"},{"name":"A","valueFrom":{"fieldRef":{}}}]}]}}`,
			[]string{`{"spec":{"containers":[{"name":"c","image":"i"}]}}`, `{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"x"}]}]}}`,
				`{"spec":{"containers":[{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{}}}]}]}}`}, 8, ""),
		Entry("the nested repeat's map at the limit holding \"$retainKeys\": refused there",
			pod, `{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"A","value":"x"},{"name":"A","valueFrom":{"fieldRef":{"$retainKeys":["fieldPath"]}}}]}]}}`,
			[]string{`{"spec":{"containers":[{"name":"c","image":"i"}]}}`, `{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"x"}]}]}}`,
				`{"spec":{"containers":[{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{"$retainKeys":["fieldPath"]}}}]}]}}`}, 7,
			"spec.containers[name=c].env[name=A].valueFrom.fieldRef.fieldPath: nesting is deeper than the limit of 7 levels"),
	)

	It("counts a repeat the front-end applies again from the patch's root", func() {
		_, err := patch.Apply(value.Null, jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","spec":{"containers":[{"name":"c"},{"name":"c","env":[{"name":"A"},{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}]}}`),
			patch.Options{Gates: features.Kubectl(), MaxDepth: 7})
		Expect(err).To(MatchError(ContainSubstring("spec.containers[name=c].env[name=A].valueFrom.fieldRef.fieldPath: nesting is deeper than the limit of 7 levels")))
	})
})

// A later item of a key whose "$setElementOrder" of a list merged by no strategy its key's outcome decides (beside items
// empty), its other fields maps (live's item of the key holding a map below them), is held to MaxDepth as its items applied one after another (each a patch from the
// root) are: Phase 2 merges its maps onto the outcome's only where its values lie within the limit (elements.Repeat.Deep),
// the front-end applying it again elsewhere, near the limit.
var _ = DescribeTable("a later item ordering a list its key's outcome decides, its maps near the depth limit, as its items applied one after another",
	func(resources string, maxDepth int, wantErr string, frontEnd int64) {
		const live = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"a","resources":{"limits":{"memory":"1Gi"}}}]}}`
		first := `{"name":"a","tty":true}`
		later := `{"name":"a","$setElementOrder/args":[],"args":["c","a"],"resources":` + resources + `}`
		expectLaterInTurn(live, first, later, maxDepth, wantErr, frontEnd)
	},
	Entry("an empty map at the limit onto the outcome's map with fields: refused, by the front-end", `{"limits":{}}`, 5,
		"spec.containers[name=a].resources.limits.memory: nesting is deeper than the limit of 5 levels", int64(1)),
	Entry("a map of scalars beyond the limit: refused, by the front-end", `{"limits":{"cpu":"1"}}`, 5,
		"spec.containers[name=a].resources.limits.cpu: nesting is deeper than the limit of 5 levels", int64(1)),
	Entry("its scalars at the limit: merged, by the front-end", `{"limits":{"cpu":"1"},"requests":{}}`, 6, "", int64(1)),
	Entry("one level above: merged in Phase 2", `{"limits":{"cpu":"1"},"requests":{}}`, 7, "", int64(0)),
	Entry("no limit but the default: merged in Phase 2", `{"limits":{"cpu":"1"},"requests":{}}`, 0, "", int64(0)),
)

// A later item of a key whose list merged by no strategy, of scalars, does not follow its "$setElementOrder" (Phase 1
// refused it for where the item lands), the list's items within MaxDepth, fails onto its key's outcome's list of
// scalars as its items applied one after another fail, decided in Phase 2 (visitors' unmergedOrderFailure: the
// repeat Deep, its items two levels below it within the limit, elements.Repeat.ErrRoom); its items beyond the limit,
// the front-end applies it again.
var _ = DescribeTable("a later item whose list merged by no strategy does not follow its order, near the depth limit, as its items applied one after another",
	func(later string, maxDepth int, wantErr string, frontEnd int64) {
		const live = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"a","args":["b"]}]}}`
		first := `{"name":"a","tty":true}`
		expectLaterInTurn(live, first, later, maxDepth, wantErr, frontEnd)
	},
	Entry("an order naming none of its items, its items at the limit: refused in Phase 2",
		`{"name":"a","$setElementOrder/args":["z","z"],"args":["c"],"image":"i"}`, 5,
		"spec.containers[name=a].args: patch list item 0 is missing from $setElementOrder/args", int64(0)),
	Entry("an order naming a null, its items at the limit: refused in Phase 2",
		`{"name":"a","$setElementOrder/args":[null],"args":["c"]}`, 5,
		"spec.containers[name=a].args: patch list item 0 is missing from $setElementOrder/args", int64(0)),
	Entry("its items beyond the limit: by the front-end",
		`{"name":"a","$setElementOrder/args":["z"],"args":["c"]}`, 4,
		"spec.containers[name=a].args: patch list item 0 is missing from $setElementOrder/args", int64(1)),
)

// expectInTurn expects got and err, one call's result, to be want and stepErr, the items' applied one after another:
// where wantErr is given, both fail with the same error, holding wantErr.
func expectInTurn(got value.Value, err error, want value.Value, stepErr error, wantErr string) {
	GinkgoHelper()
	if wantErr != "" {
		Expect(stepErr).To(MatchError(ContainSubstring(wantErr)))
		Expect(err).To(MatchError(stepErr.Error()))
		return
	}
	Expect(stepErr).NotTo(HaveOccurred())
	Expect(err).NotTo(HaveOccurred())
	Expect(got).To(equalValue(want))
}

// A later item of a key holding a "$patch: replace" map where its key's outcome holds a map there: the patch's map,
// taken whole, is held to MaxDepth as its items applied one after another (each a patch from the root) hold it,
// failing at that map where its data nests beyond the limit (Phase 1, collating the item without the outcome, drops
// the map; the Repeat is Deep, and the front-end applies it again).
var _ = DescribeTable("a later item holding a \"$patch: replace\" map onto its key's outcome's map, near the depth limit, as its items applied one after another",
	func(list, liveItem, later string, maxDepth int, wantErr string) {
		wrap := func(items string) string { return `{"spec":{"` + list + `":[` + items + `]}}` }
		live := jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"` + list + `":[` + liveItem + `]}}`)
		first := `{"name":"a"}`
		opts := patch.Options{Gates: features.Kubectl(), Ordering: patch.OrderKubectl, MaxDepth: maxDepth}
		got, err := patch.Apply(live, jsonv.MustDecode(wrap(first+","+later)), opts)
		want, stepErr := patch.Apply(live, jsonv.MustDecode(wrap(first)), opts)
		Expect(stepErr).NotTo(HaveOccurred())
		want, stepErr = patch.Apply(want, jsonv.MustDecode(wrap(later)), opts)
		expectInTurn(got, err, want, stepErr, wantErr)
	},
	Entry("a volume's empty map, replaced by one holding a list of maps: refused",
		"volumes", `{"name":"a","downwardAPI":{}}`,
		`{"name":"a","downwardAPI":{"$patch":"replace","items":[{"fieldRef":{"apiVersion":"d"},"path":"d"}]}}`, 5,
		"spec.volumes[name=a].downwardAPI: nesting is deeper than the limit of 5 levels of maps and lists"),
	Entry("the same a level lower",
		"volumes", `{"name":"a","downwardAPI":{}}`,
		`{"name":"a","downwardAPI":{"$patch":"replace","items":[{"fieldRef":{"apiVersion":"d"},"path":"d"}]}}`, 4,
		"spec.volumes[name=a].downwardAPI: nesting is deeper than the limit of 4 levels of maps and lists"),
	Entry("a volume's map with fields",
		"volumes", `{"name":"a","downwardAPI":{"defaultMode":1}}`,
		`{"name":"a","downwardAPI":{"$patch":"replace","items":[{"fieldRef":{"apiVersion":"d"},"path":"d"}]}}`, 5,
		"spec.volumes[name=a].downwardAPI: nesting is deeper than the limit of 5 levels of maps and lists"),
	Entry("a list's map of scalars beyond the limit",
		"volumes", `{"name":"a","downwardAPI":{}}`,
		`{"name":"a","downwardAPI":{"$patch":"replace","items":[{"path":"d"}]}}`, 5,
		"spec.volumes[name=a].downwardAPI: nesting is deeper than the limit of 5 levels of maps and lists"),
	Entry("an empty list beyond the limit",
		"volumes", `{"name":"a","downwardAPI":{}}`,
		`{"name":"a","downwardAPI":{"$patch":"replace","items":[]}}`, 4,
		"spec.volumes[name=a].downwardAPI: nesting is deeper than the limit of 4 levels of maps and lists"),
	Entry("another volume source",
		"volumes", `{"name":"a","secret":{}}`,
		`{"name":"a","secret":{"$patch":"replace","items":[{"key":"k","path":"d"}]}}`, 5,
		"spec.volumes[name=a].secret: nesting is deeper than the limit of 5 levels of maps and lists"),
	Entry("beside other fields, maps and directives",
		"volumes", `{"azureDisk":{"diskName":"a","fsType":"b","kind":"c"},"downwardAPI":{},"fc":{},"name":"a","quobyte":{"volume":"b"}}`,
		`{"cinder":{"$patch":"replace","fsType":"c"},"downwardAPI":{"$patch":"replace","items":[{"fieldRef":{"apiVersion":"d"},"path":"d"}]},`+
			`"emptyDir":null,"name":"a","photonPersistentDisk":{},"projected":{},"quobyte":{"$retainKeys":["group","zzAbsent"],"group":"c"},"secret":{"defaultMode":2}}`, 5,
		"spec.volumes[name=a].downwardAPI: nesting is deeper than the limit of 5 levels of maps and lists"),
	Entry("a container's security context",
		"containers", `{"name":"a","securityContext":{}}`,
		`{"name":"a","securityContext":{"$patch":"replace","capabilities":{"add":["x"]}}}`, 5,
		"spec.containers[name=a].securityContext: nesting is deeper than the limit of 5 levels of maps and lists"),
)

// expectLaterInTurn applies containers first and later (items of one key) to live at once under MaxDepth maxDepth,
// expecting the front-end to have applied frontEnd repeats again and the result (or wantErr) of the two applied one
// after another.
func expectLaterInTurn(live, first, later string, maxDepth int, wantErr string, frontEnd int64) {
	var again atomic.Int64
	countRepeats(nil, &again)
	opts := patch.Options{Gates: features.Kubectl(), MaxDepth: maxDepth}
	got, err := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(`{"spec":{"containers":[`+first+`,`+later+`]}}`), opts)
	Expect(again.Load()).To(Equal(frontEnd), "repeats the front-end applied again")
	want, stepErr := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(`{"spec":{"containers":[`+first+`]}}`), opts)
	Expect(stepErr).NotTo(HaveOccurred())
	want, stepErr = patch.Apply(want, jsonv.MustDecode(`{"spec":{"containers":[`+later+`]}}`), opts)
	expectInTurn(got, err, want, stepErr, wantErr)
}
