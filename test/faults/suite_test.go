package faults

import (
	"os"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/test/harness"
)

func TestFaults(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "faults")
}

var (
	// srv is the API server every spec uses; the specs restart its
	// processes, so they run one at a time (the suite is not parallel).
	srv *harness.Server
	// binDir holds the built ply and kubectl-ply; plyBin is ply.
	binDir, plyBin string
)

var _ = BeforeSuite(func() {
	var err error
	binDir, err = os.MkdirTemp("", "ply-faults-bin-")
	Expect(err).NotTo(HaveOccurred())
	plyBin, _, err = harness.BuildPly(binDir)
	Expect(err).NotTo(HaveOccurred())
	srv, err = harness.Start(harness.Options{Name: "faults", Log: GinkgoWriter})
	Expect(err).NotTo(HaveOccurred())
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
