package cluster

import (
	"context"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

var _ = Describe("Options.Gates", func() {
	ctx := context.Background()
	// deployV1 with a DNS port 53 over TCP instead of port 80.
	withTCP53 := strings.Replace(deployV1, "ports: [{containerPort: 80}]", "ports: [{containerPort: 80}, {containerPort: 53, protocol: TCP, name: dns-tcp}]", 1)

	// portsAfter applies deployV1, lets a controller add UDP port 53 to
	// the live object, then applies withTCP53 under gates and returns the
	// ports Diff and Apply leave.
	portsAfter := func(gates features.Gates) (diffed, applied value.Value) {
		f := newFakeCluster(Options{Overwrite: true, Gates: gates}, "default", false)
		Expect(actions(f.c.Apply(ctx, objects(deployV1)))).To(Equal([]string{"deployment.apps/web created"}))
		ri := f.fake.Resource(deployGVR).Namespace("default")
		u, err := ri.Get(ctx, "web", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		cs, _, _ := unstructured.NestedSlice(u.Object, "spec", "template", "spec", "containers")
		c := cs[0].(map[string]any)
		c["ports"] = append(c["ports"].([]any), map[string]any{"containerPort": int64(53), "protocol": "UDP", "name": "dns-udp"})
		Expect(unstructured.SetNestedSlice(u.Object, cs, "spec", "template", "spec", "containers")).To(Succeed())
		_, err = ri.Update(ctx, u, metav1.UpdateOptions{})
		Expect(err).NotTo(HaveOccurred())

		res, err := f.c.Diff(ctx, objects(withTCP53))
		Expect(err).NotTo(HaveOccurred())
		Expect(res[0].Err).NotTo(HaveOccurred())
		Expect(actions(f.c.Apply(ctx, objects(withTCP53)))).To(Equal([]string{"deployment.apps/web configured"}))
		return portsOf(res[0].Merged), portsOf(f.get(deployGVR, "default", "web"))
	}

	It("are all on by default: the controller's UDP port 53 stays beside local's TCP one (live-only items first)", func() {
		diffed, applied := portsAfter(features.Gates{})
		want := mustValue(`[{containerPort: 53, protocol: UDP, name: dns-udp}, {containerPort: 80}, {containerPort: 53, protocol: TCP, name: dns-tcp}]`)
		Expect(value.Equal(applied, want)).To(BeTrue(), "%s", applied.JSON())
		Expect(value.Equal(diffed, want)).To(BeTrue(), "%s", diffed.JSON())
	})

	It("reach every merge: with features.Kubectl() ports are keyed by containerPort alone, as kubectl keys them", func() {
		diffed, applied := portsAfter(features.Kubectl())
		want := mustValue(`[{containerPort: 80}, {containerPort: 53, protocol: TCP, name: dns-tcp}]`)
		Expect(value.Equal(applied, want)).To(BeTrue(), "%s", applied.JSON())
		Expect(value.Equal(diffed, want)).To(BeTrue(), "%s", diffed.JSON())
	})
})

// portsOf returns the ports of the first container of a Deployment.
func portsOf(v value.Value) value.Value {
	GinkgoHelper()
	for _, f := range []string{"spec", "template", "spec", "containers"} {
		var ok bool
		v, ok = v.Get(f)
		Expect(ok).To(BeTrue(), f)
	}
	ps, ok := v.Items()[0].Get("ports")
	Expect(ok).To(BeTrue())
	return ps
}

func mustValue(yaml string) value.Value {
	GinkgoHelper()
	v, err := parse.Document([]byte(yaml))
	Expect(err).NotTo(HaveOccurred())
	return v
}
