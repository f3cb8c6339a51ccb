package e2e

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// objectDiff returns the part of diff's output about ref: from its lane
// line to the next object's.
func objectDiff(out, ref string) string {
	start := strings.Index(out, "# "+ref+": ")
	if start < 0 {
		return ""
	}
	rest := out[start+1:]
	if end := strings.Index(rest, "\n# configmap/"); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

var _ = Describe("ply diff --server-side-apply=auto", func() {
	It("diffs each object in the lane it was last applied in, naming the lane", func() {
		ns := newNamespace("diff-auto")
		mine := configMapWith("mine", map[string]any{"a": "1"})
		same := configMapWith("same", map[string]any{"a": "1"})
		r := applyWith(srv.Kubeconfig, ns, []string{mine, same})
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		k := kubectlIn(ns, "apply", "--server-side", "-f", configMapWith("theirs", map[string]any{"a": "1", "b": "2"}))
		Expect(k.ExitCode).To(Equal(0), "%s", k)

		files := []string{configMapWith("mine", map[string]any{"a": "2"}), same, configMapWith("theirs", map[string]any{"a": "1"})}
		args := []string{"diff", "--kubeconfig", srv.Kubeconfig, "-n", ns, "--server-side-apply=auto"}
		for _, f := range files {
			args = append(args, "-f", f)
		}
		d := ply(args...)
		Expect(d.ExitCode).To(Equal(1), "%s", d)
		Expect(d.Stdout).To(ContainSubstring("# configmap/same: client-side\n# configmap/theirs: server-side\n"),
			"an unchanged object is named with its lane too")
		client := objectDiff(d.Stdout, "configmap/mine")
		Expect(client).To(HavePrefix(" configmap/mine: client-side\n"))
		Expect(changedLines(client)).To(ContainElements(`-  a: "1"`, `+  a: "2"`))
		Expect(client).To(ContainSubstring("last-applied-configuration"), "the client-side lane rewrites the annotation")
		server := objectDiff(d.Stdout, "configmap/theirs")
		Expect(server).To(HavePrefix(" configmap/theirs: server-side\n"))
		Expect(changedLines(server)).To(ConsistOf(`-  b: "2"`), "the server's dry run of the server-side apply removes b")
		Expect(server).NotTo(ContainSubstring("last-applied-configuration"), "the server-side lane records no annotation")
		Expect(dataKeys(live(configMaps, ns, "theirs"))).To(ConsistOf("a", "b"), "a diff writes nothing")

		bad := ply("diff", "--kubeconfig", srv.Kubeconfig, "-n", ns, "--server-side=false", "--server-side-apply=auto", "-f", same)
		Expect(bad.ExitCode).To(Equal(2), "%s", bad)
		Expect(bad.Stderr).To(ContainSubstring("--server-side-apply diffs against the server's dry run: it cannot be used with --server-side=false"))
	})
})
