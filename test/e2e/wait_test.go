package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"

	"github.com/plyproject/ply/pkg/cluster"
	"github.com/plyproject/ply/test/harness"
)

var (
	lamps = schema.GroupVersionResource{Group: "e2e.ply.dev", Version: "v1", Resource: "lamps"}
	jobs  = schema.GroupVersionResource{Group: "batch", Version: "v1", Resource: "jobs"}
)

// statusFunc returns the status to write for an object of generation gen.
type statusFunc func(gen int64) map[string]any

// deploymentStatus is the status of a one-replica Deployment whose
// controller saw generation gen, with available replicas and the
// Progressing condition's status, reason and message.
func deploymentStatus(available int64, progressing, reason, message string) statusFunc {
	return func(gen int64) map[string]any {
		conds := []any{map[string]any{"type": "Progressing", "status": progressing, "reason": reason, "message": message}}
		if available > 0 {
			conds = append(conds, map[string]any{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable", "message": "Deployment has minimum availability."})
		}
		return map[string]any{
			"observedGeneration": gen, "replicas": int64(1), "updatedReplicas": int64(1),
			"readyReplicas": available, "availableReplicas": available, "conditions": conds,
		}
	}
}

var (
	deploymentAvailable = deploymentStatus(1, "True", "NewReplicaSetAvailable", `ReplicaSet "web-1" has successfully progressed.`)
	deploymentDeadline  = deploymentStatus(0, "False", "ProgressDeadlineExceeded", `ReplicaSet "web-1" has timed out progressing.`)
)

// conditionStatus is a custom resource's status with one condition.
func conditionStatus(typ, st, reason, message string) statusFunc {
	return func(gen int64) map[string]any {
		return map[string]any{"observedGeneration": gen, "conditions": []any{
			map[string]any{"type": typ, "status": st, "reason": reason, "message": message},
		}}
	}
}

// jobStarted is the status of a Job whose pod runs.
func jobStarted(int64) map[string]any {
	return map[string]any{"startTime": time.Now().UTC().Format(time.RFC3339), "active": int64(1), "ready": int64(0)}
}

// setStatus writes the status of an object through its status
// subresource, as its controller would, retrying on conflicts.
func setStatus(gvr schema.GroupVersionResource, ns, name string, st statusFunc) error {
	rc := srv.Dynamic().Resource(gvr).Namespace(ns)
	for range 10 {
		u, err := rc.Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		u.Object["status"] = st(u.GetGeneration())
		if _, err = rc.UpdateStatus(context.Background(), u, metav1.UpdateOptions{FieldManager: "e2e-controller"}); !apierrors.IsConflict(err) {
			return err
		}
	}
	return fmt.Errorf("%s %s/%s: status update kept conflicting", gvr.Resource, ns, name)
}

// later runs f in a goroutine after d, failing the spec if it fails; the
// returned function waits for it.
func later(d time.Duration, f func() error) (wait func()) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer GinkgoRecover()
		defer wg.Done()
		time.Sleep(d)
		Expect(f()).To(Succeed())
	}()
	return wg.Wait
}

// afterFirst runs f in the background once rec holds a first state, so
// that the change f makes is seen after the state before it however long
// the wait takes to read the object; wait waits for f.
func afterFirst(rec *recorder, f func() error) (wait func()) {
	return later(0, func() error {
		Eventually(func() int { return len(rec.seen(0)) }).WithTimeout(time.Minute).Should(BeNumerically(">", 0))
		return f()
	})
}

// libraryClient is a pkg/cluster client for ns as the admin.
func libraryClient(ns string) *cluster.Client {
	GinkgoHelper()
	c, err := cluster.New(srv.Config, cluster.Options{Namespace: ns, Overwrite: true})
	Expect(err).NotTo(HaveOccurred())
	return c
}

// applyLibrary applies the fixture with c and expects every object applied.
func applyLibrary(c *cluster.Client, name string) []cluster.Outcome {
	GinkgoHelper()
	objs, err := cluster.ReadObjects([]string{fixture(name)}, false, nil)
	Expect(err).NotTo(HaveOccurred())
	outs := c.Apply(context.Background(), objs)
	for _, o := range outs {
		Expect(o.Err).NotTo(HaveOccurred(), "%s", o.Ref)
	}
	return outs
}

