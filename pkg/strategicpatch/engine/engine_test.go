package engine_test

import (
	"fmt"
	"strings"

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

// cached is a schema node that keeps the engine's types (a TypeCacher); plain is the same node without.
type cached struct {
	sub   map[string]*cached
	meta  engine.Meta
	types engine.Types
}

func (c *cached) Struct(key string) (engine.Lookup, engine.Meta, error) {
	if n := c.sub[key]; n != nil {
		return n, n.meta, nil
	}
	return nil, engine.Meta{}, nil
}

func (c *cached) Slice(key string) (engine.Lookup, engine.Meta, error) { return c.Struct(key) }

func (c *cached) Types() *engine.Types { return &c.types }

type plain struct{ c *cached }

func (p plain) Struct(key string) (engine.Lookup, engine.Meta, error) {
	if n := p.c.sub[key]; n != nil {
		return plain{n}, n.meta, nil
	}
	return nil, engine.Meta{}, nil
}

func (p plain) Slice(key string) (engine.Lookup, engine.Meta, error) { return p.Struct(key) }

var _ = Describe("a TypeCacher Lookup", func() {
	It("gives the results of the same schema without it, for more shapes than it keeps", func() {
		// Twelve fields of one type, whose lists merge: live's item b stays beside the patch's a.
		root := &cached{sub: map[string]*cached{}}
		shared := &cached{sub: map[string]*cached{
			"items": {sub: map[string]*cached{}, meta: engine.Meta{Strategies: []string{"merge"}, MergeKey: "name"}},
		}}
		var fields []string
		for i := range 12 {
			root.sub[fmt.Sprintf("f%d", i)] = shared
			fields = append(fields, fmt.Sprintf(`"f%d":{"items":[{"name":"b","v":0}]}`, i))
		}
		live := []byte("{" + strings.Join(fields, ",") + "}")
		for round := range 2 {
			for subset := range 1 << 12 {
				var p strings.Builder
				p.WriteString("{")
				for i := range 12 {
					if subset&(1<<i) != 0 {
						if p.Len() > 1 {
							p.WriteString(",")
						}
						fmt.Fprintf(&p, `"f%d":{"items":[{"name":"a","v":%d}]}`, i, subset)
					}
				}
				p.WriteString("}")
				want, err := engine.Options{}.ApplyJSON(live, []byte(p.String()), plain{root})
				Expect(err).NotTo(HaveOccurred())
				got, err := engine.Options{}.ApplyJSON(live, []byte(p.String()), root)
				Expect(err).NotTo(HaveOccurred())
				Expect(string(got)).To(Equal(string(want)), "round %d, patch %s", round, p.String())
			}
		}
		Expect(shared.types.Len()).To(Equal(1), "one shape of the fields' objects, kept")
		Expect(root.types.Len()).To(Equal(1024), "as many root shapes as the bound lets it keep")
	})
})
