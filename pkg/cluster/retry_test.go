package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clienttesting "k8s.io/client-go/testing"
)

// withClock gives f a fake clock that its sleeps advance, so that the
// retry time runs out without waiting.
func (f *fakeCluster) withClock() *time.Time {
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.c.now = func() time.Time { return clock }
	f.c.sleep = func(_ context.Context, d time.Duration) error {
		f.waits = append(f.waits, d)
		clock = clock.Add(d)
		return nil
	}
	return &clock
}

// unavailable is the API server's answer while etcd is down.
func unavailable() error {
	return apierrors.NewServiceUnavailable("etcdserver: leader changed")
}

// lostAnswer returns a reactor for verb on resource that lets the first n
// writes reach the tracker (they are stored) and then answers 503, as a
// proxy that loses the server's answer does.
func lostAnswer(f *fakeCluster, gvr schema.GroupVersionResource, n int) clienttesting.ReactionFunc {
	return func(a clienttesting.Action) (bool, runtime.Object, error) {
		if n == 0 {
			return false, nil, nil
		}
		n--
		u := a.(clienttesting.CreateAction).GetObject().(*unstructured.Unstructured).DeepCopy()
		var err error
		if a.GetVerb() == "create" {
			u.SetResourceVersion("7")
			err = f.fake.Tracker().Create(gvr, u, a.GetNamespace())
		} else {
			u.SetResourceVersion("8")
			err = f.fake.Tracker().Update(gvr, u, a.GetNamespace())
		}
		if err != nil {
			return true, nil, errors.New("the test's tracker: " + err.Error())
		}
		return true, nil, unavailable()
	}
}

