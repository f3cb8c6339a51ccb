package delta_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/internal/halves"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/value"
)

// patchHas reports whether a strategic merge patch has any entry for the
// field at path (dot-separated map fields): the field itself, or a
// $setElementOrder or $deleteFromPrimitiveList list for it.
func patchHas(patch value.Value, path string) bool {
	parts := strings.Split(path, ".")
	cur := patch
	for _, p := range parts[:len(parts)-1] {
		next, ok := cur.Get(p)
		if !ok {
			return false
		}
		cur = next
	}
	name := parts[len(parts)-1]
	for _, k := range []string{name, smp.SetOrderPrefix + name, smp.DeletePrefix + name} {
		if _, ok := cur.Get(k); ok {
			return true
		}
	}
	return false
}

// touches reports whether mode m's patch has anything for e (its Entry's Any, as internal/order asks); no error.
func touches(e elements.Element, m delta.Mode, beside delta.Beside) bool {
	d := delta.New(m, features.Gates{})
	d.Beside = beside
	en, err := d.Entry(e)
	Expect(err).NotTo(HaveOccurred())
	return en.Any()
}

var _ = Describe("Entry's Any (a patch touches a node)", func() {
	DescribeTable("agrees with kubectl's delta (live -> local) and deletions (recorded -> local)",
		func(kind, recorded, local, live, path string, wantDelta, wantDeletions bool) {
			c := newCase(kind, recorded, local, live)
			tree, beside := c.collated(features.Gates{})
			e := nodeAt(tree, path)

			Expect(touches(e, delta.Delta, beside)).To(Equal(wantDelta), "Touches(Delta)")
			// With no recorded object kubectl's patch is the delta alone.
			kDelta := kubectlThreeWay(c.def(), value.Value{}, false, c.local, c.live)
			Expect(patchHas(kDelta, path)).To(Equal(wantDelta), "kubectl's delta: %s", kDelta.JSON())

			Expect(touches(e, delta.Deletions, beside)).To(Equal(wantDeletions), "Touches(Deletions)")
			if set, ok := e.(*elements.SetElement); ok { // internal/order asks halves, which the patch's sets follow
				Expect(halves.SetTouched(set, elements.Live, elements.NoSource)).To(Equal(wantDelta), "halves.SetTouched, delta")
				Expect(halves.SetTouched(set, elements.NoSource, elements.Recorded)).To(Equal(wantDeletions), "halves.SetTouched, deletions")
			}
			if c.hasRecorded {
				// With live equal to local kubectl's patch is the deletions
				// alone, but for a set: kubectl sorts live's copy before
				// comparing, so an unsorted set gets a $setElementOrder even
				// then; its deletions are the $deleteFromPrimitiveList list.
				kDel := kubectlThreeWay(c.def(), c.recorded, true, c.local, c.local)
				has := patchHas(kDel, path)
				if _, set := e.(*elements.SetElement); set {
					i := strings.LastIndex(path, ".")
					has = patchHas(kDel, path[:i+1]+smp.DeletePrefix+path[i+1:])
				}
				Expect(has).To(Equal(wantDeletions), "kubectl's deletions: %s", kDel.JSON())
			}

			// kubectl's list order reads the three-way patch through the two.
			if _, list := e.(*elements.ListElement); list {
				kPatch := kubectlThreeWay(c.def(), c.recorded, c.hasRecorded, c.local, c.live)
				Expect(patchHas(kPatch, path)).To(Equal(wantDelta || wantDeletions), "kubectl's patch: %s", kPatch.JSON())
			}
		},
		// A merged set.
		Entry("set: live order differs, local sorted", "ConfigMap",
			`{metadata: {finalizers: [a, b]}}`, `{metadata: {finalizers: [a, b]}}`, `{metadata: {finalizers: [b, a]}}`, "metadata.finalizers", false, false),
		Entry("set: same members, local unsorted", "ConfigMap",
			`{metadata: {finalizers: [b, a]}}`, `{metadata: {finalizers: [b, a]}}`, `{metadata: {finalizers: [a, b]}}`, "metadata.finalizers", true, false),
		Entry("set: local adds a value", "ConfigMap",
			`{metadata: {finalizers: [a]}}`, `{metadata: {finalizers: [a, b]}}`, `{metadata: {finalizers: [a]}}`, "metadata.finalizers", true, false),
		Entry("set: live has an extra value", "ConfigMap",
			absent, `{metadata: {finalizers: [a]}}`, `{metadata: {finalizers: [a, z]}}`, "metadata.finalizers", true, false),
		Entry("set: local empty, live not", "ConfigMap",
			absent, `{metadata: {finalizers: []}}`, `{metadata: {finalizers: [a]}}`, "metadata.finalizers", false, false),
		Entry("set: local dropped a value", "ConfigMap",
			`{metadata: {finalizers: [a, b]}}`, `{metadata: {finalizers: [a]}}`, `{metadata: {finalizers: [a, b]}}`, "metadata.finalizers", true, true),
		Entry("set: local dropped a value live lacks already", "ConfigMap",
			`{metadata: {finalizers: [a, b]}}`, `{metadata: {finalizers: [a]}}`, `{metadata: {finalizers: [a]}}`, "metadata.finalizers", false, true),
		Entry("set: recorded empty", "ConfigMap",
			`{metadata: {finalizers: []}}`, `{metadata: {finalizers: [a]}}`, `{metadata: {finalizers: [a]}}`, "metadata.finalizers", false, false),
		Entry("set: live lacks the list", "ConfigMap",
			absent, `{metadata: {finalizers: [a]}}`, `{metadata: {}}`, "metadata.finalizers", true, false),
		// A merged list of maps (merge key uid).
		Entry("list: live reordered", "ConfigMap",
			absent, `{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}, {uid: "2", name: b, kind: K, apiVersion: v1}]}}`,
			`{metadata: {ownerReferences: [{uid: "2", name: b, kind: K, apiVersion: v1}, {uid: "1", name: a, kind: K, apiVersion: v1}]}}`, "metadata.ownerReferences", true, false),
		Entry("list: an item changed", "ConfigMap",
			absent, `{metadata: {ownerReferences: [{uid: "1", name: new, kind: K, apiVersion: v1}]}}`,
			`{metadata: {ownerReferences: [{uid: "1", name: old, kind: K, apiVersion: v1}]}}`, "metadata.ownerReferences", true, false),
		Entry("list: live has an extra item", "ConfigMap",
			absent, `{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}]}}`,
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}, {uid: "9", name: z, kind: K, apiVersion: v1}]}}`, "metadata.ownerReferences", true, false),
		Entry("list: live items have extra fields, same order", "ConfigMap",
			absent, `{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}, {uid: "2", name: b, kind: K, apiVersion: v1}]}}`,
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1, controller: true}, {uid: "2", name: b, kind: K, apiVersion: v1}]}}`, "metadata.ownerReferences", false, false),
		Entry("list: local dropped an item live has", "ConfigMap",
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}, {uid: "2", name: b, kind: K, apiVersion: v1}]}}`,
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}]}}`,
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}, {uid: "2", name: b, kind: K, apiVersion: v1}]}}`, "metadata.ownerReferences", true, true),
		Entry("list: local dropped an item live lacks already", "ConfigMap",
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}, {uid: "2", name: b, kind: K, apiVersion: v1}]}}`,
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}]}}`,
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}], labels: {x: "1"}}}`, "metadata.ownerReferences", false, true),
		Entry("list: a nested change in a recorded item", "ConfigMap",
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1, controller: true}]}}`,
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}]}}`,
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}], labels: {x: "1"}}}`, "metadata.ownerReferences", false, true),
		Entry("list: live's list empty", "ConfigMap",
			absent, `{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}]}}`, `{metadata: {ownerReferences: []}}`, "metadata.ownerReferences", true, false),
		Entry("list: local's list empty", "ConfigMap",
			absent, `{metadata: {ownerReferences: []}}`, `{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}]}}`, "metadata.ownerReferences", false, false),
		Entry("list: local emptied it since recorded", "ConfigMap",
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}]}}`, `{metadata: {ownerReferences: []}}`,
			`{metadata: {ownerReferences: [{uid: "1", name: a, kind: K, apiVersion: v1}]}}`, "metadata.ownerReferences", false, true),
		// Maps and scalars.
		Entry("map: a value changed", "ConfigMap",
			`{data: {a: "1"}}`, `{data: {a: "2"}}`, `{data: {a: "1"}}`, "data", true, false),
		Entry("map: live has extra fields only", "ConfigMap",
			`{data: {a: "1"}}`, `{data: {a: "1"}}`, `{data: {a: "1", b: "2"}}`, "data", false, false),
		Entry("map: local dropped a field", "ConfigMap",
			`{data: {a: "1", b: "2"}}`, `{data: {a: "1"}}`, `{data: {a: "1", b: "2"}}`, "data", false, true),
		Entry("map: local nulls a field", "ConfigMap",
			absent, `{data: {a: null}}`, `{data: {a: "1"}}`, "data", true, false),
		Entry("map: live lacks it", "ConfigMap",
			absent, `{data: {a: "1"}}`, `{}`, "data", true, false),
		Entry("retainKeys map: live has a member local lacks", "Deployment",
			absent, `{spec: {strategy: {type: Recreate}}}`, `{spec: {strategy: {type: Recreate, rollingUpdate: {maxSurge: 1}}}}`, "spec.strategy", true, false),
		Entry("scalar: changed", "Deployment",
			absent, `{spec: {replicas: 2}}`, `{spec: {replicas: 1}}`, "spec.replicas", true, false),
		Entry("scalar: int and float of equal value", "Deployment",
			absent, `{spec: {replicas: 2, paused: true}}`, `{"spec": {"replicas": 2.0}}`, "spec.replicas", false, false),
		Entry("scalar: changed JSON type", "ConfigMap",
			absent, `{metadata: {labels: {a: "1"}}}`, `{"metadata": {"labels": {"a": 1}}}`, "metadata.labels", true, false),
	)
})

var _ = Describe("Entry on every node", func() {
	DescribeTable("succeeds for each node local holds, in every mode",
		func(kind string, vals map[string]string) {
			c := newCase(kind, get(vals, "recorded"), get(vals, "local"), get(vals, "live"))
			nodes := 0
			tree, beside := c.collated(features.Gates{})
			eachNode(tree, func(e elements.Element) {
				if !e.Base().HasLocal {
					return
				}
				nodes++
				for _, m := range []delta.Mode{delta.Delta, delta.Deletions, delta.TwoWay, delta.Changed} {
					touches(e, m, beside)
				}
			})
			Expect(nodes).NotTo(BeZero())
		},
		loadCases("threeway.yaml"),
	)
})
