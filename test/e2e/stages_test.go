package e2e

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/plyproject/ply/test/harness"
)

var (
	webhooks   = schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: "validatingwebhookconfigurations"}
	doohickeys = schema.GroupVersionResource{Group: "stages.e2e.ply.dev", Version: "v1", Resource: "doohickeys"}
)

// resourceVersion returns the resourceVersion of a live object as a
// number: the etcd revision of its last write, so that the order of the
// numbers is the order of the writes.
func resourceVersion(gvr schema.GroupVersionResource, ns, name string) int64 {
	GinkgoHelper()
	n, err := strconv.ParseInt(live(gvr, ns, name).GetResourceVersion(), 10, 64)
	Expect(err).NotTo(HaveOccurred())
	return n
}

// applyLines are the lines of out but the summary lines of --wait ("3
// objects Current when first read (configmaps: 3)").
func applyLines(out string) []string {
	GinkgoHelper()
	var lines []string
	for _, l := range outLines(out) {
		if !strings.Contains(l, " when first read (") {
			lines = append(lines, l)
		}
	}
	return lines
}

// deleteDoohickeys deletes the CRD the stage specs share and waits until
// it is gone: a spec that follows would otherwise find it terminating
// (ply reads it unchanged, and the wait then finds it gone).
func deleteDoohickeys() {
	GinkgoHelper()
	rc := srv.Dynamic().Resource(crds)
	rc.Delete(context.Background(), "doohickeys.stages.e2e.ply.dev", metav1.DeleteOptions{})
	Eventually(func() bool {
		_, err := rc.Get(context.Background(), "doohickeys.stages.e2e.ply.dev", metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	}).WithTimeout(60*time.Second).Should(BeTrue(), "the CRD is deleted")
}

var _ = Describe("apply in stages on the real server", func() {
	It("applies the CRD, then what others refer to, then workloads, and the webhook only once the workload behind its Service is Current", func() {
		ns := newNamespace("stages-")
		dir := pruneManifests("../stages/deploy", ns, "")
		hook := "doohickeys-" + ns
		DeferCleanup(func() {
			srv.Dynamic().Resource(webhooks).Delete(context.Background(), hook, metav1.DeleteOptions{})
			deleteDoohickeys()
		})
		var res harness.Result
		finished := make(chan struct{})
		go func() {
			defer GinkgoRecover()
			defer close(finished)
			res = plyNS(ns, dir, "--wait", "--timeout=90s")
		}()
		// The workloads' stage: the Deployment exists and is not Current
		// (no controller runs): the stages before it are applied, the
		// webhook is not registered.
		Eventually(func() bool { return exists(deployments, ns, "hook") }).WithTimeout(60 * time.Second).Should(BeTrue())
		Eventually(func() bool { return exists(doohickeys, ns, "first") }).Should(BeTrue(), "in the Deployment's stage")
		for _, gvr := range []schema.GroupVersionResource{
			{Version: "v1", Resource: "serviceaccounts"}, {Version: "v1", Resource: "services"},
			{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "roles"},
			{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings"},
		} {
			Expect(resourceVersion(gvr, ns, "hook")).To(BeNumerically("<", resourceVersion(deployments, ns, "hook")), gvr.Resource)
		}
		Consistently(func() bool { return exists(webhooks, "", hook) }).WithTimeout(2 * time.Second).Should(BeFalse())
		Expect(setStatus(deployments, ns, "hook", deploymentAvailable)).To(Succeed())
		Eventually(finished).WithTimeout(60 * time.Second).Should(BeClosed())
		Expect(res.ExitCode).To(Equal(0), "%s", res)
		Expect(exists(webhooks, "", hook)).To(BeTrue())
		Expect(res.Stdout).To(ContainSubstring("deployment.apps/hook Current: Deployment is available. Replicas: 1\n"))
		Expect(res.Stdout).To(ContainSubstring("validatingwebhookconfiguration.admissionregistration.k8s.io/" + hook + " created\n"))
	})

	It("stops at a stage that does not become Current: the later stages are not applied", func() {
		ns := newNamespace("stages-")
		dir := pruneManifests("../stages/deploy", ns, "")
		hook := "doohickeys-" + ns
		DeferCleanup(func() {
			srv.Dynamic().Resource(webhooks).Delete(context.Background(), hook, metav1.DeleteOptions{})
			deleteDoohickeys()
		})
		res := plyNS(ns, dir, "--wait", "--timeout=5s")
		Expect(res.ExitCode).To(Equal(1), "%s", res)
		Expect(exists(webhooks, "", hook)).To(BeFalse())
		Expect(res.Stderr).To(ContainSubstring(`error: validatingwebhookconfiguration.admissionregistration.k8s.io "` + hook +
			`" (` + filepath.Join(dir, "all.yaml") + `#1): not applied: stage 3 (wave 0, workloads) did not finish:`))
	})

	DescribeTable("writes by sync wave, then by kapp change rule, and prunes in the reverse order, in every lane and under ignore rules",
		func(verb string, args ...string) {
			ns := newNamespace("stages-")
			dir := fixture("stages/declared/waves.yaml")
			groups := fixture("stages/declared/groups.yaml")
			res := ply(append([]string{"apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", dir, "-f", groups, "--prune", "--applyset=declared"}, args...)...)
			Expect(res.ExitCode).To(Equal(0), "%s", res)
			for _, obj := range []string{"configmap/wave-2", "configmap/wave-0", "secret/wave-minus-1", "configmap/wave-1",
				"configmap/app", "configmap/migrations", "configmap/db"} {
				Expect(applyLines(res.Stdout)).To(ContainElement(obj+" "+verb), "no object skipped")
			}
			written := []int64{
				resourceVersion(secrets, ns, "wave-minus-1"),
				resourceVersion(configMaps, ns, "wave-0"),
				resourceVersion(configMaps, ns, "wave-1"),
				resourceVersion(configMaps, ns, "wave-2"),
			}
			for k := 1; k < len(written); k++ {
				Expect(written[k-1]).To(BeNumerically("<", written[k]), "wave order")
			}
			Expect(resourceVersion(configMaps, ns, "db")).To(BeNumerically("<", resourceVersion(configMaps, ns, "migrations")))
			Expect(resourceVersion(configMaps, ns, "migrations")).To(BeNumerically("<", resourceVersion(configMaps, ns, "app")))
			Expect(resourceVersion(configMaps, ns, "app")).To(BeNumerically("<", resourceVersion(configMaps, ns, "wave-1")),
				"the change rules order within wave 0")

			empty := GinkgoT().TempDir()
			Expect(os.WriteFile(filepath.Join(empty, "keep.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: keep}\n"), 0o644)).To(Succeed())
			res = plyNS(ns, empty, append([]string{"--prune", "--applyset=declared"}, args...)...)
			Expect(res.ExitCode).To(Equal(0), "%s", res)
			if slices.Contains(args, "--wait") {
				Expect(res.Stdout).To(ContainSubstring("1 object Current when first read (configmaps: 1)\n"))
				Expect(res.Stdout).To(MatchRegexp(`\n\d objects? NotFound when first read \(`), "the pruned objects waited for")
			}
			Expect(applyLines(res.Stdout)).To(Equal([]string{
				"configmap/keep " + verb,
				"configmap/wave-2 pruned",
				"configmap/wave-1 pruned",
				// wave 0: "delete before deleting migrations" puts app first.
				"configmap/app pruned",
				"configmap/db pruned",
				"configmap/wave-0 pruned",
				"configmap/migrations pruned",
				"secret/wave-minus-1 pruned",
			}))
		},
		Entry("client-side", "created"),
		Entry("server-side, waiting for each stage", "serverside-applied", "--server-side", "--wait", "--timeout=60s"),
		Entry("client-side under an ignore rule, waiting for each stage", "created",
			"--ignore-field=configmap:metadata.labels.team", "--wait", "--timeout=60s"),
		Entry("server-side under an ignore rule", "serverside-applied", "--server-side", "--ignore-manager=kube-controller-manager"),
	)

	It("refuses change rules that form a cycle, naming the groups, and writes nothing", func() {
		ns := newNamespace("stages-")
		res := ply("apply", "--kubeconfig", srv.Kubeconfig, "-n", ns, "-f", fixture("stages/declared/cycle.yaml"))
		Expect(res.ExitCode).To(Equal(1), "%s", res)
		Expect(res.Stderr).To(ContainSubstring(`the kapp change rules form a cycle among the change groups "first", "second"`))
		Expect(exists(configMaps, ns, "a")).To(BeFalse())
		Expect(exists(configMaps, ns, "b")).To(BeFalse())
	})
})