var _ = Describe("retries of transient failures", func() {
	ctx := context.Background()
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {k: v1}\n"

	DescribeTable("transient",
		func(err error, want bool) { Expect(transient(err)).To(Equal(want)) },
		Entry("503", unavailable(), true),
		Entry("500 internal error", apierrors.NewInternalError(errors.New("etcdserver: request timed out")), true),
		Entry("504 timeout", apierrors.NewTimeoutError("request did not complete", 1), true),
		Entry("429", apierrors.NewTooManyRequests("slow down", 1), true),
		Entry("409", apierrors.NewConflict(cmGVR.GroupResource(), "a", errors.New("modified")), false),
		Entry("422", apierrors.NewInvalid(schema.GroupKind{Kind: "ConfigMap"}, "a", nil), false),
		Entry("404", apierrors.NewNotFound(cmGVR.GroupResource(), "a"), false),
		Entry("connection refused", &url.Error{Op: "Get", URL: "https://127.0.0.1:1", Err: &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}}, true),
		Entry("connection reset", &url.Error{Op: "Put", URL: "https://127.0.0.1:1", Err: &net.OpError{Op: "read", Err: syscall.ECONNRESET}}, true),
		Entry("an answer cut short", fmt.Errorf("unexpected error when reading response body. Please retry. Original error: %w", io.ErrUnexpectedEOF), true),
		Entry("an unreadable answer", &badAnswerError{msg: "cannot read the live object"}, true),
		Entry("no answer within the request timeout", &attemptTimeoutError{after: time.Second, err: context.DeadlineExceeded}, true),
		Entry("the caller's context ended", context.Canceled, false),
		Entry("a certificate error", errors.New("x509: certificate signed by unknown authority"), false),
		Entry("a request given up on", &GaveUpError{Failures: 3, Err: unavailable()}, false),
		Entry("nil", nil, false),
	)

	It("reports an update whose answer was lost as configured, not unchanged, and writes once", func() {
		f := newFakeCluster(Options{Overwrite: true}, "default", false)
		f.withClock()
		Expect(actions(f.c.Apply(ctx, objects(cm)))).To(Equal([]string{"configmap/a created"}))
		u, err := f.fake.Resource(cmGVR).Namespace("default").Get(ctx, "a", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		u.SetResourceVersion("5")
		Expect(f.fake.Tracker().Update(cmGVR, u, "default")).To(Succeed())
		f.fake.PrependReactor("update", "configmaps", lostAnswer(f, cmGVR, 1))

		outs := f.c.Apply(ctx, objects(strings.Replace(cm, "k: v1", "k: v2", 1)))
		Expect(actions(outs)).To(Equal([]string{"configmap/a configured"}))
		Expect(outs[0].Attempts).To(Equal(2), "read, write (answer lost), read again: nothing left to write")
		Expect(stringAt(f.get(cmGVR, "default", "a"), "data", "k")).To(Equal("v2"))
	})

	It("reports a create whose answer was lost as created, not unchanged", func() {
		f := newFakeCluster(Options{Overwrite: true}, "default", false)
		f.withClock()
		f.fake.PrependReactor("create", "configmaps", lostAnswer(f, cmGVR, 1))
		outs := f.c.Apply(ctx, objects(cm))
		Expect(actions(outs)).To(Equal([]string{"configmap/a created"}))
		Expect(outs[0].Attempts).To(Equal(2))
	})

	It("reports unchanged after a lost answer when nothing moved (the write was not stored)", func() {
		settled := (&lostWrite{rv: "5"}).settle(Unchanged, planned{exists: true, rv: "5"})
		Expect(settled).To(Equal(Unchanged))
		Expect((*lostWrite)(nil).settle(Unchanged, planned{exists: true, rv: "9"})).To(Equal(Unchanged))
		Expect((&lostWrite{create: true, recorded: "x"}).settle(Unchanged, planned{exists: true})).To(Equal(Unchanged),
			"an object created by another writer (it records another configuration) was not created by this run")
	})

	It("retries a write refused before it reached the server (429, 503) with the backoff and the server's Retry-After", func() {
		f := newFakeCluster(Options{Overwrite: true}, "default", false)
		f.withClock()
		failures := []error{apierrors.NewTooManyRequests("slow down", 2), unavailable()}
		f.fake.PrependReactor("create", "configmaps", func(clienttesting.Action) (bool, runtime.Object, error) {
			if len(failures) == 0 {
				return false, nil, nil
			}
			err := failures[0]
			failures = failures[1:]
			return true, nil, err
		})
		outs := f.c.Apply(ctx, objects(cm))
		Expect(actions(outs)).To(Equal([]string{"configmap/a created"}))
		Expect(f.waits).To(Equal([]time.Duration{2 * time.Second, 50 * time.Millisecond}), "Retry-After: 2, then the backoff's second step")
	})

	It("gives up after the retry time, naming the attempts, and fails the objects that follow without sending them", func() {
		f := newFakeCluster(Options{Overwrite: true, Workers: 1, RetryTimeout: 10 * time.Second}, "default", false)
		f.withClock()
		sent := 0
		f.fake.PrependReactor("*", "configmaps", func(a clienttesting.Action) (bool, runtime.Object, error) {
			if a.GetVerb() == "get" && sent == 0 {
				return false, nil, nil // the first read finds no object
			}
			sent++
			return true, nil, unavailable()
		})
		outs := f.c.Apply(ctx, objects(cm+"---\n"+strings.Replace(cm, "name: a", "name: b", 1)))
		Expect(outs[0].Action).To(Equal(Failed))
		var gaveUp *GaveUpError
		Expect(errors.As(outs[0].Err, &gaveUp)).To(BeTrue(), "%v", outs[0].Err)
		Expect(gaveUp.Failures).To(BeNumerically(">", 5))
		Expect(gaveUp.After).To(BeNumerically(">=", 10*time.Second))
		Expect(outs[0].Err.Error()).To(ContainSubstring("the server may hold it"), "a create whose answer was lost may be stored")
		Expect(outs[1].Action).To(Equal(Failed))
		Expect(outs[1].Err).To(MatchError(ContainSubstring("not sent: every request to the server has failed for 10s")))
		Expect(sent).To(Equal(gaveUp.Failures), "the second object is not sent, not even read")
	})

	It("does not retry with a negative RetryTimeout", func() {
		f := newFakeCluster(Options{Overwrite: true, RetryTimeout: -1}, "default", false)
		f.withClock()
		f.fake.PrependReactor("create", "configmaps", func(clienttesting.Action) (bool, runtime.Object, error) {
			return true, nil, unavailable()
		})
		outs := f.c.Apply(ctx, objects(cm))
		Expect(outs[0].Err).To(MatchError(HavePrefix("gave up after 1 transient failure in 0s: etcdserver: leader changed")))
	})

	It("times out an attempt that hangs and retries it", func() {
		f := newFakeCluster(Options{Overwrite: true}, "default", false)
		f.c.requestTimeout = 50 * time.Millisecond
		hang := 1
		f.fake.PrependReactor("create", "configmaps", func(a clienttesting.Action) (bool, runtime.Object, error) {
			if hang == 0 {
				return false, nil, nil
			}
			hang--
			time.Sleep(200 * time.Millisecond)
			return true, nil, context.DeadlineExceeded
		})
		outs := f.c.Apply(ctx, objects(cm))
		Expect(actions(outs)).To(Equal([]string{"configmap/a created"}))
		Expect(outs[0].Attempts).To(Equal(2))
	})
})

