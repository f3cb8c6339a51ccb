package patchgen_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/value"
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

var _ = Describe("ThreeWayReused", func() {
	pod := func(image string, envs ...string) value.Value {
		env := ""
		for i, v := range envs {
			env += fmt.Sprintf(`%s{"name":"V%d","value":%q}`, map[bool]string{true: ",", false: ""}[i > 0], i, v)
		}
		return jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","spec":{"containers":[{"name":"web","image":"` + image + `","env":[` + env + `]}]}}`)
	}
	opts := patchgen.Options{TypeName: "io.k8s.api.core.v1.Pod", Overwrite: true}

	It("gives ThreeWay's patches, call after call, each released before the next", func() {
		for _, c := range [][3]value.Value{
			{pod("a", "1", "2"), pod("b", "1", "3", "4"), pod("a", "1", "2")},
			{pod("a"), pod("a", "x"), pod("c")},
			{pod("a", "1"), pod("a"), pod("a", "1", "9")},
		} {
			want, err := patchgen.ThreeWay(c[0], c[1], c[2], opts)
			Expect(err).NotTo(HaveOccurred())
			got, release, err := patchgen.ThreeWayReused(c[0], c[1], c[2], opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got.JSON())).To(Equal(string(want.JSON())))
			release()
		}
	})

	It("gives ThreeWay's error, which later calls leave as it was", func() {
		recorded, local, live := pod("a"), pod("b"), pod("c")
		conflict := patchgen.Options{TypeName: opts.TypeName, Overwrite: false}
		_, want := patchgen.ThreeWay(recorded, local, live, conflict)
		Expect(want).To(HaveOccurred(), "live changed the image local changes")
		_, release, err := patchgen.ThreeWayReused(recorded, local, live, conflict)
		Expect(err).To(MatchError(want.Error()))
		release()
		msg := err.Error()
		for range 20 {
			_, release, err := patchgen.ThreeWayReused(pod("x", "1"), pod("y", "2"), pod("x", "1"), opts)
			Expect(err).NotTo(HaveOccurred())
			release()
		}
		Expect(err.Error()).To(Equal(msg))
	})
})
