package e2e

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The server-side lane honours what the client-side lane does around the writes: ignore rules leave their fields out
// of the applied configuration, and strict validation refuses an unknown field.
var _ = Describe("ply apply --server-side with ignore rules and validation", func() {
	var ns string
	BeforeEach(func() { ns = newNamespace("ssa-rules-") })

	DescribeTable("leaves a field another writer owns out of the applied configuration: its value stays, with no conflict",
		func(flags ...string) {
			ssa := append([]string{"--server-side"}, flags...)
			r := applyWith(srv.Kubeconfig, ns, []string{fixture("deployment.yaml")}, "--server-side")
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			autoscale(ns, 5, "kube-controller-manager")

			r = applyWith(srv.Kubeconfig, ns, []string{fixture("deployment-image.yaml")}, ssa...)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stdout).To(Equal(lines("deployment.apps/web serverside-applied")))
			d := live(deployments, ns, "web")
			Expect(field(d, "spec", "replicas")).To(Equal(int64(5)), "the autoscaler's replicas")
			Expect(container(d)["image"]).To(Equal("nginx:1.28"))

			By("without the rule, the manifest's value conflicts with the autoscaler's")
			r = applyWith(srv.Kubeconfig, ns, []string{fixture("deployment-image.yaml")}, "--server-side")
			Expect(r.ExitCode).To(Equal(3), "%s", r)
			Expect(r.Stderr).To(ContainSubstring(".spec.replicas"))
			Expect(r.Stderr).To(ContainSubstring("kube-controller-manager"))
		},
		Entry("by path for the kind", "--ignore-field=deployment.apps:spec.replicas"),
		Entry("by owning manager", "--ignore-manager=kube-controller-manager"),
	)

	It("refuses an unknown field at once, naming the object, the file and the path, whatever --validate says", func() {
		// The server converts an apply configuration to the kind's typed schema, which refuses a field it does not
		// declare under every fieldValidation (kubectl apply --server-side meets the same refusal).
		typo := fixture("deployment-typo.yaml")
		for _, flags := range [][]string{{"--server-side"}, {"--server-side", "--validate=warn"}} {
			r := applyWith(srv.Kubeconfig, ns, []string{typo}, flags...)
			Expect(r.ExitCode).To(Equal(1), "%v: %s", flags, r)
			Expect(r.Stderr).To(Equal(`error: deployments.apps "typo" (`+typo+`#1): unknown field "spec.replcas"`+"\n"), "%v", flags)
			Expect(r.Duration).To(BeNumerically("<", 10*time.Second), "no retries: a refusal, not a transient failure")
			expectAbsent(deployments, ns, "typo")
		}
	})
})
