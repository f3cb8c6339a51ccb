package strategicpatch_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"

	ply "github.com/plyproject/ply/pkg/strategicpatch"
)

// A "$setElementOrder" entry of a list merged by key whose merge key field holds an object or a list: strategicpatch
// compares key values with ==, which such a value equals for no item's scalar key, so the entry names no item (it
// orders nothing and names none of the patch's items); the drop-in follows it, applying a patch and merging two, under
// OpenAPI v3, v2 and Go struct tags.
var _ = DescribeTable("pkg/strategicpatch with a \"$setElementOrder\" entry whose merge key is an object, as strategicpatch",
	func(original, patch string) {
		for name, meta := range nullKeyMetas() {
			want, werr := sp.StrategicMergePatchUsingLookupPatchMeta([]byte(original), []byte(patch), meta)
			got, err := ply.StrategicMergePatchUsingLookupPatchMeta([]byte(original), []byte(patch), meta)
			if werr != nil {
				Expect(err).To(MatchError(werr.Error()), name)
				continue
			}
			Expect(err).NotTo(HaveOccurred(), name)
			Expect(got).To(MatchJSON(want), name)
		}
		composesAsStrategicpatch(original, patch)
	},
	Entry("among entries naming the patch's item and live's",
		`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":{"x":1}},{"name":"a"}],"containers":[{"name":"b","image":"x"}]}}`),
	Entry("alone, ordering live's list",
		`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":{"x":1}}]}}`),
	Entry("a list as the key",
		`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":["x"]},{"name":"a"}]}}`),
	Entry("where live lacks the list",
		`{"spec":{}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":{"x":1}},{"name":"a"}],"containers":[{"name":"a"}]}}`),
	Entry("in a nested list",
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1},{"containerPort":2}]}]}}`,
		`{"spec":{"containers":[{"name":"a","$setElementOrder/ports":[{"containerPort":{"a":1}},{"containerPort":2},{"containerPort":1}]}]}}`),
	Entry("before a patch item live lacks",
		`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":{"x":1}},{"name":"c"},{"name":"a"}],"containers":[{"name":"c"},{"name":"a","image":"i"}]}}`),
	Entry("the patch naming a key twice",
		`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":{"x":1}},{"name":"a"}],"containers":[{"name":"b","image":"x"},{"name":"b","workingDir":"w"}]}}`),
	Entry("beside a delete item",
		`{"spec":{"containers":[{"name":"a"},{"name":"b"},{"name":"c"}]}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":{"x":1}},{"name":"a"}],"containers":[{"name":"c","$patch":"delete"},{"name":"b","image":"x"}]}}`),
	Entry("in a later item of a key, ordering the outcome's list alone",
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1},{"containerPort":2}]}]}}`,
		`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/ports":[{"containerPort":2},{"containerPort":{"a":1}},{"containerPort":1}]}]}}`),
	Entry("two equal",
		`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":{"x":1}},{"name":"b"},{"name":{"x":1}},{"name":"a"}],"containers":[{"name":"a","image":"x"}]}}`),
	Entry("the patch's item named by no entry: refused",
		`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":{"x":1}},{"name":"b"}],"containers":[{"name":"a","image":"x"}]}}`),
)
