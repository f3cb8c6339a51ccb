package collate_test

import (
	"fmt"
	"github.com/plyproject/ply/test/treetest"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/parse"
)

// widget returns the root type of the hand-written fixture schema.
func widget() *openapi.Type {
	data, err := os.ReadFile("testdata/swagger.json")
	Expect(err).NotTo(HaveOccurred())
	s, err := openapi.LoadV2(data)
	Expect(err).NotTo(HaveOccurred())
	t, ok := s.ForKind("ply.test/v1", "Widget")
	Expect(ok).To(BeTrue())
	return t
}

// absent marks a source that is not given.
const absent = "<absent>"

// three builds Values from YAML texts; absent leaves a source out.
func three(recorded, local, live string) elements.Values {
	var vals elements.Values
	if recorded != absent {
		vals.Recorded, vals.HasRecorded = treetest.YAML(recorded), true
	}
	if local != absent {
		vals.Local, vals.HasLocal = treetest.YAML(local), true
	}
	if live != absent {
		vals.Live, vals.HasLive = treetest.YAML(live), true
	}
	return vals
}

// loadFixture reads a YAML file holding recorded, local and live keys.
func loadFixture(path string) elements.Values {
	data, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	doc, err := parse.Document(data)
	Expect(err).NotTo(HaveOccurred())
	var vals elements.Values
	vals.Recorded, vals.HasRecorded = doc.Get("recorded")
	vals.Local, vals.HasLocal = doc.Get("local")
	vals.Live, vals.HasLive = doc.Get("live")
	return vals
}

// wrapSpec returns a Widget document whose spec is the given YAML (absent
// passes through).
func wrapSpec(spec string) string {
	if spec == absent {
		return absent
	}
	return "{apiVersion: ply.test/v1, kind: Widget, spec: " + spec + "}"
}

// typeName names the concrete Element type ("MapElement"), "AtomicElement (empty)" for an AtomicElement no
// source gives a non-null value (absent from the result).
func typeName(e elements.Element) string {
	s := fmt.Sprintf("%T", e)[len("*elements."):]
	if _, atomic := e.(*elements.AtomicElement); atomic {
		for _, src := range []elements.Source{elements.Recorded, elements.Local, elements.Live} {
			if v, has := e.Base().Get(src); has && !v.IsNull() {
				return s
			}
		}
		s += " (empty)"
	}
	return s
}

// fieldNames lists the Names of fields in order.
func fieldNames(fs []elements.Field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	return out
}

// idx is the three source positions of an item.
type idx struct{ R, L, V int }

func indexes(items []elements.Item) []idx {
	out := make([]idx, len(items))
	for i, it := range items {
		out[i] = idx{it.RecordedIndex, it.LocalIndex, it.LiveIndex}
	}
	return out
}

func itemPaths(items []elements.Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Element.Base().Path().String()
	}
	return out
}

// field returns the child name of map e (a ranked list's items render alike, so treetest.ByPath cannot index them).
func field(e elements.Element, name string) elements.Element {
	GinkgoHelper()
	m, ok := e.(*elements.MapElement)
	Expect(ok).To(BeTrue(), "%T is not a map", e)
	for _, f := range m.Fields {
		if f.Name == name {
			return f.Element
		}
	}
	Fail("no field " + name)
	return nil
}
