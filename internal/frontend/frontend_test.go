package frontend_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/frontend"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

func obj(yaml string, s elements.Source) frontend.Object {
	GinkgoHelper()
	v, err := parse.Document([]byte(yaml))
	Expect(err).NotTo(HaveOccurred())
	return frontend.Object{Value: v, Source: s}
}

var _ = Describe("RootType", func() {
	deployment := `{apiVersion: apps/v1, kind: Deployment}`
	var def *openapi.Schema
	BeforeEach(func() {
		var err error
		def, err = openapi.Default()
		Expect(err).NotTo(HaveOccurred())
	})

	It("resolves the first object's kind in the default schema, or in its kubectl view with MultiFieldMergeKeys off", func() {
		want, _ := def.ForKind("apps/v1", "Deployment")
		t, err := frontend.RootType(nil, "", features.Gates{}, obj(deployment, elements.Local))
		Expect(err).NotTo(HaveOccurred())
		Expect(t).To(BeIdenticalTo(want))
		for _, g := range []features.Gates{features.Gates{}.With(features.MultiFieldMergeKeys, false), features.Kubectl()} {
			t, err = frontend.RootType(nil, "", g, obj(deployment, elements.Local))
			Expect(err).NotTo(HaveOccurred())
			Expect(t).To(BeIdenticalTo(want.Kubectl()))
		}
		t, err = frontend.RootType(def, "io.k8s.api.apps.v1.Deployment", features.Kubectl(), obj(`{}`, elements.Local))
		Expect(err).NotTo(HaveOccurred())
		Expect(t).To(BeIdenticalTo(want.Kubectl()), "a named type is looked up in the view too")
		t, err = frontend.RootType(def, "", features.Gates{}.With(features.SeedOrdering, false), obj(deployment, elements.Local))
		Expect(err).NotTo(HaveOccurred())
		Expect(t).To(BeIdenticalTo(want), "other gates leave the schema alone")
	})

	It("gives Unknown for a kind the schema does not know", func() {
		t, err := frontend.RootType(def, "", features.Gates{}, obj(`{apiVersion: example.com/v1, kind: Gadget}`, elements.Local))
		Expect(err).NotTo(HaveOccurred())
		Expect(t).To(BeIdenticalTo(openapi.Unknown))
	})

	DescribeTable("blames the first object without a usable apiVersion or kind",
		func(first, other string, source elements.Source, path, msg string) {
			others := []frontend.Object{{Value: value.Null, Source: elements.Recorded}, obj(other, elements.Live)}
			_, err := frontend.RootType(def, "", features.Gates{}, obj(first, elements.Local), others...)
			var ee *elements.Error
			Expect(errors.As(err, &ee)).To(BeTrue(), "%v", err)
			Expect(ee.Source).To(Equal(source))
			Expect(ee.Path.String()).To(Equal(path))
			Expect(ee.Msg).To(Equal(msg))
		},
		Entry("first without kind", `{apiVersion: v1}`, deployment, elements.Local, "kind",
			"missing: the object needs apiVersion and kind to find its schema (or name the type explicitly)"),
		Entry("first without either: apiVersion first", `{}`, deployment, elements.Local, "apiVersion",
			"missing: the object needs apiVersion and kind to find its schema (or name the type explicitly)"),
		Entry("another without apiVersion", deployment, `{kind: Deployment}`, elements.Live, "apiVersion",
			"missing: the object needs apiVersion and kind to find its schema (or name the type explicitly)"),
		Entry("an empty kind", deployment, `{apiVersion: apps/v1, kind: ""}`, elements.Live, "kind",
			"empty: the object needs apiVersion and kind to find its schema (or name the type explicitly)"),
		Entry("a kind that is not a string", `{apiVersion: v1, kind: 3}`, deployment, elements.Local, "kind", "expected a string, got integer"),
		Entry("another that is not an object", deployment, `[1]`, elements.Live, ".", "the top level must be an object, got array"),
	)

	It("checks nothing when the type is named, and skips objects that do not exist", func() {
		_, err := frontend.RootType(def, "io.k8s.api.core.v1.ConfigMap", features.Gates{}, obj(`{}`, elements.Local), obj(`{a: 1}`, elements.Live))
		Expect(err).NotTo(HaveOccurred())
		_, err = frontend.RootType(def, "", features.Gates{}, obj(deployment, elements.Local),
			frontend.Object{Value: value.Null, Source: elements.Recorded}, frontend.Object{Source: elements.Live})
		Expect(err).NotTo(HaveOccurred())
		_, err = frontend.RootType(def, "io.example.Nope", features.Gates{}, obj(deployment, elements.Local))
		Expect(err).To(MatchError(ContainSubstring("the schema has no definition named io.example.Nope")))
	})
})
