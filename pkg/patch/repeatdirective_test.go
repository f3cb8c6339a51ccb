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

// A later item of a repeated key whose own collation failed at a "$patch" no merge takes (an unknown value, a number,
// or "merge" on an item of a list merged by key), reached through maps, fails applied to its key's outcome with that
// error, decided in Phase 2 (visitors' refusedDirectiveOnto), the front-end applying no repeat again (probe.OnRepeat):
// the fields before it scalars, nulls, lists merged by no strategy, values the outcome lacks, or maps merging onto the
// outcome's so. strategicpatch refuses it too where the outcome holds maps down to it (a list for an item's), and
// copies it where the outcome lacks one (docs/strategicpatch.md, "What stays different"); the items applied one after
// another fail with the same error. Where a list merged by key before it merges onto the outcome's whose items nest
// deeper than its own, the front-end applies the repeat (repeatmalformed_test.go: one of plain items is decided).
var _ = DescribeTable("Apply of a later item of a repeated key holding a \"$patch\" no merge takes",
	func(liveItem, first, later, wantErr string, copied bool, frontEnd int64) {
		var again atomic.Int64
		countRepeats(nil, &again)
		sp, err := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
		Expect(err).NotTo(HaveOccurred())
		opts := patch.Options{Gates: features.Kubectl(), Ordering: patch.OrderKubectl}
		wrap := func(items string) string { return `{"spec":{"containers":[` + items + `]}}` }
		live := jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[` + liveItem + `]}}`)
		p := jsonv.MustDecode(wrap(`{"name":"a"` + first + `},{"name":"a"` + later + `}`))
		got, err := patch.Apply(live, p, opts)
		Expect(again.Load()).To(Equal(frontEnd), "repeats the front-end applied again")
		_, spErr := strategicMergePatchRecovered(live.JSON(), p.JSON(), sp.Meta())
		if copied {
			Expect(spErr).NotTo(HaveOccurred(), "strategicpatch copies it here")
		} else {
			Expect(spErr).To(HaveOccurred(), "strategicpatch refuses it too")
		}
		want, stepErr := patch.Apply(live, jsonv.MustDecode(wrap(`{"name":"a"`+first+`}`)), opts)
		Expect(stepErr).NotTo(HaveOccurred())
		want, stepErr = patch.Apply(want, jsonv.MustDecode(wrap(`{"name":"a"`+later+`}`)), opts)
		expectInTurn(got, err, want, stepErr, wantErr)
	},
	Entry("an unknown value at a map the outcome holds",
		`{"name":"a","livenessProbe":{"grpc":{"port":1}}}`, `,"image":"i"`, `,"livenessProbe":{"grpc":{"$patch":"bogus"}}`,
		"spec.containers[name=a].livenessProbe.grpc: unknown $patch value bogus; expected replace or delete", false, int64(0)),
	Entry("a number, beside a list merged by no strategy, a map and a null before it, merging onto the outcome's",
		`{"name":"a","args":["b"],"lifecycle":{"stopSignal":"x","preStop":{"exec":{}}},"livenessProbe":{"periodSeconds":1}}`,
		`,"image":"i"`, `,"args":["c"],"image":null,"lifecycle":{"stopSignal":"y"},"livenessProbe":{"$patch":3}`,
		"spec.containers[name=a].livenessProbe: unknown $patch value 3; expected replace or delete", false, int64(0)),
	Entry("an unknown value at a map the outcome lacks, in a map it holds: refused where strategicpatch copies it",
		`{"name":"a","securityContext":{"runAsUser":1}}`, `,"image":"i"`, `,"securityContext":{"seLinuxOptions":{"$patch":"bogus","role":"r"}}`,
		"spec.containers[name=a].securityContext.seLinuxOptions: unknown $patch value bogus; expected replace or delete", true, int64(0)),
	Entry("\"merge\" on an item of a list merged by key the outcome holds",
		`{"name":"a","ports":[{"containerPort":80}]}`, `,"image":"i"`, `,"ports":[{"containerPort":80,"$patch":"merge"}]`,
		`spec.containers[name=a].ports: item 0: "$patch: merge" cannot be given for a list`, false, int64(0)),
	Entry("an unknown value on a later item of such a list, a data item and a map the outcome lacks before it",
		`{"name":"a","ports":[{"containerPort":80}]}`, `,"image":"i"`,
		`,"lifecycle":{"stopSignal":"s"},"ports":[{"containerPort":81},{"containerPort":80,"$patch":"bogus"}]`,
		"spec.containers[name=a].ports: item 1: unknown $patch value bogus; a list item takes delete or replace", false, int64(0)),
	Entry("an unknown value on an item of a list merged by key after a \"$patch: delete\" item",
		`{"name":"a","ports":[{"containerPort":80},{"containerPort":81}]}`, `,"image":"i"`,
		`,"ports":[{"containerPort":81,"$patch":"delete"},{"containerPort":80,"$patch":"bogus"}]`,
		"spec.containers[name=a].ports: item 1: unknown $patch value bogus; a list item takes delete or replace", false, int64(0)),
	Entry("after a list merged by key onto the outcome's whose items nest deeper, within the depth limit",
		`{"name":"a","env":[{"name":"X","valueFrom":{"fieldRef":{"fieldPath":"f"}}}],"livenessProbe":{"periodSeconds":1}}`,
		`,"image":"i"`, `,"env":[{"name":"Y"}],"livenessProbe":{"$patch":"bogus"}`,
		"spec.containers[name=a].livenessProbe: unknown $patch value bogus; expected replace or delete", false, int64(0)),
)
