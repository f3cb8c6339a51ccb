package smp_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/value"
)

var _ = Describe("ThreeWayEntries", func() {
	DescribeTable("are exactly the entries of kubectl's three-way patch, $setElementOrder aside",
		func(kind string, vals map[string]string) {
			c := newCase(kind, get(vals, "recorded"), get(vals, "local"), get(vals, "live"))
			t := rootType(kind)
			want := normalize(kubectlThreeWay(c.def(), c.recorded, c.hasRecorded, c.local, c.live), t)
			got, ok := smp.ThreeWayEntries(c.tree())
			if !ok {
				got = value.MustMap()
			} else {
				Expect(got.IsMap()).To(BeTrue())
				Expect(got.Len()).NotTo(BeZero(), "ok with an empty patch")
			}
			Expect(string(normalize(got, t).JSON())).To(Equal(string(want.JSON())))
		},
		loadCases("threeway.yaml"),
	)

	DescribeTable("of a node",
		func(recorded, local, live, path string, want string) {
			c := newCase("ConfigMap", recorded, local, live)
			got, ok := smp.ThreeWayEntries(nodeAt(c.tree(), path))
			if want == absent {
				Expect(ok).To(BeFalse())
				return
			}
			Expect(ok).To(BeTrue())
			Expect(string(got.JSON())).To(Equal(string(yamlValue(want).JSON())))
		},
		Entry("omitted since recorded: null", `{data: {a: "1"}}`, `{data: {}}`, `{data: {a: "1"}}`, "data.a", "null"),
		Entry("omitted, not recorded: none", `{data: {}}`, `{data: {}}`, `{data: {a: "1"}}`, "data.a", absent),
		Entry("nulled, live has it: null", absent, `{data: {a: null}}`, `{data: {a: "1"}}`, "data.a", "null"),
		Entry("nulled, live has no non-null value: a null entry anyway", absent, `{data: {a: null}}`, `{data: {}}`, "data.a", "null"),
		Entry("nulled, live null too: none", absent, `{data: {a: null, b: "1"}}`, `{data: {a: null}}`, "data.a", absent),
		Entry("set: the values live lacks", absent, `{metadata: {finalizers: [a, b, c]}}`, `{metadata: {finalizers: [b]}}`, "metadata.finalizers", "[a, c]"),
	)
})
