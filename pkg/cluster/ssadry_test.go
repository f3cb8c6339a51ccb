package cluster

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("dryHandOver", func() {
	for _, c := range yamlCases("testdata/ssadry/cases.yaml") {
		answer, _ := c.Get("answer")
		want, _ := c.Get("want")
		movedValue, _ := c.Get("moved")
		moved, ok := movedValue.AsBool()
		if !ok {
			panic("testdata/ssadry/cases.yaml: moved is not a boolean")
		}
		It(stringAt(c, "name"), func() {
			got, gotMoved := dryHandOver(answer, stringAt(c, "manager"))
			Expect(gotMoved).To(Equal(moved))
			Expect(string(got.YAML())).To(Equal(string(want.YAML())))
		})
	}
})
