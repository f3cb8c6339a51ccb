package patchgen_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/test/jsonv"
)

var _ = Describe("type resolution", func() {
	original := jsonv.MustDecode(`{"apiVersion":"example.com/v1","kind":"Gadget","spec":{"items":[{"name":"a"},{"name":"b"}],"old":1,"keep":{"x":1,"y":2}}}`)
	modified := jsonv.MustDecode(`{"apiVersion":"example.com/v1","kind":"Gadget","spec":{"items":[{"name":"b"}],"keep":{"x":1,"y":3}}}`)
	noSchema := `{"spec":{"items":[{"name":"b"}],"keep":{"y":3},"old":null}}`

	It("diffs a kind the schema lacks without merge metadata: maps merge, lists are replaced", func() {
		p, err := patchgen.TwoWay(original, modified, patchgen.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(p.JSON())).To(Equal(noSchema))
	})

	It("does the same with no root type", func() {
		p, err := patchgen.TwoWayType(original, modified, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(p.JSON())).To(Equal(noSchema))
		p, err = patchgen.ThreeWayType(original, modified, original, nil, true)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(p.JSON())).To(Equal(noSchema))
	})

	It("uses the named definition", func() {
		o := jsonv.MustDecode(`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`)
		m := jsonv.MustDecode(`{"spec":{"containers":[{"name":"b"}]}}`)
		p, err := patchgen.TwoWay(o, m, patchgen.Options{TypeName: "io.k8s.api.core.v1.Pod"})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(p.JSON())).To(Equal(`{"spec":{"$setElementOrder/containers":[{"name":"b"}],"containers":[{"$patch":"delete","name":"a"}]}}`))
	})

	It("rejects a definition name the schema lacks", func() {
		_, err := patchgen.ThreeWay(original, modified, original, patchgen.Options{TypeName: "no.such.Type"})
		Expect(err).To(MatchError(ContainSubstring("the schema has no definition named no.such.Type")))
	})
})
