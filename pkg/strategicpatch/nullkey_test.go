package strategicpatch_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"

	ply "github.com/plyproject/ply/pkg/strategicpatch"
	"github.com/plyproject/ply/test/oracle"
)

// nullKeyMetas are the schemas the null merge-key specs run under: the embedded OpenAPI v3 and v2 documents and Go
// struct tags.
func nullKeyMetas() map[string]sp.LookupPatchMeta {
	v3, err := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
	Expect(err).NotTo(HaveOccurred())
	models, err := oracle.Default()
	Expect(err).NotTo(HaveOccurred())
	v2, err := models.Oracle("io.k8s.api.core.v1.Pod")
	Expect(err).NotTo(HaveOccurred())
	tags, err := sp.NewPatchMetaFromStruct(&corev1.Pod{})
	Expect(err).NotTo(HaveOccurred())
	return map[string]sp.LookupPatchMeta{"v3": v3.Meta(), "v2": v2.Meta(), "struct": tags}
}

// withoutNulls is JSON text with every null field dropped, as the API server stores an object.
func withoutNulls(text []byte) []byte {
	var v interface{}
	Expect(json.Unmarshal(text, &v)).To(Succeed())
	out, err := json.Marshal(dropNulls(v))
	Expect(err).NotTo(HaveOccurred())
	return out
}

func dropNulls(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		for k, f := range t {
			if f == nil {
				delete(t, k)
			} else {
				t[k] = dropNulls(f)
			}
		}
	case []interface{}:
		for i := range t {
			t[i] = dropNulls(t[i])
		}
	}
	return v
}