var _ = Describe("retries of deletes and dry runs", func() {
	ctx := context.Background()
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {k: v1}\n"

	// candidateOf returns the prune candidate of the stored ConfigMap a.
	candidateOf := func(f *fakeCluster) candidate {
		u, err := f.fake.Resource(cmGVR).Namespace("default").Get(ctx, "a", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		u.SetUID("uid-a")
		return candidate{ref: Ref{GroupVersionKind: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, Namespace: "default", Name: "a", Resource: "configmaps"}, live: u}
	}

	It("repeats a delete whose answer was lost and counts the object pruned when the repeat finds it gone", func() {
		f := newFakeCluster(Options{Overwrite: true}, "default", false)
		f.withClock()
		Expect(actions(f.c.Apply(ctx, objects(cm)))).To(Equal([]string{"configmap/a created"}))
		deletes := 0
		f.fake.PrependReactor("delete", "configmaps", func(a clienttesting.Action) (bool, runtime.Object, error) {
			deletes++
			if deletes == 1 {
				Expect(f.fake.Tracker().Delete(cmGVR, "default", "a")).To(Succeed())
				return true, nil, unavailable()
			}
			return false, nil, nil
		})
		out := f.c.deleteOne(ctx, candidateOf(f), metav1.DeletePropagationBackground)
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Action).To(Equal(Pruned))
		Expect(deletes).To(Equal(2), "the repeat found the object gone (404)")
	})

	It("does not delete another object of the same name after a lost answer (the UID precondition's 409)", func() {
		f := newFakeCluster(Options{Overwrite: true}, "default", false)
		f.withClock()
		f.c.Apply(ctx, objects(cm))
		deletes := 0
		f.fake.PrependReactor("delete", "configmaps", func(a clienttesting.Action) (bool, runtime.Object, error) {
			if deletes++; deletes == 1 {
				return true, nil, unavailable()
			}
			return true, nil, apierrors.NewConflict(cmGVR.GroupResource(), "a", errors.New("Precondition failed: UID in precondition: uid-a, UID in object meta: uid-b"))
		})
		out := f.c.deleteOne(ctx, candidateOf(f), metav1.DeletePropagationBackground)
		Expect(out.Action).To(Equal(Pruned), "the object the run meant to delete is gone: %v", out.Err)
		Expect(deletes).To(Equal(2))
	})

	It("retries a server dry run of Diff that fails transiently", func() {
		f := newFakeCluster(Options{Overwrite: true, DryRun: DryRunServer}, "default", false)
		f.withClock()
		failures := 2
		f.fake.PrependReactor("create", "configmaps", func(clienttesting.Action) (bool, runtime.Object, error) {
			if failures == 0 {
				return false, nil, nil
			}
			failures--
			return true, nil, apierrors.NewTimeoutError("the server was too slow", 0)
		})
		res, err := f.c.Diff(ctx, objects(cm))
		Expect(err).NotTo(HaveOccurred())
		Expect(res[0].Err).NotTo(HaveOccurred())
		Expect(failures).To(Equal(0))
		Expect(f.waits).To(HaveLen(2))
	})
})
