package collate_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/treetest"
)

var _ = Describe("Collate, recorded and live holding the very same list (documents read together share it)", func() {
	// members renders the members of spec.containers as pairs renders them: recorded/local/live positions.
	members := func(tree elements.Element) []idx {
		GinkgoHelper()
		return indexes(field(field(tree, "spec"), "containers").(*elements.ListElement).Items)
	}
	// copied is v rebuilt in memory of its own: equal, not shared.
	copied := func(v value.Value) value.Value { return treetest.YAML(string(v.JSON())) }

	DescribeTable("pairs the items as it pairs an equal list of its own",
		func(shared, local string, gates features.Gates) {
			spec := treetest.YAML(wrapSpec(shared))
			vals := elements.Values{Recorded: spec, HasRecorded: true, Local: treetest.YAML(wrapSpec(local)), HasLocal: true, Live: spec, HasLive: true}
			tree, err := collate.Collate(vals, widget(), collate.Options{Gates: gates})
			Expect(err).NotTo(HaveOccurred())
			vals.Live = copied(spec)
			want, err := collate.Collate(vals, widget(), collate.Options{Gates: gates})
			Expect(err).NotTo(HaveOccurred())
			Expect(members(tree)).To(Equal(members(want)))
		},
		Entry("every item in local, in another order", `{containers: [{name: a}, {name: b}, {name: c}]}`,
			`{containers: [{name: c, image: x}, {name: a}, {name: b}]}`, features.Gates{}),
		Entry("items local lacks and items local adds", `{containers: [{name: a}, {name: b}, {name: c}]}`,
			`{containers: [{name: d}, {name: b}]}`, features.Gates{}),
		Entry("an item without its key", `{containers: [{name: a}, {image: x}, {name: b}]}`,
			`{containers: [{name: b}]}`, features.Kubectl()),
		Entry("a repeated key", `{containers: [{name: a}, {name: a, image: x}, {name: b}]}`,
			`{containers: [{name: a}, {name: b}]}`, features.Kubectl()),
	)
})
