package catalogue_test

import (
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/test/harness"
)

func TestCatalogue(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "catalogue")
}

// bin is the ply command the examples run, built once for the suite.
var bin string

var _ = BeforeSuite(func() {
	// ply runs kubectl-ply, built beside it, for apply and diff.
	var err error
	bin, _, err = harness.BuildPly(filepath.Join(GinkgoT().TempDir(), "bin"))
	Expect(err).NotTo(HaveOccurred())
})
