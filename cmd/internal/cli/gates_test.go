package cli

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/features"
)

var _ = Describe("--compat and --feature-gates of apply and diff", func() {
	DescribeTable("set the client's gates: all on by default, --compat=kubectl turns all off, --feature-gates applies on top",
		func(want features.Gates, args ...string) {
			for _, run := range []func(...string) result{runApply, runDiff} {
				got := captureOptions()
				run(append([]string{"-f", "testdata/cm.yaml"}, args...)...)
				Expect(got.Gates).To(Equal(want), "%v", args)
			}
		},
		Entry("no flag", features.Gates{}),
		Entry("--compat=kubectl", features.Kubectl(), "--compat=kubectl"),
		Entry("one gate off", features.Gates{}.With(features.MultiFieldMergeKeys, false), "--feature-gates", "MultiFieldMergeKeys=false"),
		Entry("--feature-gates on top of --compat, whatever the order",
			features.Kubectl().With(features.SeedOrdering, true).With(features.SetOfMaps, true),
			"--feature-gates=SeedOrdering=true", "--compat", "kubectl", "--feature-gates", "SetOfMaps=true"),
	)

	It("keeps --ordering kubectl with the gates off, and the seed default", func() {
		got := captureOptions()
		runApply("-f", "testdata/cm.yaml", "--compat=kubectl", "--ordering=kubectl")
		Expect(got.Ordering).To(Equal(apply.OrderingKubectl))
		runApply("-f", "testdata/cm.yaml", "--compat=kubectl")
		Expect(got.Ordering).To(Equal(apply.OrderingSeed), "the default; SeedOrdering off makes the merge use kubectl's order")
		Expect(got.Gates.Enabled(features.SeedOrdering)).To(BeFalse())
	})

	DescribeTable("bad values are usage errors",
		func(want string, args ...string) {
			r := runApply(append([]string{"-f", "testdata/cm.yaml"}, args...)...)
			Expect(r.code).To(Equal(command.ExitUsage))
			Expect(r.stderr).To(HavePrefix("error: " + want))
			Expect(r.stderr).To(ContainSubstring("Run 'ply apply -h' for usage."))
			d := runDiff(append([]string{"-f", "testdata/cm.yaml"}, args...)...)
			Expect(d.code).To(Equal(command.DiffError))
			Expect(d.stderr).To(HavePrefix("error: " + want))
		},
		Entry("an unknown gate", `unknown feature gate "Bogus"; known gates: SeedOrdering, MultiFieldMergeKeys, PatchDeleteRemovesMap, SetOfMaps, UniqueMergeKeys`,
			"--feature-gates", "Bogus=false"),
		Entry("not a boolean", `feature gate SetOfMaps: "yes please" is not true or false`, "--feature-gates", "SetOfMaps=yes please"),
		Entry("an unknown --compat", `--compat must be kubectl, not "strict"`, "--compat=strict"),
		Entry("--ordering seed with the gate off", "--ordering seed contradicts the SeedOrdering feature gate", "--compat=kubectl", "--ordering", "seed"),
	)

	It("lists the gates in the help of apply, diff and the plugin's commands", func() {
		for _, r := range []result{runApply("-h"), runDiff("-h"), runPlugin("apply", "-h"), runPlugin("diff", "-h")} {
			Expect(r.stdout).To(ContainSubstring("      --compat kubectl"))
			Expect(r.stdout).To(ContainSubstring("      --feature-gates Name=true|false,..."))
			Expect(r.stdout).To(HaveSuffix(command.GatesHelp()))
			for _, g := range features.All() {
				Expect(r.stdout).To(MatchRegexp(`\n  ` + g.String() + ` +\S`))
			}
		}
		Expect(runPlugin("help").stdout).To(ContainSubstring("--compat=kubectl"))
	})
})
