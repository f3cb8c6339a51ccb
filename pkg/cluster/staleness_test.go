package cluster

import (
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
)

var _ = Describe("the record of the client-side lane (recordOf)", func() {
	data, err := os.ReadFile("testdata/record/cases.yaml")
	if err != nil {
		panic(err)
	}
	cases, err := parse.Document(data)
	if err != nil {
		panic(err)
	}
	for _, c := range cases.Items() {
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
