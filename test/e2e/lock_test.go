package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/plyproject/ply/pkg/cluster"
	"github.com/plyproject/ply/test/harness"
)

var leases = schema.GroupVersionResource{Group: "coordination.k8s.io", Version: "v1", Resource: "leases"}

// writeSet writes a manifest of the ConfigMaps cm-<from>..cm-<to> (three
// digits) and, with service, the Service svc, and returns its path.
func writeSet(dir, name string, from, to int, service bool) string {
	GinkgoHelper()
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-%03d\ndata:\n  k: v\n---\n", i)
	}
	if service {
		b.WriteString("apiVersion: v1\nkind: Service\nmetadata:\n  name: svc\nspec:\n  ports:\n  - port: 80\n")
	}
	p := filepath.Join(dir, name)
	Expect(os.WriteFile(p, []byte(b.String()), 0o644)).To(Succeed())
	return p
}

// names returns "configmap/cm-<from>".."configmap/cm-<to>" and, with
// service, "service/svc".
func names(from, to int, service bool) []string {
	var out []string
	for i := from; i <= to; i++ {
		out = append(out, fmt.Sprintf("configmap/cm-%03d", i))
	}
	if service {
		out = append(out, "service/svc")
	}
	return out
}

// members returns the members of the ApplySet id in ns, as
// "configmap/NAME" and "service/NAME", sorted.
func members(ns, id string) []string {
	GinkgoHelper()
	var out []string
	for _, r := range []struct {
		gvr  schema.GroupVersionResource
		kind string
	}{{configMaps, "configmap"}, {services, "service"}} {
		list, err := srv.Dynamic().Resource(r.gvr).Namespace(ns).List(context.Background(), metav1.ListOptions{LabelSelector: cluster.ApplySetPartOfLabel + "=" + id})
		Expect(err).NotTo(HaveOccurred())
		for _, u := range list.Items {
			if u.GetDeletionTimestamp() == nil {
				out = append(out, r.kind+"/"+u.GetName())
			}
		}
	}
	slices.Sort(out)
	return out
}

// reported returns the objects of a run's output with the given word
// ("pruned") or, with no word, every object it applied.
func reported(stdout string, words ...string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		obj, word, ok := strings.Cut(l, " ")
		if !ok {
			continue
		}
		if (len(words) == 0 && word != "pruned") || slices.Contains(words, word) {
			out = append(out, obj)
		}
	}
	slices.Sort(out)
	return out
}

// started is a ply run in the background.
type started struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	done           chan struct{}
	code           int
	began, ended   time.Time
}

// startPly starts the built ply with args.
func startPly(args ...string) *started {
	GinkgoHelper()
	s := &started{cmd: exec.Command(plyBin, args...), done: make(chan struct{})}
	s.cmd.Stdout, s.cmd.Stderr = &s.stdout, &s.stderr
	s.began = time.Now()
	Expect(s.cmd.Start()).To(Succeed())
	go func() {
		defer close(s.done)
		s.cmd.Wait()
		s.ended = time.Now()
		s.code = s.cmd.ProcessState.ExitCode()
	}()
	return s
}

// wait waits for the run to end and returns its result.
func (s *started) wait() harness.Result {
	GinkgoHelper()
	Eventually(s.done).WithTimeout(commandTimeout).Should(BeClosed())
	return harness.Result{Stdout: s.stdout.String(), Stderr: s.stderr.String(), ExitCode: s.code}
}

// kindsOf returns the kinds the parent Secret set in ns lists.
func kindsOf(ns string) string {
	GinkgoHelper()
	return live(secrets, ns, "set").GetAnnotations()[cluster.ApplySetGroupKindsAnnotation]
}

// leaseOf returns the Lease of the Secret parent set in ns, nil when
// there is none.
func leaseOf(ns string) *unstructured.Unstructured {
	GinkgoHelper()
	name := cluster.LeaseName(cluster.ApplySetID("set", ns, "Secret", ""))
	u, err := srv.Dynamic().Resource(leases).Namespace(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		return nil
	}
	return u
}

