package e2e

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// managersMark separates, in the -o jsonpath output of the specs below, the
// object's data and annotations from its managers ("manager/operation ...").
const managersMark = " managers: "

var _ = Describe("ply apply --server-side --dry-run=server of an object applied client-side", func() {
	DescribeTable("shows what the real run leaves after moving the client-side manager's fields and applying again, "+
		"its managers too (for the manager kubectl, kubectl-last-applied keeps kubectl's annotation)",
		func(next map[string]any, wantData string, wantManagers []string, flags ...string) {
			ns := newNamespace("ssa-dry")
			k := kubectlIn(ns, "apply", "-f", configMapWith("moving", map[string]any{"a": "1", "b": "2", "c": "3"}))
			Expect(k.ExitCode).To(Equal(0), "%s", k)
			file := configMapWith("moving", next)
			jsonpath := "jsonpath={.data} {.metadata.annotations}" + managersMark + "{range .metadata.managedFields[*]}{.manager}/{.operation} {end}"

			dry := applyWith(srv.Kubeconfig, ns, []string{file}, append([]string{"--server-side", "--dry-run=server", "-o", jsonpath}, flags...)...)
			Expect(dry.ExitCode).To(Equal(0), "%s", dry)
			Expect(dataKeys(live(configMaps, ns, "moving"))).To(ConsistOf("a", "b", "c"), "a dry run writes nothing")
			Expect(managers(live(configMaps, ns, "moving"))).To(Equal([]string{"kubectl-client-side-apply/Update"}))

			real := applyWith(srv.Kubeconfig, ns, []string{file}, append([]string{"--server-side", "-o", jsonpath}, flags...)...)
			Expect(real.ExitCode).To(Equal(0), "%s", real)
			realObject, realManagers, _ := strings.Cut(real.Stdout, managersMark)
			dryObject, dryManagers, _ := strings.Cut(dry.Stdout, managersMark)
			Expect(realObject).To(HavePrefix(wantData))
			Expect(strings.Fields(realManagers)).To(ConsistOf(wantManagers))
			Expect(dryObject).To(Equal(realObject), "the dry run's answer is the real run's result")
			// The server orders the entries by the second of their last change, which a dry run cannot know.
			Expect(strings.Fields(dryManagers)).To(ConsistOf(strings.Fields(realManagers)), "the dry run's managers are the real run's")
		},
		Entry("the same data, where only the managers change", map[string]any{"a": "1", "b": "2", "c": "3"}, `{"a":"1","b":"2","c":"3"}`,
			[]string{"kubectl/Apply", "kubectl-last-applied/Apply"}),
		Entry("a field dropped, which the second apply removes", map[string]any{"a": "1", "b": "2"}, `{"a":"1","b":"2"}`,
			[]string{"kubectl/Apply", "kubectl-last-applied/Apply"}),
		Entry("a value the client-side apply set changed under another manager than kubectl, which conflicts until the fields are moved, "+
			"and the annotation that manager then drops", map[string]any{"a": "9", "b": "2"}, `{"a":"9","b":"2"}`,
			[]string{"deploy/Apply"}, "--field-manager=deploy"),
	)
})

var _ = Describe("ply diff --server-side-apply of an object applied client-side", func() {
	It("shows the fields the hand-over's second apply removes", func() {
		ns := newNamespace("ssa-diff-move")
		k := kubectlIn(ns, "apply", "-f", configMapWith("moving", map[string]any{"a": "1", "b": "2", "c": "3"}))
		Expect(k.ExitCode).To(Equal(0), "%s", k)
		d := ply("diff", "--kubeconfig", srv.Kubeconfig, "-n", ns, "--server-side-apply", "-f", configMapWith("moving", map[string]any{"a": "1", "b": "2"}))
		Expect(d.ExitCode).To(Equal(1), "%s", d)
		Expect(changedLines(d.Stdout)).To(ContainElement(`-  c: "3"`))
		Expect(dataKeys(live(configMaps, ns, "moving"))).To(ConsistOf("a", "b", "c"))
	})
})