// A keyed list's item whose merge key field is null: strategicpatch compares the field's value, so null names the
// items holding the field null (never one lacking it). The drop-in (every gate off) applies and merges two patches as
// strategicpatch does, errors included: a null-keyed patch item is appended, deletes live's null-keyed items with
// "$patch: delete", orders by a null "$setElementOrder" entry, and where it merges into an item of its key (live's, or
// an earlier item of the patch) its null deletes the key field and both fail with the merged item; copied into
// content live lacks, it loses its null key, and a later item of the patch merging that list fails on it. cleaned: the
// result holds content live lacks whose nulls ply drops (docs/strategicpatch.md, "What stays different"), compared
// as the API server stores it; merging two patches keeps every null and is compared exactly.
var _ = DescribeTable("pkg/strategicpatch with a null merge key, as strategicpatch",
	func(original, patch string, cleaned bool) {
		for name, meta := range nullKeyMetas() {
			want, werr := sp.StrategicMergePatchUsingLookupPatchMeta([]byte(original), []byte(patch), meta)
			got, err := ply.StrategicMergePatchUsingLookupPatchMeta([]byte(original), []byte(patch), meta)
			if werr != nil {
				Expect(err).To(MatchError(werr.Error()), name)
			} else {
				Expect(err).NotTo(HaveOccurred(), name)
				if cleaned {
					want, got = withoutNulls(want), withoutNulls(got)
				}
				Expect(got).To(MatchJSON(want), name)
			}
		}
		composesAsStrategicpatch(original, patch)
	},
	Entry("appended beside live's items",
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`,
		`{"spec":{"containers":[{"name":null,"image":"x"}]}}`, true),
	Entry("the key field alone, appended",
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":null}]}}`, true),
	Entry("merged into live's null-keyed item: the merged item lacks the key",
		`{"spec":{"containers":[{"name":"a"},{"name":null,"image":"i","args":["x"]}]}}`,
		`{"spec":{"containers":[{"name":null,"image":"x"}]}}`, false),
	Entry("merged into the first of live's two null-keyed items",
		`{"spec":{"containers":[{"name":null,"image":"i"},{"name":null,"image":"j"}]}}`,
		`{"spec":{"containers":[{"name":null,"workingDir":"w"}]}}`, false),
	Entry("twice in the patch: the second merges into the first",
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":null,"image":"x"},{"name":"b"},{"name":null,"image":"y","workingDir":"w"}]}}`, false),
	Entry("twice in a list live lacks: copied as it stands, the items apart",
		`{"spec":{}}`,
		`{"spec":{"containers":[{"name":null,"image":"x"},{"name":null,"image":"y"}]}}`, false),
	Entry("twice in a list live holds empty: merged, and refused",
		`{"spec":{"containers":[]}}`,
		`{"spec":{"containers":[{"name":null,"image":"x"},{"name":null,"image":"y"}]}}`, false),
	Entry("twice in a nested list of an item live lacks: copied as it stands",
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"b","ports":[{"containerPort":null},{"containerPort":null,"name":"x"}]}]}}`, true),
	Entry("in a list copied into live's item, nulls dropped, and a later item of the key merging that list: refused",
		`{"spec":{"containers":[{"name":"e","tty":false}]}}`,
		`{"spec":{"containers":[{"name":"e","volumeMounts":[{"mountPath":"a"},{"mountPath":null,"readOnly":false,"subPath":null}]},{"name":"e","volumeMounts":[]}]}}`, false),
	Entry("in a list copied into live's item, a later item of the key not merging that list",
		`{"spec":{"containers":[{"name":"e","tty":false}]}}`,
		`{"spec":{"containers":[{"name":"e","volumeMounts":[{"mountPath":null,"readOnly":false}]},{"name":"e","image":"x"}]}}`, false),
	Entry("in a list of an item appended as it stands, a later item of the key merging that list",
		`{"spec":{"containers":[]}}`,
		`{"spec":{"containers":[{"name":"e","volumeMounts":[{"mountPath":null,"readOnly":false}]},{"name":"e","volumeMounts":[]}]}}`, true),
	Entry("appended before a repeat of another key: merged in one call",
		`{"metadata":{"ownerReferences":[{"uid":"a"}]}}`,
		`{"metadata":{"ownerReferences":[{"uid":null,"kind":"b"},{"uid":"a","kind":"c"},{"uid":"a","name":"n"}]}}`, true),
	Entry("live's item lacking the key, a patch merging its list: refused",
		`{"metadata":{"ownerReferences":[{"kind":"b"},{"uid":"a"}]}}`,
		`{"metadata":{"ownerReferences":[{"uid":"a","name":"n"}]}}`, false),
	Entry("live's item lacking the key matches no null",
		`{"spec":{"containers":[{"image":"i"}]}}`,
		`{"spec":{"containers":[{"name":null,"image":"x"}]}}`, false),
	Entry("deleting live's null-keyed items",
		`{"spec":{"containers":[{"name":"a"},{"name":null,"image":"i"},{"name":null}]}}`,
		`{"spec":{"containers":[{"name":null,"$patch":"delete"}]}}`, false),
	Entry("deleting a null key live lacks",
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":null,"$patch":"delete"}]}}`, false),
	Entry("deleting live's null-keyed item and adding one",
		`{"spec":{"containers":[{"name":"a"},{"name":null,"image":"i"}]}}`,
		`{"spec":{"containers":[{"name":null,"image":"x"},{"name":null,"$patch":"delete"}]}}`, true),
	Entry("ordered by a null \"$setElementOrder\" entry",
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":"a"},{"name":null}],"containers":[{"name":null,"image":"x"}]}}`, true),
	Entry("live's null-keyed item ordered by \"$setElementOrder\" alone",
		`{"spec":{"containers":[{"name":"a"},{"name":null}]}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":null},{"name":"a"}]}}`, false),
	Entry("a null \"$setElementOrder\" entry naming no item",
		`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":null}]}}`, false),
	Entry("a null \"$setElementOrder\" entry the patch's list contradicts",
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":null},{"name":"b"}],"containers":[{"name":"b"},{"name":null}]}}`, false),
	Entry("a nested list: a port's null containerPort appended",
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80}]}]}}`,
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":null,"name":"x"}]}]}}`, true),
	Entry("a nested list: merged into live's null containerPort",
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":null,"protocol":"UDP"}]}]}}`,
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":null,"name":"x"}]}]}}`, false),
)

