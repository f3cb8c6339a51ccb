package parity_test

import (
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/dynamic"

	"github.com/plyproject/ply/test/harness"
)

func TestParity(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Parity Suite")
}

// env is what BeforeSuite sets up: one API server, the two tools and
// clients for the writes made between steps.
var env struct {
	srv     *harness.Server
	kubectl string
	ply     string
	dyn     dynamic.Interface
}

var _ = BeforeSuite(func() {
	Expect(harness.Prepare()).To(Succeed(), "prerequisites of the API server (see docs/cluster.md)")
	dir, err := os.MkdirTemp("", "ply-parity-")
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(os.RemoveAll, dir)

	env.kubectl, err = harness.Kubectl()
	Expect(err).NotTo(HaveOccurred(), "kubectl 1.32 is required")
	// $PLY_BIN names a ply binary built beforehand; else it is built.
	if env.ply = os.Getenv("PLY_BIN"); env.ply == "" {
		env.ply, _, err = harness.BuildPly(filepath.Join(dir, "bin"))
		Expect(err).NotTo(HaveOccurred())
	}

	env.srv, err = harness.Start(harness.Options{Name: "parity", Log: GinkgoWriter})
	Expect(err).NotTo(HaveOccurred())
	// $PLY_TEST_APISERVER=ply runs the suite on the kube-apiserver built on ply.
	AddReportEntry("kube-apiserver", string(env.srv.APIServer))

	env.dyn, err = dynamic.NewForConfig(env.srv.Config)
	Expect(err).NotTo(HaveOccurred())

	installCRD(filepath.Join("testdata", "crd.yaml"))
})

var _ = AfterSuite(func() {
	Expect(harness.StopAll()).To(Succeed())
})
