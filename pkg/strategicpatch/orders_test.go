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

// Orders strategicpatch follows where ply's own gates would refuse or rank otherwise: the drop-in gives
// strategicpatch's result or error, applying a patch and merging two, with Go struct tags and OpenAPI v3 alike.
var _ = DescribeTable("pkg/strategicpatch orders lists as strategicpatch does",
	func(original, patch string) {
		v3, err := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
		Expect(err).NotTo(HaveOccurred())
		tags, err := sp.NewPatchMetaFromStruct(&corev1.Pod{})
		Expect(err).NotTo(HaveOccurred())
		for _, meta := range []sp.LookupPatchMeta{v3.Meta(), tags} {
			want, werr := sp.StrategicMergePatchUsingLookupPatchMeta([]byte(original), []byte(patch), meta)
			got, err := ply.StrategicMergePatchUsingLookupPatchMeta([]byte(original), []byte(patch), meta)
			if werr != nil {
				Expect(err).To(MatchError(werr.Error()), "%T", meta)
			} else {
				Expect(err).NotTo(HaveOccurred(), "%T", meta)
				Expect(got).To(MatchJSON(want), "%T", meta)
			}
			wantMerged, werr := sp.MergeStrategicMergeMapPatchUsingLookupPatchMeta(meta, jsonObject(original), jsonObject(patch))
			gotMerged, err := ply.MergeStrategicMergeMapPatchUsingLookupPatchMeta(meta, jsonObject(original), jsonObject(patch))
			if werr != nil {
				Expect(err).To(MatchError(werr.Error()), "%T", meta)
				continue
			}
			Expect(err).NotTo(HaveOccurred(), "%T", meta)
			Expect(gotMerged).To(Equal(wantMerged), "%T", meta)
		}
	},
	Entry("a list without merge strategy ordered by \"$setElementOrder\" beside it",
		`{"spec":{"containers":[{"name":"a","args":["a","b","c"]}]}}`,
		`{"spec":{"containers":[{"name":"a","$setElementOrder/args":["c","a"],"args":["a","c"]}]}}`),
	Entry("a list without merge strategy reordered by \"$setElementOrder\" alone",
		`{"spec":{"containers":[{"name":"a","args":["a","b","c"]}]}}`,
		`{"spec":{"containers":[{"name":"a","$setElementOrder/args":["c","a"]}]}}`),
	Entry("a set naming a value twice, emptied: ranked by the list as deduplicated in place",
		`{"metadata":{"finalizers":["s3","s3","s1","s2"]}}`,
		`{"metadata":{"$setElementOrder/finalizers":["s1"],"finalizers":[]}}`),
	Entry("a \"$setElementOrder\" naming a field the object does not declare: the schema's look-up error",
		`{"spec":{"hostname":"h"}}`,
		`{"spec":{"$setElementOrder/sidecars":[{"name":"a"}]}}`),
	Entry("a \"$setElementOrder\" in a map of values: the schema's look-up error",
		`{"metadata":{"labels":{"a":"b"}}}`,
		`{"metadata":{"labels":{"$setElementOrder/b":["x"]}}}`),
)

// jsonObject is JSON object text as a map, as encoding/json decodes it.
func jsonObject(text string) map[string]interface{} {
	var m map[string]interface{}
	Expect(json.Unmarshal([]byte(text), &m)).To(Succeed())
	return m
}
