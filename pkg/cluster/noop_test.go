package cluster

import (
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
)

var _ = Describe("alreadyApplied", func() {
	data, err := os.ReadFile("testdata/noop/cases.yaml")
	if err != nil {
		panic(err)
	}
	cases, err := parse.Document(data)
	if err != nil {
		panic(err)
	}
	for _, c := range cases.Items() {
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
