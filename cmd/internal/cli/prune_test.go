package cli

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/plyproject/ply/cmd/internal/command"
)

var _ = Describe("apply's pruning flags", func() {
	DescribeTable("are checked as kubectl checks them: usage errors exit 2",
		func(want string, args ...string) {
			r := runApply(append([]string{"-f", "testdata/cm.yaml"}, args...)...)
			Expect(r.code).To(Equal(command.ExitUsage), "%s", r.stderr)
			Expect(r.stderr).To(HavePrefix("error: " + want))
			Expect(r.stdout).To(BeEmpty())
		},
		Entry("--applyset without --prune", "--applyset requires --prune", "--applyset=app"),
		Entry("--prune alone", "all resources selected for prune without explicitly passing --all.", "--prune"),
		Entry("--all with -l", "cannot set --all and --selector at the same time", "--prune", "--all", "-l", "a=b"),
		Entry("--all with --applyset", "--all is incompatible with --applyset", "--prune", "--all", "--applyset=app"),
		Entry("-l with --applyset", "--selector is incompatible with --applyset", "--prune", "-l", "a=b", "--applyset=app"),
		Entry("an allowlist with --applyset", "--prune-allowlist is incompatible with --applyset", "--prune", "--applyset=app", "--prune-allowlist=core/v1/ConfigMap"),
		Entry("an allowlist without --prune", "--all and --prune-allowlist require --prune", "--prune-allowlist=core/v1/ConfigMap"),
		Entry("a bad allowlist entry", `invalid --prune-allowlist entry "ConfigMap": want group/version/Kind`, "--prune", "--all", "--prune-allowlist=ConfigMap"),
		Entry("a bad cascade", `invalid cascade value (sideways). Must be "background", "foreground", or "orphan"`, "--prune", "--all", "--cascade=sideways"),
		Entry("a negative --lock-timeout", "--lock-timeout must not be negative, not -1s", "--prune", "--applyset=app", "--lock-timeout=-1s"),
		Entry("tooling without --applyset", "--applyset-tooling requires --applyset", "--prune", "--all", "--applyset-tooling=ply/v1"),
		Entry("a foreign tooling", `--applyset-tooling: invalid ApplySet tooling "helm/v3": want ply/VERSION or kubectl/VERSION`,
			"--prune", "--applyset=app", "--applyset-tooling=helm/v3"),
	)

	DescribeTable("--cascade takes kubectl's values, its deprecated booleans with a warning",
		func(value string, want metav1.DeletionPropagation, warning string) {
			f := pruneFlags{prune: true, all: true, cascade: value}
			var errb []byte
			w := &sliceWriter{&errb}
			p, err := f.options("", w)
			Expect(err).NotTo(HaveOccurred())
			Expect(p.Propagation).To(Equal(want))
			Expect(string(errb)).To(Equal(warning))
		},
		Entry("background", "background", metav1.DeletePropagationBackground, ""),
		Entry("foreground", "foreground", metav1.DeletePropagationForeground, ""),
		Entry("orphan", "orphan", metav1.DeletePropagationOrphan, ""),
		Entry("true", "true", metav1.DeletePropagationBackground, "warning: --cascade=true is deprecated (boolean value) and can be replaced with --cascade=background.\n"),
		Entry("false", "false", metav1.DeletePropagationOrphan, "warning: --cascade=false is deprecated (boolean value) and can be replaced with --cascade=orphan.\n"),
	)

	It("passes nothing to prune without --prune", func() {
		f := pruneFlags{cascade: "background"}
		p, err := f.options("a=b", &sliceWriter{new([]byte)})
		Expect(err).NotTo(HaveOccurred())
		Expect(p).To(BeNil())
	})
})

// sliceWriter appends what is written to a byte slice.
type sliceWriter struct{ b *[]byte }

func (w *sliceWriter) Write(p []byte) (int, error) {
	*w.b = append(*w.b, p...)
	return len(p), nil
}
