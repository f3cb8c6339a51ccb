package faults

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/test/harness"
)

// seed is the seed of the random faults.
const seed = 37

// faultRate is the share of requests that get a random fault.
const faultRate = 0.25

// startProxy starts a fault proxy in front of srv for the spec.
func startProxy() *harness.Proxy {
	GinkgoHelper()
	p, err := srv.StartProxy()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(p.Close)
	return p
}

// run is one ply run of a spec and what it must end with.
type run struct {
	// objs is the manifest (names) and gen the data of each.
	objs []string
	gen  func(string) string
	// gone are objects of earlier runs this run prunes.
	gone []string
	// extra are more flags.
	extra []string
}

// applyRun runs r through p, checks it against the server and adds it to
// f: exit 0, no mismatch, nothing lost.
func applyRun(p *harness.Proxy, ns string, r run, f *figures) {
	GinkgoHelper()
	file := manifest(r.objs, r.gen)
	from, before := len(p.Exchanges()), snapshot(ns)
	res := plyApply(p.Kubeconfig, ns, file, r.extra...)
	ex := p.Exchanges()[from:]
	rep := reported(res)
	mism := mismatches(rep, before, snapshot(ns), sent(ex, ns))
	want := map[string]string{}
	for _, n := range r.objs {
		want[n] = r.gen(n)
	}
	lost := lostObjects(ns, want, r.gone)
	f.add(len(r.objs)+len(r.gone), rep, mism, lost, ex)
	Expect(mism).To(BeEmpty(), "outcomes the server contradicts")
	Expect(lost).To(BeEmpty(), "objects lost")
	Expect(res.ExitCode).To(Equal(0), "%s", res)
	Expect(rep).To(HaveLen(len(r.objs)+len(r.gone)), "every object reported")
}

// gens returns a gen function: g for every name, g2 for the names in odd.
func gens(g string, g2 string, odd bool) func(string) string {
	return func(name string) string {
		if odd && (name[len(name)-1]-'0')%2 == 1 {
			return g2
		}
		return g
	}
}

var _ = Describe("ply apply under random faults", func() {
	It("reports every object as the server holds it, loses nothing and no concurrent write, fails none", func() {
		ns, err := srv.CreateNamespace(context.Background(), "random-")
		Expect(err).NotTo(HaveOccurred())
		p := startProxy()
		p.InjectFaults(randomFaults(seed, faultRate, 3*time.Second))
		const total = 300
		all, kept := names(0, total), names(0, 200)
		// A stall of 3s outlasts the 2s request timeout: the request is
		// carried out after ply gave up on it.
		flags := []string{"--prune", "--applyset=faults", "--request-timeout=2s"}
		var f figures

		By("creating 300 ConfigMaps")
		applyRun(p, ns, run{objs: all, gen: gens("1", "", false), extra: flags}, &f)
		w := startWriter(ns, kept, seed)
		By("changing half of them while another writer labels them")
		applyRun(p, ns, run{objs: all, gen: gens("1", "2", true), extra: flags}, &f)
		By("applying the same again")
		applyRun(p, ns, run{objs: all, gen: gens("1", "2", true), extra: flags}, &f)
		By("pruning the last 100")
		applyRun(p, ns, run{objs: kept, gen: gens("1", "2", true), gone: names(200, total), extra: flags}, &f)
		p.InjectFaults(nil)
		writes, lost := w.finish()
		f.writerWrites, f.writerLost = writes, len(lost)
		f.print("random faults (seed 37, rate 25 %)")
		Expect(lost).To(BeEmpty(), "writes of the concurrent writer lost")
		Expect(writes).To(BeNumerically(">", 20))
		Expect(f.faults).To(BeNumerically(">", 100), "faults were injected")
	})
})

// restartAfter returns a function that calls restart once the proxy has
// seen n stored writes of method to ns's ConfigMaps, and a function that
// waits for it and returns its error.
func restartAfter(p *harness.Proxy, ns, method string, n int, restart func() error) (wait func() error) {
	var (
		once sync.WaitGroup
		err  error
	)
	once.Add(1)
	stop := make(chan struct{})
	go func() {
		defer GinkgoRecover()
		defer once.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
			count := 0
			for _, e := range p.Exchanges() {
				if e.Method == method && strings.HasPrefix(e.Path, "/api/v1/namespaces/"+ns+"/configmaps") && e.Stored() {
					count++
				}
			}
			if count >= n {
				err = restart()
				return
			}
		}
	}()
	return func() error {
		close(stop)
		once.Wait()
		return err
	}
}

