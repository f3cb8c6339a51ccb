package apply_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

var _ = Describe("live's values a merge does not touch", func() {
	It("come out unchanged, nulls included, as kubectl's patch leaves them", func() {
		recorded := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"1"}}`
		local := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"2"}}`
		live := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":null,"annotations":{"x":null}},"data":{"a":"1","b":null}}`
		want := `{"apiVersion":"v1","data":{"a":"2","b":null},"kind":"ConfigMap","metadata":{"annotations":{"x":null},"labels":null,"name":"c"}}`
		schema, err := openapi.DefaultV2()
		Expect(err).NotTo(HaveOccurred())
		res, err := apply.Merge(jsonv.MustDecode(recorded), jsonv.MustDecode(local), jsonv.MustDecode(live), apply.Options{Schema: schema, Overwrite: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(res.Object.JSON())).To(Equal(want))

		models, err := oracle.Default()
		Expect(err).NotTo(HaveOccurred())
		o, err := models.Oracle("io.k8s.api.core.v1.ConfigMap")
		Expect(err).NotTo(HaveOccurred())
		kr, err := o.Apply([]byte(recorded), []byte(local), []byte(live), true)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(jsonv.MustDecode(string(kr.Object)).JSON())).To(Equal(want))
	})
})
