package cluster

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var _ = Describe("Plan.Moved", func() {
	obj := func(name, action, rv, digest string) PlanObject {
		return PlanObject{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: name, Action: action, ResourceVersion: rv, Digest: digest}
	}
	plan := func(objs ...PlanObject) Plan { return Plan{APIVersion: PlanAPIVersion, Kind: PlanKind, Objects: objs} }
	saved := plan(obj("a", PlanUpdate, "10", "sha256:1"), obj("b", PlanCreate, "", "sha256:2"), obj("c", PlanUnchanged, "12", ""))

	DescribeTable("names each object the run no longer does as planned",
		func(now Plan, want []string) {
			Expect(saved.Moved(now)).To(Equal(want))
		},
		Entry("nothing moved", saved, []string(nil)),
		Entry("a live object changed", plan(obj("a", PlanUpdate, "11", "sha256:1"), obj("b", PlanCreate, "", "sha256:2"), obj("c", PlanUnchanged, "12", "")),
			[]string{`ConfigMap ns/a: the live object changed since the plan (resourceVersion "10" in the plan, "11" now)`}),
		Entry("an object created by another writer", plan(obj("a", PlanUpdate, "10", "sha256:1"), obj("b", PlanUpdate, "13", "sha256:2"), obj("c", PlanUnchanged, "12", "")),
			[]string{`ConfigMap ns/b: the live object changed since the plan (resourceVersion none in the plan, "13" now)`}),
		Entry("the manifest changed", plan(obj("a", PlanUpdate, "10", "sha256:9"), obj("b", PlanCreate, "", "sha256:2"), obj("c", PlanUnchanged, "12", "")),
			[]string{`ConfigMap ns/a: what apply would write differs from the plan (the manifests or the server changed)`}),
		Entry("another action", plan(obj("a", PlanUpdate, "10", "sha256:1"), obj("b", PlanCreate, "", "sha256:2"), obj("c", PlanPrune, "12", "")),
			[]string{`ConfigMap ns/c: planned unchanged, would now be prune`}),
		Entry("objects added and left out", plan(obj("a", PlanUpdate, "10", "sha256:1"), obj("d", PlanCreate, "", "sha256:4")),
			[]string{`ConfigMap ns/d: not in the plan (would be create)`,
				`ConfigMap ns/b: in the plan (create), not in this run`, `ConfigMap ns/c: in the plan (unchanged), not in this run`}),
	)

	DescribeTable("an ignored object: its resourceVersion matters only when it is no longer ignored, or becomes so",
		func(was, now PlanObject, want []string) {
			Expect(plan(was).Moved(plan(now))).To(Equal(want))
		},
		Entry("ignored in both, moved: left as it is either way", obj("k", PlanIgnored, "10", ""), obj("k", PlanIgnored, "11", ""), []string(nil)),
		Entry("no longer ignored", obj("k", PlanIgnored, "10", ""), obj("k", PlanUpdate, "11", "sha256:1"),
			[]string{`ConfigMap ns/k: the live object changed since the plan (resourceVersion "10" in the plan, "11" now)`}),
		Entry("no longer ignored, same version (the manifest dropped its create-only annotation)", obj("k", PlanIgnored, "10", ""),
			obj("k", PlanUpdate, "10", "sha256:1"), []string{`ConfigMap ns/k: planned ignored, would now be update`}),
		Entry("ignored now, planned to be pruned", obj("k", PlanPrune, "10", ""), obj("k", PlanIgnored, "10", ""),
			[]string{`ConfigMap ns/k: planned prune, would now be ignored`}),
	)

	It("ExpectPrune gives the planned deletions their resourceVersions, and nothing else", func() {
		p := plan(obj("a", PlanUpdate, "10", "sha256:1"), obj("old", PlanPrune, "7", ""), obj("kept", PlanIgnored, "8", ""))
		expect := p.ExpectPrune()
		ref := func(name string) Ref {
			return Ref{GroupVersionKind: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, Namespace: "ns", Name: name}
		}
		rv, ok := expect(ref("old"))
		Expect(ok).To(BeTrue())
		Expect(rv).To(Equal("7"))
		for _, name := range []string{"a", "kept", "other"} {
			_, ok := expect(ref(name))
			Expect(ok).To(BeFalse(), name)
		}
	})

	It("reads only plans", func() {
		_, err := ReadPlan(strings.NewReader(`{"apiVersion":"v1","kind":"List"}`))
		Expect(err).To(MatchError(`not a plan: apiVersion "v1", kind "List": want ply.dev/v1alpha1 Plan`))
		_, err = ReadPlan(strings.NewReader(`{"apiVersion":"ply.dev/v1alpha1","kind":"Plan","extra":1}`))
		Expect(err).To(MatchError(`not a plan: json: unknown field "extra"`))
	})
})
