package cluster

import (
	"context"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	clienttesting "k8s.io/client-go/testing"

	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/value"
)

// dryRunDefaulter answers the writes with dryRun=All as a server that
// defaults data.defaulted would, storing nothing; it counts them.
func dryRunDefaulter(f *fakeCluster, verb string, dryRuns *int) {
	f.fake.PrependReactor(verb, "configmaps", func(a clienttesting.Action) (bool, runtime.Object, error) {
		var obj runtime.Object
		var dry []string
		switch a := a.(type) {
		case clienttesting.CreateActionImpl:
			obj, dry = a.Object, a.CreateOptions.DryRun
		case clienttesting.UpdateActionImpl:
			obj, dry = a.Object, a.UpdateOptions.DryRun
		}
		if len(dry) != 1 || dry[0] != metav1.DryRunAll {
			return false, nil, nil
		}
		*dryRuns++
		u := obj.(*unstructured.Unstructured).DeepCopy()
		Expect(unstructured.SetNestedField(u.Object, "yes", "data", "defaulted")).To(Succeed())
		u.SetUID("uid-1")
		return true, u, nil
	})
}

var _ = Describe("Diff against the server (DryRunServer)", func() {
	It("diffs live against the server's answer to a dry run, and lists its fields", func() {
		f := newFakeCluster(Options{DryRun: DryRunServer}, "default", false)
		f.c.Apply(context.Background(), objects("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: '1'}\n"))
		dryRuns := 0
		dryRunDefaulter(f, "update", &dryRuns)
		res, err := f.c.Diff(context.Background(), objects("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: '2'}\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(res).To(HaveLen(1))
		d := res[0]
		Expect(d.Err).NotTo(HaveOccurred())
		Expect(dryRuns).To(Equal(1))
		Expect(d.Unified).To(ContainSubstring("\n-  a: \"1\"\n+  a: \"2\"\n+  defaulted: \"yes\"\n"))
		Expect(d.Fields).To(ContainElements(
			FieldChange{Path: "data.a", Op: apply.OpReplace, Reason: ReasonSetByLocal},
			FieldChange{Path: "data.defaulted", Op: apply.OpAdd, Reason: ReasonSetByServer},
			FieldChange{Path: "metadata.uid", Op: apply.OpAdd, Reason: ReasonSetByServer},
		))
		Expect(d.LiveText).NotTo(ContainSubstring("defaulted"))
		Expect(d.MergedText).To(ContainSubstring("defaulted"))
		a, _ := f.get(cmGVR, "default", "c").Get("data")
		Expect(string(a.JSON())).To(Equal(`{"a":"1"}`), "nothing stored")
	})

	It("diffs a new object against the server's answer to a dry-run create", func() {
		f := newFakeCluster(Options{DryRun: DryRunServer}, "default", false)
		dryRuns := 0
		dryRunDefaulter(f, "create", &dryRuns)
		res, err := f.c.Diff(context.Background(), objects("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nn}\ndata: {a: '1'}\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(res[0].Err).NotTo(HaveOccurred())
		Expect(dryRuns).To(Equal(1))
		Expect(res[0].Unified).To(ContainSubstring("+  defaulted: \"yes\"\n"))
		_, err = f.fake.Resource(cmGVR).Namespace("default").Get(context.Background(), "nn", metav1.GetOptions{})
		Expect(apierrors.IsNotFound(err)).To(BeTrue())
	})

	It("makes the server's refusal the object's error, the values of a Secret masked", func() {
		f := newFakeCluster(Options{DryRun: DryRunServer}, "default", false)
		for _, resource := range []string{"configmaps", "secrets"} {
			f.fake.PrependReactor("create", resource, func(a clienttesting.Action) (bool, runtime.Object, error) {
				return true, nil, apierrors.NewInvalid(schema.GroupKind{Kind: "Thing"}, "n",
					field.ErrorList{field.Invalid(field.NewPath("data", "a"), "hunter2-secret", "refused")})
			})
		}
		res, err := f.c.Diff(context.Background(), objects("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nn}\ndata: {a: hunter2-secret}\n"+
			"---\napiVersion: v1\nkind: Secret\nmetadata: {name: nn}\nstringData: {a: hunter2-secret}\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(res[0].Err).To(MatchError(ContainSubstring(`data.a: Invalid value: "hunter2-secret": refused`)), "not a Secret: as the server said")
		Expect(res[1].Err).To(MatchError(`the server refused Thing "n": Invalid (422) at data.a (FieldValueInvalid); its message is not shown, as it can quote the Secret's values (--show-secrets shows it)`))
		Expect(apierrors.IsInvalid(res[1].Err)).To(BeTrue(), "the server's error is still there to inspect")
		for _, d := range res {
			Expect(d.Unified).To(BeEmpty())
			Expect(d.Fields).To(BeEmpty())
		}
	})

	It("with ShowSecrets, leaves the values of a Secret in its diff and errors", func() {
		f := newFakeCluster(Options{DryRun: DryRunClient, ShowSecrets: true}, "default", false)
		res, err := f.c.Diff(context.Background(), objects("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {a: hunter2-secret}\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(res[0].Unified).To(ContainSubstring("a: hunter2-secret"))
		f = newFakeCluster(Options{DryRun: DryRunClient}, "default", false)
		res, err = f.c.Diff(context.Background(), objects("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {a: hunter2-secret}\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(res[0].Unified).NotTo(ContainSubstring("hunter2"))
		Expect(res[0].Unified).To(ContainSubstring(`a: "***"`))
	})
})

var _ = Describe("Apply's Report and Result", func() {
	It("reports each object once, as it finishes, with the server's answer", func() {
		var mu sync.Mutex
		got := map[int]Outcome{}
		f := newFakeCluster(Options{Report: func(i int, o Outcome) {
			mu.Lock()
			defer mu.Unlock()
			Expect(got).NotTo(HaveKey(i))
			got[i] = o
		}}, "default", false)
		outs := f.c.Apply(context.Background(), objects("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: ns1}\n---\napiVersion: v9\nkind: Nope\nmetadata: {name: x}\n"))
		Expect(got).To(HaveLen(3))
		for i, o := range outs {
			Expect(got[i].Action).To(Equal(o.Action))
		}
		Expect(outs[2].Action).To(Equal(Failed))
		Expect(outs[2].Result.IsNull()).To(BeTrue())
		md, _ := outs[0].Result.Get("metadata")
		name, _ := md.Get("name")
		Expect(value.Equal(name, value.String("a"))).To(BeTrue())
	})
})
