package strategicpatch_test

import (
	"encoding/json"
	"os/exec"
	"reflect"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/pkg/features"
	ply "github.com/plyproject/ply/pkg/strategicpatch"
	"github.com/plyproject/ply/pkg/strategicpatch/engine"
)

// deployment schema, as the API server and Helm read it.
var schema, _ = sp.NewPatchMetaFromStruct(&appsv1.Deployment{})

const (
	original = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},` +
		`"spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.25",` +
		`"env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"ports":[{"containerPort":80}]}]}}}}`
	modified = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web","tier":"fe"}},` +
		`"spec":{"replicas":3,"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.26",` +
		`"env":[{"name":"C","value":"3"},{"name":"A","value":"1"}],"ports":[{"containerPort":80}]}]}}}}`
	current = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"},"uid":"u"},` +
		`"spec":{"replicas":5,"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.25",` +
		`"env":[{"name":"A","value":"1"},{"name":"B","value":"2"},{"name":"S","value":"server"}],"ports":[{"containerPort":80}]}]}}}}`
)

func decode(s string) map[string]interface{} {
	GinkgoHelper()
	var m map[string]interface{}
	Expect(json.Unmarshal([]byte(s), &m)).To(Succeed())
	return m
}

// countingLookup is a LookupPatchMeta of a third party: it wraps another and records the keys it is asked for.
type countingLookup struct {
	inner sp.LookupPatchMeta
	asked *[]string
}

func (c countingLookup) LookupPatchMetadataForStruct(key string) (sp.LookupPatchMeta, sp.PatchMeta, error) {
	*c.asked = append(*c.asked, key)
	s, m, err := c.inner.LookupPatchMetadataForStruct(key)
	return countingLookup{s, c.asked}, m, err
}

func (c countingLookup) LookupPatchMetadataForSlice(key string) (sp.LookupPatchMeta, sp.PatchMeta, error) {
	*c.asked = append(*c.asked, key+"[]")
	s, m, err := c.inner.LookupPatchMetadataForSlice(key)
	return countingLookup{s, c.asked}, m, err
}

func (c countingLookup) Name() string { return "counting " + c.inner.Name() }

