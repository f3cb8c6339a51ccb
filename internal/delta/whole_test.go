package delta_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/value"
)

var _ = Describe("ThreeWay, a map whose patch holds every field of local's as it is", func() {
	// item returns the env item of the patch or of local at index i.
	item := func(doc value.Value, i int) value.Value {
		GinkgoHelper()
		spec, ok := at(doc, "spec.containers")
		Expect(ok).To(BeTrue())
		env, ok := spec.Items()[0].Get("env")
		Expect(ok).To(BeTrue())
		return env.Items()[i]
	}
	It("is local's map itself", func() {
		c := newCase("Pod",
			`{spec: {containers: [{name: c, env: [{name: A, value: "1"}, {name: B, value: "2"}]}]}}`,
			`{spec: {containers: [{name: c, env: [{name: A, value: "9"}, {name: B, value: "2", valueFrom: null}]}]}}`,
			`{spec: {containers: [{name: c, env: [{name: A, value: "1"}, {name: B, value: "2"}]}]}}`)
		p := threeWay(c)
		Expect(string(p.JSON())).To(ContainSubstring(`"env":[{"name":"A","value":"9"},`))
		changed, local := item(p, 0), item(c.local, 0)
		Expect(&changed.Fields()[0]).To(BeIdenticalTo(&local.Fields()[0]), "every field of local's item A, as it is")
	})
	It("is a map of its own where it leaves a field out", func() {
		c := newCase("Pod",
			`{spec: {containers: [{name: c, image: x, env: [{name: A, value: "1"}]}]}}`,
			`{spec: {containers: [{name: c, image: z, env: [{name: A, value: "1"}]}]}}`,
			`{spec: {containers: [{name: c, image: x, env: [{name: A, value: "1"}]}]}}`)
		p := threeWay(c)
		containers, _ := at(p, "spec.containers")
		Expect(string(containers.Items()[0].JSON())).To(Equal(`{"image":"z","name":"c"}`))
	})
})