// The patch producers with null-keyed items in original, modified and current: the drop-in's two-way and three-way
// patches are strategicpatch's, byte for byte, errors included.
var _ = DescribeTable("pkg/strategicpatch's patches of null-keyed items, as strategicpatch's",
	createsAsStrategicpatch,
	Entry("a null-keyed item added",
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"a"},{"name":null,"image":"x"}]}}`,
		`{"spec":{"containers":[{"name":"a"}]}}`),
	Entry("a null-keyed item removed",
		`{"spec":{"containers":[{"name":"a"},{"name":null,"image":"x"}]}}`,
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"a"},{"name":null,"image":"x"}]}}`),
	Entry("a null-keyed item changed and moved",
		`{"spec":{"containers":[{"name":"a"},{"name":null,"image":"x"}]}}`,
		`{"spec":{"containers":[{"name":null,"image":"y"},{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"a"},{"name":null,"image":"x"}]}}`),
	Entry("current's null-keyed item changed, modified's left",
		`{"spec":{"containers":[{"name":null,"image":"x"}]}}`,
		`{"spec":{"containers":[{"name":null,"image":"x"}]}}`,
		`{"spec":{"containers":[{"name":null,"image":"z"},{"name":"a"}]}}`),
	Entry("a null-keyed item replacing a named one",
		`{"spec":{"containers":[{"name":"a","image":"z"}]}}`,
		`{"spec":{"containers":[{"name":null,"image":"x"}]}}`,
		`{"spec":{"containers":[{"name":"a","image":"z"}]}}`),
)

