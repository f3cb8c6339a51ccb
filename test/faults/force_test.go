package faults

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/plyproject/ply/test/harness"
)

// immutable writes a manifest of one immutable ConfigMap "frozen" with data {k: v} and returns its path.
func immutable(v string) string {
	file := filepath.Join(GinkgoT().TempDir(), "frozen.yaml")
	doc := fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: frozen\nimmutable: true\ndata:\n  k: %q\n", v)
	Expect(os.WriteFile(file, []byte(doc), 0o644)).To(Succeed())
	return file
}

// firstReal returns a plan that gives fault to the first request of method on ConfigMaps of ns that is not a dry run
// (a re-creation's delete, or its create after the dry run that validated it), and forwards every other request.
func firstReal(ns, method string, fault harness.Fault) *harness.FaultPlan {
	done := false
	return &harness.FaultPlan{Choose: func(r *http.Request) harness.Fault {
		if done || r.Method != method || r.URL.Query().Has("dryRun") || !strings.HasPrefix(r.URL.Path, "/api/v1/namespaces/"+ns+"/configmaps") {
			return harness.NoFault
		}
		done = true
		return fault
	}}
}

var _ = Describe("ply apply --force when the server's answer is lost", func() {
	DescribeTable("re-creates the object once, reports it recreated and keeps nothing half done",
		func(fault harness.Fault, method string) {
			ns, err := srv.CreateNamespace(context.Background(), "force-")
			Expect(err).NotTo(HaveOccurred())
			res := plyApply(srv.Kubeconfig, ns, immutable("1"))
			Expect(res.ExitCode).To(Equal(0), "%s", res)
			cms := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
			before, err := srv.Dynamic().Resource(cms).Namespace(ns).Get(context.Background(), "frozen", metav1.GetOptions{})
			Expect(err).NotTo(HaveOccurred())

			p := startProxy()
			p.InjectFaults(firstReal(ns, method, fault))
			res = plyApply(p.Kubeconfig, ns, immutable("2"), "--force")
			Expect(res.ExitCode).To(Equal(0), "%s", res)
			Expect(res.Stdout).To(Equal("configmap/frozen recreated\n"))
			n, _ := faultCounts(p.Exchanges())
			Expect(n).To(Equal(1), "the fault was injected")

			after, err := srv.Dynamic().Resource(cms).Namespace(ns).Get(context.Background(), "frozen", metav1.GetOptions{})
			Expect(err).NotTo(HaveOccurred())
			Expect(after.GetUID()).NotTo(Equal(before.GetUID()), "a new object")
			Expect(after.Object["data"]).To(Equal(map[string]any{"k": "2"}))
		},
		Entry("a 503 after the delete", harness.UnavailableAfter, http.MethodDelete),
		Entry("a reset after the delete", harness.ResetAfter, http.MethodDelete),
		Entry("a 503 after the create", harness.UnavailableAfter, http.MethodPost),
		Entry("an answer cut short after the create", harness.TruncateAfter, http.MethodPost),
		Entry("a 503 before the create", harness.UnavailableBefore, http.MethodPost),
	)
})
