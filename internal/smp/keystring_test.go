package smp_test

import (
	"encoding/json"
	"fmt"
	"github.com/plyproject/ply/test/treetest"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/smp"
)

var _ = Describe("KeyString", func() {
	DescribeTable("renders a key as fmt's %v of what encoding/json decodes",
		func(literal, want string) {
			var decoded any
			Expect(json.Unmarshal([]byte(literal), &decoded)).To(Succeed())
			Expect(fmt.Sprintf("%v", decoded)).To(Equal(want), "the table's expectation")
			Expect(smp.KeyString(treetest.YAML(literal))).To(Equal(want))
		},
		Entry("small integer", `80`, "80"),
		Entry("zero", `0`, "0"),
		Entry("negative integer", `-3`, "-3"),
		Entry("a million", `1000000`, "1e+06"),
		Entry("exponent notation", `1e6`, "1e+06"),
		Entry("integral float", `80.0`, "80"),
		Entry("fraction", `1.5`, "1.5"),
		Entry("small fraction", `0.0001`, "0.0001"),
		Entry("tiny fraction", `0.00001`, "1e-05"),
		Entry("large integer", `123456789`, "1.23456789e+08"),
		Entry("beyond float64 precision", `9007199254740993`, "9.007199254740992e+15"),
		Entry("true", `true`, "true"),
		Entry("false", `false`, "false"),
		Entry("string", `"TCP"`, "TCP"),
		Entry("numeric string", `"80"`, "80"),
		Entry("empty string", `""`, ""),
		Entry("null", `null`, "<nil>"),
	)
})
