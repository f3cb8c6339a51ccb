package cluster

import (
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
)

var _ = Describe("dryHandOver", func() {
	data, err := os.ReadFile("testdata/ssadry/cases.yaml")
	if err != nil {
		panic(err)
	}
	cases, err := parse.Document(data)
	if err != nil {
		panic(err)
	}
	for _, c := range cases.Items() {
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
