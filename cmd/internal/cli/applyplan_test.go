package cli

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/pkg/cluster"
)

var _ = Describe("-o plan", func() {
	DescribeTable("apply refuses -o plan where it cannot print what the run would do, before reading anything",
		func(want string, args ...string) {
			captureOptions()
			r := runApply(append([]string{"-f", "testdata/cm.yaml", "-o", "plan"}, args...)...)
			Expect(r.code).To(Equal(command.ExitUsage), "%v", r)
			Expect(r.stderr).To(HavePrefix("error: " + want + "\n"))
		},
		Entry("without a dry run", "-o plan prints what apply would do: it needs --dry-run=server or --dry-run=client "+
			"(ply diff -o json prints the same plan)"),
		Entry("with --confirm", "-o plan cannot be used with --confirm or --plan: it writes nothing", "--dry-run=server", "--confirm", "--yes"),
		Entry("with --plan", "-o plan cannot be used with --confirm or --plan: it writes nothing", "--dry-run=server", "--plan=p.json"),
	)

	DescribeTable("apply -o plan with a dry run goes on to the server, in the dry run's mode and lane",
		func(args ...string) {
			captureOptions()
			r := runApply(append([]string{"-f", "testdata/cm.yaml", "-o", "plan"}, args...)...)
			Expect(r.code).To(Equal(command.ExitFailed), "%v", r)
			Expect(r.stderr).To(Equal("error: no cluster in unit tests\n"))
			Expect(r.stdout).To(BeEmpty())
		},
		Entry("server", "--dry-run=server"),
		Entry("client", "--dry-run=client"),
		Entry("server, server-side", "--dry-run=server", "--server-side"),
	)

	DescribeTable("diff takes plan as a synonym of json, and names both when refusing another format",
		func(format string, wantCode int, wantErr string) {
			captureOptions()
			r := runDiff("-f", "testdata/cm.yaml", "-o", format)
			Expect(r.code).To(Equal(wantCode), "%v", r)
			Expect(r.stderr).To(HavePrefix(wantErr))
		},
		Entry("plan", "plan", command.DiffError, "error: no cluster in unit tests\n"),
		Entry("json", "json", command.DiffError, "error: no cluster in unit tests\n"),
		Entry("yaml", "yaml", command.ExitUsage, `error: unable to match a printer suitable for the output format "yaml", allowed formats are: json, plan`),
	)

	DescribeTable("completion of -o offers plan",
		func(cmd, prefix string, want string) {
			r := runPly("__complete", cmd, "-f", "testdata/cm.yaml", "-o", prefix)
			Expect(r.code).To(Equal(0), "%v", r)
			Expect(r.stdout).To(HavePrefix(want + "\n:4\n"))
		},
		Entry("apply, p", "apply", "p", "plan"),
		Entry("apply, j: kubectl's formats", "apply", "j", "json\njsonpath\njsonpath-as-json\njsonpath-file"),
		Entry("diff, nothing typed", "diff", "", "json\nplan"),
		Entry("diff, p", "diff", "p", "plan"),
	)
})

var _ = Describe("apply's lines of ignored objects", func() {
	ignored := func(name, src, why string) cluster.Outcome {
		o := outcome("ConfigMap", "", name, src, cluster.Ignored, nil)
		o.IgnoredReason = why
		return o
	}
	outs := []cluster.Outcome{
		ignored("frozen", "x.yaml#1", cluster.IgnoredReconcileDisabled),
		outcome("ConfigMap", "", "a", "x.yaml#2", cluster.Configured, nil),
		ignored("kept", cluster.PruneSource, cluster.IgnoredPruneDisabled),
	}

	DescribeTable("say why, exit 0, and carry the dry run's suffix after the reason",
		func(dry cluster.DryRun, want string) {
			var out, errb strings.Builder
			Expect(reportApply(outs, dry, &out, &errb)).To(Equal(command.ExitOK))
			Expect(out.String()).To(Equal(want))
			Expect(errb.String()).To(BeEmpty())
		},
		Entry("a run", cluster.DryRunNone, "configmap/frozen ignored (reconcile disabled)\nconfigmap/a configured\nconfigmap/kept ignored (prune disabled)\n"),
		Entry("a server dry run", cluster.DryRunServer, "configmap/frozen ignored (reconcile disabled) (server dry run)\n"+
			"configmap/a configured (server dry run)\nconfigmap/kept ignored (prune disabled) (server dry run)\n"),
	)

	It("-o name lists the objects applied, not those prune left", func() {
		var out, errb strings.Builder
		p := newApplyPrinter(printerFor("name"), cluster.DryRunNone, false, &out, &errb)
		for i, o := range outs {
			p.report(i, o)
		}
		p.finish()
		Expect(out.String()).To(Equal("configmap/frozen\nconfigmap/a\n"))
	})
})
