package property

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/gen"
)

// strs returns the strings of a list value.
func strs(v value.Value) []string {
	out := []string{}
	for _, it := range v.Items() {
		s, ok := it.AsString()
		Expect(ok).To(BeTrue(), "%s is not a string", it.JSON())
		out = append(out, s)
	}
	return out
}

// The scope check is what the untouched and no-drop properties rest on;
// these specs show it reports what it must and nothing else.
var _ = Describe("the scope check", func() {
	DescribeTable("reports exactly the fixture's problems",
		func(file string) {
			data, err := os.ReadFile(filepath.Join("testdata", "scope", file))
			Expect(err).NotTo(HaveOccurred())
			doc, err := parse.Document(data)
			Expect(err).NotTo(HaveOccurred())
			get := func(k string) value.Value {
				v, ok := doc.Get(k)
				Expect(ok).To(BeTrue(), "fixture lacks %s", k)
				return v
			}
			t, err := load(targetSpecs[0])
			Expect(err).NotTo(HaveOccurred())
			var s scope
			s.walk(t.root, rootMeta, rootAt(gen.Triple{Recorded: get("recorded"), Local: get("local"), Live: get("live")}, get("result")), "")
			Expect(append([]string{}, s.lost...)).To(Equal(strs(get("lost"))))
			Expect(append([]string{}, s.dropped...)).To(Equal(strs(get("dropped"))))
		},
		Entry("untouched values the result lost", "lost_live_only_field.yaml"),
		Entry("a merged map the result dropped", "dropped_merged_map.yaml"),
		Entry("replacements, removals and retainKeys clearing", "in_scope.yaml"),
	)
})