// recorder collects the states Wait reports, per index.
type recorder struct {
	mu     sync.Mutex
	states map[int][]string
}

func (r *recorder) report(i int, w cluster.WaitResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.states == nil {
		r.states = map[int][]string{}
	}
	r.states[i] = append(r.states[i], string(w.Status)+": "+w.Message)
}

func (r *recorder) seen(i int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.states[i]...)
}

var _ = Describe("pkg/cluster Wait: readiness by kstatus on the real server", func() {
	type step struct {
		// before is written before the wait starts; after, once the wait
		// has reported the first state (nil: nothing).
		before, after statusFunc
		// then, when set, is a fixture applied after before is written
		// (a new generation the status has not seen).
		then string
	}
	DescribeTable("waits until the object is Current or Failed, or the timeout",
		func(file string, gvr schema.GroupVersionResource, name string, s step, timeout time.Duration,
			wantStatus status.Status, wantMessage string, wantSeen []string, wantErr string) {
			ns := newNamespace("wait-")
			c := libraryClient(ns)
			outs := applyLibrary(c, file)
			if s.before != nil {
				Expect(setStatus(gvr, ns, name, s.before)).To(Succeed())
			}
			if s.then != "" {
				outs = applyLibrary(c, s.then)
				Expect(outs[0].Action).To(Equal(cluster.Configured))
			}
			var item cluster.WaitItem
			for _, o := range outs {
				if o.Ref.Name == name {
					item = cluster.WaitItemOf(o)
				}
			}
			Expect(item.Ref.Name).To(Equal(name))
			var rec recorder
			done := func() {}
			if s.after != nil {
				done = afterFirst(&rec, func() error { return setStatus(gvr, ns, name, s.after) })
			}
			start := time.Now()
			rs := c.Wait(context.Background(), []cluster.WaitItem{item}, nil, cluster.WaitOptions{Timeout: timeout, Report: rec.report})
			elapsed := time.Since(start)
			done()
			Expect(rs).To(HaveLen(1))
			r := rs[0]
			Expect(r.Done).To(BeTrue())
			Expect(r.Status).To(Equal(wantStatus))
			Expect(r.Message).To(Equal(wantMessage))
			Expect(rec.seen(0)).To(Equal(wantSeen), "every state reported, in order")
			if wantErr == "" {
				Expect(r.Err).NotTo(HaveOccurred())
				if s.after == nil {
					Expect(elapsed).To(BeNumerically("<", 5*time.Second), "Current at once")
				}
				return
			}
			Expect(r.Err).To(MatchError(wantErr))
			if wantStatus != status.FailedStatus {
				Expect(elapsed).To(BeNumerically(">=", timeout))
			}
		},
		Entry("a Deployment already available: Current at once",
			"wait/deployment.yaml", deployments, "web", step{before: deploymentAvailable}, 30*time.Second,
			status.CurrentStatus, "Deployment is available. Replicas: 1",
			[]string{"Current: Deployment is available. Replicas: 1"}, ""),
		Entry("a Deployment without status: InProgress, then Current when its controller reports it available",
			"wait/deployment.yaml", deployments, "web", step{after: deploymentAvailable}, 30*time.Second,
			status.CurrentStatus, "Deployment is available. Replicas: 1",
			[]string{"InProgress: Replicas: 0/1", "Current: Deployment is available. Replicas: 1"}, ""),
		Entry("a Deployment re-applied, whose controller has not seen the new generation: InProgress until it has",
			"wait/deployment.yaml", deployments, "web", step{before: deploymentAvailable, then: "wait/deployment-image.yaml", after: deploymentAvailable}, 30*time.Second,
			status.CurrentStatus, "Deployment is available. Replicas: 1",
			[]string{"InProgress: Deployment generation is 2, but latest observed generation is 1", "Current: Deployment is available. Replicas: 1"}, ""),
		Entry("a Deployment past its progress deadline: Failed",
			"wait/deployment.yaml", deployments, "web", step{after: deploymentDeadline}, 30*time.Second,
			status.FailedStatus, `Progress deadline exceeded (ProgressDeadlineExceeded: ReplicaSet "web-1" has timed out progressing.)`,
			[]string{"InProgress: Replicas: 0/1", `Failed: Progress deadline exceeded (ProgressDeadlineExceeded: ReplicaSet "web-1" has timed out progressing.)`},
			`deployment.apps/web is Failed: Progress deadline exceeded (ProgressDeadlineExceeded: ReplicaSet "web-1" has timed out progressing.)`),
		Entry("a Deployment that never becomes available: timed out, with the last status",
			"wait/deployment.yaml", deployments, "web", step{}, 5*time.Second,
			status.InProgressStatus, "Replicas: 0/1",
			[]string{"InProgress: Replicas: 0/1", "InProgress: Replicas: 0/1"},
			"timed out after 5s waiting for deployment.apps/web to be Current; last status InProgress: Replicas: 0/1"),
		Entry("a custom resource Ready=False, then Ready=True",
			"wait/lamp.yaml", lamps, "l1",
			step{before: conditionStatus("Ready", "False", "Warming", "warming up"), after: conditionStatus("Ready", "True", "Warm", "ready")}, 30*time.Second,
			status.CurrentStatus, "Resource is Ready",
			[]string{"InProgress: warming up", "Current: Resource is Ready"}, ""),
		Entry("a custom resource Stalled=True: Failed with the condition's message",
			"wait/lamp.yaml", lamps, "l1",
			step{before: conditionStatus("Ready", "False", "Warming", "warming up"), after: conditionStatus("Stalled", "True", "NoCapacity", "no capacity left")}, 30*time.Second,
			status.FailedStatus, "no capacity left",
			[]string{"InProgress: warming up", "Failed: no capacity left"},
			"lamp.e2e.ply.dev/l1 is Failed: no capacity left"),
		Entry("a Job: InProgress until it starts",
			"wait/job.yaml", jobs, "once", step{after: jobStarted}, 30*time.Second,
			status.CurrentStatus, "Job in progress. success:0, active: 1, failed: 0",
			[]string{"InProgress: Job not started", "Current: Job in progress. success:0, active: 1, failed: 0"}, ""),
	)

	It("waits until a deleted object is gone: Terminating while a finalizer holds it", func() {
		ns := newNamespace("wait-gone-")
		c := libraryClient(ns)
		outs := applyLibrary(c, "wait/held.yaml")
		item := cluster.WaitItemOf(outs[0])
		Expect(item.UID).NotTo(BeEmpty())
		rc := srv.Dynamic().Resource(configMaps).Namespace(ns)
		Expect(rc.Delete(context.Background(), "held", metav1.DeleteOptions{})).To(Succeed())
		release := func() error {
			_, err := rc.Patch(context.Background(), "held", types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
			return err
		}

		By("timing out while the finalizer holds it")
		rs := c.Wait(context.Background(), nil, []cluster.WaitItem{item}, cluster.WaitOptions{Timeout: 5 * time.Second})
		Expect(rs[0].Err).To(MatchError("timed out after 5s waiting for configmap/held to be deleted; last status Terminating: Resource scheduled for deletion"))
		Expect(cluster.WaitLine(rs[0])).To(Equal("configmap/held Terminating: Resource scheduled for deletion (timed out after 5s)"))

		By("ending when the finalizer is removed")
		var rec recorder
		done := afterFirst(&rec, release)
		rs = c.Wait(context.Background(), nil, []cluster.WaitItem{item}, cluster.WaitOptions{Timeout: 30 * time.Second, Report: rec.report})
		done()
		Expect(rs[0].Err).NotTo(HaveOccurred())
		Expect(rs[0].Done).To(BeTrue())
		Expect(rs[0].Status).To(Equal(status.NotFoundStatus))
		Expect(rec.seen(0)).To(Equal([]string{"Terminating: Resource scheduled for deletion", "NotFound: deleted"}))
		expectAbsent(configMaps, ns, "held")
		Expect(cluster.WaitLine(rs[0])).To(Equal("configmap/held NotFound: deleted"))
	})

	It("counts another object of the same name as the one deleted being gone", func() {
		ns := newNamespace("wait-gone-")
		c := libraryClient(ns)
		cm := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "again"}}}
		rc := srv.Dynamic().Resource(configMaps).Namespace(ns)
		old, err := rc.Create(context.Background(), cm, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(rc.Delete(context.Background(), "again", metav1.DeleteOptions{})).To(Succeed())
		_, err = rc.Create(context.Background(), cm, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		item := cluster.WaitItem{Ref: cluster.Ref{GroupVersionKind: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, Namespace: ns, Name: "again"}, UID: string(old.GetUID())}
		rs := c.Wait(context.Background(), nil, []cluster.WaitItem{item}, cluster.WaitOptions{Timeout: 30 * time.Second})
		Expect(rs[0].Err).NotTo(HaveOccurred())
		Expect(rs[0].Status).To(Equal(status.NotFoundStatus))
	})

	It("watches many objects of a kind in a namespace with one watch, Current and deleted together", func() {
		ns := newNamespace("wait-many-")
		c := libraryClient(ns)
		rc := srv.Dynamic().Resource(configMaps).Namespace(ns)
		var current, gone []cluster.WaitItem
		for i := range 12 {
			name := "cm-" + strconv.Itoa(i)
			_, err := rc.Create(context.Background(), &unstructured.Unstructured{Object: map[string]any{
				"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name}}}, metav1.CreateOptions{})
			Expect(err).NotTo(HaveOccurred())
			item := cluster.WaitItem{Ref: cluster.Ref{GroupVersionKind: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, Namespace: ns, Name: name}}
			if i%3 == 0 {
				gone = append(gone, item)
			} else {
				current = append(current, item)
			}
		}
		done := later(time.Second, func() error {
			for _, it := range gone {
				if err := rc.Delete(context.Background(), it.Ref.Name, metav1.DeleteOptions{}); err != nil {
					return err
				}
			}
			return nil
		})
		rs := c.Wait(context.Background(), current, gone, cluster.WaitOptions{Timeout: 30 * time.Second})
		done()
		Expect(rs).To(HaveLen(12))
		for i, r := range rs {
			Expect(r.Err).NotTo(HaveOccurred(), "%d", i)
			if i < len(current) {
				Expect(cluster.WaitLine(r)).To(Equal("configmap/" + current[i].Ref.Name + " Current: Resource is always ready"))
			} else {
				Expect(cluster.WaitLine(r)).To(Equal("configmap/" + gone[i-len(current)].Ref.Name + " NotFound: deleted"))
			}
		}
	})

	It("lists and watches again when its watches expire (the proxy answers the first three 410 Gone)", func() {
		ns := newNamespace("wait-expired-")
		c := libraryClient(ns)
		outs := applyLibrary(c, "wait/deployment.yaml")
		proxy, err := srv.StartProxy()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(proxy.Close)
		var mu sync.Mutex
		expired, watches := 0, 0
		proxy.Intercept(func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Query().Get("watch") != "true" || r.URL.Path != "/apis/apps/v1/namespaces/"+ns+"/deployments" {
				return false
			}
			mu.Lock()
			defer mu.Unlock()
			watches++
			if expired == 3 {
				return false
			}
			expired++
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusGone)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version","reason":"Expired","code":410}`))
			return true
		})
		pc, err := cluster.New(proxy.Config, cluster.Options{Namespace: ns})
		Expect(err).NotTo(HaveOccurred())
		done := later(2*time.Second, func() error { return setStatus(deployments, ns, "web", deploymentAvailable) })
		rs := pc.Wait(context.Background(), []cluster.WaitItem{cluster.WaitItemOf(outs[0])}, nil, cluster.WaitOptions{Timeout: 60 * time.Second})
		done()
		Expect(rs[0].Err).NotTo(HaveOccurred())
		Expect(rs[0].Status).To(Equal(status.CurrentStatus))
		mu.Lock()
		defer mu.Unlock()
		Expect(expired).To(Equal(3))
		Expect(watches).To(BeNumerically(">", 3), "watched again after each expiry")
	})

	It("ends at once the wait of an object the user may not list, naming the refusal", func() {
		kubeconfig, err := srv.UserKubeconfig(harness.NobodyUser)
		Expect(err).NotTo(HaveOccurred())
		c, err := cluster.NewFromKubeconfig(cluster.Options{Kubeconfig: kubeconfig})
		Expect(err).NotTo(HaveOccurred())
		item := cluster.WaitItem{Ref: cluster.Ref{GroupVersionKind: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"},
			Namespace: "default", Name: "x", Resource: "configmaps"}}
		start := time.Now()
		rs := c.Wait(context.Background(), []cluster.WaitItem{item}, nil, cluster.WaitOptions{Timeout: 60 * time.Second})
		Expect(time.Since(start)).To(BeNumerically("<", 20*time.Second), "not retried until the timeout")
		Expect(rs[0].Done).To(BeTrue())
		Expect(rs[0].Err).To(MatchError(ContainSubstring("cannot watch configmap/x: ")))
		Expect(rs[0].Err.Error()).To(ContainSubstring(`User "nobody" cannot list resource "configmaps"`))
	})

	It("ends the wait of an object whose kind the server does not serve", func() {
		c := libraryClient("default")
		item := cluster.WaitItem{Ref: cluster.Ref{GroupVersionKind: schema.GroupVersionKind{Group: "nowhere.ply.dev", Version: "v1", Kind: "Ghost"}, Namespace: "default", Name: "g"}}
		rs := c.Wait(context.Background(), []cluster.WaitItem{item}, nil, cluster.WaitOptions{Timeout: 30 * time.Second})
		Expect(rs[0].Done).To(BeTrue())
		Expect(rs[0].Err).To(MatchError(ContainSubstring("cannot watch ghost.nowhere.ply.dev/g: ")))
	})
})

var _ = Describe("ply apply --wait", func() {
	It("prints each object's final status after the apply lines, and exits 0 once all are Current", func() {
		ns := newNamespace("wait-cli-")
		done := later(0, func() error {
			// As a controller: report the Deployment available once it
			// exists.
			Eventually(func() error {
				_, err := srv.Dynamic().Resource(deployments).Namespace(ns).Get(context.Background(), "web", metav1.GetOptions{})
				return err
			}).Should(Succeed())
			time.Sleep(time.Second)
			return setStatus(deployments, ns, "web", deploymentAvailable)
		})
		r := applyWith(srv.Kubeconfig, ns, []string{fixture("wait/deployment.yaml"), fixture("configmap.yaml")}, "--wait", "--timeout=60s")
		done()
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		// Stage by stage: the ConfigMap's (what others refer to), ready
		// when first read, then the Deployment's (workloads).
		Expect(r.Stdout).To(Equal(lines(
			"configmap/settings created",
			"1 object Current when first read (configmaps: 1)",
			"deployment.apps/web created",
			"deployment.apps/web Current: Deployment is available. Replicas: 1",
		)))
		Expect(r.Stderr).To(BeEmpty(), "no live block when standard error is not a terminal")
	})

	It("with -o json, lists the objects in input order though the stages wrote them in another", func() {
		ns := newNamespace("wait-cli-")
		done := later(0, func() error {
			Eventually(func() error {
				_, err := srv.Dynamic().Resource(deployments).Namespace(ns).Get(context.Background(), "web", metav1.GetOptions{})
				return err
			}).Should(Succeed())
			return setStatus(deployments, ns, "web", deploymentAvailable)
		})
		r := applyWith(srv.Kubeconfig, ns, []string{fixture("wait/deployment.yaml"), fixture("configmap.yaml")},
			"--wait", "--timeout=60s", "-o", "jsonpath={range .items[*]}{.kind}/{.metadata.name} {end}")
		done()
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal("Deployment/web ConfigMap/settings "))
		Expect(r.Stderr).To(ContainSubstring("1 object Current when first read (configmaps: 1)\n"), "the wait's lines on stderr")
	})

	It("exits 1 naming the object and its last status when the timeout passes", func() {
		ns := newNamespace("wait-cli-")
		r := applyWith(srv.Kubeconfig, ns, []string{fixture("wait/deployment.yaml")}, "--wait", "--timeout=5s", "-o", "name")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stdout).To(Equal(lines("deployment.apps/web")), "-o output stays parseable")
		Expect(r.Stderr).To(Equal(lines(
			"error: timed out after 5s waiting for deployment.apps/web to be Current; last status InProgress: Replicas: 0/1",
		)), "the timeout said once")
	})

	DescribeTable("refuses flags that do not go together",
		func(want string, args ...string) {
			r := applyWith(srv.Kubeconfig, "default", []string{fixture("wait/deployment.yaml")}, args...)
			Expect(r.ExitCode).To(Equal(2), "%s", r)
			Expect(r.Stderr).To(ContainSubstring(want))
		},
		Entry("--wait with a dry run", "--wait cannot be used with --dry-run=server", "--wait", "--dry-run=server"),
		Entry("a negative timeout", "--timeout must be positive, not -1s", "--timeout=-1s"),
		Entry("a timeout of zero", "--timeout must be positive", "--wait", "--timeout=0s"),
	)
})
