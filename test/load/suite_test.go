package load_test

import (
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/dynamic"

	"github.com/plyproject/ply/test/harness"
)

func TestLoad(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Load Suite")
}

// env is what BeforeSuite sets up.
var env struct {
	srv *harness.Server
	ply string
	dyn dynamic.Interface
	dir string
}

var _ = BeforeSuite(func() {
	Expect(harness.Prepare()).To(Succeed(), "prerequisites of the API server (see docs/cluster.md)")
	var err error
	env.dir, err = os.MkdirTemp("", "ply-load-")
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(os.RemoveAll, env.dir)

	// $PLY_BIN names a ply binary built beforehand; else it is built.
	if env.ply = os.Getenv("PLY_BIN"); env.ply == "" {
		env.ply, _, err = harness.BuildPly(filepath.Join(env.dir, "bin"))
		Expect(err).NotTo(HaveOccurred())
	}
	env.srv, err = harness.Start(harness.Options{Name: "load", Log: GinkgoWriter})
	Expect(err).NotTo(HaveOccurred())
	env.dyn, err = dynamic.NewForConfig(env.srv.Config)
	Expect(err).NotTo(HaveOccurred())
})

var _ = AfterSuite(func() {
	Expect(harness.StopAll()).To(Succeed())
})
