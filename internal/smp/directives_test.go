package smp_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/treetest"
)

var _ = Describe("HoldsDirectives", func() {
	DescribeTable("tells whether WithoutDirectives changes a value",
		func(doc string, holds bool) {
			v := treetest.YAML(doc)
			Expect(smp.HoldsDirectives(v)).To(Equal(holds))
			clean, keep := smp.WithoutDirectives(v)
			Expect(!keep || !value.Equal(clean, v)).To(Equal(holds))
		},
		Entry("a scalar", `"a"`, false),
		Entry("a plain map", `{"a":{"b":[1,{"c":2}]}}`, false),
		Entry("a map holding $patch", `{"$patch":"replace","a":1}`, true),
		Entry("a map holding one in a field", `{"a":{"b":{"$patch":"delete"}}}`, true),
		Entry("a list item holding one", `{"a":[{"x":1},{"y":{"$patch":"merge"}}]}`, true),
		Entry("other $ keys only", `{"$retainKeys":["a"],"$setElementOrder/a":[{"n":1}]}`, false),
	)
})
