package delta_test

import (
	"github.com/plyproject/ply/test/treetest"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

const absent = "<absent>"

// kinds maps the short kind names the tables use to apiVersion and kind.
var kinds = map[string][2]string{
	"Deployment":          {"apps/v1", "Deployment"},
	"Pod":                 {"v1", "Pod"},
	"ConfigMap":           {"v1", "ConfigMap"},
	"PodDisruptionBudget": {"policy/v1", "PodDisruptionBudget"},
	"Service":             {"v1", "Service"},
}

// rootType returns the type of a kind of the tables in the swagger kubectl
// reads, or, for a name ending in "@v3", in ply's OpenAPI v3 documents
// (where merge keys may have several fields).
func rootType(kind string) *openapi.Type {
	name, v3 := strings.CutSuffix(kind, "@v3")
	s, err := openapi.DefaultV2()
	if v3 {
		s, err = openapi.Default()
	}
	Expect(err).NotTo(HaveOccurred())
	k, ok := kinds[name]
	Expect(ok).To(BeTrue(), "unknown kind "+kind)
	t, ok := s.ForKind(k[0], k[1])
	Expect(ok).To(BeTrue())
	return t
}

// object returns the YAML map body as an object of kind.
func object(kind, body string) value.Value {
	name, _ := strings.CutSuffix(kind, "@v3")
	k := kinds[name]
	v := treetest.YAML(body)
	Expect(v.IsMap()).To(BeTrue(), body)
	return v.With("apiVersion", value.String(k[0])).With("kind", value.String(k[1]))
}

// threeCase is one three-way input.
type threeCase struct {
	kind                  string
	recorded, local, live value.Value
	hasRecorded           bool
}

func newCase(kind, recorded, local, live string) threeCase {
	c := threeCase{kind: kind, local: object(kind, local), live: object(kind, live)}
	if recorded != absent {
		c.recorded, c.hasRecorded = object(kind, recorded), true
	}
	return c
}

func (c threeCase) vals() elements.Values {
	return elements.Values{
		Recorded: c.recorded, HasRecorded: c.hasRecorded,
		Local: c.local, HasLocal: true,
		Live: c.live, HasLive: true,
	}
}

// collated returns c's tree collated under gates for patches with the conflict check's view (as pkg/apply collates
// it for Overwrite false), and what the collation built beside it.
func (c threeCase) collated(gates features.Gates) (elements.Element, delta.Beside) {
	tree, _, arena, err := collate.CountIn(c.vals(), rootType(c.kind), collate.Options{Gates: gates, Patches: true, Conflicts: true})
	Expect(err).NotTo(HaveOccurred())
	return tree, arena
}

func (c threeCase) def() string { return rootType(c.kind).Name }

// children returns the child elements of e.
func children(e elements.Element) []elements.Element {
	var fields []elements.Field
	var items []elements.Item
	switch e := e.(type) {
	case *elements.MapElement:
		fields = e.Fields
	case *elements.ListElement:
		items = e.Items
	case *elements.SetElement:
		items = e.Items
	}
	out := make([]elements.Element, 0, len(fields)+len(items))
	for _, f := range fields {
		out = append(out, f.Element)
	}
	for _, it := range items {
		out = append(out, it.Element)
	}
	return out
}

// eachNode calls fn for every node of tree, parents first.
func eachNode(tree elements.Element, fn func(elements.Element)) {
	fn(tree)
	for _, c := range children(tree) {
		eachNode(c, fn)
	}
}

// nodeAt finds the node of tree at a rendered path.
func nodeAt(tree elements.Element, path string) elements.Element {
	var found elements.Element
	eachNode(tree, func(e elements.Element) {
		if found == nil && e.Base().Path().String() == path {
			found = e
		}
	})
	if found == nil {
		Fail("no node at " + path)
	}
	return found
}

// loadCases reads testdata/<file>: a list of maps with name, kind and the
// inputs (recorded/local/live or original/modified) as objects.
func loadCases(file string) []TableEntry {
	data, err := os.ReadFile("testdata/" + file)
	if err != nil {
		panic(err)
	}
	doc, err := parse.Document(data)
	if err != nil {
		panic(err)
	}
	var out []TableEntry
	for _, c := range doc.Items() {
		n, _ := c.Get("name")
		k, _ := c.Get("kind")
		name, _ := n.AsString()
		kind, _ := k.AsString()
		vals := map[string]string{}
		for _, f := range c.Fields() {
			if f.Key != "name" && f.Key != "kind" {
				vals[f.Key] = string(f.Value.JSON())
			}
		}
		out = append(out, Entry(name, kind, vals))
	}
	return out
}

func get(vals map[string]string, key string) string {
	if v, ok := vals[key]; ok {
		return v
	}
	return absent
}
