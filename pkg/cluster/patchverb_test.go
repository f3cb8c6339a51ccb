package cluster

import (
	"context"
	"errors"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clienttesting "k8s.io/client-go/testing"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// serverMerge applies patch to live as the API server applies a JSON merge
// patch (the library it uses), and returns the result.
func serverMerge(live, patch value.Value) (value.Value, error) {
	out, err := jsonpatch.MergePatch(live.JSON(), patch.JSON())
	if err != nil {
		return value.Null, err
	}
	return parse.Document(out)
}

// withoutNulls returns v without its map keys whose value is null: what
// the server stores of v.
func withoutNulls(v value.Value) value.Value {
	switch {
	case v.IsMap():
		var fields []value.Field
		for _, f := range v.Fields() {
			if !f.Value.IsNull() {
				fields = append(fields, value.Field{Key: f.Key, Value: withoutNulls(f.Value)})
			}
		}
		return value.MapFromSorted(fields)
	case v.IsList():
		items := make([]value.Value, v.Len())
		for i, it := range v.Items() {
			items[i] = withoutNulls(it)
		}
		return value.List(items)
	}
	return v
}

var _ = Describe("the update patch (the patch verb)", func() {
	DescribeTable("is the merge patch that turns live into merged, with the resourceVersion read as its precondition",
		func(live, merged, want string) {
			p := updatePatch(doc(live), doc(merged), "7")
			Expect(string(p.JSON())).To(MatchJSON(want))
			got, err := serverMerge(doc(live), p)
			Expect(err).NotTo(HaveOccurred())
			Expect(value.Equal(got.Without("metadata"), doc(merged).Without("metadata"))).To(BeTrue(), "%s", got.JSON())
		},
		Entry("nothing changed", `{"metadata":{"name":"a","resourceVersion":"7"},"data":{"x":"1"}}`,
			`{"metadata":{"name":"a","resourceVersion":"7"},"data":{"x":"1"}}`, `{"metadata":{"resourceVersion":"7"}}`),
		Entry("a key changed, one removed, one added", `{"metadata":{"name":"a"},"data":{"x":"1","y":"2"}}`,
			`{"metadata":{"name":"a"},"data":{"x":"3","z":"4"}}`, `{"metadata":{"resourceVersion":"7"},"data":{"x":"3","y":null,"z":"4"}}`),
		Entry("a list is replaced whole", `{"spec":{"ports":[{"port":1},{"port":2}]}}`,
			`{"spec":{"ports":[{"port":2}]}}`, `{"metadata":{"resourceVersion":"7"},"spec":{"ports":[{"port":2}]}}`),
		Entry("a map becomes a scalar and a scalar a map", `{"a":{"b":1},"c":2}`,
			`{"a":1,"c":{"d":2}}`, `{"metadata":{"resourceVersion":"7"},"a":1,"c":{"d":2}}`),
		Entry("a whole map removed", `{"metadata":{"labels":{"a":"b"}}}`, `{"metadata":{}}`,
			`{"metadata":{"labels":null,"resourceVersion":"7"}}`),
	)
})

// FuzzMergePatch checks that the server, applying mergePatch(live,
// merged) to live, holds merged (without its null keys, which it does not
// store) for any two objects.
func FuzzMergePatch(f *testing.F) {
	f.Add([]byte(`{"a":{"b":1,"c":[1,2]},"d":"x"}`), []byte(`{"a":{"c":[2]},"e":null}`))
	f.Add([]byte(`{"a":null}`), []byte(`{"a":{"b":{"c":null}}}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		live, err := parse.Document(a)
		if err != nil || !live.IsMap() {
			return
		}
		merged, err := parse.Document(b)
		if err != nil || !merged.IsMap() {
			return
		}
		live = withoutNulls(live)
		got, err := serverMerge(live, mergePatch(live, merged))
		if err != nil {
			t.Fatalf("the server cannot apply the patch: %v", err)
		}
		if want := withoutNulls(merged); !value.Equal(got, want) {
			t.Fatalf("patched live is %s, want %s", got.JSON(), want.JSON())
		}
	})
}

var _ = Describe("Client.Apply when update is forbidden (dynamic client)", func() {
	It("sends the update as a merge patch carrying the resourceVersion read, and PUTs no more for that resource", func() {
		f := newFakeCluster(Options{Overwrite: true}, "default", false)
		f.c.Apply(context.Background(), objects(deployV1))
		// The fake stores no resourceVersion of its own: give the object one.
		rc := f.fake.Resource(deployGVR).Namespace("default")
		u, err := rc.Get(context.Background(), "web", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		u.SetResourceVersion("41")
		_, err = rc.Update(context.Background(), u, metav1.UpdateOptions{})
		Expect(err).NotTo(HaveOccurred())
		f.fake.PrependReactor("update", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
			return true, nil, apierrors.NewForbidden(deployGVR.GroupResource(), "web",
				errors.New(`User "deployer" cannot update resource "deployments" in API group "apps" in the namespace "default"`))
		})
		f.fake.ClearActions()
		for _, replicas := range []string{"3", "4"} {
			outs := f.c.Apply(context.Background(), objects(strings.Replace(deployV1, "replicas: 2", "replicas: "+replicas, 1)))
			// (The fake keeps the resourceVersion through a patch, so the
			// outcome reads unchanged: a server moves it.)
			Expect(outs[0].Err).NotTo(HaveOccurred())
			Expect(f.get(deployGVR, "default", "web").JSON()).To(ContainSubstring(`"replicas":` + replicas))
		}
		var verbs []string
		var first []byte
		for _, a := range f.fake.Actions() {
			if a.GetVerb() == "get" {
				continue
			}
			verbs = append(verbs, a.GetVerb())
			if pa, ok := a.(clienttesting.PatchAction); ok && first == nil {
				Expect(pa.GetPatchType()).To(Equal(types.MergePatchType))
				first = pa.GetPatch()
			}
		}
		Expect(verbs).To(Equal([]string{"update", "patch", "patch"}), "one refused update, then patches")
		Expect(string(first)).To(ContainSubstring(`"resourceVersion":"41"`))
		Expect(string(first)).To(ContainSubstring(`"replicas":3`))
	})

	It("does not turn to a patch when the 403 is not the update verb's (an admission webhook's)", func() {
		f := newFakeCluster(Options{Overwrite: true}, "default", false)
		f.c.Apply(context.Background(), objects(deployV1))
		f.fake.PrependReactor("update", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
			return true, nil, apierrors.NewForbidden(deployGVR.GroupResource(), "web", errors.New(`admission webhook "deny" denied the request`))
		})
		f.fake.ClearActions()
		outs := f.c.Apply(context.Background(), objects(strings.Replace(deployV1, "replicas: 2", "replicas: 3", 1)))
		Expect(outs[0].Action).To(Equal(Failed))
		Expect(outs[0].Err).To(MatchError(ContainSubstring("denied the request")))
		for _, a := range f.fake.Actions() {
			Expect(a.GetVerb()).NotTo(Equal("patch"))
		}
	})
})
