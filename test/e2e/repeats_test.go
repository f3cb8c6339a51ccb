package e2e

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// A manifest whose list names a merge key twice, on the real server: with --compat=kubectl (gate UniqueMergeKeys off)
// ply sends what leaves the object kubectl apply leaves, the list decided by kubectl's three-way patch applied to live,
// another writer's item kept.
var _ = Describe("a list naming a merge key twice on the real server, --compat=kubectl", func() {
	It("leaves what kubectl apply leaves", func() {
		applyLane := map[string]func(ns, file string){
			"ply": func(ns, file string) {
				r := applyWith(srv.Kubeconfig, ns, []string{fixture(file)}, "--compat=kubectl")
				Expect(r.ExitCode).To(Equal(0), "%s", r)
			},
			"kubectl": func(ns, file string) {
				r := run(kubectlBin, nil, "apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", fixture(file))
				Expect(r.ExitCode).To(Equal(0), "%s", r)
			},
		}
		env := map[string]any{}
		for name, apply := range applyLane {
			ns := newNamespace("repeats-" + name)
			apply(ns, "repeats/v1.yaml")
			By("another writer adding env D on the server")
			update(deployments, ns, "env", func(u *unstructured.Unstructured) {
				c := u.Object["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
				c["env"] = append(c["env"].([]any), map[string]any{"name": "D", "value": "live"})
			})
			apply(ns, "repeats/v2.yaml")
			env[name] = field(live(deployments, ns, "env"), "spec", "template", "spec", "containers")
		}
		Expect(env["ply"]).To(Equal(env["kubectl"]))
		containers := env["ply"].([]any)
		Expect(containers).To(HaveLen(1))
		Expect(containers[0].(map[string]any)["env"]).To(Equal([]any{
			map[string]any{"name": "A", "value": "2"}, map[string]any{"name": "D", "value": "live"}, map[string]any{"name": "C", "value": "z"},
		}), "kubectl's pairing: A's second item merges into its first, B deleted, the server's D kept")
	})
})
