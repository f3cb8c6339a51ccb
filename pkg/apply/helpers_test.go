package apply_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// fixture is one YAML test case file: the three inputs, the schema to use
// and what to expect.
type fixture struct {
	file string
	doc  value.Value
}

func loadFixture(path string) fixture {
	data, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	doc, err := parse.Document(data)
	Expect(err).NotTo(HaveOccurred(), path)
	return fixture{file: path, doc: doc}
}

// get returns a top-level field of the fixture, value.Null when absent.
func (f fixture) get(key string) value.Value {
	v, _ := f.doc.Get(key)
	return v
}

func (f fixture) str(path ...string) string {
	v := f.doc
	for _, p := range path {
		v, _ = v.Get(p)
	}
	s, _ := v.AsString()
	return s
}

func (f fixture) schema() *openapi.Schema {
	if f.str("schema") != "seeds" {
		s, err := openapi.Default()
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	return seedsSchema()
}

func seedsSchema() *openapi.Schema {
	data, err := os.ReadFile(filepath.Join("testdata", "seeds-swagger.json"))
	Expect(err).NotTo(HaveOccurred())
	s, err := openapi.LoadV2Named("seeds-swagger.json", data)
	Expect(err).NotTo(HaveOccurred())
	return s
}

// fixtureFiles lists the YAML files of testdata/dir, sorted.
func fixtureFiles(dir string) []string {
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		panic("no fixtures in testdata/" + dir)
	}
	sort.Strings(files)
	return files
}

// entries returns one Entry per YAML file of dir, named after the file.
func entries(dir string) []TableEntry {
	files := fixtureFiles(dir)
	out := make([]TableEntry, len(files))
	for i, f := range files {
		out[i] = Entry(strings.TrimSuffix(filepath.Base(f), ".yaml"), f)
	}
	return out
}

// changeLines renders a change list as "op path (source)" lines.
func changeLines(cs []apply.Change) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Op.String() + " " + c.Path().String() + " (" + c.Source.String() + ")"
	}
	return out
}

// mustParse parses one YAML document.
func mustParse(doc string) value.Value {
	v, err := parse.Document([]byte(doc))
	Expect(err).NotTo(HaveOccurred())
	return v
}

// equalValue is a Gomega matcher for value.Equal that prints JSON.
func equalValue(want value.Value) OmegaMatcher {
	return WithTransform(func(v value.Value) string { return string(v.IndentJSON("  ")) }, Equal(string(want.IndentJSON("  "))))
}
