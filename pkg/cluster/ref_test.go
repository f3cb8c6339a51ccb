package cluster

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func ref(group, version, kind, ns, name, resource string) Ref {
	return Ref{GroupVersionKind: schema.GroupVersionKind{Group: group, Version: version, Kind: kind}, Namespace: ns, Name: name, Resource: resource}
}

var _ = Describe("Ref", func() {
	DescribeTable("renders as kubectl names objects",
		func(r Ref, str, quoted, file string) {
			Expect(r.String()).To(Equal(str))
			Expect(r.Quoted()).To(Equal(quoted))
			Expect(r.FileName()).To(Equal(file))
		},
		Entry("a deployment", ref("apps", "v1", "Deployment", "default", "web", "deployments"),
			"deployment.apps/web", `deployments.apps "web"`, "apps.v1.Deployment.default.web"),
		Entry("a core object", ref("", "v1", "ConfigMap", "prod", "x", "configmaps"),
			"configmap/x", `configmaps "x"`, "v1.ConfigMap.prod.x"),
		Entry("a cluster-scoped object", ref("", "v1", "Namespace", "", "prod", "namespaces"),
			"namespace/prod", `namespaces "prod"`, "v1.Namespace.prod"),
		Entry("an unmapped custom resource", ref("example.com", "v1", "Widget", "", "w", ""),
			"widget.example.com/w", `widget.example.com "w"`, "example.com.v1.Widget.w"),
	)

	It("is read from an object", func() {
		objs, err := ReadObjects([]string{"testdata/read/multi.yaml"}, false, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(refOf(objs[1])).To(Equal(ref("apps", "v1", "Deployment", "", "web", "")))
	})
})

var _ = Describe("Backoff", func() {
	b := DefaultBackoff()

	DescribeTable("Delay",
		func(bo Backoff, retry int, r float64, want time.Duration) {
			Expect(bo.Delay(retry, r)).To(Equal(want))
		},
		Entry("no wait before the first attempt", b, 0, 0.5, time.Duration(0)),
		Entry("the first retry, lowest draw: half of Initial", b, 1, 0.0, 12500*time.Microsecond),
		Entry("the first retry, highest draw: Initial", b, 1, 1.0, 25*time.Millisecond),
		Entry("doubles each retry", b, 3, 1.0, 100*time.Millisecond),
		Entry("capped at Max", b, 20, 1.0, 2*time.Second),
		Entry("capped at Max, lowest draw", b, 1000, 0.0, time.Second),
		Entry("draws out of range are clamped", b, 1, 7.0, 25*time.Millisecond),
		Entry("no jitter", Backoff{Initial: time.Second, Max: time.Minute, Factor: 3}, 3, 0.3, 9*time.Second),
		Entry("a factor below 1 counts as 1", Backoff{Initial: time.Second, Max: time.Minute, Factor: 0.5}, 5, 1.0, time.Second),
		Entry("Max below Initial", Backoff{Initial: time.Second, Max: time.Millisecond, Factor: 2}, 4, 1.0, time.Second),
	)

	It("never exceeds Max and never shrinks as retries go on", func() {
		prev := time.Duration(0)
		for retry := 1; retry <= 100; retry++ {
			d := b.Delay(retry, 1)
			Expect(d).To(BeNumerically("<=", b.Max))
			Expect(d).To(BeNumerically(">=", prev))
			prev = d
		}
	})

	It("waits at most 7.175s in total over the default attempts", func() {
		total := time.Duration(0)
		for retry := 1; retry < DefaultMaxAttempts; retry++ {
			total += b.Delay(retry, 1)
		}
		Expect(total).To(Equal(7175 * time.Millisecond))
	})
})
