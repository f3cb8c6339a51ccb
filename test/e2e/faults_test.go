package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/plyproject/ply/pkg/cluster"
	"github.com/plyproject/ply/test/harness"
)

// competingWriter returns a proxy hook that, before ply's PUT of
// deployment ns/web reaches the server, labels the Deployment racer=value
// directly on the server, so that the PUT's resourceVersion is stale.
func competingWriter(ns, value string) func(*http.Request) error {
	return func(r *http.Request) error {
		return otherWriter(r.Context(), deployments, ns, "web", func(u *unstructured.Unstructured) {
			labels := u.GetLabels()
			labels["racer"] = value
			u.SetLabels(labels)
		})
	}
}

var _ = Describe("ply apply: the optimistic lock", func() {
	var (
		ns    string
		proxy *harness.Proxy
		path  string
	)

	BeforeEach(func() {
		ns = newNamespace("lock-")
		mustApply(ns, []string{"deployment.yaml"}, "deployment.apps/web created")
		var err error
		proxy, err = srv.StartProxy()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(proxy.Close)
		path = harness.ObjectPath(deployments, ns, "web")
	})

	It("retries after a 409 from a competing write and keeps that write (library)", func() {
		proxy.OnFirst(http.MethodPut, path, competingWriter(ns, "library"))
		c, err := cluster.New(proxy.Config, cluster.Options{Namespace: ns, Overwrite: true})
		Expect(err).NotTo(HaveOccurred())
		objs, err := cluster.ReadObjects([]string{fixture("deployment-image.yaml")}, false, nil)
		Expect(err).NotTo(HaveOccurred())
		outs := c.Apply(context.Background(), objs)
		Expect(outs).To(HaveLen(1))
		Expect(outs[0].Err).NotTo(HaveOccurred())
		Expect(outs[0].Action).To(Equal(cluster.Configured))
		Expect(outs[0].Attempts).To(BeNumerically(">=", 2))
		Expect(proxy.Fired(http.MethodPut, path)).To(BeTrue())
		Expect(proxy.HookErrors()).To(BeEmpty())
		Expect(proxy.Count(http.MethodPut, path)).To(Equal(outs[0].Attempts))

		d := live(deployments, ns, "web")
		Expect(d.GetLabels()).To(HaveKeyWithValue("racer", "library"), "the competing write survives")
		Expect(container(d)["image"]).To(Equal("nginx:1.28"))
	})

	It("retries after a 409 from a competing write and keeps that write (CLI)", func() {
		proxy.OnFirst(http.MethodPut, path, competingWriter(ns, "cli"))
		r := applyWith(proxy.Kubeconfig, ns, []string{fixture("deployment-image.yaml")})
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal(lines("deployment.apps/web configured")))
		Expect(proxy.Fired(http.MethodPut, path)).To(BeTrue())
		Expect(proxy.HookErrors()).To(BeEmpty())
		Expect(proxy.Count(http.MethodPut, path)).To(BeNumerically(">=", 2))

		d := live(deployments, ns, "web")
		Expect(d.GetLabels()).To(HaveKeyWithValue("racer", "cli"), "the competing write survives")
		Expect(container(d)["image"]).To(Equal("nginx:1.28"))
	})
})

var _ = Describe("ply apply --overwrite=false", func() {
	It("fails with exit code 3 and writes nothing when another writer changed a field the manifest changes", func() {
		ns := newNamespace("conflict-")
		mustApply(ns, []string{"deployment.yaml"}, "deployment.apps/web created")
		update(deployments, ns, "web", func(u *unstructured.Unstructured) {
			container(u)["image"] = "nginx:1.30"
		})
		before := live(deployments, ns, "web")
		r := applyWith(srv.Kubeconfig, ns, []string{fixture("deployment-image.yaml")}, "--overwrite=false")
		Expect(r.ExitCode).To(Equal(3), "%s", r)
		Expect(r.Stdout).To(BeEmpty())
		Expect(r.Stderr).To(MatchRegexp(`error: deployments\.apps "web" \(.*deployment-image\.yaml#1\): .*image`))
		Expect(live(deployments, ns, "web").GetResourceVersion()).To(Equal(before.GetResourceVersion()))

		mustApply(ns, []string{"deployment-image.yaml"}, "deployment.apps/web configured")
		Expect(container(live(deployments, ns, "web"))["image"]).To(Equal("nginx:1.28"), "--overwrite (the default) lets the manifest win")
	})
})