var _ = Describe("pkg/strategicpatch", func() {
	It("has apimachinery's functions, signatures included", func() {
		pairs := [][2]interface{}{
			{ply.StrategicMergePatch, sp.StrategicMergePatch},
			{ply.StrategicMergePatchUsingLookupPatchMeta, sp.StrategicMergePatchUsingLookupPatchMeta},
			{ply.StrategicMergeMapPatch, sp.StrategicMergeMapPatch},
			{ply.StrategicMergeMapPatchUsingLookupPatchMeta, sp.StrategicMergeMapPatchUsingLookupPatchMeta},
			{ply.MergeStrategicMergeMapPatchUsingLookupPatchMeta, sp.MergeStrategicMergeMapPatchUsingLookupPatchMeta},
			{ply.CreateTwoWayMergePatch, sp.CreateTwoWayMergePatch},
			{ply.CreateTwoWayMergePatchUsingLookupPatchMeta, sp.CreateTwoWayMergePatchUsingLookupPatchMeta},
			{ply.CreateTwoWayMergeMapPatch, sp.CreateTwoWayMergeMapPatch},
			{ply.CreateTwoWayMergeMapPatchUsingLookupPatchMeta, sp.CreateTwoWayMergeMapPatchUsingLookupPatchMeta},
			{ply.CreateThreeWayMergePatch, sp.CreateThreeWayMergePatch},
			{ply.MergingMapsHaveConflicts, sp.MergingMapsHaveConflicts},
			{ply.CreateDeleteDirective, sp.CreateDeleteDirective},
			{ply.NewPatchMetaFromStruct, sp.NewPatchMetaFromStruct},
			{ply.NewPatchMetaFromOpenAPI, sp.NewPatchMetaFromOpenAPI},
			{ply.ItemAddedToModifiedSlice, sp.ItemAddedToModifiedSlice},
			{ply.ItemRemovedFromModifiedSlice, sp.ItemRemovedFromModifiedSlice},
			{ply.ItemMatchesOriginalAndModifiedSlice, sp.ItemMatchesOriginalAndModifiedSlice},
			{ply.GetTagStructTypeOrDie, sp.GetTagStructTypeOrDie},
			{ply.NewKindItem, sp.NewKindItem},
			{ply.NewSliceItem, sp.NewSliceItem},
		}
		for _, p := range pairs {
			Expect(reflect.TypeOf(p[0])).To(Equal(reflect.TypeOf(p[1])))
		}
		Expect(ply.CreateDeleteDirective("name", "x")).To(Equal(sp.CreateDeleteDirective("name", "x")))
	})

	It("gives apimachinery's bytes for a two-way patch, a three-way patch and their application", func() {
		want2, err := sp.CreateTwoWayMergePatch([]byte(original), []byte(modified), &appsv1.Deployment{})
		Expect(err).NotTo(HaveOccurred())
		got2, err := ply.CreateTwoWayMergePatch([]byte(original), []byte(modified), &appsv1.Deployment{})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got2)).To(Equal(string(want2)))

		want3, err := sp.CreateThreeWayMergePatch([]byte(original), []byte(modified), []byte(current), schema, true)
		Expect(err).NotTo(HaveOccurred())
		got3, err := ply.CreateThreeWayMergePatch([]byte(original), []byte(modified), []byte(current), schema, true)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got3)).To(Equal(string(want3)))

		want, err := sp.StrategicMergePatch([]byte(current), want3, &appsv1.Deployment{})
		Expect(err).NotTo(HaveOccurred())
		got, err := ply.StrategicMergePatch([]byte(current), want3, &appsv1.Deployment{})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal(string(want)))
	})

	It("applies and creates patches on maps as apimachinery does, leaving its arguments as they were", func() {
		patch := decode(`{"spec":{"replicas":4,"template":{"spec":{"containers":[{"name":"web","image":"x"}]}}}}`)
		live := decode(current)
		got, err := ply.StrategicMergeMapPatch(live, patch, &appsv1.Deployment{})
		Expect(err).NotTo(HaveOccurred())
		Expect(live).To(Equal(decode(current)), "live unchanged")
		want, err := sp.StrategicMergeMapPatch(decode(current), decode(`{"spec":{"replicas":4,"template":{"spec":{"containers":[{"name":"web","image":"x"}]}}}}`), &appsv1.Deployment{})
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(want))

		got2, err := ply.CreateTwoWayMergeMapPatch(decode(original), decode(modified), &appsv1.Deployment{})
		Expect(err).NotTo(HaveOccurred())
		want2, err := sp.CreateTwoWayMergeMapPatch(decode(original), decode(modified), &appsv1.Deployment{})
		Expect(err).NotTo(HaveOccurred())
		Expect(got2).To(Equal(want2))
	})

	It("merges patches as apimachinery does, nulls and directives kept", func() {
		first := `{"metadata":{"labels":{"a":null}},"spec":{"template":{"spec":{"containers":[{"name":"web","$patch":"delete"}]}}}}`
		second := `{"metadata":{"labels":{"b":"2"}},"spec":{"template":{"spec":{"containers":[{"name":"side","image":"s"}]}}}}`
		want, err := sp.MergeStrategicMergeMapPatchUsingLookupPatchMeta(schema, decode(first), decode(second))
		Expect(err).NotTo(HaveOccurred())
		got, err := ply.MergeStrategicMergeMapPatchUsingLookupPatchMeta(schema, decode(first), decode(second))
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(want))
	})

	DescribeTable("reports conflicts between two patches as apimachinery does",
		func(left, right string) {
			want, werr := sp.MergingMapsHaveConflicts(decode(left), decode(right), schema)
			got, gerr := ply.MergingMapsHaveConflicts(decode(left), decode(right), schema)
			Expect(got).To(Equal(want))
			Expect(gerr != nil).To(Equal(werr != nil))
		},
		Entry("a scalar set twice alike", `{"spec":{"replicas":3}}`, `{"spec":{"replicas":3}}`),
		Entry("a scalar set twice differently", `{"spec":{"replicas":3}}`, `{"spec":{"replicas":4}}`),
		Entry("a map against a scalar", `{"metadata":{"labels":{"a":"1"}}}`, `{"metadata":{"labels":"x"}}`),
		Entry("a directive on one side", `{"metadata":{"labels":{"$patch":"replace"}}}`, `{"metadata":{"labels":{"a":"1"}}}`),
		Entry("merged list items by key",
			`{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"1"},{"name":"b","image":"2"}]}}}}`,
			`{"spec":{"template":{"spec":{"containers":[{"name":"b","image":"3"}]}}}}`),
		Entry("merged list items by key, no overlap",
			`{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"1"}]}}}}`,
			`{"spec":{"template":{"spec":{"containers":[{"name":"b","image":"3"}]}}}}`),
		Entry("an atomic list of scalars in another order",
			`{"spec":{"template":{"spec":{"containers":[{"name":"a","args":["x","y"]}]}}}}`,
			`{"spec":{"template":{"spec":{"containers":[{"name":"a","args":["y","x"]}]}}}}`),
		Entry("an item without its merge key", `{"spec":{"template":{"spec":{"containers":[{"image":"1"}]}}}}`,
			`{"spec":{"template":{"spec":{"containers":[{"name":"b"}]}}}}`),
	)

	// An atomic list of scalars holding a value twice: strategicpatch compares the lists' lengths, then each
	// deduplicated and sorted, item by item as far as the left one goes.
	DescribeTable("reports a conflict where apimachinery's check indexes past a deduplicated list",
		func(left, right string, apimachineryPanics bool) {
			got, gerr := ply.MergingMapsHaveConflicts(decode(left), decode(right), schema)
			Expect(gerr).NotTo(HaveOccurred())
			if apimachineryPanics {
				Expect(func() { _, _ = sp.MergingMapsHaveConflicts(decode(left), decode(right), schema) }).To(Panic())
				Expect(got).To(BeTrue(), "the two sets differ")
				return
			}
			want, werr := sp.MergingMapsHaveConflicts(decode(left), decode(right), schema)
			Expect(werr).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		},
		Entry("the right list naming a value twice",
			`{"spec":{"template":{"spec":{"containers":[{"name":"a","args":["x","y","z"]}]}}}}`,
			`{"spec":{"template":{"spec":{"containers":[{"name":"a","args":["x","x","y"]}]}}}}`, true),
		Entry("the right list naming a value three times",
			`{"spec":{"template":{"spec":{"containers":[{"name":"a","command":["c","b","a"]}]}}}}`,
			`{"spec":{"template":{"spec":{"containers":[{"name":"a","command":["a","a","a"]}]}}}}`, true),
		Entry("the left list naming a value twice: compared as far as it goes",
			`{"spec":{"template":{"spec":{"containers":[{"name":"a","args":["x","x","y"]}]}}}}`,
			`{"spec":{"template":{"spec":{"containers":[{"name":"a","args":["x","y","z"]}]}}}}`, false),
		Entry("both naming a value twice, the same sets",
			`{"spec":{"template":{"spec":{"containers":[{"name":"a","args":["y","x","x"]}]}}}}`,
			`{"spec":{"template":{"spec":{"containers":[{"name":"a","args":["x","y","y"]}]}}}}`, false),
	)

	It("returns apimachinery's errors", func() {
		_, err := ply.StrategicMergePatch([]byte("<not JSON>"), []byte("{}"), &appsv1.Deployment{})
		Expect(err == mergepatch.ErrBadJSONDoc).To(BeTrue(), "%v", err)
		_, err = ply.StrategicMergePatch([]byte("a: yaml"), []byte("{}"), &appsv1.Deployment{})
		Expect(err == mergepatch.ErrBadJSONDoc).To(BeTrue(), "YAML is not JSON: %v", err)
		_, err = ply.CreateThreeWayMergePatch(nil, []byte("["), nil, schema, true)
		Expect(err == mergepatch.ErrBadJSONDoc).To(BeTrue(), "%v", err)
		_, err = ply.StrategicMergeMapPatch(map[string]interface{}{}, map[string]interface{}{}, &unstructured.Unstructured{})
		Expect(err == mergepatch.ErrUnsupportedStrategicMergePatchFormat).To(BeTrue(), "%v", err)
		_, perr := ply.StrategicMergePatch([]byte("{}"), []byte("{}"), nil)
		_, werr := sp.StrategicMergePatch([]byte("{}"), []byte("{}"), nil)
		Expect(perr).To(MatchError(werr.Error()))

		noReplicas := mergepatch.RequireKeyUnchanged("spec")
		_, err = ply.CreateTwoWayMergePatch([]byte(original), []byte(modified), &appsv1.Deployment{}, noReplicas)
		Expect(mergepatch.IsPreconditionFailed(err)).To(BeTrue(), "%v", err)
		_, werr = sp.CreateTwoWayMergePatch([]byte(original), []byte(modified), &appsv1.Deployment{}, noReplicas)
		Expect(err).To(MatchError(werr.Error()))

		_, err = ply.CreateThreeWayMergePatch([]byte(original), []byte(modified), []byte(current), schema, false)
		Expect(mergepatch.IsConflict(err)).To(BeTrue(), "%v", err)
		_, werr = sp.CreateThreeWayMergePatch([]byte(original), []byte(modified), []byte(current), schema, false)
		Expect(err).To(MatchError(werr.Error()), "the same patch and changes named")
	})

	It("takes any LookupPatchMeta, asking it only for the keys the patch holds", func() {
		var asked []string
		lookup := countingLookup{schema, &asked}
		patch := `{"spec":{"replicas":4,"template":{"spec":{"containers":[{"name":"web","image":"x"}]}}}}`
		got, err := ply.StrategicMergePatchUsingLookupPatchMeta([]byte(current), []byte(patch), lookup)
		Expect(err).NotTo(HaveOccurred())
		want, err := sp.StrategicMergePatchUsingLookupPatchMeta([]byte(current), []byte(patch), schema)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal(string(want)))
		Expect(asked).To(ConsistOf("spec", "template", "spec", "containers[]"), "never metadata, env or ports")
	})

	It("gives a LookupPatchMeta keys it may keep: the caller's reuse of its arguments' memory leaves them as they were", func() {
		var asked []string
		lookup := countingLookup{schema, &asked}
		patch := []byte(`{"spec":{"replicas":4,"template":{"spec":{"containers":[{"name":"web","image":"x"}]}}}}`)
		live := []byte(current)
		_, err := ply.StrategicMergePatchUsingLookupPatchMeta(live, patch, lookup)
		Expect(err).NotTo(HaveOccurred())
		_, err = ply.CreateThreeWayMergePatch(live, patch, live, lookup, true)
		Expect(err).NotTo(HaveOccurred())
		kept := make([]string, len(asked))
		for i, k := range asked {
			kept[i] = strings.Clone(k)
		}
		for _, b := range [][]byte{patch, live} {
			for i := range b {
				b[i] = 'x'
			}
		}
		Expect(asked).To(Equal(kept))
		Expect(asked).To(ContainElements("spec", "template", "containers[]"))
	})

	It("fails a look-up where apimachinery fails it, and only there", func() {
		patch := `{"spec":{"unknownField":{"a":1}}}`
		_, werr := sp.StrategicMergePatch([]byte(`{"spec":{"unknownField":{"b":2}}}`), []byte(patch), &appsv1.Deployment{})
		Expect(werr).To(HaveOccurred())
		_, err := ply.StrategicMergePatch([]byte(`{"spec":{"unknownField":{"b":2}}}`), []byte(patch), &appsv1.Deployment{})
		Expect(err).To(MatchError(werr.Error()))
		want, werr := sp.StrategicMergePatch([]byte(`{"spec":{}}`), []byte(patch), &appsv1.Deployment{})
		Expect(werr).NotTo(HaveOccurred(), "a value live lacks is taken without a look-up")
		got, err := ply.StrategicMergePatch([]byte(`{"spec":{}}`), []byte(patch), &appsv1.Deployment{})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal(string(want)))
	})

	It("merges without apimachinery's strategicpatch: the engine does not import it", func() {
		out, err := exec.Command("go", "list", "-deps", "github.com/plyproject/ply/pkg/strategicpatch/engine").CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		Expect(string(out)).To(ContainSubstring("github.com/plyproject/ply/pkg/patch\n"))
		for _, dep := range strings.Split(string(out), "\n") {
			Expect(dep).NotTo(HaveSuffix("/strategicpatch"))
			Expect(dep).NotTo(ContainSubstring("jsonmergepatch"))
		}
	})
})

