package apply_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/value"
)

// The examples of the design documents (../shared/design), each a YAML file
// under testdata/seeds holding the lists verbatim.
var _ = Describe("the design documents' examples", func() {
	DescribeTable("merge as the seeds specify",
		func(path string) {
			f := loadFixture(path)
			opts := apply.DefaultOptions()
			opts.Schema = f.schema()
			res, err := apply.Merge(f.get("recorded"), f.get("local"), f.get("live"), opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Object).To(equalValue(f.get("want")))
			if cs := f.get("changes"); !cs.IsNull() {
				var want []string
				for _, c := range cs.Items() {
					s, _ := c.AsString()
					want = append(want, s)
				}
				Expect(changeLines(res.Changes)).To(Equal(want))
			}
		},
		entries("seeds"),
	)

	DescribeTable("merge in kubectl's order with OrderingKubectl",
		func(path string) {
			f := loadFixture(path)
			want := f.get("wantKubectl")
			if want.IsNull() {
				want = f.get("want")
			}
			opts := apply.DefaultOptions()
			opts.Schema = f.schema()
			opts.Ordering = apply.OrderingKubectl
			res, err := apply.Merge(f.get("recorded"), f.get("local"), f.get("live"), opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Object).To(equalValue(want))
		},
		entries("seeds"),
	)

	It("re-applying the result changes nothing", func() {
		for _, path := range fixtureFiles("seeds") {
			f := loadFixture(path)
			opts := apply.DefaultOptions()
			opts.Schema = f.schema()
			first, err := apply.Merge(f.get("recorded"), f.get("local"), f.get("live"), opts)
			Expect(err).NotTo(HaveOccurred())
			second, err := apply.Merge(f.get("local"), f.get("local"), first.Object, opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(second.Object).To(equalValue(first.Object), f.file)
			Expect(second.Changes).To(BeEmpty(), f.file)
		}
	})

	It("does not modify its inputs", func() {
		f := loadFixture("testdata/seeds/env-list-of-maps.yaml")
		rec, loc, live := f.get("recorded"), f.get("local"), f.get("live")
		before := [3]string{string(rec.JSON()), string(loc.JSON()), string(live.JSON())}
		_, err := apply.Merge(rec, loc, live, apply.DefaultOptions())
		Expect(err).NotTo(HaveOccurred())
		Expect([3]string{string(rec.JSON()), string(loc.JSON()), string(live.JSON())}).To(Equal(before))
	})

	It("creates the object when live does not exist", func() {
		local := mustParse(`{apiVersion: v1, kind: ConfigMap, metadata: {name: a, labels: {x: "1", gone: null}}, data: {k: v}}`)
		res, err := apply.Merge(value.Null, local, value.Null, apply.DefaultOptions())
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Object).To(equalValue(mustParse(`{apiVersion: v1, kind: ConfigMap, metadata: {name: a, labels: {x: "1"}}, data: {k: v}}`)))
		Expect(changeLines(res.Changes)).To(Equal([]string{"add . (local)"}))
	})
})
