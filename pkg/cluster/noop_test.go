package cluster

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("alreadyApplied", func() {
	for _, c := range yamlCases("testdata/noop/cases.yaml") {
		live, _ := c.Get("live")
		config, _ := c.Get("config")
		want, _ := c.Get("want")
		applied, ok := want.AsBool()
		if !ok {
			panic("testdata/noop/cases.yaml: want is not a boolean")
		}
		It(stringAt(c, "name"), func() {
			Expect(alreadyApplied(live, config, "kubectl")).To(Equal(applied))
		})
	}
})
