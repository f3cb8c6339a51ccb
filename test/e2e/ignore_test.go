package e2e

import (
	"context"
	"encoding/base64"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var mutatingWebhooks = schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: "mutatingwebhookconfigurations"}

// autoscale sets the replicas of the Deployment web through its scale
// subresource, as the HPA controller does, under the manager name manager.
func autoscale(ns string, replicas int64, manager string) {
	GinkgoHelper()
	rc := srv.Dynamic().Resource(deployments).Namespace(ns)
	scale, err := rc.Get(context.Background(), "web", metav1.GetOptions{}, "scale")
	Expect(err).NotTo(HaveOccurred())
	Expect(unstructured.SetNestedField(scale.Object, replicas, "spec", "replicas")).To(Succeed())
	_, err = rc.Update(context.Background(), scale, metav1.UpdateOptions{FieldManager: manager}, "scale")
	Expect(err).NotTo(HaveOccurred())
}

var _ = Describe("ply apply: fields other writers own", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace("ignore-")
		mustApply(ns, []string{"deployment.yaml"}, "deployment.apps/web created")
		autoscale(ns, 5, "kube-controller-manager")
	})

	replicas := func() any { return field(live(deployments, ns, "web"), "spec", "replicas") }

	DescribeTable("keep live's value across applies",
		func(flags ...string) {
			for _, step := range []struct{ file, want string }{
				{"deployment-image.yaml", "deployment.apps/web configured"},
				{"deployment-image.yaml", "deployment.apps/web unchanged"},
			} {
				r := applyWith(srv.Kubeconfig, ns, []string{fixture(step.file)}, flags...)
				Expect(r.ExitCode).To(Equal(0), "%s", r)
				Expect(r.Stdout).To(Equal(lines(step.want)))
				Expect(r.Stderr).To(BeEmpty())
				Expect(replicas()).To(Equal(int64(5)), "the autoscaler's replicas")
			}
			Expect(container(live(deployments, ns, "web"))["image"]).To(Equal("nginx:1.28"))

			By("ply diff shows the field as ignored, not as a change")
			r := ply(append([]string{"diff", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", fixture("deployment-image.yaml")}, flags...)...)
			Expect(r.ExitCode).To(Equal(0), "no change: %s", r)
			Expect(r.Stdout).To(Equal("# deployment.apps/web: spec.replicas ignored: live's value kept, another writer's\n"))

			By("without the rule, the manifest's value wins again")
			mustApply(ns, []string{"deployment-image.yaml"}, "deployment.apps/web configured")
			Expect(replicas()).To(Equal(int64(2)))
		},
		Entry("by owning manager", "--ignore-manager=kube-controller-manager"),
		Entry("by path for the kind", "--ignore-field=deployment.apps:spec.replicas"),
		Entry("by path for the kind and a selector the object matches", "--ignore-field=deployment.apps:spec.replicas:tier=frontend"),
	)

	It("applies the manifest's value where the rule does not reach: another kind, a selector not matched, another manager", func() {
		for _, flags := range [][]string{
			{"--ignore-field=statefulset.apps:spec.replicas"},
			{"--ignore-field=deployment.apps:spec.replicas:tier=backend"},
			{"--ignore-manager=horizontal-pod-autoscaler"},
		} {
			autoscale(ns, 5, "kube-controller-manager")
			r := applyWith(srv.Kubeconfig, ns, []string{fixture("deployment.yaml")}, flags...)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stdout).To(Equal(lines("deployment.apps/web configured")), "%v", flags)
			Expect(replicas()).To(Equal(int64(2)), "%v", flags)
		}
	})

	It("refuses a bad --ignore-field as a usage error", func() {
		r := applyWith(srv.Kubeconfig, ns, []string{fixture("deployment.yaml")}, "--ignore-field=spec.replicas")
		Expect(r.ExitCode).To(Equal(2), "%s", r)
		Expect(r.Stderr).To(ContainSubstring(`invalid --ignore-field "spec.replicas": want KIND[.GROUP]:PATH[:SELECTOR], such as deployment.apps:spec.replicas`))
	})
})

var _ = Describe("ply apply: a webhook's caBundle another writer injects", func() {
	It("is kept across applies by the object's annotation, in every item of the keyed webhooks list, and diff shows it ignored", func() {
		wh, changed := fixture("ignore/webhook.yaml"), fixture("ignore/webhook-changed.yaml")
		DeferCleanup(func() {
			srv.Dynamic().Resource(mutatingWebhooks).Delete(context.Background(), "ply-e2e-ignore", metav1.DeleteOptions{})
		})
		r := applyWith(srv.Kubeconfig, "default", []string{wh})
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal(lines("mutatingwebhookconfiguration.admissionregistration.k8s.io/ply-e2e-ignore created")))
		webhooks := func() []any {
			u, err := srv.Dynamic().Resource(mutatingWebhooks).Get(context.Background(), "ply-e2e-ignore", metav1.GetOptions{})
			Expect(err).NotTo(HaveOccurred())
			return field(u, "webhooks").([]any)
		}
		Expect(webhooks()[0].(map[string]any)["clientConfig"].(map[string]any)["caBundle"]).To(Equal(base64.StdEncoding.EncodeToString([]byte("placeholder"))),
			"created now: the manifest's value")

		injected := base64.StdEncoding.EncodeToString([]byte("injected CA"))
		u, err := srv.Dynamic().Resource(mutatingWebhooks).Get(context.Background(), "ply-e2e-ignore", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		for _, w := range field(u, "webhooks").([]any) {
			w.(map[string]any)["clientConfig"].(map[string]any)["caBundle"] = injected
		}
		_, err = srv.Dynamic().Resource(mutatingWebhooks).Update(context.Background(), u, metav1.UpdateOptions{FieldManager: "cainjector"})
		Expect(err).NotTo(HaveOccurred())

		r = ply("diff", "--kubeconfig", srv.Kubeconfig, "-f", changed)
		Expect(r.ExitCode).To(Equal(1), "timeoutSeconds changes: %s", r)
		Expect(r.Stdout).To(HavePrefix("# mutatingwebhookconfiguration.admissionregistration.k8s.io/ply-e2e-ignore: webhooks[name=a.e2e.ply.dev].clientConfig.caBundle ignored: live's value kept, another writer's\n" +
			"# mutatingwebhookconfiguration.admissionregistration.k8s.io/ply-e2e-ignore: webhooks[name=b.e2e.ply.dev].clientConfig.caBundle ignored: live's value kept, another writer's\n"))
		Expect(r.Stdout).NotTo(ContainSubstring("caBundle: "))

		for _, step := range []struct{ file, want string }{{changed, "configured"}, {changed, "unchanged"}, {wh, "configured"}} {
			r = applyWith(srv.Kubeconfig, "default", []string{step.file})
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stdout).To(Equal(lines("mutatingwebhookconfiguration.admissionregistration.k8s.io/ply-e2e-ignore " + step.want)))
			for _, w := range webhooks() {
				Expect(w.(map[string]any)["clientConfig"].(map[string]any)["caBundle"]).To(Equal(injected))
			}
		}
		Expect(webhooks()[1].(map[string]any)["timeoutSeconds"]).To(Equal(int64(5)))
	})
})
