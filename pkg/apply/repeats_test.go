package apply_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/features"
)

var _ = Describe("a set naming a value twice (testdata/repeats)", func() {
	DescribeTable("gate UniqueMergeKeys off: merged as kubectl apply merges it; on: refused where local repeats it",
		func(path string) {
			f := loadFixture(path)
			for _, gates := range []features.Gates{features.Kubectl(), features.Gates{}.With(features.UniqueMergeKeys, false)} {
				opts := apply.DefaultOptions()
				opts.Gates = gates
				res, err := apply.Merge(f.get("recorded"), f.get("local"), f.get("live"), opts)
				Expect(err).NotTo(HaveOccurred())
				Expect(res.Object).To(equalValue(f.get("want")))
			}
			Expect(f.get("want")).To(equalValue(kubectlMerge(f)), "the fixture's want is kubectl's")

			// With the gate on, local repeating a value is refused; repeats of live or recorded collapse.
			_, err := apply.Merge(f.get("recorded"), f.get("local"), f.get("live"), apply.DefaultOptions())
			if f.str("gatesOn") == "refused" {
				Expect(err).To(MatchError(ContainSubstring("a set lists each value once")))
			} else {
				Expect(err).NotTo(HaveOccurred())
			}
		},
		entries("repeats"),
	)
})
