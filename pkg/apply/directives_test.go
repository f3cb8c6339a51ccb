package apply_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/features"
)

// A configuration holding a key the strategic merge patch format reads ("$patch", "$retainKeys",
// "$setElementOrder/<f>", "$deleteFromPrimitiveList/<f>") in a map is, with every gate off, merged as kubectl apply
// merges it: kubectl's diffs read the key as data, its merge of the three-way patch's halves drops or settles local's
// maps holding "$patch", and the server applies what the patch keeps. Phase 1 collates that whole patch over live beside
// the tree (collate.Directed), so the result is strategicpatch's apply(live, CreateThreeWayMergePatch(recorded, local,
// live)), in one collation; with ply's gates on the key is refused, naming the path.
var _ = Describe("a configuration holding directive keys (testdata/directives)", func() {
	collations := countCollations()
	DescribeTable("with every gate off is kubectl's apply, its changes read off the outcome; with ply's gates on, refused",
		func(path string) {
			f := loadFixture(path)
			opts := rankedOptions(f)
			res, err := apply.Merge(f.get("recorded"), f.get("local"), f.get("live"), opts)
			switch {
			case f.str("error") != "":
				Expect(err).To(MatchError(f.str("error")))
				_, err = kubectlApply(f, opts.Overwrite)
				Expect(err).To(HaveOccurred(), "kubectl fails too")
			case f.get("live").IsNull():
				Expect(err).NotTo(HaveOccurred())
				Expect(res.Object).To(equalValue(f.get("local")), "kubectl creates the configuration as it stands")
			default:
				Expect(err).NotTo(HaveOccurred())
				Expect(collations.Load()).To(BeEquivalentTo(1))
				expectKubectls(f, res, opts.Overwrite)
			}

			opts.Gates = features.Gates{}
			_, err = apply.Merge(f.get("recorded"), f.get("local"), f.get("live"), opts)
			if on := f.str("errorOn"); on != "" {
				Expect(err).To(MatchError(on), "gates on")
			} else {
				Expect(err).NotTo(HaveOccurred(), "gates on")
			}
		},
		entries("directives"),
	)
})
