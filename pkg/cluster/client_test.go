package cluster

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/rest"
)

var _ = Describe("clients", func() {
	DescribeTable("the default namespace",
		func(opts Options, want string, enforce bool) {
			opts.Kubeconfig = "testdata/kubeconfig"
			c, err := NewFromKubeconfig(opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(c.Namespace()).To(Equal(want))
			Expect(c.enforce).To(Equal(enforce))
		},
		Entry("the current context's", Options{}, "from-context", false),
		Entry("-n wins, and is enforced", Options{Namespace: "team"}, "team", true),
		Entry("another context without one: default", Options{Context: "without-ns"}, "default", false),
	)

	It("reports a missing context", func() {
		_, err := NewFromKubeconfig(Options{Kubeconfig: "testdata/kubeconfig", Context: "nope"})
		Expect(err).To(MatchError(ContainSubstring(`cannot load the kubeconfig: context "nope" does not exist`)))
	})

	It("builds from a rest.Config with the default namespace, worker and attempt counts", func() {
		c, err := New(&rest.Config{Host: "http://127.0.0.1:1"}, Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Namespace()).To(Equal(DefaultNamespace))
		Expect(c.opts.Workers).To(Equal(DefaultWorkers))
		Expect(c.opts.MaxAttempts).To(Equal(DefaultMaxAttempts))
		_, err = New(nil, Options{})
		Expect(err).To(HaveOccurred())
	})

	DescribeTable("ParseDryRun",
		func(s string, want DryRun, ok bool) {
			got, err := ParseDryRun(s)
			Expect(err == nil).To(Equal(ok))
			Expect(got).To(Equal(want))
			if ok {
				Expect(got.String()).To(Equal(s))
			}
		},
		Entry(nil, "none", DryRunNone, true),
		Entry(nil, "client", DryRunClient, true),
		Entry(nil, "server", DryRunServer, true),
		Entry(nil, "true", DryRunNone, false),
	)

	It("names actions as kubectl", func() {
		Expect([]string{Created.String(), Configured.String(), Unchanged.String(), Failed.String()}).
			To(Equal([]string{"created", "configured", "unchanged", "failed"}))
	})
})