// A null merge key deeper in content live lacks: a patch item merged into live's item copies a keyed list live's item
// lacks, nulls dropped, and a null-keyed item below an item of that list (in a keyed list of its map) loses its key; a
// later item of the same key merging down to that nested list fails on it, as strategicpatch's does (mixedDoc: env and
// resources.items merged by k, their items' sub.items too). Results are compared as the API server stores them.
var _ = DescribeTable("pkg/strategicpatch with a null merge key in a keyed list's items copied into live's item, as strategicpatch",
	func(original, patch string) {
		want, werr := sp.StrategicMergePatch([]byte(original), []byte(patch), &mixedDoc{})
		got, err := ply.StrategicMergePatch([]byte(original), []byte(patch), &mixedDoc{})
		if werr != nil {
			Expect(err).To(MatchError(werr.Error()))
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(withoutNulls(got)).To(MatchJSON(withoutNulls(want)))
	},
	Entry("a later item merging the nested list: refused",
		`{"spec":{"containers":[{"name":"e","image":"i"}]}}`,
		`{"spec":{"containers":[{"name":"e","resources":{"items":[{"k":"a","sub":{"items":[{"k":null,"v":"x"}]}}]}},`+
			`{"name":"e","resources":{"items":[{"k":"a","sub":{"items":[{"k":"z"}]}}]}}]}}`),
	Entry("a later item merging the nested list empty: refused",
		`{"spec":{"containers":[{"name":"e","image":"i"}]}}`,
		`{"spec":{"containers":[{"name":"e","env":[{"k":"b"},{"k":"a","sub":{"items":[{"k":"y"},{"k":null,"v":"x"}]}}]},`+
			`{"name":"e","env":[{"k":"a","sub":{"items":[]}}]}]}}`),
	Entry("a later item naming another item of the list",
		`{"spec":{"containers":[{"name":"e","image":"i"}]}}`,
		`{"spec":{"containers":[{"name":"e","env":[{"k":"a","sub":{"items":[{"k":null,"v":"x"}]}}]},{"name":"e","env":[{"k":"b"}]}]}}`),
	Entry("a later item of the key not reaching the nested list",
		`{"spec":{"containers":[{"name":"e","image":"i"}]}}`,
		`{"spec":{"containers":[{"name":"e","env":[{"k":"a","sub":{"items":[{"k":null,"v":"x"}]}}]},{"name":"e","env":[{"k":"a","w":"1"}]}]}}`),
	Entry("live's item holding the list: merged, not copied",
		`{"spec":{"containers":[{"name":"e","env":[{"k":"q"}]}]}}`,
		`{"spec":{"containers":[{"name":"e","env":[{"k":"a","sub":{"items":[{"k":null,"v":"x"}]}}]},{"name":"e","env":[{"k":"a","w":"1"}]}]}}`),
)

// createsAsStrategicpatch checks that the drop-in's two-way patch original -> modified and three-way patch (current
// as live, overwriting or not) are strategicpatch's, byte for byte, or fail with its error text, under the Pod's
// OpenAPI v3 and v2 documents and Go struct tags.
func createsAsStrategicpatch(original, modified, current string) {
	GinkgoHelper()
	for name, meta := range nullKeyMetas() {
		want, werr := sp.CreateTwoWayMergePatchUsingLookupPatchMeta([]byte(original), []byte(modified), meta)
		got, err := ply.CreateTwoWayMergePatchUsingLookupPatchMeta([]byte(original), []byte(modified), meta)
		if werr != nil {
			Expect(err).To(MatchError(werr.Error()), name)
		} else {
			Expect(err).NotTo(HaveOccurred(), name)
			Expect(string(got)).To(Equal(string(want)), name)
		}
		for _, overwrite := range []bool{true, false} {
			want, werr = sp.CreateThreeWayMergePatch([]byte(original), []byte(modified), []byte(current), meta, overwrite)
			got, err = ply.CreateThreeWayMergePatch([]byte(original), []byte(modified), []byte(current), meta, overwrite)
			if werr != nil {
				Expect(err).To(MatchError(werr.Error()), "%s overwrite %v", name, overwrite)
				continue
			}
			Expect(err).NotTo(HaveOccurred(), "%s overwrite %v", name, overwrite)
			Expect(string(got)).To(Equal(string(want)), "%s overwrite %v", name, overwrite)
		}
	}
}

// An item of a list merged by key lacking its merge key field (not null), in original, modified or current: the
// drop-in's patch producers fail as strategicpatch's do, naming the item strategicpatch meets first (it diffs current
// against modified, then original against modified, each list sorted by its keys' text, a missing key's "<nil>").
var _ = DescribeTable("pkg/strategicpatch's patches of items without their merge key, as strategicpatch's",
	createsAsStrategicpatch,
	Entry("modified's item added without it",
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"a"},{"image":"x"}]}}`,
		`{"spec":{"containers":[{"name":"a"}]}}`),
	Entry("original's item without it, removed",
		`{"spec":{"containers":[{"name":"a"},{"image":"x"}]}}`,
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"a"}]}}`),
	Entry("original's and modified's items without it: original's first",
		`{"spec":{"containers":[{"image":"y"}]}}`,
		`{"spec":{"containers":[{"image":"x"}]}}`,
		`{"spec":{"containers":[{"name":"a"}]}}`),
	Entry("current's item without it",
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"a","image":"z"}]}}`,
		`{"spec":{"containers":[{"name":"a"},{"image":"q"}]}}`),
	Entry("modified's and current's items without it: current's first",
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"a"},{"image":"m"}]}}`,
		`{"spec":{"containers":[{"name":"a"},{"image":"q"}]}}`),
	Entry("keys sorting before the missing key's text and after it",
		`{"spec":{"containers":[{"name":"b"},{"name":"0"}]}}`,
		`{"spec":{"containers":[{"name":"b"},{"image":"x"},{"name":"1"},{"image":"y"}]}}`,
		`{"spec":{"containers":[{"name":"b"},{"name":"0"}]}}`),
	Entry("a nested list's item without it",
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1}]}]}}`,
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1},{"name":"p"}]}]}}`,
		`{"spec":{"containers":[{"name":"a"}]}}`),
)
