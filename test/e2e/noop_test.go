package e2e

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("ply apply --server-side=auto of an object already applied server-side", func() {
	It("sends no apply patch when managedFields show the manager applied exactly that, and one when it changed", func() {
		proxy, err := srv.StartProxy()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(proxy.Close)
		ns := newNamespace("ssa-noop")
		k := kubectlIn(ns, "apply", "--server-side", "-f", configMapWith("theirs", map[string]any{"a": "1"}))
		Expect(k.ExitCode).To(Equal(0), "%s", k)
		path := "/api/v1/namespaces/" + ns + "/configmaps/theirs"

		r := applyWith(proxy.Kubeconfig, ns, []string{configMapWith("theirs", map[string]any{"a": "1"})}, "--server-side=auto")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal(lines("configmap/theirs serverside-applied (server-side)")), "what kubectl prints for an apply that changes nothing")
		Expect(proxy.Count("PATCH", path)).To(Equal(0), "the read that chose the lane shows nothing to apply")

		r = applyWith(proxy.Kubeconfig, ns, []string{configMapWith("theirs", map[string]any{"a": "1", "b": "2"})}, "--server-side=auto")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(proxy.Count("PATCH", path)).To(Equal(1))
		Expect(dataKeys(live(configMaps, ns, "theirs"))).To(ConsistOf("a", "b"))

		r = applyWith(proxy.Kubeconfig, ns, []string{configMapWith("theirs", map[string]any{"a": "1"})}, "--server-side=auto")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(proxy.Count("PATCH", path)).To(Equal(2), "a field to remove is a change")
		Expect(dataKeys(live(configMaps, ns, "theirs"))).To(ConsistOf("a"))
	})
})
