package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/test/harness"
)

func TestE2E(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "e2e")
}

var (
	// srv is the API server every spec uses.
	srv *harness.Server
	// binDir holds the built ply and kubectl-ply.
	binDir string
	// plyBin, kubectlPlyBin and kubectlBin are the binaries the specs run.
	plyBin, kubectlPlyBin, kubectlBin string
)

var _ = BeforeSuite(func() {
	var err error
	binDir, err = os.MkdirTemp("", "ply-e2e-bin-")
	Expect(err).NotTo(HaveOccurred())
	plyBin, kubectlPlyBin, err = harness.BuildPly(binDir)
	Expect(err).NotTo(HaveOccurred())
	Expect(filepath.Dir(kubectlPlyBin)).To(Equal(binDir))
	kubectlBin, err = harness.Kubectl()
	Expect(err).NotTo(HaveOccurred())
	srv, err = harness.Start(harness.Options{Name: "e2e", Log: GinkgoWriter})
	Expect(err).NotTo(HaveOccurred())
	// $PLY_TEST_APISERVER=ply runs the suite on the kube-apiserver built on ply.
	AddReportEntry("kube-apiserver", string(srv.APIServer))
	SetDefaultEventuallyTimeout(30 * time.Second)
})

var _ = AfterEach(func() {
	if CurrentSpecReport().Failed() && srv != nil {
		AddReportEntry("kube-apiserver log (last lines)", srv.APIServerLogTail(30))
	}
})

var _ = AfterSuite(func() {
	Expect(harness.StopAll()).To(Succeed())
	if binDir != "" {
		Expect(os.RemoveAll(binDir)).To(Succeed())
	}
})
