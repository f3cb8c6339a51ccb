package openapi_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/openapi/internal/reduce"
)

var _ = Describe("DefaultV2", func() {
	var s *openapi.Schema
	BeforeEach(func() {
		var err error
		s, err = openapi.DefaultV2()
		Expect(err).NotTo(HaveOccurred())
	})

	It("returns one shared schema, also to concurrent callers", func() {
		var wg sync.WaitGroup
		got := make([]*openapi.Schema, 8)
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i], _ = openapi.DefaultV2()
			}()
		}
		wg.Wait()
		for _, g := range got {
			Expect(g).To(BeIdenticalTo(s))
		}
	})

	DescribeTable("resolves root types by apiVersion and kind",
		func(apiVersion, kind, definition string) {
			t, ok := s.ForKind(apiVersion, kind)
			Expect(ok).To(BeTrue())
			Expect(t).To(BeIdenticalTo(byName(s, definition)))
			Expect(t.Name).To(Equal(definition))
			Expect(t.Kind).To(Equal(openapi.KindStruct))
			Expect(t.FieldNames).To(ContainElements("apiVersion", "kind"))
		},
		Entry("Deployment", "apps/v1", "Deployment", "io.k8s.api.apps.v1.Deployment"),
		Entry("Pod", "v1", "Pod", "io.k8s.api.core.v1.Pod"),
		Entry("Service", "v1", "Service", "io.k8s.api.core.v1.Service"),
		Entry("ConfigMap", "v1", "ConfigMap", "io.k8s.api.core.v1.ConfigMap"),
		Entry("Job", "batch/v1", "Job", "io.k8s.api.batch.v1.Job"),
		Entry("CustomResourceDefinition", "apiextensions.k8s.io/v1", "CustomResourceDefinition",
			"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition"),
		Entry("a definition with many GVKs (DeleteOptions in apps/v1)", "apps/v1", "DeleteOptions",
			"io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"),
	)

	DescribeTable("does not resolve kinds it does not know",
		func(apiVersion, kind string) { expectUnresolved(s, apiVersion, kind) },
		Entry("wrong group", "extensions/v1", "Deployment"),
		Entry("unknown kind", "v1", "Deployment"),
		Entry("empty", "", ""),
	)

	DescribeTable("reads the merge metadata of fields",
		func(apiVersion, kind, path string, strategy openapi.Strategy, key []string) {
			expectMeta(s, apiVersion, kind, path, strategy, key)
		},
		Entry("Deployment containers", "apps/v1", "Deployment", "spec.template.spec.containers",
			openapi.StrategyMerge, []string{"name"}),
		Entry("Deployment container ports (v2 declares containerPort only)", "apps/v1", "Deployment",
			"spec.template.spec.containers[].ports", openapi.StrategyMerge, []string{"containerPort"}),
		Entry("Deployment strategy", "apps/v1", "Deployment", "spec.strategy", openapi.StrategyRetainKeys, nil),
		Entry("Pod volumes", "v1", "Pod", "spec.volumes", openapi.StrategyMerge|openapi.StrategyRetainKeys, []string{"name"}),
		Entry("metadata finalizers", "apps/v1", "Deployment", "metadata.finalizers", openapi.StrategyMerge, nil),
		Entry("Pod container env", "v1", "Pod", "spec.containers[].env", openapi.StrategyMerge, []string{"name"}),
		Entry("Service ports", "v1", "Service", "spec.ports", openapi.StrategyMerge, []string{"port"}),
		Entry("Job template containers", "batch/v1", "Job", "spec.template.spec.containers", openapi.StrategyMerge, []string{"name"}),
		Entry("a field without metadata", "v1", "ConfigMap", "data", openapi.Strategy(0), nil),
		Entry("Pod container args (atomic list)", "v1", "Pod", "spec.containers[].args", openapi.Strategy(0), nil),
	)

	DescribeTable("gives fields their shapes",
		func(apiVersion, kind, path string, want openapi.Kind, primitive string) {
			root, ok := s.ForKind(apiVersion, kind)
			Expect(ok).To(BeTrue())
			_, t := at(root, path)
			Expect(t.Kind).To(Equal(want), "kind of %s is %s", path, t.Kind)
			Expect(t.Primitive).To(Equal(primitive))
		},
		Entry("ConfigMap data is a map", "v1", "ConfigMap", "data", openapi.KindMap, ""),
		Entry("replicas is an integer", "apps/v1", "Deployment", "spec.replicas", openapi.KindPrimitive, "integer"),
		Entry("image is a string", "v1", "Pod", "spec.containers[].image", openapi.KindPrimitive, "string"),
		Entry("IntOrString allows either", "v1", "Service", "spec.ports[].targetPort", openapi.KindPrimitive, ""),
		Entry("Quantity is declared a string", "v1", "Pod", "spec.containers[].resources.limits", openapi.KindMap, ""),
		Entry("managedFields' fieldsV1 is free-form", "v1", "Pod", "metadata.managedFields[].fieldsV1", openapi.KindUnknown, ""),
		Entry("a list of structs", "v1", "Pod", "spec.containers", openapi.KindList, ""),
		Entry("a struct", "batch/v1", "Job", "spec.template", openapi.KindStruct, ""),
	)

	It("makes map values and list items shared definition types", func() {
		pod, _ := s.ForKind("v1", "Pod")
		_, limits := at(pod, "spec.containers[].resources.limits")
		Expect(limits.Elem).To(BeIdenticalTo(byName(s, "io.k8s.apimachinery.pkg.api.resource.Quantity")))
		Expect(limits.Elem.Primitive).To(Equal("string"))
		f, _ := at(pod, "spec.containers")
		Expect(f.Type.Elem).To(BeIdenticalTo(byName(s, "io.k8s.api.core.v1.Container")))
	})

	It("resolves the JSONSchemaProps $ref cycle to one pointer", func() {
		props := byName(s, "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps")
		Expect(props.Field("properties").Type.Kind).To(Equal(openapi.KindMap))
		Expect(props.Field("properties").Type.Elem).To(BeIdenticalTo(props))
		Expect(props.Field("not").Type).To(BeIdenticalTo(props))
		Expect(props.Field("allOf").Type.Elem).To(BeIdenticalTo(props))
	})

	It("keeps every struct's FieldNames sorted and equal to its Fields", func() {
		t := byName(s, "io.k8s.api.core.v1.PodSpec")
		Expect(t.FieldNames).NotTo(BeEmpty())
		Expect(len(t.FieldNames)).To(Equal(len(t.Fields)))
		for i := 1; i < len(t.FieldNames); i++ {
			Expect(t.FieldNames[i-1] < t.FieldNames[i]).To(BeTrue(), "%q before %q", t.FieldNames[i-1], t.FieldNames[i])
		}
		for _, n := range t.FieldNames {
			Expect(t.Fields[n].Name).To(Equal(n))
			Expect(t.Fields[n].Type).NotTo(BeNil())
		}
	})

	It("is what `go generate ./openapi/` writes from the published swagger.json", func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		src, err := reduce.Locate(ctx, openapi.DefaultKubernetesVersion)
		if err != nil {
			Fail("cannot reach the published swagger.json of Kubernetes " + openapi.DefaultKubernetesVersion +
				" to check openapi/default/swagger.json against it (populate the module cache with " +
				"`GONOSUMDB=k8s.io/kubernetes go mod download k8s.io/kubernetes@" + openapi.DefaultKubernetesVersion + "`): " + err.Error())
		}
		original, err := os.ReadFile(src)
		Expect(err).NotTo(HaveOccurred())
		reduced, err := reduce.Reduce(original)
		Expect(err).NotTo(HaveOccurred())
		want, got := sha256.Sum256(reduced), sha256.Sum256(openapi.EmbeddedDefault)
		Expect(hex.EncodeToString(got[:])).To(Equal(hex.EncodeToString(want[:])),
			"openapi/default/swagger.json (%d bytes) differs from the reduction of %s (%d bytes); run `go generate ./openapi/`",
			len(openapi.EmbeddedDefault), src, len(reduced))
	})
})
