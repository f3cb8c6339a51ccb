package e2e

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var routers = schema.GroupVersionResource{Group: "e2e.ply.dev", Version: "v1", Resource: "routers"}

// A set of maps (x-kubernetes-list-type: set over objects) on the real
// server: ply merges it as a set, keeping the item another writer added;
// with the SetOfMaps gate off it leaves exactly what kubectl apply leaves
// (for a custom resource, kubectl's three-way JSON merge patch replaces
// the list whole).
var _ = Describe("the SetOfMaps gate on the real server", func() {
	It("merges a set of maps item by item; off, leaves what kubectl leaves", func() {
		mustApply("default", []string{"routes/crd.yaml"}, "customresourcedefinition.apiextensions.k8s.io/routers.e2e.ply.dev created")
		Eventually(func() error {
			_, err := srv.Dynamic().Resource(routers).Namespace("default").List(context.Background(), metav1.ListOptions{})
			return err
		}).Should(Succeed(), "the CRD is served")

		type lane struct {
			ns    string
			apply func(ns, file string) // applies one manifest
		}
		withPly := func(extra ...string) func(ns, file string) {
			return func(ns, file string) {
				r := applyWith(srv.Kubeconfig, ns, []string{fixture(file)}, extra...)
				Expect(r.ExitCode).To(Equal(0), "%s", r)
			}
		}
		lanes := map[string]*lane{
			"ply":         {ns: newNamespace("routes-ply"), apply: withPly()},
			"ply-gateoff": {ns: newNamespace("routes-off"), apply: withPly("--feature-gates=SetOfMaps=false")},
			"kubectl": {ns: newNamespace("routes-kubectl"), apply: func(ns, file string) {
				r := run(kubectlBin, nil, "apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", fixture(file))
				Expect(r.ExitCode).To(Equal(0), "%s", r)
			}},
		}
		routes := func(ns string) []any { return field(live(routers, ns, "r"), "spec", "routes").([]any) }
		for _, l := range lanes {
			l.apply(l.ns, "routes/v1.yaml")
			By("another writer adding a route on the server")
			update(routers, l.ns, "r", func(u *unstructured.Unstructured) {
				spec := u.Object["spec"].(map[string]any)
				spec["routes"] = append(spec["routes"].([]any), map[string]any{"host": "z.example.com", "path": "/"})
			})
			l.apply(l.ns, "routes/v2.yaml")
		}
		route := func(host string) map[string]any { return map[string]any{"host": host, "path": "/"} }
		Expect(routes(lanes["ply"].ns)).To(Equal([]any{route("z.example.com"), route("a.example.com"), route("c.example.com")}),
			"the set merges: b, dropped from the manifest, is removed; z, the server's, is kept")
		Expect(routes(lanes["kubectl"].ns)).To(Equal([]any{route("a.example.com"), route("c.example.com")}), "kubectl replaces the list")
		Expect(routes(lanes["ply-gateoff"].ns)).To(Equal(routes(lanes["kubectl"].ns)), "with the gate off, ply leaves what kubectl leaves")
	})
})
