package catalogue_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"
)

func TestCatalogue(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "catalogue")
}

// bin is the ply command the examples run, built once for the suite.
var bin string

var _ = BeforeSuite(func() {
	var err error
	bin, err = gexec.Build("github.com/plyproject/ply/cmd/ply")
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(gexec.CleanupBuildArtifacts)
})
