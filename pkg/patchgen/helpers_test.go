package patchgen_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// A fixture is one YAML case file under testdata/<dir>:
//
//	mode: twoway | threeway
//	schema: v2 (default: the embedded Kubernetes swagger, what kubectl
//	        reads) | v3 (openapi.Default) | seeds (testdata/seeds-swagger.json)
//	original, modified, current: the inputs (absent: null)
//	overwrite: false to check conflicts (default true)
//	want: the patch; design: the patch a design document shows (compared
//	      modulo list order and $setElementOrder, which the documents
//	      predate or list differently)
//	wantConflicts: the conflicting paths
//	wantError: {source, path, contains}
//	oracle: false when strategicpatch cannot take the case (multi-field
//	        merge keys); otherwise the patch (or the conflict verdict) is
//	        checked against strategicpatch's too.
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

func (f fixture) get(key string) (value.Value, bool) { return f.doc.Get(key) }

// input returns an input document, value.Null when absent.
func (f fixture) input(key string) value.Value {
	v, ok := f.doc.Get(key)
	if !ok {
		return value.Null
	}
	return v
}

func (f fixture) str(key string) string {
	v, _ := f.doc.Get(key)
	s, _ := v.AsString()
	return s
}

func (f fixture) flag(key string, def bool) bool {
	v, ok := f.doc.Get(key)
	if !ok {
		return def
	}
	b, _ := v.AsBool()
	return b
}

var schemas struct {
	once  sync.Once
	seeds []byte
	v2    []byte
}

func schemaBytes() (seeds, v2 []byte) {
	schemas.once.Do(func() {
		var err error
		schemas.seeds, err = os.ReadFile(filepath.Join("testdata", "seeds-swagger.json"))
		Expect(err).NotTo(HaveOccurred())
		schemas.v2, err = os.ReadFile(filepath.Join("..", "..", "openapi", "default", "swagger.json"))
		Expect(err).NotTo(HaveOccurred())
	})
	return schemas.seeds, schemas.v2
}

// schema returns the fixture's schema.
func (f fixture) schema() *openapi.Schema {
	switch f.str("schema") {
	case "seeds":
		return seedsSchema()
	case "v3":
		s, err := openapi.Default()
		Expect(err).NotTo(HaveOccurred())
		return s
	case "", "v2":
		s, err := openapi.DefaultV2()
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	Fail("unknown schema " + f.str("schema") + " in " + f.file)
	return nil
}

func seedsSchema() *openapi.Schema {
	seeds, _ := schemaBytes()
	s, err := openapi.LoadV2Named("seeds-swagger.json", seeds)
	Expect(err).NotTo(HaveOccurred())
	return s
}

// rootOf resolves the root type of modified in schema s.
func rootOf(s *openapi.Schema, modified value.Value) *openapi.Type {
	av, _ := modified.Get("apiVersion")
	k, _ := modified.Get("kind")
	a, _ := av.AsString()
	kind, _ := k.AsString()
	t, ok := s.ForKind(a, kind)
	Expect(ok).To(BeTrue(), "no type for "+a+" "+kind)
	return t
}

var oracles sync.Map // schema name -> *oracle.Models

// patchMeta returns strategicpatch's merge metadata for definition name in
// the fixture's schema (v2 or seeds).
func (f fixture) patchMeta(name string) strategicpatch.LookupPatchMeta {
	key := f.str("schema")
	if key == "" {
		key = "v2"
	}
	m, ok := oracles.Load(key)
	if !ok {
		seeds, v2 := schemaBytes()
		data := v2
		if key == "seeds" {
			data = seeds
		}
		models, err := oracle.Load(data)
		Expect(err).NotTo(HaveOccurred())
		m, _ = oracles.LoadOrStore(key, models)
	}
	o, err := m.(*oracle.Models).Oracle(name)
	Expect(err).NotTo(HaveOccurred())
	return o.Meta()
}

// enc is the JSON strategicpatch takes: nil for an absent document.
func enc(v value.Value) []byte {
	if v.IsNull() {
		return nil
	}
	return v.JSON()
}

// kubectlTwoWay is strategicpatch's two-way patch.
func kubectlTwoWay(meta strategicpatch.LookupPatchMeta, original, modified value.Value) value.Value {
	p, err := strategicpatch.CreateTwoWayMergePatchUsingLookupPatchMeta(enc(original), enc(modified), meta)
	Expect(err).NotTo(HaveOccurred())
	return jsonv.MustDecode(string(p))
}

// kubectlThreeWay is strategicpatch's three-way patch; conflict reports
// whether it refused with a conflict.
func kubectlThreeWay(meta strategicpatch.LookupPatchMeta, original, modified, current value.Value, overwrite bool) (patch value.Value, conflict bool) {
	p, err := strategicpatch.CreateThreeWayMergePatch(enc(original), enc(modified), enc(current), meta, overwrite)
	if mergepatch.IsConflict(err) {
		return value.Value{}, true
	}
	Expect(err).NotTo(HaveOccurred())
	return jsonv.MustDecode(string(p)), false
}

// kubectlApply applies a patch to an object with strategicpatch, as the
// API server does.
func kubectlApply(meta strategicpatch.LookupPatchMeta, obj, patch value.Value) value.Value {
	out, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(obj.JSON(), patch.JSON(), meta)
	Expect(err).NotTo(HaveOccurred())
	return jsonv.MustDecode(string(out))
}

// equalJSON is a Gomega matcher comparing values by their canonical JSON.
func equalJSON(want value.Value) OmegaMatcher {
	return WithTransform(func(v value.Value) string { return string(v.IndentJSON("  ")) }, Equal(string(want.IndentJSON("  "))))
}

// canonical drops $setElementOrder lists and sorts every list (by the
// canonical JSON of its items), so that patches compare as sets.
func canonical(v value.Value) value.Value {
	switch v.Kind() {
	case value.KindMap:
		var fs []value.Field
		for _, f := range v.Fields() {
			if strings.HasPrefix(f.Key, smp.SetOrderPrefix) {
				continue
			}
			fs = append(fs, value.Field{Key: f.Key, Value: canonical(f.Value)})
		}
		return value.MustMap(fs...)
	case value.KindList:
		items := make([]value.Value, v.Len())
		for i, it := range v.Items() {
			items[i] = canonical(it)
		}
		sort.SliceStable(items, func(i, j int) bool { return string(items[i].JSON()) < string(items[j].JSON()) })
		return value.List(items)
	}
	return v
}

// stripDirectives removes what a server of an older version ignores:
// $setElementOrder lists and $retainKeys.
func stripDirectives(v value.Value) value.Value {
	switch v.Kind() {
	case value.KindMap:
		var fs []value.Field
		for _, f := range v.Fields() {
			if strings.HasPrefix(f.Key, smp.SetOrderPrefix) || f.Key == smp.RetainKeysKey {
				continue
			}
			fs = append(fs, value.Field{Key: f.Key, Value: stripDirectives(f.Value)})
		}
		return value.MustMap(fs...)
	case value.KindList:
		items := make([]value.Value, v.Len())
		for i, it := range v.Items() {
			items[i] = stripDirectives(it)
		}
		return value.List(items)
	}
	return v
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
