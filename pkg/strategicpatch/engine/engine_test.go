package engine_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/strategicpatch/engine"
)

// lookup is a schema written in Go: spec.template a map, spec.containers merged by name.
type lookup map[string]node

type node struct {
	sub  lookup
	meta engine.Meta
}

func (l lookup) Struct(key string) (engine.Lookup, engine.Meta, error) {
	n := l[key]
	return n.sub, n.meta, nil
}

func (l lookup) Slice(key string) (engine.Lookup, engine.Meta, error) { return l.Struct(key) }

var schema = lookup{"spec": {sub: lookup{
	"strategy":   {sub: lookup{}},
	"containers": {sub: lookup{}, meta: engine.Meta{Strategies: []string{"merge"}, MergeKey: "name"}},
}}}

var _ = Describe("engine.Options", func() {
	live := []byte(`{"spec":{"strategy":{"type":"Recreate"},"containers":[{"name":"a","image":"1"}]}}`)

	It("gives strategicpatch's results with every gate off, its zero value", func() {
		out, err := engine.Options{}.ApplyJSON(live, []byte(`{"spec":{"strategy":{"$patch":"delete"},"containers":[{"name":"b","image":"2"}]}}`), schema)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(`{"spec":{"containers":[{"image":"2","name":"b"},{"image":"1","name":"a"}],"strategy":{}}}`),
			"a deleted map is left empty, a new item goes first: strategicpatch's result")
	})

	It("gives ply's results with the gates a caller sets", func() {
		on := features.Gates{}
		out, err := engine.Options{Gates: &on}.ApplyJSON(live, []byte(`{"spec":{"strategy":{"$patch":"delete"},"containers":[{"name":"b","image":"2"}]}}`), schema)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal(`{"spec":{"containers":[{"image":"1","name":"a"},{"image":"2","name":"b"}]}}`),
			"PatchDeleteRemovesMap deletes the map; SeedOrdering keeps live's item first")
	})
})

var _ = Describe("the JSON calls", func() {
	It("give results and errors that later calls, reading into the same reused memory, leave as they were", func() {
		on := features.Gates{}
		dup := []byte(`{"spec":{"containers":[{"name":"x","image":"1"},{"name":"x","image":"2"}]}}`)
		_, refused := engine.Options{Gates: &on}.ApplyJSON([]byte(`{"spec":{"containers":[{"name":"x"}]}}`), dup, schema)
		Expect(refused).To(HaveOccurred(), "ply refuses a patch list naming one merge key twice")
		msg := refused.Error()
		Expect(msg).To(ContainSubstring("spec.containers"))
		first, err := engine.Options{}.ApplyJSON([]byte(`{"spec":{"containers":[{"name":"a","image":"1"}]}}`),
			[]byte(`{"spec":{"containers":[{"name":"a","image":"2"}]}}`), schema)
		Expect(err).NotTo(HaveOccurred())
		want := string(first)
		for i := range 50 {
			other := []byte(fmt.Sprintf(`{"spec":{"containers":[{"name":"n%d","image":"%d"},{"name":"m","image":"y"}]}}`, i, i))
			_, err := engine.Options{}.ThreeWayJSON(other, dup[:0], other, schema, true)
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(string(first)).To(Equal(want))
		Expect(refused.Error()).To(Equal(msg))
	})
})
