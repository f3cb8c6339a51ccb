package delta_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/value"
)

var _ = Describe("TwoWay and Changed", func() {
	// The tree is collated leniently, as the conflict rule collates the
	// live object: a value whose kind the schema rules out is atomic.
	DescribeTable("are kubectl's two-way patch, byte for byte, and that patch without $setElementOrder",
		func(kind string, vals map[string]string) {
			original := object(kind, get(vals, "original"))
			modified := object(kind, get(vals, "modified"))
			t := rootType(kind)
			tree, err := collate.Collate(elements.Values{Recorded: original, HasRecorded: true, Local: modified, HasLocal: true}, t, collate.Options{Lenient: true})
			Expect(err).NotTo(HaveOccurred())
			kubectl := kubectlTwoWay(t.Name, original, modified)

			for _, m := range []struct {
				mode delta.Mode
				want value.Value
			}{{delta.TwoWay, kubectl}, {delta.Changed, normalize(kubectl, t)}} {
				got, ok, err := delta.Patch(tree, nil, m.mode, features.Gates{})
				Expect(err).NotTo(HaveOccurred())
				if !ok {
					got = value.MustMap()
				} else {
					Expect(got.Len()).NotTo(BeZero(), "ok with an empty patch")
				}
				Expect(string(got.JSON())).To(Equal(string(m.want.JSON())), "mode %d", m.mode)
			}
		},
		loadCases("twoway.yaml"),
	)
})
