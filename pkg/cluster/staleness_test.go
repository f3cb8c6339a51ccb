package cluster

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the record of the client-side lane (recordOf)", func() {
	for _, c := range yamlCases("testdata/record/cases.yaml") {
		live, _ := c.Get("live")
		want, _ := c.Get("want")
		It(stringAt(c, "name"), func() {
			client := &Client{opts: Options{FieldManager: stringAt(c, "manager")}}
			got, err := client.recordOf(live)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got.YAML())).To(Equal(string(want.YAML())), "%s", got.YAML())
		})
	}
})
