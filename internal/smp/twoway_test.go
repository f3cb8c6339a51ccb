package smp_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

var _ = Describe("TwoWay", func() {
	DescribeTable("is kubectl's two-way patch without parallel order lists",
		func(kind string, vals map[string]string) {
			original := object(kind, get(vals, "original"))
			modified := object(kind, get(vals, "modified"))
			t := rootType(kind)
			want := normalize(kubectlTwoWay(t.Name, original, modified), t)
			got, ok := smp.TwoWay(original, modified, t, openapi.Meta{})
			if !ok {
				got = value.MustMap()
			} else {
				Expect(got.Len()).NotTo(BeZero(), "ok with an empty patch")
			}
			Expect(string(normalize(got, t).JSON())).To(Equal(string(want.JSON())))
		},
		loadCases("twoway.yaml"),
	)
})