var _ = Describe("Lookup", func() {
	It("gives the engine a LookupPatchMeta, for calls with ply's gates", func() {
		live := []byte(`{"spec":{"strategy":{"type":"Recreate"}}}`)
		patch := []byte(`{"spec":{"strategy":{"$patch":"delete"}}}`)
		off, err := ply.StrategicMergePatchUsingLookupPatchMeta(live, patch, schema)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(off)).To(Equal(`{"spec":{"strategy":{}}}`), "every gate off: strategicpatch's empty map")
		on := features.Gates{}
		out, err := engine.Options{Gates: &on}.ApplyJSON(live, patch, ply.Lookup(schema))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(`{"spec":{}}`), "PatchDeleteRemovesMap on: the map is deleted")
	})
})

var _ = DescribeTable("malformed patches give apimachinery's errors",
	func(live, patch string, sentinel bool) {
		_, want := sp.StrategicMergePatch([]byte(live), []byte(patch), &appsv1.Deployment{})
		Expect(want).To(HaveOccurred())
		_, got := ply.StrategicMergePatch([]byte(live), []byte(patch), &appsv1.Deployment{})
		Expect(got).To(MatchError(want.Error()))
		if sentinel {
			Expect(got == want).To(BeTrue(), "the same sentinel, compared with ==")
		}
	},
	Entry("$retainKeys not a list", `{"spec":{"strategy":{"type":"Recreate"}}}`,
		`{"spec":{"strategy":{"$retainKeys":"type","type":"Recreate"}}}`, true),
	Entry("$retainKeys missing a field the patch sets", `{"spec":{"strategy":{"type":"Recreate"}}}`,
		`{"spec":{"strategy":{"$retainKeys":["type"],"rollingUpdate":{"maxSurge":1},"type":"RollingUpdate"}}}`, true),
	Entry("an unknown $patch value in a map", `{"spec":{"strategy":{"type":"Recreate"}}}`,
		`{"spec":{"strategy":{"$patch":"shred"}}}`, false),
	Entry("$patch: merge in a map", `{"spec":{"selector":{"matchLabels":{"a":"b"}}}}`,
		`{"spec":{"selector":{"$patch":"merge","matchLabels":{"c":"d"}}}}`, false),
	Entry("a patch list out of $setElementOrder's order", `{"spec":{"template":{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}}}`,
		`{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"a"},{"name":"b"}],"containers":[{"name":"b","image":"1"},{"name":"a","image":"2"}]}}}}`, false),
	Entry("an item without its merge key", `{"spec":{"template":{"spec":{"containers":[{"name":"a"}]}}}}`,
		`{"spec":{"template":{"spec":{"containers":[{"image":"2"}]}}}}`, false),
	Entry("$setElementOrder/<f> in a map of strings holding f", `{"metadata":{"labels":{"a":"x"}}}`,
		`{"metadata":{"labels":{"$setElementOrder/a":["x"]}}}`, false),
	Entry("$setElementOrder/<f> in a map of strings the patch sets f in", `{"metadata":{"labels":{"b":"x"}}}`,
		`{"metadata":{"labels":{"$setElementOrder/a":["x"],"a":"y"}}}`, false),
	Entry("$setElementOrder/<f> in a map of strings holding f as null", `{"metadata":{"labels":{"a":null}}}`,
		`{"metadata":{"labels":{"$setElementOrder/a":["x"]}}}`, false),
	Entry("$setElementOrder/<f> for a declared boolean live holds", `{"spec":{"paused":true}}`,
		`{"spec":{"$setElementOrder/paused":[true]}}`, false),
	Entry("$setElementOrder/<f> for a declared integer live holds", `{"spec":{"replicas":2}}`,
		`{"spec":{"$setElementOrder/replicas":[2]}}`, false),
	Entry("$setElementOrder/<f> for a declared object live holds", `{"spec":{"strategy":{"type":"Recreate"}}}`,
		`{"spec":{"$setElementOrder/strategy":[{"type":"Recreate"}]}}`, false),
	Entry("$setElementOrder/<f> for a declared integer the patch sets", `{"spec":{"paused":true}}`,
		`{"spec":{"$setElementOrder/replicas":[2],"replicas":2.5}}`, false),
)
