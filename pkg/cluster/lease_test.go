package cluster

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"
)

var _ = Describe("the ApplySet lease's requests", func() {
	ctx := context.Background()

	It("are retried each with a retry time of its own: a read failing once, long after an earlier read failed once, is read again", func() {
		f := newFakeCluster(Options{Overwrite: true}, "default", false)
		clock := f.withClock()
		l := f.c.newSetLease("default", "ply-applyset-x", "me", 15*time.Second)
		lease := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
			"metadata": map[string]any{"name": "ply-applyset-x", "namespace": "default"},
			"spec":     map[string]any{"holderIdentity": "me"},
		}}
		Expect(f.fake.Tracker().Create(leaseResource, lease, "default")).To(Succeed())
		failOnce := false
		f.fake.PrependReactor("get", "leases", func(clienttesting.Action) (bool, runtime.Object, error) {
			if failOnce {
				failOnce = false
				return true, nil, unavailable()
			}
			return false, nil, nil
		})

		failOnce = true
		_, err := l.get(ctx)
		Expect(err).NotTo(HaveOccurred())
		*clock = clock.Add(time.Minute) // longer than the retry time, 30s
		failOnce = true
		cur, err := l.get(ctx)
		Expect(err).NotTo(HaveOccurred(), "the second read's one failure is its first")
		Expect(recordOf(cur).holder).To(Equal("me"))
	})
})
