package harness

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gstruct"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

var configMaps = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

func configMap(ns, name, value string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata":   map[string]any{"name": name, "namespace": ns},
		"data":       map[string]any{"k": value},
	}}
}

// alive reports whether a process with pid exists.
func alive(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}

var _ = Describe("Server", Ordered, func() {
	var s *Server
	ctx := context.Background()

	BeforeAll(func() {
		var err error
		s, err = Start(Options{Name: "self", Log: GinkgoWriter})
		Expect(err).NotTo(HaveOccurred())
	})

	It("serves the pinned Kubernetes version over TLS with the CA of its kubeconfig", func() {
		Expect(s.URL).To(HavePrefix("https://127.0.0.1:"))
		Expect(s.EtcdURL).To(HavePrefix("http://127.0.0.1:"))
		cfg, err := clientcmd.BuildConfigFromFlags("", s.Kubeconfig)
		Expect(err).NotTo(HaveOccurred())
		Expect(cfg.Insecure).To(BeFalse())
		Expect(cfg.CAData).To(Equal(s.CAData))
		raw, err := clientcmd.LoadFromFile(s.Kubeconfig)
		Expect(err).NotTo(HaveOccurred())
		Expect(raw.CurrentContext).To(Equal(ContextName))
		dc, err := discovery.NewDiscoveryClientForConfig(cfg)
		Expect(err).NotTo(HaveOccurred())
		v, err := dc.ServerVersion()
		Expect(err).NotTo(HaveOccurred())
		Expect(v.GitVersion).To(Equal(KubernetesVersion))
	})

	It("lets the admin write and read objects in a fresh namespace", func() {
		ns, err := s.CreateNamespace(ctx, "self-")
		Expect(err).NotTo(HaveOccurred())
		Expect(ns).To(HavePrefix("self-"))
		_, err = s.Dynamic().Resource(configMaps).Namespace(ns).Create(ctx, configMap(ns, "a", "1"), metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		got, err := s.Get(ctx, "v1", "ConfigMap", ns, "a")
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Object["data"]).To(Equal(map[string]any{"k": "1"}))
		m, err := s.Mapping("apps/v1", "Deployment")
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Resource).To(Equal(schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}))
	})

	It("gives the nobody user a kubeconfig that authenticates but is forbidden", func() {
		path, err := s.UserKubeconfig(NobodyUser)
		Expect(err).NotTo(HaveOccurred())
		cfg, err := clientcmd.BuildConfigFromFlags("", path)
		Expect(err).NotTo(HaveOccurred())
		dyn, err := dynamic.NewForConfig(cfg)
		Expect(err).NotTo(HaveOccurred())
		_, err = dyn.Resource(configMaps).Namespace("default").List(ctx, metav1.ListOptions{})
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "want 403, got %v", err)
		Expect(err.Error()).To(ContainSubstring(`User "nobody"`))

		_, err = s.UserKubeconfig("somebody")
		Expect(err).To(MatchError(ContainSubstring(`unknown user "somebody"`)))
		_, err = s.UserKubeconfig("admin")
		Expect(err).To(HaveOccurred())
	})

	It("proxies requests, counts them and runs a hook once before the first matching request", func() {
		ns, err := s.CreateNamespace(ctx, "proxy-")
		Expect(err).NotTo(HaveOccurred())
		p, err := s.StartProxy()
		Expect(err).NotTo(HaveOccurred())
		defer p.Close()
		pdyn, err := dynamic.NewForConfig(p.Config)
		Expect(err).NotTo(HaveOccurred())
		cm, err := pdyn.Resource(configMaps).Namespace(ns).Create(ctx, configMap(ns, "c", "mine"), metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())

		path := ObjectPath(configMaps, ns, "c")
		Expect(path).To(Equal("/api/v1/namespaces/" + ns + "/configmaps/c"))
		calls := 0
		p.OnFirst(http.MethodPut, path, func(r *http.Request) error {
			calls++
			cur, err := s.Dynamic().Resource(configMaps).Namespace(ns).Get(r.Context(), "c", metav1.GetOptions{})
			if err != nil {
				return err
			}
			cur.Object["data"] = map[string]any{"k": "theirs"}
			_, err = s.Dynamic().Resource(configMaps).Namespace(ns).Update(r.Context(), cur, metav1.UpdateOptions{})
			return err
		})
		Expect(p.Fired(http.MethodPut, path)).To(BeFalse())
		cm.Object["data"] = map[string]any{"k": "mine-2"}
		_, err = pdyn.Resource(configMaps).Namespace(ns).Update(ctx, cm, metav1.UpdateOptions{})
		Expect(apierrors.IsConflict(err)).To(BeTrue(), "want 409, got %v", err)
		Expect(p.Fired(http.MethodPut, path)).To(BeTrue())

		cur, err := pdyn.Resource(configMaps).Namespace(ns).Get(ctx, "c", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(cur.Object["data"]).To(Equal(map[string]any{"k": "theirs"}))
		cur.Object["data"] = map[string]any{"k": "mine-3"}
		_, err = pdyn.Resource(configMaps).Namespace(ns).Update(ctx, cur, metav1.UpdateOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(calls).To(Equal(1))
		Expect(p.Count(http.MethodPut, path)).To(Equal(2))
		Expect(p.Count(http.MethodGet, path)).To(Equal(1))
		Expect(p.HookErrors()).To(BeEmpty())

		p.OnFirst(http.MethodDelete, path, func(*http.Request) error { return errors.New("injected") })
		err = pdyn.Resource(configMaps).Namespace(ns).Delete(ctx, "c", metav1.DeleteOptions{})
		Expect(err).To(MatchError(ContainSubstring("injected")))
		Expect(p.HookErrors()).To(HaveLen(1))
		_, err = s.Get(ctx, "v1", "ConfigMap", ns, "c")
		Expect(err).NotTo(HaveOccurred(), "a request whose hook failed must not be forwarded")

		p.Intercept(func(w http.ResponseWriter, r *http.Request) bool {
			if r.Method == http.MethodGet && r.URL.Path == path {
				http.Error(w, "teapot", http.StatusTeapot)
				return true
			}
			return false
		})
		_, err = pdyn.Resource(configMaps).Namespace(ns).Get(ctx, "c", metav1.GetOptions{})
		var status apierrors.APIStatus
		Expect(errors.As(err, &status)).To(BeTrue(), "want an API status error, got %v", err)
		Expect(status.Status().Code).To(BeEquivalentTo(http.StatusTeapot))
		Expect(p.Statuses(http.MethodPut, path)).To(Equal([]int{http.StatusConflict, http.StatusOK}))
		Expect(p.Statuses(http.MethodDelete, path)).To(Equal([]int{http.StatusBadGateway}))
		Expect(p.Statuses(http.MethodGet, path)).To(Equal([]int{http.StatusOK, http.StatusTeapot}))

		By("a request its client gives up on is recorded as abandoned")
		slow := ObjectPath(configMaps, ns, "slow")
		p.Intercept(func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path != slow {
				return false
			}
			<-r.Context().Done() // (answered only when the client has gone)
			return true
		})
		short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		_, err = pdyn.Resource(configMaps).Namespace(ns).Get(short, "slow", metav1.GetOptions{})
		Expect(err).To(HaveOccurred())
		Eventually(func() []int { return p.Statuses(http.MethodGet, slow) }).Should(Equal([]int{Abandoned}))
	})

	It("injects faults by plan and records what the server stored", func() {
		ns, err := s.CreateNamespace(ctx, "faults-")
		Expect(err).NotTo(HaveOccurred())
		p, err := s.StartProxy()
		Expect(err).NotTo(HaveOccurred())
		defer p.Close()
		cfg := rest.CopyConfig(p.Config)
		cfg.Timeout = 2 * time.Second
		pdyn, err := dynamic.NewForConfig(cfg)
		Expect(err).NotTo(HaveOccurred())
		ri := pdyn.Resource(configMaps).Namespace(ns)
		var next Fault
		p.InjectFaults(&FaultPlan{Choose: func(*http.Request) Fault { return next }})

		next = UnavailableAfter
		_, err = ri.Create(ctx, configMap(ns, "a", "1"), metav1.CreateOptions{})
		Expect(apierrors.IsServiceUnavailable(err)).To(BeTrue(), "want 503, got %v", err)
		_, err = s.Get(ctx, "v1", "ConfigMap", ns, "a")
		Expect(err).NotTo(HaveOccurred(), "the create was carried out")

		next = ResetBefore
		_, err = ri.Create(ctx, configMap(ns, "b", "1"), metav1.CreateOptions{})
		Expect(err).To(HaveOccurred())
		next = Hang
		_, err = ri.Create(ctx, configMap(ns, "c", "1"), metav1.CreateOptions{})
		Expect(err).To(HaveOccurred())
		for _, name := range []string{"b", "c"} {
			_, err = s.Get(ctx, "v1", "ConfigMap", ns, name)
			Expect(apierrors.IsNotFound(err)).To(BeTrue(), "%s was not forwarded: %v", name, err)
		}

		next = TruncateAfter
		_, err = ri.Get(ctx, "a", metav1.GetOptions{})
		Expect(err).To(HaveOccurred(), "half an answer is no answer")
		next = NoFault
		_, err = ri.Get(ctx, "a", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())

		ex := p.Exchanges()
		Expect(ex).To(HaveLen(5))
		Expect(ex[0]).To(gstruct.MatchFields(gstruct.IgnoreExtras, gstruct.Fields{"Method": Equal("POST"), "Fault": Equal(UnavailableAfter), "Name": Equal("a"), "Status": Equal(201)}))
		Expect(ex[0].Stored()).To(BeTrue())
		Expect(ex[1].Stored() || ex[2].Stored()).To(BeFalse())
		Expect(ex[2].Fault.Forwarded()).To(BeFalse())
		Expect(ex[3]).To(gstruct.MatchFields(gstruct.IgnoreExtras, gstruct.Fields{"Method": Equal("GET"), "Fault": Equal(TruncateAfter), "Name": Equal("a"), "Status": Equal(200)}))
		Expect(ex[3].Stored()).To(BeFalse(), "a read stores nothing")
		Expect(p.Statuses(http.MethodPost, "/api/v1/namespaces/"+ns+"/configmaps")).To(Equal([]int{http.StatusServiceUnavailable, Abandoned, Abandoned}),
			"a lost answer, a reset, a hang the client gave up on")
		Expect(p.Statuses(http.MethodGet, ObjectPath(configMaps, ns, "a"))).To(Equal([]int{Abandoned, http.StatusOK}), "half an answer, then a whole one")
	})

	It("restarts etcd on the same data", func() {
		ns, err := s.CreateNamespace(ctx, "etcd-")
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Dynamic().Resource(configMaps).Namespace(ns).Create(ctx, configMap(ns, "kept", "v"), metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.RestartEtcd(500 * time.Millisecond)).To(Succeed())
		Eventually(func() error {
			_, err := s.Get(ctx, "v1", "ConfigMap", ns, "kept")
			return err
		}).WithTimeout(30 * time.Second).Should(Succeed())
	})

	It("survives a killed API server after a restart, keeping the data in etcd", func() {
		ns, err := s.CreateNamespace(ctx, "restart-")
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Dynamic().Resource(configMaps).Namespace(ns).Create(ctx, configMap(ns, "kept", "v"), metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		pid := s.apiserver.cmd.Process.Pid
		Expect(s.KillAPIServer()).To(Succeed())
		Expect(s.APIServerRunning()).To(BeFalse())
		Expect(alive(pid)).To(BeFalse())
		_, err = s.Get(ctx, "v1", "ConfigMap", ns, "kept")
		Expect(err).To(HaveOccurred())
		Expect(s.RestartAPIServer()).To(Succeed())
		Expect(s.APIServerRunning()).To(BeTrue())
		got, err := s.Get(ctx, "v1", "ConfigMap", ns, "kept")
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Object["data"]).To(Equal(map[string]any{"k": "v"}))
		Expect(s.APIServerLogTail(5)).NotTo(BeEmpty())
	})

	It("stops both processes and removes its directory", func() {
		api, etcd := s.apiserver.cmd.Process.Pid, s.etcd.cmd.Process.Pid
		Expect(s.Stop()).To(Succeed())
		Expect(alive(api)).To(BeFalse())
		Expect(alive(etcd)).To(BeFalse())
		_, err := os.Stat(s.Dir)
		Expect(os.IsNotExist(err)).To(BeTrue(), "want %s removed, got %v", s.Dir, err)
		Expect(s.Stop()).To(Succeed())
		Expect(s.RestartAPIServer()).To(MatchError(ContainSubstring("after Stop")))
	})
})