var _ = Describe("ply apply: bad input and server errors", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace("bad-")
	})

	It("rejects a manifest that is not YAML, naming the file and line, and writes nothing", func() {
		r := apply(ns, "invalid-syntax.yaml", "configmap.yaml")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(ContainSubstring("invalid-syntax.yaml"))
		Expect(r.Stderr).To(ContainSubstring("line 8"))
		expectAbsent(configMaps, ns, "broken")
	})

	It("rejects an object without metadata.name, naming the file and the field", func() {
		r := apply(ns, "missing-name.yaml")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(ContainSubstring("missing-name.yaml"))
		Expect(r.Stderr).To(ContainSubstring("metadata.name"))
		list, err := srv.Dynamic().Resource(configMaps).Namespace(ns).List(context.Background(), metav1.ListOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(list.Items).To(BeEmpty())
	})

	It("reports a kind the server does not serve, naming the object, and applies the others", func() {
		r := apply(ns, "unknown-kind.yaml", "configmap.yaml")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stdout).To(Equal(lines("configmap/settings created")))
		Expect(r.Stderr).To(MatchRegexp(`error: .*gadget.*"g1" \(.*unknown-kind\.yaml#1\)`))
		Expect(live(configMaps, ns, "settings").Object["data"]).To(Equal(map[string]any{"color": "blue"}))
	})

	It("reports the server's 422 naming the object and the field, writes nothing for it and applies the others", func() {
		r := apply(ns, "deployment-invalid-replicas.yaml", "configmap.yaml")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stdout).To(Equal(lines("configmap/settings created")))
		Expect(r.Stderr).To(MatchRegexp(`error: deployments\.apps "bad" \(.*deployment-invalid-replicas\.yaml#1\): .*spec\.replicas`))
		expectAbsent(deployments, ns, "bad")
		live(configMaps, ns, "settings")
	})

	It("reports 403 for a user without rights and writes nothing", func() {
		kubeconfig, err := srv.UserKubeconfig(harness.NobodyUser)
		Expect(err).NotTo(HaveOccurred())
		r := applyWith(kubeconfig, ns, []string{fixture("configmap.yaml")})
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stdout).To(BeEmpty())
		Expect(r.Stderr).To(MatchRegexp(`error: configmaps "settings" \(.*configmap\.yaml#1\): .*forbidden`))
		Expect(r.Stderr).To(ContainSubstring(`User "nobody"`))
		expectAbsent(configMaps, ns, "settings")
	})
})

var _ = Describe("ply apply: the API server dies mid-run", Serial, func() {
	It("applies the objects before, names every object after and writes nothing for them", func() {
		const total, killAt = 200, 60
		ns := newNamespace("death-")
		var sb strings.Builder
		for i := range total {
			fmt.Fprintf(&sb, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-%03d\ndata:\n  i: %q\n", i, fmt.Sprint(i))
		}
		file := filepath.Join(GinkgoT().TempDir(), "many.yaml")
		Expect(os.WriteFile(file, []byte(sb.String()), 0o644)).To(Succeed())

		proxy, err := srv.StartProxy()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(proxy.Close)
		DeferCleanup(func() {
			if !srv.APIServerRunning() {
				Expect(srv.RestartAPIServer()).To(Succeed())
			}
		})
		// The killAt-th create never reaches the server: the API server
		// is killed and the proxy closed (so later connections are
		// refused, as with a dead server) while the request is held.
		collection := "/api/v1/namespaces/" + ns + "/configmaps"
		var (
			mu      sync.Mutex
			creates int
			killErr error
		)
		proxy.Intercept(func(w http.ResponseWriter, r *http.Request) bool {
			if r.Method != http.MethodPost || r.URL.Path != collection {
				return false
			}
			mu.Lock()
			defer mu.Unlock()
			creates++
			if creates < killAt {
				return false
			}
			if creates == killAt {
				killErr = srv.KillAPIServer()
				go proxy.Close()
			}
			http.Error(w, "the API server is gone", http.StatusServiceUnavailable)
			return true
		})

		// One worker: exactly one request is in flight when the server
		// dies, so which objects were written is known exactly. ply
		// retries that object for --retry-timeout, then fails the others
		// without sending them.
		r := applyWith(proxy.Kubeconfig, ns, []string{file}, "--workers", "1", "--retry-timeout", "3s")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		mu.Lock()
		Expect(killErr).NotTo(HaveOccurred())
		Expect(creates).To(Equal(killAt), "no create reaches the proxy after it closed")
		mu.Unlock()
		Expect(srv.APIServerRunning()).To(BeFalse())
		Expect(srv.RestartAPIServer()).To(Succeed())

		created := map[string]bool{}
		for _, l := range strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n") {
			m := regexp.MustCompile(`^configmap/(cm-\d{3}) created$`).FindStringSubmatch(l)
			Expect(m).NotTo(BeNil(), "unexpected output line %q", l)
			created[m[1]] = true
		}
		Expect(created).To(HaveLen(killAt-1), "%s", r)
		failed := map[string]bool{}
		for _, l := range strings.Split(strings.TrimSuffix(r.Stderr, "\n"), "\n") {
			m := regexp.MustCompile(`^error: configmaps "(cm-\d{3})" \(.*many\.yaml#\d+\): .+`).FindStringSubmatch(l)
			if m != nil {
				failed[m[1]] = true
			}
		}
		Expect(failed).To(HaveLen(total-killAt+1), "every object not applied is named: %s", r)
		Expect(r.Stderr).To(MatchRegexp(`error: configmaps "cm-059" .*: gave up after \d+ transient failures in 3(\.\d)?s: .* \(an earlier write of this object was sent and its answer lost: the server may hold it\)`))
		Expect(regexp.MustCompile(`: not sent: every request to the server has failed for \ds, the last with: `).FindAllString(r.Stderr, -1)).
			To(HaveLen(total-killAt), "%s", r)
		for name := range failed {
			Expect(created).NotTo(HaveKey(name))
		}

		list, err := srv.Dynamic().Resource(configMaps).Namespace(ns).List(context.Background(), metav1.ListOptions{})
		Expect(err).NotTo(HaveOccurred())
		onServer := map[string]bool{}
		for _, cm := range list.Items {
			onServer[cm.GetName()] = true
		}
		Expect(onServer).To(Equal(created), "exactly the objects reported created exist")
	})
})
