package e2e

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/cluster"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/visitors"
)

// ownedGate and the rule below are what a program embedding pkg/cluster registers: fields another writer owns keep
// the server's value.
var ownedGate = features.MustRegister("E2EKeepLive", "fields declared another writer's keep live's value; off: the manifest's")

func init() {
	elements.MustRegisterRule(elements.Rule{Name: "E2EKeepLive", Gate: ownedGate, Patch: elements.PatchLeavesLive,
		Visitor: func(elements.Walker) elements.Visitor { return visitors.KeepLive{} }})
}

var _ = Describe("a program's merge rule through pkg/cluster's FieldRules", func() {
	It("keeps a replica count another writer set across applies, and the manifest's with the rule's gate off", func() {
		ns := newNamespace("rules")
		replicas := openapi.FieldRule{APIVersion: "apps/v1", Kind: "Deployment", Path: "spec.replicas", Rule: openapi.RuleRef{Name: "E2EKeepLive"}}
		client := func(gates features.Gates) *cluster.Client {
			c, err := cluster.New(srv.Config, cluster.Options{Namespace: ns, Overwrite: true, Gates: gates, FieldRules: []openapi.FieldRule{replicas}})
			Expect(err).NotTo(HaveOccurred())
			return c
		}
		applyLibrary(client(features.Gates{}), "deployment.yaml")
		Expect(field(live(deployments, ns, "web"), "spec", "replicas")).To(BeEquivalentTo(2))

		// An autoscaler scales it to 5.
		update(deployments, ns, "web", func(u *unstructured.Unstructured) {
			Expect(unstructured.SetNestedField(u.Object, int64(5), "spec", "replicas")).To(Succeed())
		})
		outs := applyLibrary(client(features.Gates{}), "deployment-image.yaml")
		Expect(outs[0].Action).To(Equal(cluster.Configured))
		d := live(deployments, ns, "web")
		Expect(field(d, "spec", "replicas")).To(BeEquivalentTo(5), "the autoscaler's count stays")
		Expect(container(d)["image"]).To(Equal("nginx:1.28"), "the rest of the manifest applies")

		diffs, err := client(features.Gates{}).Diff(context.Background(), readFixture("deployment-image.yaml"))
		Expect(err).NotTo(HaveOccurred())
		Expect(diffs[0].Err).NotTo(HaveOccurred())
		Expect(diffs[0].Fields).To(BeEmpty(), "nothing left to change")

		applyLibrary(client(features.Gates{}.With(ownedGate, false)), "deployment-image.yaml")
		Expect(field(live(deployments, ns, "web"), "spec", "replicas")).To(BeEquivalentTo(2), "gate off: the manifest's count")
	})
})

// readFixture reads the objects of testdata/name.
func readFixture(name string) []cluster.Object {
	GinkgoHelper()
	objs, err := cluster.ReadObjects([]string{fixture(name)}, false, nil)
	Expect(err).NotTo(HaveOccurred())
	return objs
}
