package apply_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/value"
)

// The ports example of issue 3: TCP and UDP on one containerPort. With the
// OpenAPI v3 default schema, ports are keyed by containerPort and protocol
// (protocol defaulting to TCP), so each fixture's merge keeps exactly the
// ports it names in want.
var _ = Describe("container ports with the v3 default schema", func() {
	DescribeTable("keep exactly the right ports",
		func(file string) {
			f := loadFixture(file)
			res := mergeWith(f, openapi.DefaultV3)
			want := f.get("want")
			Expect(value.Equal(res.Object, want)).To(BeTrue(), "merged:\n%s\nwant:\n%s", res.Object.YAML(), want.YAML())
		},
		entries("ports"),
	)

	It("differs from the v2 schema, which keys ports by containerPort alone", func() {
		f := loadFixture("testdata/ports/remove-udp.yaml")
		res := mergeWith(f, openapi.DefaultV2)
		Expect(value.Equal(res.Object, f.get("want"))).To(BeFalse(),
			"v2 metadata cannot tell the two ports apart, so it cannot drop only UDP")
	})
})

// mergeWith merges the fixture's inputs with kubectl's options and the
// schema schema returns, expecting no error.
func mergeWith(f fixture, schema func() (*openapi.Schema, error)) apply.Result {
	s, err := schema()
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	opts := apply.DefaultOptions()
	opts.Schema = s
	res, err := apply.Merge(f.get("recorded"), f.get("local"), f.get("live"), opts)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return res
}
