package harness

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// buildInfo is `go version -m bin`: the module lines the go command stamped into the binary.
func buildInfo(bin string) string {
	out, err := exec.Command("go", "version", "-m", bin).CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), string(out))
	return string(out)
}

var _ = Describe("APIServerFromEnv", func() {
	DescribeTable("reads PLY_TEST_APISERVER",
		func(value string, want APIServer, wantErr bool) {
			GinkgoT().Setenv(APIServerEnv, value)
			got, err := APIServerFromEnv()
			if wantErr {
				Expect(err).To(MatchError(ContainSubstring(`want "stock" or "ply"`)))
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		},
		Entry("unset is stock", "", StockAPIServer, false),
		Entry("stock", "stock", StockAPIServer, false),
		Entry("ply", "ply", PlyAPIServer, false),
		Entry("anything else is an error", "plyy", APIServer(""), true),
	)
})

var _ = Describe("PlySourceHash", func() {
	It("reads the packages pkg/strategicpatch is built of, the copy's writer and the modules' requirements", func() {
		root, err := ModuleRoot()
		Expect(err).NotTo(HaveOccurred())
		files, err := plySourceFiles(root)
		Expect(err).NotTo(HaveOccurred())
		for _, want := range []string{
			"pkg/strategicpatch/api.go", "pkg/strategicpatch/engine/engine.go", "pkg/patch/apply.go",
			"test/internal/patchedmachinery/write.go", "go.sum", "test/harness/kube-apiserver/go.mod",
		} {
			Expect(files).To(ContainElement(filepath.Join(root, want)))
		}
		Expect(files).NotTo(ContainElement(filepath.Join(root, "cmd/ply/main.go")))
		Expect(files).NotTo(ContainElement(filepath.Join(root, "pkg/strategicpatch/api_test.go")))
		bin, err := APIServerBinaryFor(PlyAPIServer)
		Expect(err).NotTo(HaveOccurred())
		hash, err := PlySourceHash(root)
		Expect(err).NotTo(HaveOccurred())
		Expect(filepath.Base(bin)).To(Equal("kube-apiserver-" + KubernetesVersion + "-ply-" + hash))
	})
})

var _ = Describe("the kube-apiserver built on ply", Ordered, func() {
	var stock, onPly *Server
	ctx := context.Background()

	BeforeAll(func() {
		var err error
		stock, err = Start(Options{Name: "stock", APIServer: StockAPIServer, Log: GinkgoWriter})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(stock.Stop)
		onPly, err = Start(Options{Name: "onply", APIServer: PlyAPIServer, Log: GinkgoWriter})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(onPly.Stop)
		Expect(onPly.APIServer).To(Equal(PlyAPIServer))
		Expect(stock.APIServer).To(Equal(StockAPIServer))
	})

	It("is the stock build with apimachinery replaced by the patched copy and ply linked in", func() {
		plyInfo := buildInfo(onPly.apiBin)
		Expect(plyInfo).To(MatchRegexp(`(?m)^\s+dep\s+k8s\.io/apimachinery\s+v\S+\s*\n\s+=>\s+\./apimachinery\s`))
		Expect(plyInfo).To(MatchRegexp(`(?m)^\s+dep\s+github\.com/plyproject/ply\s+v0\.0\.0\s*\n\s+=>\s+\S+`))
		Expect(plyInfo).To(MatchRegexp(`(?m)^\s+path\s+k8s\.io/kubernetes/cmd/kube-apiserver$`))
		stockInfo := buildInfo(stock.apiBin)
		Expect(stockInfo).NotTo(ContainSubstring("github.com/plyproject/ply"))
		Expect(stockInfo).To(MatchRegexp(`(?m)^\s+path\s+k8s\.io/kubernetes/cmd/kube-apiserver$`))
	})

	It("merges a strategic merge patch with ply's engine: an unknown $ key is dropped, where the stock server merges it and refuses the object", func() {
		patch := []byte(`{"data":{"$unknown":"x","a":"b"}}`)
		for _, s := range []*Server{stock, onPly} {
			ns, err := s.CreateNamespace(ctx, "smp-")
			Expect(err).NotTo(HaveOccurred())
			_, err = s.Dynamic().Resource(configMaps).Namespace(ns).Create(ctx, configMap(ns, "c", "v"), metav1.CreateOptions{})
			Expect(err).NotTo(HaveOccurred())
			got, err := s.Dynamic().Resource(configMaps).Namespace(ns).Patch(ctx, "c", types.StrategicMergePatchType, patch, metav1.PatchOptions{})
			if s == stock {
				Expect(apierrors.IsInvalid(err)).To(BeTrue(), "stock server: want 422 for data key $unknown, got %v", err)
				Expect(err.Error()).To(ContainSubstring("$unknown"))
				continue
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(got.Object["data"]).To(Equal(map[string]any{"k": "v", "a": "b"}))
		}
	})
})

var _ = Describe("prunePlyBuilds", func() {
	It("keeps the binary just built and the two newest others, and nothing else of the cache is touched", func() {
		dir := GinkgoT().TempDir()
		write := func(name string, age time.Duration) string {
			p := filepath.Join(dir, name)
			Expect(os.WriteFile(p, []byte("x"), 0o755)).To(Succeed())
			t := time.Now().Add(-age)
			Expect(os.Chtimes(p, t, t)).To(Succeed())
			return p
		}
		keep := write(plyBinaryPrefix+"new", 48*time.Hour) // the oldest, but just built for this tree
		write(plyBinaryPrefix+"a", time.Hour)
		write(plyBinaryPrefix+"b", 2*time.Hour)
		write(plyBinaryPrefix+"c", 3*time.Hour)
		write(plyBinaryPrefix+"d.building", 4*time.Hour)
		write("kube-apiserver-"+KubernetesVersion, 5*time.Hour)
		write("kube-apiserver-"+KubernetesVersion+"-ply.lock", 5*time.Hour)
		Expect(prunePlyBuilds(dir, keep)).To(Succeed())
		entries, err := os.ReadDir(dir)
		Expect(err).NotTo(HaveOccurred())
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		Expect(names).To(ConsistOf(
			plyBinaryPrefix+"new", plyBinaryPrefix+"a", plyBinaryPrefix+"b", plyBinaryPrefix+"d.building",
			"kube-apiserver-"+KubernetesVersion, "kube-apiserver-"+KubernetesVersion+"-ply.lock"))
	})
})
