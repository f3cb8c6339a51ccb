package patch_test

import (
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// A repeated container whose later item's ports name a merge key written as an integer in one place (live, the patch's
// other items) and as a decimal whole number in another (80 and 80.0), every gate off (UniqueMergeKeys among them):
// Phase 2 matches those keys as the collation's identity does (elements.Key: 80.0 and 80 are one key), so the patch
// applies as its items applied one after another, and as the same patch with every whole number written as an integer.
// That patch strategicpatch applies so too, or refuses where ply fails (copied: strategicpatch copies the erring item
// unchecked where the outcome lacks it, docs/strategicpatch.md, "What stays different"); given the decimals, it
// compares int64 80 with float64 80 and matches nothing (class decimal-merge-key, docs/patches.md).
var _ = DescribeTable("Apply of a later item of a repeated key whose keyed list writes a merge key as an integer and as a decimal",
	func(liveItem, first, later, wantErr string, copied bool, frontEnd int64) {
		var again atomic.Int64
		countRepeats(nil, &again)
		opts := patch.Options{Gates: features.Kubectl(), Ordering: patch.OrderKubectl}
		wrap := func(items string) string { return `{"spec":{"containers":[` + items + `]}}` }
		live := jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[` + liveItem + `]}}`)
		p := jsonv.MustDecode(wrap(first + `,` + later))
		Expect(jsonv.HasDecimal(live) || jsonv.HasDecimal(p)).To(BeTrue(), "a key written as a decimal")
		got, err := patch.Apply(live, p, opts)
		Expect(again.Load()).To(Equal(frontEnd), "repeats the front-end applied again")

		want, stepErr := patch.Apply(live, jsonv.MustDecode(wrap(first)), opts)
		Expect(stepErr).NotTo(HaveOccurred())
		want, stepErr = patch.Apply(want, jsonv.MustDecode(wrap(later)), opts)
		expectInTurn(got, err, want, stepErr, wantErr)

		wholeLive, wholePatch := jsonv.WholeNumbers(live), jsonv.WholeNumbers(p)
		whole, wholeErr := patch.Apply(wholeLive, wholePatch, opts)
		expectInTurn(got, err, whole, wholeErr, wantErr)

		sp, spErr := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
		Expect(spErr).NotTo(HaveOccurred())
		out, spErr := strategicMergePatchRecovered(wholeLive.JSON(), wholePatch.JSON(), sp.Meta())
		switch {
		case wantErr != "" && copied:
			Expect(spErr).NotTo(HaveOccurred(), "strategicpatch copies it here")
		case wantErr != "":
			Expect(spErr).To(HaveOccurred(), "strategicpatch refuses it too")
		default:
			Expect(spErr).NotTo(HaveOccurred())
			Expect(jsonv.MustDecode(string(out))).To(equalValue(got), "strategicpatch, every number an integer")
		}
	},
	Entry("a malformed \"$retainKeys\" on a decimal key the outcome holds as an integer",
		`{"name":"a","ports":[{"containerPort":80,"name":"h"}]}`, `{"name":"a","image":"i"}`,
		`{"name":"a","ports":[{"containerPort":80.0,"$retainKeys":3}]}`,
		"spec.containers[name=a].ports[containerPort=80]: $retainKeys must be a list of field names", false, int64(0)),
	Entry("the same, the outcome's key a decimal, the patch's an integer",
		`{"name":"a","ports":[{"containerPort":80.0,"name":"h"}]}`, `{"name":"a","image":"i"}`,
		`{"name":"a","ports":[{"containerPort":80,"$retainKeys":3}]}`,
		"spec.containers[name=a].ports[containerPort=80]: $retainKeys must be a list of field names", false, int64(0)),
	Entry("after an item of another decimal key the outcome holds",
		`{"name":"a","ports":[{"containerPort":80},{"containerPort":81}]}`, `{"name":"a","image":"i"}`,
		`{"name":"a","ports":[{"containerPort":81.0,"name":"y"},{"containerPort":80,"$retainKeys":3}]}`,
		"spec.containers[name=a].ports[containerPort=80]: $retainKeys must be a list of field names", false, int64(0)),
	Entry("the port repeated in the item, as an integer then a decimal",
		`{"name":"a","ports":[{"containerPort":80}]}`, `{"name":"a","image":"i"}`,
		`{"name":"a","ports":[{"containerPort":80,"name":"x"},{"containerPort":80.0,"$retainKeys":3}]}`,
		"spec.containers[name=a].ports[containerPort=80]: $retainKeys must be a list of field names", false, int64(0)),
	Entry("the port repeated in the item, as a decimal then an integer",
		`{"name":"a","ports":[{"containerPort":80}]}`, `{"name":"a","image":"i"}`,
		`{"name":"a","ports":[{"containerPort":80.0,"name":"x"},{"containerPort":80,"$retainKeys":3}]}`,
		"spec.containers[name=a].ports[containerPort=80]: $retainKeys must be a list of field names", false, int64(0)),
	Entry("after a \"$patch: delete\" item of the key written as a decimal: not apart, the front-end applies the repeat",
		`{"name":"a","ports":[{"containerPort":80},{"containerPort":81}]}`, `{"name":"a","image":"i"}`,
		`{"name":"a","ports":[{"containerPort":80.0,"$patch":"delete"},{"containerPort":80,"$retainKeys":3}]}`,
		"spec.containers[name=a].ports[containerPort=80]: $retainKeys must be a list of field names", true, int64(1)),
	Entry("after a \"$patch: delete\" item of another key written as a decimal",
		`{"name":"a","ports":[{"containerPort":80},{"containerPort":81}]}`, `{"name":"a","image":"i"}`,
		`{"name":"a","ports":[{"containerPort":81.0,"$patch":"delete"},{"containerPort":80,"$retainKeys":3}]}`,
		"spec.containers[name=a].ports[containerPort=80]: $retainKeys must be a list of field names", false, int64(0)),
	Entry("the first container's port a decimal, the later's an integer",
		`{"name":"a","ports":[{"containerPort":80}]}`, `{"name":"a","ports":[{"containerPort":80.0,"name":"x"}]}`,
		`{"name":"a","ports":[{"containerPort":80,"$retainKeys":3}]}`,
		"spec.containers[name=a].ports[containerPort=80]: $retainKeys must be a list of field names", false, int64(0)),
	Entry("the same where the outcome lacks ports before the first container",
		`{"name":"a"}`, `{"name":"a","ports":[{"containerPort":80.0,"name":"x"}]}`,
		`{"name":"a","ports":[{"containerPort":80,"$retainKeys":3}]}`,
		"spec.containers[name=a].ports[containerPort=80]: $retainKeys must be a list of field names", false, int64(0)),
	Entry("an unknown \"$patch\" on a decimal key",
		`{"name":"a","ports":[{"containerPort":80}]}`, `{"name":"a","image":"i"}`,
		`{"name":"a","ports":[{"containerPort":80.0,"$patch":"bogus"}]}`,
		"spec.containers[name=a].ports: item 0: unknown $patch value bogus; a list item takes delete or replace", false, int64(0)),
	Entry("an unknown \"$patch\" map after ports written as integers onto the outcome's decimal",
		`{"name":"a","ports":[{"containerPort":80.0}]}`, `{"name":"a","image":"i"}`,
		`{"name":"a","livenessProbe":{"$patch":"bogus"},"ports":[{"containerPort":80}]}`,
		"spec.containers[name=a].livenessProbe: unknown $patch value bogus; expected replace or delete", true, int64(0)),
	Entry("a port merged by the later container: one port, both fields",
		`{"name":"a","ports":[{"containerPort":80}]}`, `{"name":"a","ports":[{"containerPort":80.0,"name":"x"}]}`,
		`{"name":"a","ports":[{"containerPort":80,"hostPort":1}]}`, "", false, int64(0)),
	Entry("a port deleted by the later container as a decimal",
		`{"name":"a","ports":[{"containerPort":80}]}`, `{"name":"a","ports":[{"containerPort":80,"name":"x"}]}`,
		`{"name":"a","ports":[{"containerPort":80.0,"$patch":"delete"}]}`, "", false, int64(0)),
)
