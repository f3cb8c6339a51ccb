package strategicpatch_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"k8s.io/apimachinery/pkg/util/json"
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"

	ply "github.com/plyproject/ply/pkg/strategicpatch"
	"github.com/plyproject/ply/test/oracle"
)

// A "$deleteFromPrimitiveList/<f>" whose value is not a list is read as strategicpatch's merge of a map reads it: as
// the key f, taken only where the object's map holds f: null deletes f, a scalar of the Go type the object holds
// replaces it, a map merges into the object's map as a patch; a value of another type, or an f the object lacks, is
// nothing. Bytes and maps (numbers decoded as the bytes API decodes them, and as encoding/json does), under Go struct
// tags, OpenAPI v2 and v3.
var _ = DescribeTable("a $deleteFromPrimitiveList whose value is not a list applies as strategicpatch's",
	func(original, patch, want string) {
		for i, meta := range deleteNotListMetas() {
			By([]string{"Go struct tags", "OpenAPI v2", "OpenAPI v3"}[i])
			got, err := sp.StrategicMergePatchUsingLookupPatchMeta([]byte(original), []byte(patch), meta)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(MatchJSON(want), "the oracle")
			got, err = ply.StrategicMergePatchUsingLookupPatchMeta([]byte(original), []byte(patch), meta)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got)).To(Equal(want), "bytes")

			wantMap, err := sp.StrategicMergeMapPatchUsingLookupPatchMeta(typedJSONMap(original), typedJSONMap(patch), meta)
			Expect(err).NotTo(HaveOccurred())
			gotMap, err := ply.StrategicMergeMapPatchUsingLookupPatchMeta(typedJSONMap(original), typedJSONMap(patch), meta)
			Expect(err).NotTo(HaveOccurred())
			Expect(gotMap).To(Equal(wantMap), "maps")

			wantMap, err = sp.StrategicMergeMapPatchUsingLookupPatchMeta(jsonMap(original), jsonMap(patch), meta)
			Expect(err).NotTo(HaveOccurred())
			gotMap, err = ply.StrategicMergeMapPatchUsingLookupPatchMeta(jsonMap(original), jsonMap(patch), meta)
			Expect(err).NotTo(HaveOccurred())
			Expect(gotMap).To(Equal(wantMap), "maps decoded by encoding/json (every number a float64)")
		}
	},
	Entry("null deletes f", `{"metadata":{"finalizers":["a","b"],"name":"p"}}`,
		`{"metadata":{"$deleteFromPrimitiveList/finalizers":null}}`, `{"metadata":{"name":"p"}}`),
	Entry("null, f absent: nothing", `{"metadata":{"name":"p"}}`,
		`{"metadata":{"$deleteFromPrimitiveList/finalizers":null}}`, `{"metadata":{"name":"p"}}`),
	Entry("a scalar of f's type replaces it", `{"spec":{"paused":false,"replicas":2}}`,
		`{"spec":{"$deleteFromPrimitiveList/replicas":3}}`, `{"spec":{"paused":false,"replicas":3}}`),
	Entry("a string of f's type replaces it", `{"metadata":{"name":"p"}}`,
		`{"metadata":{"$deleteFromPrimitiveList/name":"q"}}`, `{"metadata":{"name":"q"}}`),
	Entry("a scalar of another type: nothing", `{"spec":{"replicas":2}}`,
		`{"spec":{"$deleteFromPrimitiveList/replicas":2.5}}`, `{"spec":{"replicas":2}}`),
	Entry("an integer written as a decimal, a float64: nothing", `{"spec":{"replicas":2}}`,
		`{"spec":{"$deleteFromPrimitiveList/replicas":3.0}}`, `{"spec":{"replicas":2}}`),
	Entry("a string onto a boolean: nothing", `{"spec":{"paused":true}}`,
		`{"spec":{"$deleteFromPrimitiveList/paused":"false"}}`, `{"spec":{"paused":true}}`),
	Entry("a boolean onto a boolean replaces it", `{"spec":{"paused":true}}`,
		`{"spec":{"$deleteFromPrimitiveList/paused":false}}`, `{"spec":{"paused":false}}`),
	Entry("a scalar onto a list: nothing", `{"metadata":{"finalizers":["a"],"name":"p"}}`,
		`{"metadata":{"$deleteFromPrimitiveList/finalizers":"a"}}`, `{"metadata":{"finalizers":["a"],"name":"p"}}`),
	Entry("a map onto a map merges into it as a patch", `{"spec":{"selector":{"matchLabels":{"a":"x","c":"z"}}}}`,
		`{"spec":{"selector":{"$deleteFromPrimitiveList/matchLabels":{"a":null,"b":"y"}}}}`,
		`{"spec":{"selector":{"matchLabels":{"b":"y","c":"z"}}}}`),
	Entry("a map onto a scalar: nothing", `{"spec":{"replicas":2}}`,
		`{"spec":{"$deleteFromPrimitiveList/replicas":{"a":1}}}`, `{"spec":{"replicas":2}}`),
	Entry("a scalar, f absent: nothing", `{"spec":{}}`,
		`{"spec":{"$deleteFromPrimitiveList/replicas":3}}`, `{"spec":{}}`),
	Entry("a scalar, f listed by $retainKeys: f's", `{"spec":{"strategy":{"type":"Recreate"}}}`,
		`{"spec":{"strategy":{"$retainKeys":["type"],"$deleteFromPrimitiveList/type":"RollingUpdate"}}}`,
		`{"spec":{"strategy":{"type":"RollingUpdate"}}}`),
	Entry("a scalar, f cleared by $retainKeys: nothing", `{"spec":{"strategy":{"type":"Recreate"}}}`,
		`{"spec":{"strategy":{"$retainKeys":["rollingUpdate"],"$deleteFromPrimitiveList/type":"X"}}}`,
		`{"spec":{"strategy":{}}}`),
	Entry("null beside $setElementOrder/<f>: f deleted", `{"metadata":{"finalizers":["a","b"],"name":"p"}}`,
		`{"metadata":{"$setElementOrder/finalizers":["b","a"],"$deleteFromPrimitiveList/finalizers":null}}`, `{"metadata":{"name":"p"}}`),
	Entry("a scalar beside $setElementOrder/<f>: the order alone", `{"metadata":{"finalizers":["a","b"],"name":"p"}}`,
		`{"metadata":{"$setElementOrder/finalizers":["b","a"],"$deleteFromPrimitiveList/finalizers":"a"}}`,
		`{"metadata":{"finalizers":["b","a"],"name":"p"}}`),
)

