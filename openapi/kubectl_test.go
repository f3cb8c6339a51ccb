package openapi_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
)

// sameMeta walks the types a and b in parallel from their roots and
// returns, for every field reachable in both, the fields whose merge
// metadata differ ("path: a vs b"). Types already compared are not
// walked again, so cycles end.
func sameMeta(a, b *openapi.Type) []string {
	var diffs []string
	type pair struct{ a, b *openapi.Type }
	seen := map[pair]bool{}
	var walk func(a, b *openapi.Type, path string)
	walk = func(a, b *openapi.Type, path string) {
		if a == nil || b == nil || seen[pair{a, b}] {
			return
		}
		seen[pair{a, b}] = true
		walk(a.Elem, b.Elem, path+"[]")
		for _, name := range a.FieldNames {
			fa, fb := a.Field(name), b.Field(name)
			if fb == nil {
				continue
			}
			if fa.Meta.Strategy != fb.Meta.Strategy || !slices.Equal(fa.Meta.MergeKey, fb.Meta.MergeKey) {
				diffs = append(diffs, fmt.Sprintf("%s.%s: %s %q vs %s %q", path, name,
					fa.Meta.Strategy, fa.Meta.MergeKey, fb.Meta.Strategy, fb.Meta.MergeKey))
			}
			walk(fa.Type, fb.Type, path+"."+name)
		}
	}
	walk(a, b, "")
	return diffs
}

