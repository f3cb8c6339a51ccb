package cli

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/pkg/cluster"
)

var _ = Describe("the lane flags", func() {
	DescribeTable("set the client's lane options",
		func(want cluster.Options, args ...string) {
			got := captureOptions()
			r := runApply(append([]string{"-f", "testdata/cm.yaml"}, args...)...)
			Expect(r.stderr).To(Equal("error: no cluster in unit tests\n"))
			Expect(got.Lane).To(Equal(want.Lane))
			Expect(got.ForceConflicts).To(Equal(want.ForceConflicts))
			Expect(got.LargeObjects).To(Equal(want.LargeObjects))
			Expect(got.FieldManager).To(Equal(want.FieldManager))
		},
		Entry("none: client-side, large objects server-side", cluster.Options{}),
		Entry("--server-side", cluster.Options{Lane: cluster.LaneServerSide}, "--server-side"),
		Entry("--server-side=false", cluster.Options{}, "--server-side=false"),
		Entry("--server-side=auto", cluster.Options{Lane: cluster.LaneAuto}, "--server-side=auto"),
		Entry("--force-conflicts and a manager", cluster.Options{Lane: cluster.LaneServerSide, ForceConflicts: true, FieldManager: "ci"},
			"--server-side", "--force-conflicts", "--field-manager=ci"),
		Entry("--large-objects=compressed-annotation", cluster.Options{LargeObjects: cluster.LargeCompressed}, "--large-objects=compressed-annotation"),
	)

	DescribeTable("refuse what kubectl refuses, with its message",
		func(want string, args ...string) {
			captureOptions()
			r := runApply(append([]string{"-f", "testdata/cm.yaml"}, args...)...)
			Expect(r.code).To(Equal(command.ExitUsage))
			Expect(r.stderr).To(HavePrefix("error: " + want + "\n"))
		},
		Entry("--dry-run=client", "--dry-run=client doesn't work with --server-side (did you mean --dry-run=server instead?)", "--server-side", "--dry-run=client"),
		Entry("--dry-run=client with auto", "--dry-run=client doesn't work with --server-side (did you mean --dry-run=server instead?)", "--server-side=auto", "--dry-run=client"),
		Entry("--force", "--force cannot be used with --server-side", "--server-side", "--force"),
		Entry("--force-conflicts alone", "--force-conflicts only works with --server-side", "--force-conflicts"),
		Entry("a bad lane", `invalid --server-side value "yes", want true, false or auto`, "--server-side=yes"),
		Entry("a bad --large-objects", `invalid --large-objects value "gzip", want server-side or compressed-annotation`, "--large-objects=gzip"),
	)

	It("diff --server-side-apply diffs in the server-side lane", func() {
		got := captureOptions()
		r := runDiff("-f", "testdata/cm.yaml", "--server-side-apply", "--force-conflicts")
		Expect(r.stderr).To(Equal("error: no cluster in unit tests\n"))
		Expect(got.Lane).To(Equal(cluster.LaneServerSide))
		Expect(got.ForceConflicts).To(BeTrue())
		Expect(got.DryRun).To(Equal(cluster.DryRunServer))
		r = runDiff("-f", "testdata/cm.yaml", "--server-side-apply", "--server-side=false")
		Expect(r.code).To(Equal(command.DiffError))
	})
})