// holdLease writes the Lease of the Secret parent set in ns as held by
// holder for seconds, renewed now, as a run that holds it (or was killed
// holding it) leaves it.
func holdLease(ns, holder string, seconds int64) {
	GinkgoHelper()
	now := metav1.NewMicroTime(time.Now()).UTC().Format(metav1.RFC3339Micro)
	spec := map[string]any{"holderIdentity": holder, "leaseDurationSeconds": seconds, "acquireTime": now, "renewTime": now}
	rc := srv.Dynamic().Resource(leases).Namespace(ns)
	if cur := leaseOf(ns); cur != nil {
		cur.Object["spec"] = spec
		_, err := rc.Update(context.Background(), cur, metav1.UpdateOptions{})
		Expect(err).NotTo(HaveOccurred())
		return
	}
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
		"metadata": map[string]any{"name": cluster.LeaseName(cluster.ApplySetID("set", ns, "Secret", ""))}, "spec": spec}}
	_, err := rc.Create(context.Background(), u, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
}

var _ = Describe("one run at a time per ApplySet", func() {
	It("serialises a run applying 100 ConfigMaps, a Service and 50 new ones and a run pruning to the first 50 (8 trials): "+
		"nothing the other run reported applied is pruned while it runs", func() {
		dir := GinkgoT().TempDir()
		base := writeSet(dir, "base.yaml", 1, 100, true)
		fileA := writeSet(dir, "a.yaml", 1, 150, true)
		fileB := writeSet(dir, "b.yaml", 1, 50, false)
		setA, setB := names(1, 150, true), names(1, 50, false)
		slices.Sort(setA)
		var order, broken []string
		waited := 0
		for trial := 1; trial <= 8; trial++ {
			ns := newNamespace("lock-race-")
			id := cluster.ApplySetID("set", ns, "Secret", "")
			r := applyWith(srv.Kubeconfig, ns, []string{base}, "--prune", "--applyset=set")
			Expect(r.ExitCode).To(Equal(0), "%s", r)

			a := startPly("apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", fileA, "--prune", "--applyset=set")
			time.Sleep(time.Duration(trial%4) * 10 * time.Millisecond)
			b := startPly("apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", fileB, "--prune", "--applyset=set")
			ra, rb := a.wait(), b.wait()
			Expect(ra.ExitCode).To(Equal(0), "trial %d, run A: %s", trial, ra)
			Expect(rb.ExitCode).To(Equal(0), "trial %d, run B: %s", trial, rb)
			Expect(reported(ra.Stdout)).To(Equal(setA), "trial %d: A applied its objects", trial)

			final := members(ns, id)
			prunedByB := reported(rb.Stdout, "pruned")
			switch {
			case slices.Equal(final, setB):
				// A, then B: B pruned what A holds and B does not, after A ended.
				order = append(order, "A,B")
				Expect(prunedByB).To(Equal(names(51, 150, true)), "trial %d", trial)
				if !b.ended.After(a.ended) {
					broken = append(broken, fmt.Sprintf("trial %d: B pruned the %d objects A applied and ended before A did: it pruned them while A ran",
						trial, len(prunedByB)))
				}
				Expect(kindsOf(ns)).To(Equal("ConfigMap"), "trial %d", trial)
			case slices.Equal(final, setA):
				// B, then A: A re-created what B pruned before A started.
				order = append(order, "B,A")
				Expect(prunedByB).To(Equal(names(51, 100, true)), "trial %d", trial)
				Expect(reported(ra.Stdout, "created")).To(Equal(names(51, 150, true)), "trial %d", trial)
				Expect(kindsOf(ns)).To(Equal("ConfigMap,Service"), "trial %d", trial)
			default:
				broken = append(broken, fmt.Sprintf("trial %d: the set ends as neither run left it (%d members; B pruned %d objects, A reported %d applied): "+
					"B pruned objects A applied while A ran", trial, len(final), len(prunedByB), len(reported(ra.Stdout))))
			}
			if strings.Contains(ra.Stderr+rb.Stderr, "waiting for the lease on the ApplySet parent") {
				waited++
			}
		}
		AddReportEntry("8 trials", fmt.Sprintf("orders %s; a run waited for the other's lease in %d", strings.Join(order, " "), waited))
		Expect(broken).To(BeEmpty(), "%d of 8 trials", len(broken))
	})

	It("keeps every kind that has members listed on the parent when runs of different kinds race (5 trials)", func() {
		dir := GinkgoT().TempDir()
		fileA := writeSet(dir, "a.yaml", 1, 40, false)
		fileB := filepath.Join(dir, "b.yaml")
		Expect(os.WriteFile(fileB, []byte("apiVersion: v1\nkind: Service\nmetadata:\n  name: svc\nspec:\n  ports:\n  - port: 80\n"), 0o644)).To(Succeed())
		for trial := 1; trial <= 5; trial++ {
			ns := newNamespace("lock-kinds-")
			id := cluster.ApplySetID("set", ns, "Secret", "")
			a := startPly("apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", fileA, "--prune", "--applyset=set")
			b := startPly("apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", fileB, "--prune", "--applyset=set")
			ra, rb := a.wait(), b.wait()
			Expect(ra.ExitCode).To(Equal(0), "trial %d, run A: %s", trial, ra)
			Expect(rb.ExitCode).To(Equal(0), "trial %d, run B: %s", trial, rb)
			kinds := strings.Split(kindsOf(ns), ",")
			for _, m := range members(ns, id) {
				kind := map[string]string{"configmap": "ConfigMap", "service": "Service"}[strings.Split(m, "/")[0]]
				Expect(kinds).To(ContainElement(kind), "trial %d: member %s of a kind the parent does not list (%v): it would never be pruned", trial, m, kinds)
			}
		}
	})

	It("merges what another writer adds to the parent between ply's read and write (the optimistic lock), instead of overwriting it", func() {
		ns := newNamespace("lock-parent-")
		dir := GinkgoT().TempDir()
		file := writeSet(dir, "cms.yaml", 1, 3, false)
		r := applyWith(srv.Kubeconfig, ns, []string{file}, "--prune", "--applyset=set")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		proxy, err := srv.StartProxy()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(proxy.Close)
		path := harness.ObjectPath(secrets, ns, "set")
		proxy.OnFirst(http.MethodPatch, path, func(req *http.Request) error {
			return otherWriter(req.Context(), secrets, ns, "set", func(u *unstructured.Unstructured) {
				ann := u.GetAnnotations()
				ann[cluster.ApplySetGroupKindsAnnotation] += ",Service"
				u.SetAnnotations(ann)
			})
		})
		r = applyWith(proxy.Kubeconfig, ns, []string{file}, "--prune", "--applyset=set")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(proxy.Fired(http.MethodPatch, path)).To(BeTrue())
		Expect(proxy.HookErrors()).To(BeEmpty())
		Expect(kindsOf(ns)).To(Equal("ConfigMap,Service"), "the other writer's kind is kept until a prune covers it")
		Expect(proxy.Count(http.MethodPatch, path)).To(BeNumerically(">=", 3), "a write conflicted, was merged again and sent again; then the last write")

		By("the next run lists Service when it opens the set, prunes it (nothing of it) and drops it")
		r = applyWith(srv.Kubeconfig, ns, []string{file}, "--prune", "--applyset=set")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(kindsOf(ns)).To(Equal("ConfigMap"))
	})

	It("makes a second run wait with a message while the lease is held, and fail after --lock-timeout with nothing written", func() {
		ns := newNamespace("lock-wait-")
		dir := GinkgoT().TempDir()
		file := writeSet(dir, "cms.yaml", 1, 2, false)
		holdLease(ns, "other-run", 30)
		start := time.Now()
		r := applyWith(srv.Kubeconfig, ns, []string{file}, "--prune", "--applyset=set", "--lock-timeout=2s")
		elapsed := time.Since(start)
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stdout).To(BeEmpty())
		lease := ns + "/" + cluster.LeaseName(cluster.ApplySetID("set", ns, "Secret", ""))
		Expect(r.Stderr).To(ContainSubstring(`waiting for the lease on the ApplySet parent secret "set" in namespace "` + ns + `" held by "other-run" (Lease ` + lease + "; it expires 30s after its holder's last renewal)\n"))
		Expect(r.Stderr).To(ContainSubstring(`error: timed out after 2s waiting for the lease on the ApplySet parent secret "set" in namespace "` + ns + `", held by "other-run"`))
		Expect(elapsed).To(BeNumerically(">=", 2*time.Second))
		Expect(exists(secrets, ns, "set")).To(BeFalse(), "nothing written")
		Expect(exists(configMaps, ns, "cm-001")).To(BeFalse(), "nothing written")

		r = applyWith(srv.Kubeconfig, ns, []string{file}, "--prune", "--applyset=set", "--lock-timeout=0")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(ContainSubstring("error: timed out after 0s waiting for the lease"))

		By("a run ends by releasing its lease: the next run takes it at once")
		holdLease(ns, "", 30)
		r = applyWith(srv.Kubeconfig, ns, []string{file}, "--prune", "--applyset=set", "--lock-timeout=0")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stderr).To(BeEmpty())
		l := leaseOf(ns)
		Expect(has(l, "spec", "holderIdentity")).To(BeFalse(), "released")
		Expect(l.GetLabels()).NotTo(HaveKey(cluster.ApplySetPartOfLabel), "the lease is not a member")
		r = applyWith(srv.Kubeconfig, ns, []string{file}, "--prune", "--applyset=set", "--lock-timeout=0")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
	})

	It("prunes nothing when another run took the lease while this one applied", func() {
		ns := newNamespace("lock-stolen-")
		dir := GinkgoT().TempDir()
		r := applyWith(srv.Kubeconfig, ns, []string{writeSet(dir, "v1.yaml", 1, 3, false)}, "--prune", "--applyset=set")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		changed := filepath.Join(dir, "v2.yaml")
		Expect(os.WriteFile(changed, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-001\ndata:\n  k: changed\n"), 0o644)).To(Succeed())
		proxy, err := srv.StartProxy()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(proxy.Close)
		path := harness.ObjectPath(configMaps, ns, "cm-001")
		proxy.OnFirst(http.MethodPut, path, func(*http.Request) error {
			holdLease(ns, "thief", 30)
			return nil
		})
		r = applyWith(proxy.Kubeconfig, ns, []string{changed}, "--prune", "--applyset=set")
		Expect(proxy.Fired(http.MethodPut, path)).To(BeTrue())
		Expect(exists(configMaps, ns, "cm-002")).To(BeTrue(), "nothing pruned")
		Expect(exists(configMaps, ns, "cm-003")).To(BeTrue(), "nothing pruned")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stdout).To(Equal(lines("configmap/cm-001 configured")))
		Expect(r.Stderr).To(ContainSubstring(`error: pruning skipped: this run lost the lease on its ApplySet: another run took it ("thief"); nothing was deleted`))
		Expect(field(leaseOf(ns), "spec", "holderIdentity")).To(Equal("thief"), "the lease is left to its new holder")
	})

	It("takes turns in the library: Prune.Lock's duration and identity are written, Notify hears the wait, the release lets the other in", func() {
		ns := newNamespace("lock-lib-")
		dir := GinkgoT().TempDir()
		objs, err := cluster.ReadObjects([]string{writeSet(dir, "cms.yaml", 1, 2, false)}, false, nil)
		Expect(err).NotTo(HaveOccurred())
		proxy, err := srv.StartProxy()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(proxy.Close)
		stalled, release := make(chan struct{}), make(chan struct{})
		var once sync.Once
		member := harness.ObjectPath(configMaps, ns, "cm-001")
		proxy.Intercept(func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path == member {
				once.Do(func() { close(stalled) })
				<-release
			}
			return false
		})
		holder, err := cluster.New(proxy.Config, cluster.Options{Namespace: ns})
		Expect(err).NotTo(HaveOccurred())
		waiter, err := cluster.New(srv.Config, cluster.Options{Namespace: ns})
		Expect(err).NotTo(HaveOccurred())

		holderDone := make(chan error, 1)
		go func() {
			defer GinkgoRecover()
			_, err := holder.ApplyPrune(context.Background(), objs, cluster.Prune{ApplySet: "set", Lock: cluster.Lock{Duration: 2 * time.Second, Identity: "library-a"}})
			holderDone <- err
		}()
		Eventually(stalled).WithTimeout(time.Minute).Should(BeClosed())
		l := leaseOf(ns)
		Expect(field(l, "spec", "holderIdentity")).To(Equal("library-a"))
		Expect(field(l, "spec", "leaseDurationSeconds")).To(Equal(int64(2)))

		var heard []string
		var mu sync.Mutex
		notify := func(line string) { mu.Lock(); heard = append(heard, line); mu.Unlock() }
		waiterDone := make(chan error, 1)
		go func() {
			defer GinkgoRecover()
			_, err := waiter.ApplyPrune(context.Background(), objs, cluster.Prune{ApplySet: "set", Notify: notify, Lock: cluster.Lock{Identity: "library-b"}})
			waiterDone <- err
		}()
		Eventually(func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), heard...) }).
			Should(ContainElement(ContainSubstring(`held by "library-a"`)))
		// Past the 2 s duration the holder, stalled but alive, still renews it: the waiter waits.
		Consistently(waiterDone).WithTimeout(3 * time.Second).ShouldNot(Receive())
		close(release)
		Eventually(holderDone).WithTimeout(time.Minute).Should(Receive(BeNil()))
		Eventually(waiterDone).WithTimeout(10*time.Second).Should(Receive(BeNil()), "the waiter runs once the holder has released the lease")
		Expect(has(leaseOf(ns), "spec", "holderIdentity")).To(BeFalse())
	})

	It("lets the next run proceed once the lease of a holder that stopped renewing it (killed) has expired", func() {
		ns := newNamespace("lock-expired-")
		dir := GinkgoT().TempDir()
		file := writeSet(dir, "cms.yaml", 1, 2, false)
		holdLease(ns, "killed-run", 3)
		start := time.Now()
		r := applyWith(srv.Kubeconfig, ns, []string{file}, "--prune", "--applyset=set")
		elapsed := time.Since(start)
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stderr).To(ContainSubstring(`held by "killed-run"`))
		Expect(elapsed).To(And(BeNumerically(">=", 3*time.Second), BeNumerically("<", 3*time.Second+2*time.Second)),
			"the lease's duration, plus the run")
		AddReportEntry("wait behind an expired 3 s lease", elapsed.String())
	})

	It("lets the next run proceed within the lease duration after a run holding it is killed (SIGKILL)", func() {
		ns := newNamespace("lock-killed-")
		dir := GinkgoT().TempDir()
		file := writeSet(dir, "cms.yaml", 1, 2, false)
		proxy, err := srv.StartProxy()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(proxy.Close)
		stalled := make(chan struct{})
		var once sync.Once
		member := harness.ObjectPath(configMaps, ns, "cm-001")
		proxy.Intercept(func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path != member {
				return false
			}
			once.Do(func() { close(stalled) })
			<-r.Context().Done() // the run holds the lease and stalls here until killed
			return true
		})
		a := startPly("apply", "--kubeconfig", proxy.Kubeconfig, "-n", ns, "-f", file, "--prune", "--applyset=set")
		Eventually(stalled).WithTimeout(time.Minute).Should(BeClosed())
		holder := field(leaseOf(ns), "spec", "holderIdentity")
		Expect(holder).To(HavePrefix(func() string { h, _ := os.Hostname(); return h }() + "_"))
		Expect(a.cmd.Process.Signal(syscall.SIGKILL)).To(Succeed())
		a.wait()
		killed := time.Now()

		r := applyWith(srv.Kubeconfig, ns, []string{file}, "--prune", "--applyset=set")
		elapsed := time.Since(killed)
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stderr).To(ContainSubstring(fmt.Sprintf("held by %q", holder)))
		Expect(members(ns, cluster.ApplySetID("set", ns, "Secret", ""))).To(Equal(names(1, 2, false)))

		// The same run with the lease free, at the machine's load of the moment, is what the wait adds to.
		started := time.Now()
		again := applyWith(srv.Kubeconfig, ns, []string{file}, "--prune", "--applyset=set")
		run := time.Since(started)
		Expect(again.ExitCode).To(Equal(0), "%s", again)
		Expect(again.Stderr).NotTo(ContainSubstring("waiting for the lease"))
		Expect(elapsed).To(BeNumerically("<", cluster.DefaultLeaseDuration+2*run+3*time.Second),
			"the lease's duration, plus the run (%s with the lease free)", run)
		AddReportEntry("next run after a SIGKILLed holder", elapsed.String())
	})
})