var _ = Describe("ply apply while etcd and the API server restart", func() {
	It("retries through each restart: every object applied or pruned, reported as the server holds it", func() {
		ns, err := srv.CreateNamespace(context.Background(), "restart-")
		Expect(err).NotTo(HaveOccurred())
		p := startProxy()
		// No faults: the proxy only records what the server stored.
		p.InjectFaults(&harness.FaultPlan{Choose: func(*http.Request) harness.Fault { return harness.NoFault }})
		DeferCleanup(func() {
			if !srv.APIServerRunning() {
				Expect(srv.RestartAPIServer()).To(Succeed())
			}
		})
		const total = 400
		all, kept := names(0, total), names(0, 200)
		// A restart takes 4-8 s here; the retry time is raised from 30s
		// so that a slow machine restarting the API server cannot fail
		// the spec.
		flags := []string{"--prune", "--applyset=restarts", "--retry-timeout=90s"}
		var f figures
		etcd := func() error { return srv.RestartEtcd(2 * time.Second) }

		By("creating 400 ConfigMaps, etcd restarted after 100")
		wait := restartAfter(p, ns, http.MethodPost, 100, etcd)
		applyRun(p, ns, run{objs: all, gen: gens("1", "", false), extra: flags}, &f)
		Expect(wait()).To(Succeed())
		f.restarts = append(f.restarts, "etcd during creates")

		By("changing half, the API server restarted after 50 updates")
		wait = restartAfter(p, ns, http.MethodPut, 50, srv.RestartAPIServer)
		applyRun(p, ns, run{objs: all, gen: gens("1", "2", true), extra: flags}, &f)
		Expect(wait()).To(Succeed())
		f.restarts = append(f.restarts, "API server during updates")

		By("pruning 200, etcd restarted after 50 deletions")
		wait = restartAfter(p, ns, http.MethodDelete, 50, etcd)
		applyRun(p, ns, run{objs: kept, gen: gens("1", "2", true), gone: names(200, total), extra: flags}, &f)
		Expect(wait()).To(Succeed())
		f.restarts = append(f.restarts, "etcd during deletions")
		f.print("restarts")
	})
})

// firstWrites returns a plan that gives fault to the first write (POST or
// PUT, as method says) of each ConfigMap of ns, and forwards every other
// request.
func firstWrites(ns, method string, fault harness.Fault) *harness.FaultPlan {
	seen := map[string]bool{}
	return &harness.FaultPlan{Choose: func(r *http.Request) harness.Fault {
		if r.Method != method || !strings.HasPrefix(r.URL.Path, "/api/v1/namespaces/"+ns+"/configmaps") {
			return harness.NoFault
		}
		name := r.URL.Path
		if method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			name = string(body)
		}
		if seen[name] {
			return harness.NoFault
		}
		seen[name] = true
		return fault
	}}
}

var _ = Describe("ply apply when the server's answer to a write is lost", func() {
	DescribeTable("reports what the server stored, never unchanged, and exits 0",
		func(fault harness.Fault, method string) {
			ns, err := srv.CreateNamespace(context.Background(), "lost-")
			Expect(err).NotTo(HaveOccurred())
			p := startProxy()
			objs := names(0, 40)
			var f figures
			if method == http.MethodPut {
				res := plyApply(p.Kubeconfig, ns, manifest(objs, gens("1", "", false)))
				Expect(res.ExitCode).To(Equal(0), "%s", res)
			}
			p.InjectFaults(firstWrites(ns, method, fault))
			applyRun(p, ns, run{objs: objs, gen: gens("2", "", false)}, &f)
			f.print(fault.String() + " on every first " + method)
			Expect(f.faults).To(Equal(len(objs)))
		},
		Entry("a 503 after a create", harness.UnavailableAfter, http.MethodPost),
		Entry("a 503 with Retry-After after a create", harness.RetryAfterAfter, http.MethodPost),
		Entry("a reset after a create", harness.ResetAfter, http.MethodPost),
		Entry("an answer cut short after a create", harness.TruncateAfter, http.MethodPost),
		Entry("a 503 after an update", harness.UnavailableAfter, http.MethodPut),
		Entry("a 503 with Retry-After after an update", harness.RetryAfterAfter, http.MethodPut),
		Entry("a reset after an update", harness.ResetAfter, http.MethodPut),
		Entry("an answer cut short after an update", harness.TruncateAfter, http.MethodPut),
	)
})

var _ = Describe("ply apply when an update hangs", func() {
	It("gives up on it after the default request timeout, retries and configures the object", func() {
		ns, err := srv.CreateNamespace(context.Background(), "hang-")
		Expect(err).NotTo(HaveOccurred())
		p := startProxy()
		objs := names(0, 1)
		res := plyApply(p.Kubeconfig, ns, manifest(objs, gens("1", "", false)))
		Expect(res.ExitCode).To(Equal(0), "%s", res)
		p.InjectFaults(firstWrites(ns, http.MethodPut, harness.Hang))
		var f figures
		start := time.Now()
		applyRun(p, ns, run{objs: objs, gen: gens("2", "", false)}, &f)
		took := time.Since(start)
		f.print("a hanging update, no --request-timeout")
		Expect(took).To(BeNumerically("<", 45*time.Second), "the 30s request timeout, then one retry")
		Expect(took).To(BeNumerically(">=", 30*time.Second), "the hanging request was given its 30s")
	})
})