var _ = Describe("Start", func() {
	It("reports an API server that cannot start with the tail of its log and cleans up", func() {
		parent := GinkgoT().TempDir()
		_, err := Start(Options{Name: "bad", Dir: parent, Log: GinkgoWriter, ExtraAPIServerFlags: []string{"--no-such-flag=1"}})
		Expect(err).To(MatchError(ContainSubstring("kube-apiserver exited during start-up")))
		Expect(err.Error()).To(ContainSubstring("no-such-flag"))
		entries, rerr := os.ReadDir(parent)
		Expect(rerr).NotTo(HaveOccurred())
		Expect(entries).To(BeEmpty())
	})

	It("recognizes a port taken before the API server bound it, retrying and then reporting it", func() {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		Expect(err).NotTo(HaveOccurred())
		defer l.Close()
		port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
		_, err = Start(Options{Name: "taken", Dir: GinkgoT().TempDir(), Log: GinkgoWriter, ExtraAPIServerFlags: []string{"--secure-port=" + port}})
		Expect(errors.Is(err, errPortTaken)).To(BeTrue(), "got %v", err)
		Expect(err.Error()).To(ContainSubstring("address already in use"))
	})

	It("rejects user names the token file cannot hold", func() {
		_, err := Start(Options{Name: "users", Dir: GinkgoT().TempDir(), Log: GinkgoWriter, Users: []string{"a,b"}})
		Expect(err).To(MatchError(ContainSubstring(`invalid user name "a,b"`)))
	})
})

