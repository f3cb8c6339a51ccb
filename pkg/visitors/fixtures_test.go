package visitors_test

import (
	"os"
	"sort"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/order"
)

// fixtureFiles lists every testdata file with what it shows.
var fixtureFiles = [][2]string{
	{"presence: local sets, nulls, omits with recorded; live-only kept", "presence.yaml"},
	{"presence: first apply keeps what local omits", "presence-first-apply.yaml"},
	{"presence: whole subtrees nulled, dropped or kept", "presence-whole.yaml"},
	{"merge: maps and structs field by field", "merge-deployment.yaml"},
	{"retainKeys: switching a union member clears the other", "retainkeys-strategy.yaml"},
	{"retainKeys: a map with no field set clears nothing", "retainkeys-empty.yaml"},
	{"retainKeys: a map with only null fields clears nothing else", "retainkeys-only-nulls.yaml"},
	{"retainKeys: items of a merge,retainKeys list", "retainkeys-volumes.yaml"},
	{"order: the env example", "order-env.yaml"},
	{"order: the finalizers example", "order-finalizers.yaml"},
	{"order: a list live does not have", "order-live-missing.yaml"},
	{"order: empty live lists", "order-live-empty.yaml"},
	{"order: nothing changed, live-only item between local's", "order-unchanged.yaml"},
	{"order: nothing changed, same items in the same order", "order-unchanged-same.yaml"},
	{"order: a set differing only in live's order, local sorted", "order-set-live-order.yaml"},
	{"order: a set with the same members, local unsorted", "order-set-unsorted-local.yaml"},
	{"order: deleted items removed", "order-deleted.yaml"},
	{"order: live duplicates removed with their key", "order-live-duplicates.yaml"},
	{"order: a live duplicate of a key local names stays next to it", "order-live-duplicates-kept.yaml"},
	{"order: a live item without its key stays in place", "order-live-item-without-key.yaml"},
	{"order: local reorders, live-only item", "order-seed-maps.yaml"},
}

func fixtureEntries() []TableEntry {
	out := make([]TableEntry, len(fixtureFiles))
	for i, f := range fixtureFiles {
		out[i] = Entry(f[0], f[1])
	}
	return out
}

var _ = Describe("Walking fixtures", func() {
	DescribeTable("OrderSeed gives want",
		func(name string) {
			fx := loadFixture(name)
			if !fx.hasWant {
				Skip("the fixture states only the kubectl order")
			}
			out := merge(fx.vals, order.OrderSeed)
			Expect(out.Present).To(BeTrue())
			expectSame(out.Value, fx.want, name)
		},
		fixtureEntries(),
	)

	DescribeTable("OrderKubectl gives wantKubectl",
		func(name string) {
			fx := loadFixture(name)
			out := merge(fx.vals, order.OrderKubectl)
			Expect(out.Present).To(BeTrue())
			expectSame(out.Value, fx.wantKubectl, name)
		},
		fixtureEntries(),
	)

	DescribeTable("wantKubectl is what kubectl apply leaves (strategicpatch oracle)",
		func(name string) {
			fx := loadFixture(name)
			if fx.noOracle != "" {
				Skip(fx.noOracle)
			}
			got := kubectlApply(rootType(fx.vals.Local).Name, fx.vals.Recorded, fx.vals.HasRecorded, fx.vals.Local, fx.vals.Live)
			expectSame(got, fx.wantKubectl, name)
		},
		fixtureEntries(),
	)

	It("lists every testdata file", func() {
		files, err := os.ReadDir("testdata")
		Expect(err).NotTo(HaveOccurred())
		var names []string
		for _, f := range files {
			names = append(names, f.Name())
		}
		var listed []string
		for _, f := range fixtureFiles {
			listed = append(listed, f[1])
		}
		sort.Strings(listed)
		Expect(names).To(Equal(listed))
	})
})
