package e2e

import (
	"context"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/plyproject/ply/pkg/cluster"
	"github.com/plyproject/ply/test/harness"
)

var (
	roles        = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "roles"}
	roleBindings = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings"}
)

// grantDeployments gives harness.NobodyUser the verbs on Deployments in
// ns, and waits until the authorizer lets it list them.
func grantDeployments(ns string, verbs ...string) {
	GinkgoHelper()
	ctx := context.Background()
	role := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
		"metadata": map[string]any{"name": "deployer"},
		"rules":    []any{map[string]any{"apiGroups": []any{"apps"}, "resources": []any{"deployments"}, "verbs": toAny(verbs)}},
	}}
	binding := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
		"metadata": map[string]any{"name": "deployer"},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "deployer"},
		"subjects": []any{map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": harness.NobodyUser}},
	}}
	_, err := srv.Dynamic().Resource(roles).Namespace(ns).Create(ctx, role, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	_, err = srv.Dynamic().Resource(roleBindings).Namespace(ns).Create(ctx, binding, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	dyn, err := dynamic.NewForConfig(nobodyConfig(srv.URL))
	Expect(err).NotTo(HaveOccurred())
	Eventually(func() error {
		_, err := dyn.Resource(deployments).Namespace(ns).List(ctx, metav1.ListOptions{})
		return err
	}).Should(Succeed())
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// nobodyConfig is the rest.Config of harness.NobodyUser for the server at
// host (the API server's URL or a proxy's).
func nobodyConfig(host string) *rest.Config {
	GinkgoHelper()
	path, err := srv.UserKubeconfig(harness.NobodyUser)
	Expect(err).NotTo(HaveOccurred())
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	Expect(err).NotTo(HaveOccurred())
	cfg.Host = host
	return cfg
}

var _ = Describe("ply apply with the patch verb (a role of get, list and patch)", func() {
	var ns, kubeconfig, path string

	BeforeEach(func() {
		ns = newNamespace("patchverb-")
		grantDeployments(ns, "get", "list", "patch")
		var err error
		kubeconfig, err = srv.UserKubeconfig(harness.NobodyUser)
		Expect(err).NotTo(HaveOccurred())
		path = harness.ObjectPath(deployments, ns, "web")
	})

	It("cannot create (that needs create) but updates through a merge patch that leaves exactly the merged object", func() {
		r := applyWith(kubeconfig, ns, []string{fixture("deployment.yaml")})
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(ContainSubstring(`cannot create resource "deployments"`))
		expectAbsent(deployments, ns, "web")

		mustApply(ns, []string{"deployment.yaml"}, "deployment.apps/web created")
		for _, step := range []struct{ file, want string }{
			{"deployment-image.yaml", "deployment.apps/web configured"},
			{"deployment-fields-removed.yaml", "deployment.apps/web configured"},
			{"deployment-fields-removed.yaml", "deployment.apps/web unchanged"},
		} {
			r = applyWith(kubeconfig, ns, []string{fixture(step.file)})
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stdout).To(Equal(lines(step.want)))
		}
		d := live(deployments, ns, "web")
		Expect(container(d)["image"]).To(Equal("nginx:1.27"))
		Expect(has(d, "spec", "minReadySeconds")).To(BeFalse(), "a field the manifest dropped is removed by the patch's null")
		Expect(d.GetLabels()).To(Equal(map[string]string{"app": "web"}))

		By("the same manifests applied by the admin (PUT) change nothing")
		mustApply(ns, []string{"deployment-fields-removed.yaml"}, "deployment.apps/web unchanged")
	})

	It("keeps the optimistic lock: a write between the read and the patch makes the server answer 409, and ply reads again", func() {
		mustApply(ns, []string{"deployment.yaml"}, "deployment.apps/web created")
		proxy, err := srv.StartProxy()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(proxy.Close)
		proxy.OnFirst(http.MethodPatch, path, competingWriter(ns, "patcher"))

		c, err := cluster.New(nobodyConfig(proxy.URL), cluster.Options{Namespace: ns, Overwrite: true})
		Expect(err).NotTo(HaveOccurred())
		objs, err := cluster.ReadObjects([]string{fixture("deployment-image.yaml")}, false, nil)
		Expect(err).NotTo(HaveOccurred())
		outs := c.Apply(context.Background(), objs)
		Expect(outs).To(HaveLen(1))
		Expect(outs[0].Err).NotTo(HaveOccurred())
		Expect(outs[0].Action).To(Equal(cluster.Configured))
		Expect(proxy.HookErrors()).To(BeEmpty())
		puts := proxy.Statuses(http.MethodPut, path)
		Expect(puts).NotTo(BeEmpty())
		Expect(puts[len(puts)-1]).To(Equal(http.StatusForbidden), "the role refuses the PUT")
		Expect(puts[:len(puts)-1]).NotTo(ContainElement(Not(Equal(harness.Abandoned))),
			"the refused PUT, once: the run remembers the verb (a PUT is sent again only where its answer was lost, one that outlived the request timeout)")
		patches := proxy.Statuses(http.MethodPatch, path)
		Expect(patches).To(HaveLen(outs[0].Attempts), "one patch a round")
		Expect(patches[0]).To(Equal(http.StatusConflict), "the competing write made the first patch stale")
		Expect(patches[len(patches)-1]).To(Equal(http.StatusOK))
		Expect(patches[1:len(patches)-1]).NotTo(ContainElement(Not(Equal(harness.Abandoned))),
			"a round is repeated only after a conflict or a lost answer (a patch that outlived the request timeout)")

		d := live(deployments, ns, "web")
		Expect(d.GetLabels()).To(HaveKeyWithValue("racer", "patcher"), "the competing write survives")
		Expect(container(d)["image"]).To(Equal("nginx:1.28"))
	})

	It("diffs with a dry-run patch when update is forbidden", func() {
		mustApply(ns, []string{"deployment.yaml"}, "deployment.apps/web created")
		r := ply("diff", "--kubeconfig", kubeconfig, "-n", ns, "-f", fixture("deployment-image.yaml"))
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stdout).To(MatchRegexp(`(?m)^\+\s+image: nginx:1\.28$`))
		Expect(container(live(deployments, ns, "web"))["image"]).To(Equal("nginx:1.27"), "diff writes nothing")
	})
})
