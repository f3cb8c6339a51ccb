package smp_test

import (
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/collate"
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/openapi"
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

func rootType(kind string) *openapi.Type {
	s, err := openapi.DefaultV2()
	Expect(err).NotTo(HaveOccurred())
	k, ok := kinds[kind]
	Expect(ok).To(BeTrue(), "unknown kind "+kind)
	t, ok := s.ForKind(k[0], k[1])
	Expect(ok).To(BeTrue())
	return t
}

func yamlValue(y string) value.Value {
	if y == "null" {
		return value.Null
	}
	v, err := parse.Document([]byte(y))
	Expect(err).NotTo(HaveOccurred(), y)
	return v
}

// object returns the YAML map body as an object of kind.
func object(kind, body string) value.Value {
	k := kinds[kind]
	v := yamlValue(body)
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

func (c threeCase) tree() elements.Element {
	tree, err := collate.Collate(c.vals(), rootType(c.kind), collate.Options{})
	Expect(err).NotTo(HaveOccurred())
	return tree
}

func (c threeCase) def() string { return rootType(c.kind).Name }

// nodeAt finds the node of tree at a rendered path.
func nodeAt(tree elements.Element, path string) elements.Element {
	var found elements.Element
	var walk func(e elements.Element)
	walk = func(e elements.Element) {
		if found != nil {
			return
		}
		p := e.Base().Path().String()
		if p == path {
			found = e
			return
		}
		if p != "." && !strings.HasPrefix(path, p) {
			return
		}
		switch e := e.(type) {
		case *elements.TypeElement:
			for _, f := range e.Fields {
				walk(f.Element)
			}
		case *elements.MapElement:
			for _, f := range e.Fields {
				walk(f.Element)
			}
		case *elements.ListElement:
			for _, it := range e.Items {
				walk(it.Element)
			}
		case *elements.SetElement:
			for _, it := range e.Items {
				walk(it.Element)
			}
		}
	}
	walk(tree)
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
