package apply_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
)

// Custom resources merged with the schema of their CustomResourceDefinition
// (testdata/crd/schema/widgets.yaml): list-type maps merge by their keys,
// atomic lists are replaced whole, preserve-unknown-fields subtrees merge
// as free-form maps.
var _ = Describe("custom resources with a CRD schema", func() {
	crdSchema := func() (*openapi.Schema, error) {
		path := filepath.Join("testdata", "crd", "schema", "widgets.yaml")
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return openapi.LoadCRD(path, data)
	}

	DescribeTable("merge as the CRD says",
		func(file string) {
			f := loadFixture(file)
			res := mergeWith(f, crdSchema)
			Expect(res.Object).To(equalValue(f.get("want")))
		},
		entries("crd"),
	)

	It("replaces the list-type map whole without the CRD (the fallback rules)", func() {
		f := loadFixture(filepath.Join("testdata", "crd", "map-keys.yaml"))
		opts := apply.DefaultOptions()
		opts.Schema = openapi.Union()
		res, err := apply.Merge(f.get("recorded"), f.get("local"), f.get("live"), opts)
		Expect(err).NotTo(HaveOccurred())
		ports, _ := res.Object.Get("spec")
		ports, _ = ports.Get("ports")
		Expect(ports.Len()).To(Equal(1), "the port the server added is lost: %s", ports.JSON())
	})
})
