package cluster

import (
	"context"
	"errors"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/value"
)

// staticMapper is a RESTMapper whose Reset does nothing.
type staticMapper struct{ meta.RESTMapper }

func (staticMapper) Reset() {}

var (
	cmGVR     = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	deployGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
)

// fakeCluster is a Client over client-go's fake dynamic client, knowing
// ConfigMaps, Deployments, Namespaces and Secrets, with the embedded schema and
// recorded backoff waits.
type fakeCluster struct {
	c     *Client
	fake  *dynamicfake.FakeDynamicClient
	waits []time.Duration
}

func newFakeCluster(opts Options, namespace string, enforce bool) *fakeCluster {
	m := meta.NewDefaultRESTMapper(nil)
	m.Add(schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, meta.RESTScopeNamespace)
	m.Add(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, meta.RESTScopeNamespace)
	m.Add(schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}, meta.RESTScopeRoot)
	m.Add(schema.GroupVersionKind{Version: "v1", Kind: "Secret"}, meta.RESTScopeNamespace)
	fake := dynamicfake.NewSimpleDynamicClient(runtime.NewScheme())
	f := &fakeCluster{fake: fake}
	f.c = newClient(opts, namespace, enforce, fake, staticMapper{m}, func(context.Context) (*openapi.Schema, error) {
		return openapi.Default()
	})
	f.c.random = func() float64 { return 1 }
	f.c.sleep = func(_ context.Context, d time.Duration) error {
		f.waits = append(f.waits, d)
		return nil
	}
	return f
}

// objects reads a YAML stream.
func objects(yaml string) []Object {
	objs, err := ReadObjects([]string{"-"}, false, strings.NewReader(yaml))
	Expect(err).NotTo(HaveOccurred())
	return objs
}

// get returns the stored object as a value.
func (f *fakeCluster) get(gvr schema.GroupVersionResource, ns, name string) value.Value {
	u, err := f.fake.Resource(gvr).Namespace(ns).Get(context.Background(), name, metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred())
	v, err := toValue(u)
	Expect(err).NotTo(HaveOccurred())
	return v
}

// writes counts the create and update actions sent.
func (f *fakeCluster) writes() int {
	n := 0
	for _, a := range f.fake.Actions() {
		if a.GetVerb() == "create" || a.GetVerb() == "update" {
			n++
		}
	}
	return n
}

const deployV1 = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web, tier: front}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.25
        ports: [{containerPort: 80}]
