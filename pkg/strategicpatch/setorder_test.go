package strategicpatch_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	sp "k8s.io/apimachinery/pkg/util/strategicpatch"

	ply "github.com/plyproject/ply/pkg/strategicpatch"
	"github.com/plyproject/ply/test/oracle"
)

// A "$setElementOrder/<f>" beside a value of f that is not a list, in the object or in the patch, gets
// strategicpatch's error for it ("expected a []interface {}, but received a <type>"), which it gives before it looks f
// up, under every schema it reads: Go struct tags, OpenAPI v2 and v3, f declared or not (a key of a map of strings).
var _ = DescribeTable("a $setElementOrder beside a value that is not a list gives apimachinery's error",
	func(live, patch, want string) {
		v2, err := oracle.Default()
		Expect(err).NotTo(HaveOccurred())
		o2, err := v2.Oracle("io.k8s.api.apps.v1.Deployment")
		Expect(err).NotTo(HaveOccurred())
		o3, err := oracle.DefaultV3For("io.k8s.api.apps.v1.Deployment")
		Expect(err).NotTo(HaveOccurred())
		for _, meta := range []sp.LookupPatchMeta{schema, o2.Meta(), o3.Meta()} {
			_, werr := sp.StrategicMergePatchUsingLookupPatchMeta([]byte(live), []byte(patch), meta)
			Expect(werr).To(MatchError(want))
			_, err := ply.StrategicMergePatchUsingLookupPatchMeta([]byte(live), []byte(patch), meta)
			Expect(err).To(MatchError(want))
		}
	},
	Entry("a map of strings holding f", `{"metadata":{"labels":{"a":"x"}}}`,
		`{"metadata":{"labels":{"$setElementOrder/a":["x"]}}}`, "expected a []interface {}, but received a string"),
	Entry("a map of strings the patch sets f in", `{"metadata":{"labels":{"b":"x"}}}`,
		`{"metadata":{"labels":{"$setElementOrder/a":["x"],"a":"y"}}}`, "expected a []interface {}, but received a string"),
	Entry("a map of strings holding f as null", `{"metadata":{"labels":{"a":null}}}`,
		`{"metadata":{"labels":{"$setElementOrder/a":["x"]}}}`, "expected a []interface {}, but received a %!s(<nil>)"),
	Entry("the object's value checked before the patch's", `{"metadata":{"labels":{"a":"x"}}}`,
		`{"metadata":{"labels":{"$setElementOrder/a":["x"],"a":null}}}`, "expected a []interface {}, but received a string"),
	Entry("a map of objects holding f", `{"spec":{"selector":{"matchLabels":{"a":"x"}}}}`,
		`{"spec":{"selector":{"$setElementOrder/matchLabels":[{"a":"x"}]}}}`, "expected a []interface {}, but received a map[string]interface {}"),
	Entry("a declared boolean", `{"spec":{"paused":true}}`,
		`{"spec":{"$setElementOrder/paused":[true]}}`, "expected a []interface {}, but received a bool"),
	Entry("a declared integer", `{"spec":{"replicas":2}}`,
		`{"spec":{"$setElementOrder/replicas":[2]}}`, "expected a []interface {}, but received a int64"),
	Entry("a declared object", `{"spec":{"strategy":{"type":"Recreate"}}}`,
		`{"spec":{"$setElementOrder/strategy":[{"type":"Recreate"}]}}`, "expected a []interface {}, but received a map[string]interface {}"),
	Entry("a declared integer the patch sets to a decimal", `{"spec":{"paused":true}}`,
		`{"spec":{"$setElementOrder/replicas":[2],"replicas":2.5}}`, "expected a []interface {}, but received a float64"),
)
