package patch_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// fixture is one YAML test case: live, patch, the schema to use and the
// expected result or error.
//
//	schema: test | default | v2 | none   (test: testdata/schema.json)
//	type:   a definition name (else resolved from kind)
//	live, patch, result (or patches: a list applied in turn)
//	result: the result under patch.OrderKubectl (strategicpatch's), and
//	        under patch.OrderSeed too unless seedResult is given
//	seedResult: the result under patch.OrderSeed (what the design
//	            documents state), where it differs from result
//	documentText: the document's literal text where it cannot be a
//	              result (a misspelt directive, a typo), kept for reference
//	error: a substring of the error; errorSource: patch | live;
//	errorPath: the error's path
//	oracle: false when strategicpatch cannot be compared (deliberate
//	        differences); gates-off when it can only with every feature
//	        gate off (multi-field keys, schema key defaults: the
//	        MultiFieldMergeKeys gate)
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

func (f fixture) has(key string) bool {
	_, ok := f.doc.Get(key)
	return ok
}

func (f fixture) str(key string) string {
	s, _ := f.get(key).AsString()
	return s
}

// oracle reports whether the fixture can be compared with strategicpatch
// under ply's default gates.
func (f fixture) oracle() bool {
	b, ok := f.get("oracle").AsBool()
	return !f.has("oracle") || ok && b
}

// oracleGatesOff reports whether the fixture can be compared with
// strategicpatch with every feature gate off.
func (f fixture) oracleGatesOff() bool {
	return f.oracle() || f.str("oracle") == "gates-off"
}

var testSchema = sync.OnceValues(func() (*openapi.Schema, error) {
	data, err := os.ReadFile(filepath.Join("testdata", "schema.json"))
	if err != nil {
		return nil, err
	}
	return openapi.LoadV2Named("schema.json", data)
})

func (f fixture) schema() *openapi.Schema {
	var s *openapi.Schema
	var err error
	switch f.str("schema") {
	case "default":
		s, err = openapi.Default()
	case "v2":
		s, err = openapi.DefaultV2()
	case "none":
		return nil
	default:
		s, err = testSchema()
	}
	Expect(err).NotTo(HaveOccurred())
	return s
}

// options returns the Apply options of the fixture with ordering o.
func (f fixture) options(o patch.Ordering) patch.Options {
	s := f.schema()
	if s == nil {
		// No schema: an empty one, so that nothing resolves.
		s = openapi.Union()
	}
	return patch.Options{Schema: s, TypeName: f.str("type"), Ordering: o}
}

// run applies the fixture's patch with ordering o.
func (f fixture) run(o patch.Ordering) (value.Value, error) {
	return patch.Apply(f.get("live"), f.get("patch"), f.options(o))
}

// want returns the result the fixture expects under ordering o.
func (f fixture) want(o patch.Ordering) value.Value {
	if o == patch.OrderSeed && f.has("seedResult") {
		return f.get("seedResult")
	}
	return f.get("result")
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

// sortedLists returns v with the items of every list, at every depth,
// sorted by their JSON: v's content without its list order.
func sortedLists(v value.Value) value.Value {
	switch v.Kind() {
	case value.KindMap:
		fs := make([]value.Field, 0, v.Len())
		for _, f := range v.Fields() {
			fs = append(fs, value.Field{Key: f.Key, Value: sortedLists(f.Value)})
		}
		return value.MapFromSorted(fs)
	case value.KindList:
		items := make([]value.Value, 0, v.Len())
		for _, it := range v.Items() {
			items = append(items, sortedLists(it))
		}
		sort.SliceStable(items, func(i, j int) bool { return string(items[i].JSON()) < string(items[j].JSON()) })
		return value.List(items)
	}
	return v
}

// expectStrategicPatch applies p to live under each of opts and expects strategicpatch's result with sp's schema, or,
// failsToo, an error from both.
func expectStrategicPatch(live, p value.Value, sp *oracle.Oracle, failsToo bool, opts ...patch.Options) {
	GinkgoHelper()
	want, werr := strategicMergePatchRecovered(live.JSON(), p.JSON(), sp.Meta())
	for _, o := range opts {
		got, err := patch.Apply(live, p, o)
		if failsToo {
			Expect(werr).To(HaveOccurred())
			Expect(err).To(HaveOccurred())
			continue
		}
		Expect(werr).NotTo(HaveOccurred())
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(equalValue(jsonv.MustDecode(string(want))))
	}
}

// strategicMergePatchRecovered is strategicpatch.StrategicMergePatchUsingLookupPatchMeta with a panic (hashing a map
// it finds where it expects scalars, say) returned as an error: ply fails there too.
func strategicMergePatchRecovered(live, p []byte, meta strategicpatch.LookupPatchMeta) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("strategicpatch panicked: %v", r)
		}
	}()
	return strategicpatch.StrategicMergePatchUsingLookupPatchMeta(live, p, meta)
}