var _ = Describe("ObjectPath", func() {
	DescribeTable("renders client-go's URL paths",
		func(gvr schema.GroupVersionResource, ns, name, want string) {
			Expect(ObjectPath(gvr, ns, name)).To(Equal(want))
		},
		Entry("core, namespaced", configMaps, "ns", "x", "/api/v1/namespaces/ns/configmaps/x"),
		Entry("group, namespaced", schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, "ns", "web", "/apis/apps/v1/namespaces/ns/deployments/web"),
		Entry("cluster-scoped", schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}, "", "a.b.c", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/a.b.c"),
	)
})

var _ = Describe("Kubectl", func() {
	It("finds a kubectl 1.32 client", func() {
		p, err := Kubectl()
		Expect(err).NotTo(HaveOccurred())
		r, err := Run(context.Background(), Cmd{Path: p, Args: []string{"version", "--client"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Stdout).To(ContainSubstring("Client Version: v1.32."))
	})

	It("rejects a PLY_KUBECTL of another minor version", func() {
		other := "/usr/lib/google-cloud-sdk/bin/kubectl.1.31"
		if !isExecutable(other) {
			other = os.Args[0] // the test binary is no kubectl at all
		}
		GinkgoT().Setenv("PLY_KUBECTL", other)
		_, err := findKubectl()
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(Or(ContainSubstring("is not kubectl 1.32"), ContainSubstring("version --client")))
	})
})

var _ = Describe("Run", func() {
	It("returns output and exit code without an error for a failing command", func() {
		r, err := Run(context.Background(), Cmd{Path: "/bin/sh", Args: []string{"-c", "echo out; echo err >&2; exit 7"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.ExitCode).To(Equal(7))
		Expect(r.Stdout).To(Equal("out\n"))
		Expect(r.Stderr).To(Equal("err\n"))
		Expect(r.String()).To(ContainSubstring("exit code 7"))
	})

	It("passes stdin and environment", func() {
		r, err := Run(context.Background(), Cmd{Path: "/bin/sh", Args: []string{"-c", "cat; echo $PLY_X"}, Env: []string{"PLY_X=y"}, Stdin: strings.NewReader("in\n")})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Stdout).To(Equal("in\ny\n"))
	})

	It("fails for a program that does not exist", func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, err := Run(ctx, Cmd{Path: "/nonexistent/prog"})
		Expect(err).To(HaveOccurred())
	})
})

var _ = Describe("ModuleRoot", func() {
	It("finds ply's module", func() {
		root, err := ModuleRoot()
		Expect(err).NotTo(HaveOccurred())
		Expect(isPlyModule(root + "/go.mod")).To(BeTrue())
	})
})
