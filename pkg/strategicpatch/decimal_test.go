package strategicpatch_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"

	ply "github.com/plyproject/ply/pkg/strategicpatch"
)

// Class decimal-merge-key (docs/strategicpatch.md, "What stays different"): a merge key's value written as a decimal,
// or given in a map as another Go number type than live's, is the one number it is to ply. apimachinery compares the Go
// values with ==, so that int64 80 and float64 80 (80 and 80.0 in JSON text) are two keys to it.

// livePorts is a Pod whose container a has ports 80 (named a) and 81.
const livePorts = `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"a"},{"containerPort":81,"name":"c"}]}]}}`

// sameJSON is a matcher of a result's JSON text against want's, both read by encoding/json (every number a float64).
func sameJSON(got []byte, want string) {
	GinkgoHelper()
	var g, w interface{}
	Expect(json.Unmarshal(got, &g)).To(Succeed())
	Expect(json.Unmarshal([]byte(want), &w)).To(Succeed())
	Expect(g).To(Equal(w), "got %s", got)
}

var _ = DescribeTable("a merge key written as a decimal is live's key (class decimal-merge-key), in JSON",
	func(patch, want, apimachinery string) {
		got, err := ply.StrategicMergePatch([]byte(livePorts), []byte(patch), corev1.Pod{})
		Expect(err).NotTo(HaveOccurred())
		sameJSON(got, want)
		theirs, err := sp.StrategicMergePatch([]byte(livePorts), []byte(patch), corev1.Pod{})
		if apimachinery == "" {
			Expect(err).To(MatchError(ContainSubstring("doesn't match $setElementOrder list")))
			return
		}
		Expect(err).NotTo(HaveOccurred())
		sameJSON(theirs, apimachinery)
	},
	Entry("80.0 merges into port 80 (apimachinery appends a second port 80)",
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80.0,"name":"b"}]}]}}`,
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"b"},{"containerPort":81,"name":"c"}]}]}}`,
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"b"},{"containerPort":80,"name":"a"},{"containerPort":81,"name":"c"}]}]}}`),
	Entry("8e1 likewise",
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":8e1,"name":"b"}]}]}}`,
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"b"},{"containerPort":81,"name":"c"}]}]}}`,
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"b"},{"containerPort":80,"name":"a"},{"containerPort":81,"name":"c"}]}]}}`),
	Entry(`"$patch: delete" of 80.0 deletes port 80 (apimachinery deletes nothing)`,
		`{"spec":{"containers":[{"name":"a","ports":[{"$patch":"delete","containerPort":80.0}]}]}}`,
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":81,"name":"c"}]}]}}`,
		livePorts),
	Entry("$setElementOrder naming 80.0 orders port 80 (apimachinery leaves live's order)",
		`{"spec":{"containers":[{"name":"a","$setElementOrder/ports":[{"containerPort":81},{"containerPort":80.0}]}]}}`,
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":81,"name":"c"},{"containerPort":80,"name":"a"}]}]}}`,
		livePorts),
	Entry("$setElementOrder naming 80 for the patch's item 80.0 (apimachinery fails the order)",
		`{"spec":{"containers":[{"name":"a","$setElementOrder/ports":[{"containerPort":81},{"containerPort":80}],"ports":[{"containerPort":80.0,"name":"b"}]}]}}`,
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":81,"name":"c"},{"containerPort":80,"name":"b"}]}]}}`,
		""),
)

// portsMap is a Pod map whose container a has one port, its containerPort the Go value port, named name.
func portsMap(port interface{}, name string) map[string]interface{} {
	return map[string]interface{}{"spec": map[string]interface{}{"containers": []interface{}{
		map[string]interface{}{"name": "a", "ports": []interface{}{map[string]interface{}{"containerPort": port, "name": name}}},
	}}}
}

var _ = DescribeTable("a merge key of another Go number type than live's is live's key (class decimal-merge-key), in maps",
	func(port interface{}) {
		want := `{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"b"}]}]}}`
		got, err := ply.StrategicMergeMapPatch(portsMap(int64(80), "a"), portsMap(port, "b"), corev1.Pod{})
		Expect(err).NotTo(HaveOccurred())
		text, err := json.Marshal(got)
		Expect(err).NotTo(HaveOccurred())
		sameJSON(text, want)
		composed, err := ply.MergeStrategicMergeMapPatchUsingLookupPatchMeta(podSchema(), portsMap(int64(80), "a"), portsMap(port, "b"))
		Expect(err).NotTo(HaveOccurred())
		text, err = json.Marshal(composed)
		Expect(err).NotTo(HaveOccurred())
		sameJSON(text, want)

		theirs, err := sp.StrategicMergeMapPatch(portsMap(int64(80), "a"), portsMap(port, "b"), corev1.Pod{})
		Expect(err).NotTo(HaveOccurred())
		ports := theirs["spec"].(map[string]interface{})["containers"].([]interface{})[0].(map[string]interface{})["ports"]
		Expect(ports).To(HaveLen(2), "apimachinery: two ports, its == telling int64 80 from %T 80", port)
	},
	Entry("float64", float64(80)),
	Entry("json.Number 80", json.Number("80")),
	Entry("json.Number 80.0", json.Number("80.0")),
	Entry("int32", int32(80)),
)