var _ = Describe("the kubectl view of a schema", func() {
	var v3, v2 *openapi.Schema
	BeforeEach(func() {
		var err error
		v3, err = openapi.DefaultV3()
		Expect(err).NotTo(HaveOccurred())
		v2, err = openapi.DefaultV2()
		Expect(err).NotTo(HaveOccurred())
	})

	It("keys container ports by containerPort alone, with no default for protocol", func() {
		d, ok := v3.Kubectl().ForKind("apps/v1", "Deployment")
		Expect(ok).To(BeTrue())
		f, item := at(d, "spec.template.spec.containers[].ports[]")
		Expect(f.Meta).To(Equal(openapi.Meta{Strategy: openapi.StrategyMerge, MergeKey: []string{"containerPort"}}))
		_, ok = item.KeyDefault("protocol")
		Expect(ok).To(BeFalse(), "no schema default fills a merge-key field")
		_, ok = item.FieldDefault("protocol")
		Expect(ok).To(BeTrue(), "the default itself is still declared")

		// The schema it is a view of is unchanged.
		d, _ = v3.ForKind("apps/v1", "Deployment")
		f, item = at(d, "spec.template.spec.containers[].ports[]")
		Expect(f.Meta.MergeKey).To(Equal([]string{"containerPort", "protocol"}))
		_, ok = item.KeyDefault("protocol")
		Expect(ok).To(BeTrue())
	})

	DescribeTable("reads only the patch extensions of the v3 documents",
		func(apiVersion, kind, path string, strategy openapi.Strategy, key []string) {
			expectMeta(v3.Kubectl(), apiVersion, kind, path, strategy, key)
		},
		Entry("Service ports by port alone", "v1", "Service", "spec.ports", openapi.StrategyMerge, []string{"port"}),
		Entry("Pod volumes keep retainKeys", "v1", "Pod", "spec.volumes", openapi.StrategyMerge|openapi.StrategyRetainKeys, []string{"name"}),
		Entry("atomic container args: no patch strategy", "v1", "Pod", "spec.containers[].args", openapi.Strategy(0), nil),
		Entry("finalizers merge (patch strategy merge)", "apps/v1", "Deployment", "metadata.finalizers", openapi.StrategyMerge, nil),
		Entry("an atomic LabelSelector merges", "apps/v1", "Deployment", "spec.selector", openapi.Strategy(0), nil),
		Entry("a set list without patch strategy is replaced", "batch/v1", "Job", "spec.podFailurePolicy.rules[].onExitCodes.values", openapi.Strategy(0), nil),
		Entry("topology spread constraints by topologyKey alone", "v1", "Pod", "spec.topologySpreadConstraints", openapi.StrategyMerge, []string{"topologyKey"}),
	)

	DescribeTable("gives the v3 documents the merge metadata of the v2 document, which strategicpatch reads alike",
		func(apiVersion, kind string) {
			k, ok := v3.Kubectl().ForKind(apiVersion, kind)
			Expect(ok).To(BeTrue())
			o, ok := v2.ForKind(apiVersion, kind)
			Expect(ok).To(BeTrue())
			Expect(sameMeta(k, o)).To(BeEmpty())
			Expect(sameMeta(o, k)).To(BeEmpty())
			// Without the view the two disagree (ports, list types).
			plain, _ := v3.ForKind(apiVersion, kind)
			Expect(sameMeta(plain, o)).NotTo(BeEmpty())
		},
		Entry("Deployment", "apps/v1", "Deployment"),
		Entry("StatefulSet", "apps/v1", "StatefulSet"),
		Entry("Pod", "v1", "Pod"),
		Entry("Service", "v1", "Service"),
		Entry("CronJob", "batch/v1", "CronJob"),
		Entry("CustomResourceDefinition", "apiextensions.k8s.io/v1", "CustomResourceDefinition"),
	)

	It("takes a comma-separated merge key as one field name", func() {
		data, err := os.ReadFile(filepath.Join("..", "test", "testdata", "schema", "multikey.json"))
		Expect(err).NotTo(HaveOccurred())
		s, err := openapi.LoadV2Named("multikey.json", data)
		Expect(err).NotTo(HaveOccurred())
		f, _ := at(byName(s, "dev.ply.test.v1.Server"), "ports")
		Expect(f.Meta.MergeKey).To(Equal([]string{"port", "protocol"}))
		Expect(f.KubectlMeta.MergeKey).To(Equal([]string{"port,protocol"}))
		f, _ = at(byName(s.Kubectl(), "dev.ply.test.v1.Server"), "ports")
		Expect(f.Meta).To(Equal(openapi.Meta{Strategy: openapi.StrategyMerge, MergeKey: []string{"port,protocol"}}))
	})

	It("ignores the list and map types of a CRD", func() {
		s, err := loadCRDFile("testdata/crd/widgets.yaml")
		Expect(err).NotTo(HaveOccurred())
		w, ok := s.Kubectl().ForKind("ply.test/v1", "Widget")
		Expect(ok).To(BeTrue())
		for _, path := range []string{"spec.ports", "spec.args", "spec.tags", "spec.selector"} {
			f, _ := at(w, path)
			Expect(f.Meta).To(Equal(openapi.Meta{}), path)
		}
		_, item := at(w, "spec.ports[]")
		_, ok = item.KeyDefault("protocol")
		Expect(ok).To(BeFalse())
		// ObjectMeta's patch strategies stay.
		f, _ := at(w, "metadata.ownerReferences")
		Expect(f.Meta).To(Equal(openapi.Meta{Strategy: openapi.StrategyMerge, MergeKey: []string{"uid"}}))
	})

	It("is one view per schema, and the view of a view is itself", func() {
		k := v3.Kubectl()
		Expect(v3.Kubectl()).To(BeIdenticalTo(k))
		Expect(k.Kubectl()).To(BeIdenticalTo(k))
		Expect((*openapi.Schema)(nil).Kubectl()).To(BeNil())
		u := openapi.Union(k, v2)
		Expect(u.Kubectl()).To(BeIdenticalTo(u.Kubectl()))
	})

	It("converts each type once: lookups and Type.Kubectl give the same pointer", func() {
		d, _ := v3.ForKind("apps/v1", "Deployment")
		k, _ := v3.Kubectl().ForKind("apps/v1", "Deployment")
		Expect(d.Kubectl()).To(BeIdenticalTo(k))
		Expect(k.Kubectl()).To(BeIdenticalTo(k))
		again, _ := v3.Kubectl().ForKind("apps/v1", "Deployment")
		Expect(again).To(BeIdenticalTo(k))
		// A type shared by two kinds has one view.
		_, podSpec := at(k, "spec.template.spec")
		s, _ := v3.Kubectl().ForKind("apps/v1", "StatefulSet")
		_, other := at(s, "spec.template.spec")
		Expect(other).To(BeIdenticalTo(podSpec))
		Expect(podSpec).NotTo(BeIdenticalTo(func() *openapi.Type { _, t := at(d, "spec.template.spec"); return t }()))
		// Leaves are their own view.
		_, name := at(k, "metadata.name")
		Expect(name.Kind).To(Equal(openapi.KindPrimitive))
		Expect(name.Kubectl()).To(BeIdenticalTo(name))
		Expect(openapi.Unknown.Kubectl()).To(BeIdenticalTo(openapi.Unknown))
		Expect((*openapi.Type)(nil).Kubectl()).To(BeNil())
	})

	It("keeps $ref cycles as cycles of one pointer", func() {
		crd, ok := v3.Kubectl().ForKind("apiextensions.k8s.io/v1", "CustomResourceDefinition")
		Expect(ok).To(BeTrue())
		_, props := at(crd, "spec.versions[].schema.openAPIV3Schema")
		Expect(props.Name).To(HaveSuffix("JSONSchemaProps"))
		_, elem := at(props, "properties")
		Expect(elem.Elem).To(BeIdenticalTo(props))
		_, items := at(props, "not")
		Expect(items).To(BeIdenticalTo(props))
	})

	It("is lazy: a lookup parses only the document of its group-version", func() {
		fresh, err := openapi.NewLazyDefault()
		Expect(err).NotTo(HaveOccurred())
		k := fresh.Kubectl()
		Expect(openapi.LazyParsedFiles(fresh)).To(BeEmpty())
		_, ok := k.ForKind("apps/v1", "Deployment")
		Expect(ok).To(BeTrue())
		Expect(openapi.LazyParsedFiles(fresh)).To(Equal([]string{"apis__apps__v1_openapi.json"}))
		_, ok = k.ForKind("example.com/v1", "Widget")
		Expect(ok).To(BeFalse())
		_, ok = k.ByName("io.example.Missing")
		Expect(ok).To(BeFalse())
	})

	It("is safe for concurrent use: every goroutine gets the same views", func() {
		fresh, err := openapi.NewLazyDefault()
		Expect(err).NotTo(HaveOccurred())
		kinds := [][2]string{{"apps/v1", "Deployment"}, {"apps/v1", "StatefulSet"}, {"v1", "Pod"}, {"batch/v1", "CronJob"}}
		const workers = 8
		got := make([][]*openapi.Type, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				for i := range kinds {
					g := kinds[(i+w)%len(kinds)]
					t, ok := fresh.Kubectl().ForKind(g[0], g[1])
					Expect(ok).To(BeTrue())
					_, spec := at(t, "spec")
					got[w] = append(got[w], spec.Kubectl())
				}
			}()
		}
		wg.Wait()
		for w := 1; w < workers; w++ {
			Expect(got[w]).To(ConsistOf(got[0][0], got[0][1], got[0][2], got[0][3]))
		}
	})
})