`

func actions(outs []Outcome) []string {
	s := make([]string, len(outs))
	for i, o := range outs {
		s[i] = o.Ref.String() + " " + o.Action.String()
		if o.Err != nil {
			s[i] += ": " + o.Err.Error()
		}
	}
	return s
}

var _ = Describe("Client.Apply", func() {
	ctx := context.Background()
	opts := Options{Overwrite: true}

	It("creates, then leaves alone, then configures, recording kubectl's annotation", func() {
		f := newFakeCluster(opts, "default", false)
		objs := objects(deployV1)
		outs := f.c.Apply(ctx, objs)
		Expect(actions(outs)).To(Equal([]string{"deployment.apps/web created"}))
		Expect(outs[0].Ref.Namespace).To(Equal("default"))
		Expect(outs[0].Attempts).To(Equal(1))
		live := f.get(deployGVR, "default", "web")
		ann, ok := annotationOf(live)
		Expect(ok).To(BeTrue())
		local := objs[0].Value
		md, _ := local.Get("metadata")
		Expect(ann).To(Equal(LastAppliedConfiguration(local.With("metadata", md.With("namespace", value.String("default"))))))

		By("applying the same again")
		Expect(actions(f.c.Apply(ctx, objs))).To(Equal([]string{"deployment.apps/web unchanged"}))
		Expect(f.writes()).To(Equal(1))

		By("changing the image and dropping a label")
		changed := strings.Replace(strings.Replace(deployV1, "nginx:1.25", "nginx:1.27", 1), ", tier: front", "", 1)
		outs = f.c.Apply(ctx, objects(changed))
		Expect(actions(outs)).To(Equal([]string{"deployment.apps/web configured"}))
		live = f.get(deployGVR, "default", "web")
		md, _ = live.Get("metadata")
		labels, _ := md.Get("labels")
		Expect(string(labels.JSON())).To(Equal(`{"app":"web"}`))
		var paths []string
		for _, c := range outs[0].Changes {
			paths = append(paths, c.Op.String()+" "+c.Path().String())
		}
		Expect(paths).To(ContainElements("remove metadata.labels.tier", "replace spec.template.spec.containers[name=web].image"))
	})

	It("keeps fields the server set and the last applied configuration did not", func() {
		f := newFakeCluster(opts, "default", false)
		objs := objects(deployV1)
		f.c.Apply(ctx, objs)
		u, err := f.fake.Resource(deployGVR).Namespace("default").Get(ctx, "web", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(unstructured.SetNestedField(u.Object, "RollingUpdate", "spec", "strategy", "type")).To(Succeed())
		_, err = f.fake.Resource(deployGVR).Namespace("default").Update(ctx, u, metav1.UpdateOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(actions(f.c.Apply(ctx, objs))).To(Equal([]string{"deployment.apps/web unchanged"}))
	})

	DescribeTable("takes over an object kubectl apply created without a change",
		func(name, ns string, gvr schema.GroupVersionResource, want string) {
			f := newFakeCluster(opts, "default", false)
			local, sent := loadKubectlFixture(name, "")
			u := &unstructured.Unstructured{}
			// The server drops the nulls of typed objects.
			Expect(u.UnmarshalJSON(stripNulls(sent).JSON())).To(Succeed())
			_, err := f.fake.Resource(gvr).Namespace(ns).Create(ctx, u, metav1.CreateOptions{})
			Expect(err).NotTo(HaveOccurred())
			Expect(actions(f.c.Apply(ctx, []Object{{Value: local, Source: name + ".yaml#1"}}))).To(Equal([]string{want}))
		},
		Entry("a deployment", "dep", "default", deployGVR, "deployment.apps/web unchanged"),
		Entry("a config map naming its namespace", "cm", "ns1", cmGVR, "configmap/x unchanged"),
	)

	It("re-reads and retries when the server reports a conflict", func() {
		f := newFakeCluster(opts, "default", false)
		f.c.Apply(ctx, objects(deployV1))
		conflicts := 2
		f.fake.PrependReactor("update", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
			if conflicts == 0 {
				return false, nil, nil
			}
			conflicts--
			return true, nil, apierrors.NewConflict(deployGVR.GroupResource(), "web", errors.New("the object has been modified"))
		})
		outs := f.c.Apply(ctx, objects(strings.Replace(deployV1, "replicas: 2", "replicas: 3", 1)))
		Expect(actions(outs)).To(Equal([]string{"deployment.apps/web configured"}))
		Expect(outs[0].Attempts).To(Equal(3))
		Expect(f.waits).To(Equal([]time.Duration{25 * time.Millisecond, 50 * time.Millisecond}))
	})

	It("gives up after MaxAttempts conflicts", func() {
		f := newFakeCluster(Options{Overwrite: true, MaxAttempts: 2}, "default", false)
		f.c.Apply(ctx, objects(deployV1))
		f.fake.PrependReactor("update", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
			return true, nil, apierrors.NewConflict(deployGVR.GroupResource(), "web", errors.New("the object has been modified"))
		})
		outs := f.c.Apply(ctx, objects(strings.Replace(deployV1, "replicas: 2", "replicas: 3", 1)))
		Expect(outs[0].Action).To(Equal(Failed))
		Expect(outs[0].Attempts).To(Equal(2))
		Expect(outs[0].Err).To(MatchError(ContainSubstring("gave up after 2 attempts")))
	})

	It("reports each object in input order, a failure not stopping the others", func() {
		f := newFakeCluster(Options{Overwrite: true, Workers: 3}, "team", true)
		outs := f.c.Apply(ctx, objects(`apiVersion: v1