func podSchema() sp.LookupPatchMeta {
	GinkgoHelper()
	s, err := sp.NewPatchMetaFromStruct(corev1.Pod{})
	Expect(err).NotTo(HaveOccurred())
	return s
}

var _ = It("reports the conflict a current holding a decimal merge key hides from apimachinery's check (class decimal-whole-number)", func() {
	original := []byte(`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"x"}]}]}}`)
	current := []byte(`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80.0,"name":"y"}]}]}}`)
	_, err := ply.CreateThreeWayMergePatch(original, original, current, podSchema(), false)
	Expect(mergepatch.IsConflict(err)).To(BeTrue(), "ply: %v", err)
	theirs, err := sp.CreateThreeWayMergePatch(original, original, current, podSchema(), false)
	Expect(err).NotTo(HaveOccurred(), "apimachinery pairs int64 80 with float64 80 nowhere and sees no conflict")
	sameJSON(theirs, `{"spec":{"$setElementOrder/containers":[{"name":"a"}],"containers":[{"$setElementOrder/ports":[{"containerPort":80}],"name":"a","ports":[{"containerPort":80,"name":"x"}]}]}}`)
	integral := []byte(`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"y"}]}]}}`)
	_, err = sp.CreateThreeWayMergePatch(original, original, integral, podSchema(), false)
	Expect(mergepatch.IsConflict(err)).To(BeTrue(), "apimachinery, current's key an integer: %v", err)
})

// conflictText stands for a mergepatch.ErrConflict in the results of the table below.
const conflictText = "conflict"

// createdPatch is the patch fn creates of original, modified and current (the two-way patch where current is ""), or
// conflictText.
func createdPatch(twoWay func(o, m []byte, s sp.LookupPatchMeta, fns ...mergepatch.PreconditionFunc) ([]byte, error),
	threeWay func(o, m, c []byte, s sp.LookupPatchMeta, overwrite bool, fns ...mergepatch.PreconditionFunc) ([]byte, error),
	original, modified, current string, overwrite bool) string {
	GinkgoHelper()
	var out []byte
	var err error
	if current == "" {
		out, err = twoWay([]byte(original), []byte(modified), podSchema())
	} else {
		out, err = threeWay([]byte(original), []byte(modified), []byte(current), podSchema(), overwrite)
	}
	if mergepatch.IsConflict(err) {
		return conflictText
	}
	Expect(err).NotTo(HaveOccurred())
	return string(out)
}

// Class decimal-whole-number (docs/strategicpatch.md, "What stays different"): creating a patch, a whole number written
// as a decimal is the integer it equals to ply; strategicpatch's diff and conflict check compare the Go values its
// decoding gives (int64 3, float64 3) with reflect.DeepEqual, and its conflict check pairs keyed items by the keys'
// rendering with %s, which holds the Go type.
var _ = DescribeTable("a whole number written as a decimal, creating a patch (class decimal-whole-number)",
	func(original, modified, current string, overwrite bool, want, apimachinery string) {
		Expect(createdPatch(ply.CreateTwoWayMergePatchUsingLookupPatchMeta, ply.CreateThreeWayMergePatch,
			original, modified, current, overwrite)).To(Equal(want))
		Expect(createdPatch(sp.CreateTwoWayMergePatchUsingLookupPatchMeta, sp.CreateThreeWayMergePatch,
			original, modified, current, overwrite)).To(Equal(apimachinery))
	},
	Entry("two-way, 3 to 3.0: no change (apimachinery writes the number)",
		`{"spec":{"priority":3}}`, `{"spec":{"priority":3.0}}`, "", true, `{}`, `{"spec":{"priority":3}}`),
	Entry("two-way, 3.0 to 3e0: no change (both, float64 to float64)",
		`{"spec":{"priority":3.0}}`, `{"spec":{"priority":3e0}}`, "", true, `{}`, `{}`),
	Entry("three-way, modified 3.0 against 3: no change (apimachinery writes the number)",
		`{"spec":{"priority":3}}`, `{"spec":{"priority":3.0}}`, `{"spec":{"priority":3}}`, true, `{}`, `{"spec":{"priority":3}}`),
	Entry("three-way, overwrite false, current 3.0: no change and no conflict (apimachinery: a conflict)",
		`{"spec":{"priority":3}}`, `{"spec":{"priority":3}}`, `{"spec":{"priority":3.0}}`, false, `{}`, conflictText),
	Entry("three-way, overwrite false, current's item keyed 80.0 changed, modified's 80 too: a conflict (apimachinery pairs int64 80 with float64 80 nowhere)",
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"x"}]}]}}`,
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"z"}]}]}}`,
		`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80.0,"name":"y"}]}]}}`, false, conflictText,
		`{"spec":{"$setElementOrder/containers":[{"name":"a"}],"containers":[{"$setElementOrder/ports":[{"containerPort":80}],"name":"a","ports":[{"containerPort":80,"name":"z"}]}]}}`),
)
