package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/klog/v2"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/pkg/cluster"
)

var _ = Describe("kubectl apply's flags", func() {
	DescribeTable("--dry-run as kubectl reads it: bare, a mode, or a deprecated boolean",
		func(want cluster.DryRun, warning string, args ...string) {
			got := captureOptions()
			r := runApply(append([]string{"-f", "testdata/cm.yaml"}, args...)...)
			Expect(r.code).To(Equal(command.ExitFailed), "%s", r.stderr)
			Expect(got.DryRun).To(Equal(want))
			Expect(r.stderr).To(Equal(warning + "error: no cluster in unit tests\n"))
		},
		Entry("bare, before another flag", cluster.DryRunClient,
			"Warning: --dry-run is deprecated and can be replaced with --dry-run=client.\n", "--dry-run", "--workers=2"),
		Entry("client", cluster.DryRunClient, "", "--dry-run=client"),
		Entry("server", cluster.DryRunServer, "", "--dry-run=server"),
		Entry("true", cluster.DryRunClient,
			"Warning: --dry-run=true is deprecated (boolean value) and can be replaced with --dry-run=client.\n", "--dry-run=true"),
		Entry("false", cluster.DryRunNone,
			"Warning: --dry-run=false is deprecated (boolean value) and can be replaced with --dry-run=none.\n", "--dry-run=false"),
	)

	It("a bare --dry-run does not take the next argument as its value", func() {
		got := captureOptions()
		r := runApply("--dry-run", "-f", "testdata/cm.yaml")
		Expect(r.code).To(Equal(command.ExitFailed), "%s", r.stderr)
		Expect(got.DryRun).To(Equal(cluster.DryRunClient))
	})

	It("passes --grace-period to the deletions; none by default", func() {
		got := captureOptions()
		runApply("-f", "testdata/cm.yaml")
		Expect(got.GracePeriod).To(BeNil())
		runApply("-f", "testdata/cm.yaml", "--grace-period=0")
		Expect(got.GracePeriod).To(HaveValue(BeEquivalentTo(0)))
		runApply("-f", "testdata/cm.yaml", "--grace-period", "30")
		Expect(got.GracePeriod).To(HaveValue(BeEquivalentTo(30)))
	})

	It("takes --timeout without --wait, as kubectl, bounding the deletes of re-creations", func() {
		got := captureOptions()
		r := runApply("-f", "testdata/cm.yaml", "--timeout=45s", "--force")
		Expect(r.stderr).To(Equal("error: no cluster in unit tests\n"))
		Expect(got.DeleteTimeout).To(Equal(45 * time.Second))
		runApply("-f", "testdata/cm.yaml")
		Expect(got.DeleteTimeout).To(BeZero(), "kubectl's default: no bound of its own")
	})

	It("accepts --cache-dir, as kubectl does", func() {
		captureOptions()
		for _, run := range []func(...string) result{runApply, runDiff} {
			r := run("-f", "testdata/cm.yaml", "--cache-dir", "/nonexistent/cache")
			Expect(r.stderr).To(Equal("error: no cluster in unit tests\n"))
		}
	})

	It("refuses a negative -v", func() {
		r := runApply("-f", "testdata/cm.yaml", "-v=-1")
		Expect(r.code).To(Equal(command.ExitUsage))
		Expect(r.stderr).To(HavePrefix("error: -v must not be negative, not -1\n"))
	})
})

var _ = Describe("-v", func() {
	It("prints client-go's request lines up to the level, never a body", func() {
		var buf bytes.Buffer
		routeKlog(&warningWriter{w: &buf})
		setVerbosity(8)
		DeferCleanup(func() { setVerbosity(0); klog.ClearLogger() })
		logger := klog.Background()
		logger.V(6).Info("Request", "verb", "GET", "url", "https://127.0.0.1/api/v1/namespaces/default/secrets/token")
		logger.V(8).Info("Response Body", "body", `{"kind":"Secret","data":{"token":"czNjcjN0"}}`)
		logger.V(9).Info("curl")
		klog.Flush()
		Expect(buf.String()).To(Equal("I6] Request (verb=GET, url=https://127.0.0.1/api/v1/namespaces/default/secrets/token)\n" +
			"I8] Response Body (body=" + omittedBody + ")\n"))
		Expect(buf.String()).NotTo(ContainSubstring("czNjcjN0"))
	})

	It("sets klog's own verbosity, which client-go reads to log requests at all", func() {
		setVerbosity(6)
		DeferCleanup(setVerbosity, 0)
		Expect(klog.V(6).Enabled()).To(BeTrue())
		Expect(bool(klog.V(7).Enabled())).To(BeFalse())
	})

	It("prints nothing verbose at the default level", func() {
		var buf bytes.Buffer
		routeKlog(&warningWriter{w: &buf})
		DeferCleanup(klog.ClearLogger)
		klog.Background().V(1).Info("Request")
		Expect(strings.TrimSpace(buf.String())).To(BeEmpty())
	})
})

var _ = Describe("a -f folder without manifests", func() {
	It("is kubectl's error: diff exits 2, apply 1; a folder with one (-R: in a sub-folder) is read", func() {
		captureOptions()
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a manifest"), 0o644)).To(Succeed())
		Expect(os.Mkdir(filepath.Join(dir, "sub"), 0o755)).To(Succeed())
		want := "error: error reading [" + dir + "]: recognized file extensions are [.json .yaml .yml]\n"
		r := runDiff("-f", dir)
		Expect(r.code).To(Equal(command.DiffError))
		Expect(r.stderr).To(Equal(want))
		r = runApply("-f", dir)
		Expect(r.code).To(Equal(command.ExitFailed))
		Expect(r.stderr).To(Equal(want))

		Expect(os.WriteFile(filepath.Join(dir, "sub", "empty.yaml"), nil, 0o644)).To(Succeed())
		Expect(runDiff("-f", dir).stderr).To(Equal(want), "without -R the sub-folder is not read")
		Expect(runDiff("-R", "-f", dir).stderr).To(Equal("error: no cluster in unit tests\n"), "read, then on to the cluster")
	})
})
