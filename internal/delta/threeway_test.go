package delta_test

import (
	"github.com/plyproject/ply/test/treetest"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/pkg/value"
)

// threeWay returns the producer's three-way patch of c ({} when none).
func threeWay(c threeCase) value.Value {
	got, ok, err := delta.ThreeWay(c.tree())
	Expect(err).NotTo(HaveOccurred())
	if !ok {
		return value.MustMap()
	}
	Expect(got.IsMap()).To(BeTrue())
	Expect(got.Len()).NotTo(BeZero(), "ok with an empty patch")
	return got
}

// at returns the value of patch at path (dot-separated map fields).
func at(patch value.Value, path string) (value.Value, bool) {
	cur := patch
	for _, p := range strings.Split(path, ".") {
		next, ok := cur.Get(p)
		if !ok {
			return value.Value{}, false
		}
		cur = next
	}
	return cur, true
}

var _ = Describe("ThreeWay", func() {
	DescribeTable("is kubectl's three-way patch, byte for byte",
		func(kind string, vals map[string]string) {
			c := newCase(kind, get(vals, "recorded"), get(vals, "local"), get(vals, "live"))
			want := kubectlThreeWay(c.def(), c.recorded, c.hasRecorded, c.local, c.live)
			Expect(string(threeWay(c).JSON())).To(Equal(string(want.JSON())))
		},
		loadCases("threeway.yaml"),
	)

	DescribeTable("at a field",
		func(recorded, local, live, path string, want string) {
			c := newCase("ConfigMap", recorded, local, live)
			kubectl, kubectlHas := at(kubectlThreeWay(c.def(), c.recorded, c.hasRecorded, c.local, c.live), path)
			got, has := at(threeWay(c), path)
			if want == absent {
				Expect(has).To(BeFalse())
				Expect(kubectlHas).To(BeFalse(), "kubectl's patch")
				return
			}
			Expect(has).To(BeTrue())
			Expect(string(got.JSON())).To(Equal(string(treetest.YAML(want).JSON())))
			Expect(string(kubectl.JSON())).To(Equal(string(got.JSON())), "kubectl's patch")
		},
		Entry("omitted since recorded: null", `{data: {a: "1"}}`, `{data: {}}`, `{data: {a: "1"}}`, "data.a", "null"),
		Entry("omitted, not recorded: none", `{data: {}}`, `{data: {}}`, `{data: {a: "1"}}`, "data.a", absent),
		Entry("nulled, live has it: null", absent, `{data: {a: null}}`, `{data: {a: "1"}}`, "data.a", "null"),
		Entry("nulled, live has no non-null value: a null entry anyway", absent, `{data: {a: null}}`, `{data: {}}`, "data.a", "null"),
		Entry("nulled, live null too: none", absent, `{data: {a: null, b: "1"}}`, `{data: {a: null}}`, "data.a", absent),
		Entry("set: the values live lacks", absent, `{metadata: {finalizers: [a, b, c]}}`, `{metadata: {finalizers: [b]}}`, "metadata.finalizers", "[a, c]"),
		Entry("set: its order, local's list", absent, `{metadata: {finalizers: [a, b, c]}}`, `{metadata: {finalizers: [b]}}`, "metadata.$setElementOrder/finalizers", "[a, b, c]"),
		Entry("a key recorded repeats: the later item is deleted, as kubectl deletes it",
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}, {uid: "1", name: b, kind: K, apiVersion: v1}]}}`,
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}]}}`,
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}]}}`,
			"metadata.ownerReferences", `[{$patch: delete, uid: "1"}]`),
		Entry("set: the values dropped since recorded", `{metadata: {finalizers: [a, b, c]}}`, `{metadata: {finalizers: [c]}}`, `{metadata: {finalizers: [c, b]}}`,
			"metadata.$deleteFromPrimitiveList/finalizers", "[a, b]"),
	)
})
