package cli

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/pkg/cluster"
)

var _ = Describe("diff's lane (--server-side-apply)", func() {
	DescribeTable("diffs in the lane apply would write in",
		func(lane cluster.Lane, args ...string) {
			got := captureOptions()
			r := runDiff(append([]string{"-f", "testdata/cm.yaml"}, args...)...)
			Expect(r.stderr).To(Equal("error: no cluster in unit tests\n"))
			Expect(got.Lane).To(Equal(lane))
			Expect(got.DryRun).To(Equal(cluster.DryRunServer))
		},
		Entry("by default, client-side", cluster.LaneClientSide),
		Entry("bare, server-side", cluster.LaneServerSide, "--server-side-apply"),
		Entry("=true", cluster.LaneServerSide, "--server-side-apply=true"),
		Entry("=auto: each object in its lane", cluster.LaneAuto, "--server-side-apply=auto", "--force-conflicts"),
		Entry("=false", cluster.LaneClientSide, "--server-side-apply=false"),
	)

	DescribeTable("refuses what the lanes cannot diff",
		func(want string, args ...string) {
			captureOptions()
			r := runDiff(append([]string{"-f", "testdata/cm.yaml"}, args...)...)
			Expect(r.code).To(Equal(command.ExitUsage))
			Expect(r.stderr).To(HavePrefix("error: " + want + "\n"))
		},
		Entry("another value", `invalid --server-side-apply value "yes", want true, false or auto`, "--server-side-apply=yes"),
		Entry("auto without the server's dry run", "--server-side-apply diffs against the server's dry run: it cannot be used with --server-side=false",
			"--server-side-apply=auto", "--server-side=false"),
		Entry("auto with --force", "--force cannot be used with --server-side-apply", "--server-side-apply=auto", "--force"),
		Entry("--force-conflicts alone", "--force-conflicts only works with --server-side-apply", "--force-conflicts"),
	)
})
