package main

import (
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/test/harness"
)

func TestPly(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "ply")
}

// plyBin and kubectlPlyBin are the two binaries, built side by side; the
// folder of kubectl-ply leads PATH, where run (in process) finds it.
var plyBin, kubectlPlyBin string

var _ = BeforeSuite(func() {
	var err error
	plyBin, kubectlPlyBin, err = harness.BuildPly(filepath.Join(GinkgoT().TempDir(), "bin"))
	Expect(err).NotTo(HaveOccurred())
	path := os.Getenv("PATH")
	os.Setenv("PATH", filepath.Dir(kubectlPlyBin)+string(os.PathListSeparator)+path)
	DeferCleanup(os.Setenv, "PATH", path)
})