// Beside f set by the patch, strategicpatch reads both keys as f in the order Go's map iteration meets them (random);
// ply refuses it, naming the path.
var _ = DescribeTable("a $deleteFromPrimitiveList not a list beside the field it names is refused",
	func(original, patch, want string) {
		for _, meta := range deleteNotListMetas() {
			_, err := ply.StrategicMergePatchUsingLookupPatchMeta([]byte(original), []byte(patch), meta)
			Expect(err).To(MatchError(ContainSubstring(want)))
		}
	},
	Entry("a scalar", `{"spec":{"replicas":2}}`, `{"spec":{"$deleteFromPrimitiveList/replicas":3,"replicas":4}}`,
		`spec: $deleteFromPrimitiveList/replicas is not a list and the patch sets "replicas" too`),
	Entry("null", `{"metadata":{"finalizers":["a"]}}`, `{"metadata":{"$deleteFromPrimitiveList/finalizers":null,"finalizers":["b"]}}`,
		`metadata: $deleteFromPrimitiveList/finalizers is not a list and the patch sets "finalizers" too`),
)

// In a map new to the object, the key is content the object lacks, cleaned of directive keys as ply cleans every such
// value (strategicpatch keeps it as data: a documented difference), f set beside it or not.
var _ = DescribeTable("a $deleteFromPrimitiveList not a list in a map new to the object is dropped",
	func(original, patch, want string) {
		for _, meta := range deleteNotListMetas() {
			got, err := ply.StrategicMergePatchUsingLookupPatchMeta([]byte(original), []byte(patch), meta)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got)).To(Equal(want))
		}
	},
	Entry("alone", `{"spec":{}}`, `{"spec":{"selector":{"$deleteFromPrimitiveList/matchLabels":3}}}`, `{"spec":{"selector":{}}}`),
	Entry("beside f", `{"spec":{}}`, `{"spec":{"selector":{"$deleteFromPrimitiveList/matchLabels":3,"matchLabels":{"a":"x"}}}}`,
		`{"spec":{"selector":{"matchLabels":{"a":"x"}}}}`),
)

func deleteNotListMetas() []sp.LookupPatchMeta {
	v2, err := oracle.Default()
	Expect(err).NotTo(HaveOccurred())
	o2, err := v2.Oracle("io.k8s.api.apps.v1.Deployment")
	Expect(err).NotTo(HaveOccurred())
	o3, err := oracle.DefaultV3For("io.k8s.api.apps.v1.Deployment")
	Expect(err).NotTo(HaveOccurred())
	return []sp.LookupPatchMeta{schema, o2.Meta(), o3.Meta()}
}

// typedJSONMap decodes s as strategicpatch's bytes API does (integers int64, other numbers float64), into a new map.
func typedJSONMap(s string) map[string]interface{} {
	var m map[string]interface{}
	Expect(json.Unmarshal([]byte(s), &m)).To(Succeed())
	return m
}

// Merging two patches, a "$deleteFromPrimitiveList/<f>" whose value is not a list is data, as strategicpatch's merge
// of patches keeps it (it reads the directive only applying a patch).
var _ = DescribeTable("pkg/strategicpatch merging two patches, a $deleteFromPrimitiveList whose value is not a list, as strategicpatch",
	composesAsStrategicpatch,
	Entry("null, the first holding f", `{"metadata":{"finalizers":["a"]}}`,
		`{"metadata":{"$deleteFromPrimitiveList/finalizers":null}}`),
	Entry("a scalar, the first holding the key", `{"spec":{"$deleteFromPrimitiveList/replicas":2}}`,
		`{"spec":{"$deleteFromPrimitiveList/replicas":3}}`),
	Entry("a map, the first holding f", `{"spec":{"selector":{"matchLabels":{"a":"x"}}}}`,
		`{"spec":{"selector":{"$deleteFromPrimitiveList/matchLabels":{"a":null}}}}`),
	Entry("beside f", `{"spec":{}}`, `{"spec":{"$deleteFromPrimitiveList/replicas":3,"replicas":4}}`),
)
