package cluster

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

var _ = Describe("per-object controls", func() {
	withAnnotations := func(ann map[string]string) value.Value {
		GinkgoHelper()
		doc := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n"
		for k, v := range ann {
			doc += "    " + k + ": " + `"` + v + `"` + "\n"
		}
		if len(ann) == 0 {
			doc += "    {}\n"
		}
		v, err := parse.Document([]byte(doc))
		Expect(err).NotTo(HaveOccurred())
		return v
	}

	DescribeTable("what apply leaves as it is: the live object's reconcile controls, the manifest's create-only ones",
		func(local, live map[string]string, exists bool, want string) {
			Expect(ignoredWrite(withAnnotations(local), withAnnotations(live), exists)).To(Equal(want))
		},
		Entry("no control", nil, nil, true, ""),
		Entry("ply's reconcile: disabled on live", nil, map[string]string{"ply.dev/reconcile": "disabled"}, true, IgnoredReconcileDisabled),
		Entry("Flux's, any case", nil, map[string]string{"kustomize.toolkit.fluxcd.io/reconcile": "Disabled"}, true, IgnoredReconcileDisabled),
		Entry("reconcile: enabled", nil, map[string]string{"ply.dev/reconcile": "enabled"}, true, ""),
		Entry("reconcile: disabled in the manifest only: written (the next run leaves it)",
			map[string]string{"ply.dev/reconcile": "disabled"}, nil, true, ""),
		Entry("ply's create: if-absent, the object exists", map[string]string{"ply.dev/create": "if-absent"}, nil, true, IgnoredExists),
		Entry("Flux's ssa: IfNotPresent, the object exists", map[string]string{"kustomize.toolkit.fluxcd.io/ssa": "IfNotPresent"}, nil, true, IgnoredExists),
		Entry("Flux's ssa: Merge", map[string]string{"kustomize.toolkit.fluxcd.io/ssa": "Merge"}, nil, true, ""),
		Entry("create: if-absent, absent: created", map[string]string{"ply.dev/create": "if-absent"}, nil, false, ""),
		Entry("reconcile disabled wins over create-only", map[string]string{"ply.dev/create": "if-absent"},
			map[string]string{"ply.dev/reconcile": "disabled"}, true, IgnoredReconcileDisabled),
	)

	DescribeTable("what prune leaves: the live object's prune and reconcile controls, ply's and the peers'",
		func(live map[string]string, want string) {
			Expect(ignoredPrune(live)).To(Equal(want))
		},
		Entry("no control", map[string]string{}, ""),
		Entry("ply's prune: disabled", map[string]string{"ply.dev/prune": "disabled"}, IgnoredPruneDisabled),
		Entry("Flux's prune: disabled", map[string]string{"kustomize.toolkit.fluxcd.io/prune": "disabled"}, IgnoredPruneDisabled),
		Entry("Argo CD's Prune=false", map[string]string{"argocd.argoproj.io/sync-options": "Prune=false"}, IgnoredPruneDisabled),
		Entry("Argo CD's Prune=false in a list, with blanks", map[string]string{"argocd.argoproj.io/sync-options": "Validate=false, Prune=false"}, IgnoredPruneDisabled),
		Entry("Argo CD's other options", map[string]string{"argocd.argoproj.io/sync-options": "Validate=false,Replace=true"}, ""),
		Entry("Argo CD's Prune=true", map[string]string{"argocd.argoproj.io/sync-options": "Prune=true"}, ""),
		Entry("kapp's delete-strategy: orphan", map[string]string{"kapp.k14s.io/delete-strategy": "orphan"}, IgnoredPruneDisabled),
		Entry("kapp's delete-strategy: default", map[string]string{"kapp.k14s.io/delete-strategy": "default"}, ""),
		Entry("ply's reconcile: disabled", map[string]string{"ply.dev/reconcile": "disabled"}, IgnoredReconcileDisabled),
		Entry("Flux's reconcile: disabled", map[string]string{"kustomize.toolkit.fluxcd.io/reconcile": "disabled"}, IgnoredReconcileDisabled),
		Entry("prune: enabled", map[string]string{"ply.dev/prune": "enabled"}, ""),
	)

	DescribeTable("the client-side lane's verdict after each read: a lost write of this run is never reported as left alone",
		func(lost *lostWrite, wantLeft bool, wantAction Action, wantErr string) {
			live := withAnnotations(map[string]string{"ply.dev/reconcile": "disabled"})
			out := Outcome{Action: Failed}
			left := leftAlone(target{local: withAnnotations(nil)}, planned{live: live, exists: true}, lost, &out)
			Expect(left).To(Equal(wantLeft))
			Expect(out.Action).To(Equal(wantAction))
			if wantErr == "" {
				Expect(out.Err).NotTo(HaveOccurred())
				return
			}
			var lw *LostWriteError
			Expect(errors.As(out.Err, &lw)).To(BeTrue())
			Expect(out.Err).To(MatchError(wantErr))
		},
		Entry("no lost write: ignored", nil, true, Ignored, ""),
		Entry("a lost update: failed, saying the write may be held", &lostWrite{rv: "5"}, true, Failed,
			"left as it is (reconcile disabled) (an earlier write of this object was sent and its answer lost: the server may hold it)"),
		Entry("a lost create: settled as before (the object found may be this run's)", &lostWrite{create: true}, false, Failed, ""),
	)

	It("the plan shows an ignored object's action and reason, counts it, and gives it no digest nor fields", func() {
		live := withAnnotations(map[string]string{"ply.dev/reconcile": "disabled"})
		objs := []Object{{Value: withAnnotations(nil), Source: "x.yaml#1"}}
		res := []DiffResult{{Object: objs[0], Ref: refOf(objs[0]), Exists: true, Live: live, Merged: live, IgnoredReason: IgnoredReconcileDisabled}}
		pruned := []PlannedPrune{{Ref: Ref{Name: "kept"}, Stage: 1, ResourceVersion: "5", IgnoredReason: IgnoredPruneDisabled}}
		p := NewPlan(objs, res, pruned, false)
		Expect(p.Objects).To(HaveLen(2))
		Expect(p.Objects[0].Action).To(Equal(PlanIgnored))
		Expect(p.Objects[0].Reason).To(Equal(IgnoredReconcileDisabled))
		Expect(p.Objects[0].Digest).To(BeEmpty())
		Expect(p.Objects[1].Action).To(Equal(PlanIgnored))
		Expect(p.Objects[1].Reason).To(Equal(IgnoredPruneDisabled))
		Expect(p.Objects[1].ResourceVersion).To(Equal("5"))
		Expect(p.Summary).To(Equal(PlanSummary{Ignored: 2}))
		Expect(p.Summary.Changes()).To(BeFalse())
		Expect(p.Summary.String()).To(Equal("Plan: 0 to create, 0 to update, 0 to recreate, 0 to prune, 0 unchanged, 2 ignored, 0 failed."))
	})
})
