package openapi_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
)

// Field.NotAList is what strategicpatch's look-up of the field as a list says under the reader of its document: the
// v2 loader sets it as kubectl's v2 reader answers, the v3 loader leaves it empty, and the kubectl view keeps it.
var _ = Describe("Field.NotAList", func() {
	DescribeTable("by the document's reader",
		func(load func() (*openapi.Schema, error), typeName, field, want string) {
			s, err := load()
			Expect(err).NotTo(HaveOccurred())
			for _, view := range []*openapi.Schema{s, s.Kubectl()} {
				t, ok := view.ByName(typeName)
				Expect(ok).To(BeTrue())
				Expect(t.Field(field)).NotTo(BeNil())
				Expect(t.Field(field).NotAList).To(Equal(want))
			}
		},
		Entry("v2, a primitive", openapi.DefaultV2, "io.k8s.api.apps.v1.DeploymentSpec", "minReadySeconds", "expected slice, but got primitive"),
		Entry("v2, a map", openapi.DefaultV2, "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", "annotations", "expected slice, but got map"),
		Entry("v2, a reference", openapi.DefaultV2, "io.k8s.api.apps.v1.DeploymentSpec", "template", ""),
		Entry("v2, a reference to a primitive definition", openapi.DefaultV2, "io.k8s.api.apps.v1.RollingUpdateDeployment", "maxSurge", ""),
		Entry("v2, a list", openapi.DefaultV2, "io.k8s.api.core.v1.PodSpec", "containers", ""),
		Entry("v3, a primitive", openapi.DefaultV3, "io.k8s.api.apps.v1.DeploymentSpec", "minReadySeconds", ""),
		Entry("v3, a map", openapi.DefaultV3, "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", "annotations", ""),
	)

	It("reads an inline object as kubectl's v2 reader does: a field of the same name in it, looked up in turn", func() {
		s, err := openapi.LoadV2([]byte(`{"swagger":"2.0","info":{"title":"t","version":"1"},"paths":{},"definitions":{"D":{"type":"object","properties":{
			"a":{"type":"object","properties":{"b":{"type":"string"}}},
			"b":{"type":"object","properties":{"b":{"type":"string"}}},
			"c":{"type":"object"},
			"d":{"description":"any"}}}}}`))
		Expect(err).NotTo(HaveOccurred())
		t, ok := s.ByName("D")
		Expect(ok).To(BeTrue())
		Expect(t.Field("a").NotAList).To(Equal(`unable to find api field "a" in D.a`))
		Expect(t.Field("b").NotAList).To(Equal("expected slice, but got primitive"))
		Expect(t.Field("c").NotAList).To(Equal("expected slice, but got map"))
		Expect(t.Field("d").NotAList).To(BeEmpty())
	})
})