kind: ConfigMap
metadata: {name: a}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: b, namespace: other}
---
apiVersion: v1
kind: Namespace
metadata: {name: team, namespace: ignored}
`))
		Expect(outs).To(HaveLen(4))
		Expect(outs[0].Action).To(Equal(Created))
		Expect(outs[0].Ref.Namespace).To(Equal("team"))
		Expect(outs[1].Action).To(Equal(Failed))
		Expect(outs[1].Err).To(MatchError(ContainSubstring("cannot find the resource of Widget in example.com/v1")))
		Expect(outs[2].Err).To(MatchError(`the namespace from the provided object "other" does not match the namespace "team". You must pass '--namespace=other' to perform this operation.`))
		Expect(outs[3].Action).To(Equal(Created))
		Expect(f.writes()).To(Equal(2))
		By("creating the Namespace first")
		var order []string
		for _, a := range f.fake.Actions() {
			if a.GetVerb() == "create" {
				order = append(order, a.GetResource().Resource)
			}
		}
		Expect(order).To(Equal([]string{"namespaces", "configmaps"}))
		ns := f.get(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}, "", "team")
		md, _ := ns.Get("metadata")
		_, has := md.Get("namespace")
		Expect(has).To(BeFalse())
	})

	It("accepts an object naming the namespace of -n", func() {
		f := newFakeCluster(opts, "team", true)
		outs := f.c.Apply(ctx, objects("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: team}\n"))
		Expect(actions(outs)).To(Equal([]string{"configmap/a created"}))
	})

	It("lets an object name its namespace when -n is not given", func() {
		f := newFakeCluster(opts, "default", false)
		outs := f.c.Apply(ctx, objects("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: other}\n"))
		Expect(actions(outs)).To(Equal([]string{"configmap/a created"}))
		Expect(outs[0].Ref.Namespace).To(Equal("other"))
		f.get(cmGVR, "other", "a")
	})

	It("writes nothing in a client dry run", func() {
		f := newFakeCluster(Options{Overwrite: true, DryRun: DryRunClient}, "default", false)
		Expect(actions(f.c.Apply(ctx, objects(deployV1)))).To(Equal([]string{"deployment.apps/web created"}))
		Expect(f.writes()).To(Equal(0))
	})

	It("sends dryRun=All in a server dry run", func() {
		f := newFakeCluster(Options{Overwrite: true, DryRun: DryRunServer}, "default", false)
		var dry []string
		f.fake.PrependReactor("create", "deployments", func(a clienttesting.Action) (bool, runtime.Object, error) {
			dry = a.(clienttesting.CreateActionImpl).CreateOptions.DryRun
			return true, nil, nil
		})
		Expect(actions(f.c.Apply(ctx, objects(deployV1)))).To(Equal([]string{"deployment.apps/web created"}))
		Expect(dry).To(Equal([]string{metav1.DryRunAll}))
	})

	It("fails an object that conflicts with a change made on the server when Overwrite is false", func() {
		f := newFakeCluster(Options{}, "default", false)
		f.c.Apply(ctx, objects(deployV1))
		u, err := f.fake.Resource(deployGVR).Namespace("default").Get(ctx, "web", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(unstructured.SetNestedField(u.Object, int64(5), "spec", "replicas")).To(Succeed())
		_, err = f.fake.Resource(deployGVR).Namespace("default").Update(ctx, u, metav1.UpdateOptions{})
		Expect(err).NotTo(HaveOccurred())
		before := f.writes()
		outs := f.c.Apply(ctx, objects(strings.Replace(deployV1, "replicas: 2", "replicas: 3", 1)))
		var ce *apply.ConflictError
		Expect(errors.As(outs[0].Err, &ce)).To(BeTrue())
		Expect(ce.Conflicts[0].Path.String()).To(Equal("spec.replicas"))
		Expect(f.writes()).To(Equal(before))
	})

	It("does not count the annotation of the last apply as a conflict when Overwrite is false", func() {
		f := newFakeCluster(Options{}, "default", false)
		f.c.Apply(ctx, objects(deployV1))
		outs := f.c.Apply(ctx, objects(strings.Replace(deployV1, "replicas: 2", "replicas: 3", 1)))
		Expect(actions(outs)).To(Equal([]string{"deployment.apps/web configured"}))
	})

	It("fails every object when the schema cannot be read", func() {
		f := newFakeCluster(opts, "default", false)
		f.c.schema = func(context.Context) (*openapi.Schema, error) { return nil, errors.New("boom") }
		outs := f.c.Apply(ctx, objects(deployV1))
		Expect(outs[0].Err).To(MatchError("cannot read the server's OpenAPI schema: boom"))
	})

	It("reports progress", func() {
		var sb strings.Builder
		f := newFakeCluster(Options{Overwrite: true, Progress: &sb}, "default", false)
		f.c.Apply(ctx, objects(deployV1))
		Expect(sb.String()).To(Equal("ply: applied 1/1 objects\n"))
	})
})

var _ = Describe("Client.Diff", func() {
	ctx := context.Background()

	It("shows the changes apply would make and what decided each, writing nothing", func() {
		f := newFakeCluster(Options{Overwrite: true}, "default", false)
		f.c.Apply(ctx, objects(deployV1))
		writes := f.writes()
		changed := strings.Replace(strings.Replace(deployV1, "replicas: 2", "replicas: 3", 1), ", tier: front", "", 1)
		res, err := f.c.Diff(ctx, append(objects(changed), objects("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: new}\n")...))
		Expect(err).NotTo(HaveOccurred())
		Expect(f.writes()).To(Equal(writes))
		Expect(res).To(HaveLen(2))
		d := res[0]
		Expect(d.Changed()).To(BeTrue())
		Expect(d.Unified).To(HavePrefix("--- live/apps.v1.Deployment.default.web\n+++ merged/apps.v1.Deployment.default.web\n"))
		Expect(d.Unified).To(ContainSubstring("\n-  replicas: 2\n+  replicas: 3\n"))
		Expect(d.Unified).To(ContainSubstring("\n-    tier: front\n"))
		Expect(d.Fields).To(ContainElements(
			FieldChange{Path: "spec.replicas", Op: apply.OpReplace, Reason: ReasonSetByLocal},
			FieldChange{Path: "metadata.labels.tier", Op: apply.OpRemove, Reason: ReasonRemovedSinceApplied},
		))
		Expect(res[1].Exists).To(BeFalse())
		Expect(res[1].Unified).To(ContainSubstring("@@ -0,0 +1,"))

		By("and nothing once applied")
		f.c.Apply(ctx, objects(changed))
		res, err = f.c.Diff(ctx, objects(changed))
		Expect(err).NotTo(HaveOccurred())
		Expect(res[0].Changed()).To(BeFalse())
		Expect(res[0].Unified).To(BeEmpty())
	})
})

// stripNulls returns v without the null fields of its maps, as the API
// server stores typed objects.
func stripNulls(v value.Value) value.Value {
	switch {
	case v.IsMap():
		var fs []value.Field
		for _, f := range v.Fields() {
			if !f.Value.IsNull() {
				fs = append(fs, value.Field{Key: f.Key, Value: stripNulls(f.Value)})
			}
		}
		return value.MapFromSorted(fs)
	case v.IsList():
		items := make([]value.Value, len(v.Items()))
		for i, it := range v.Items() {
			items[i] = stripNulls(it)
		}
		return value.List(items)
	}
	return v
}
