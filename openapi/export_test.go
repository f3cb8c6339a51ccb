package openapi

import (
	"flag"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/plyproject/ply/pkg/value"
)

// Test hooks: the uncached loader, the embedded documents and a fresh
// (unparsed) lazy default, as a new process would have it.
var (
	LoadV2Uncached  = loadV2
	EmbeddedDefault = defaultDoc
	NewLazyDefault  = newLazyDefault
)

// CheckLazy parses every document of a lazy default and returns the first
// error; nil for any other schema.
func CheckLazy(s *Schema) error {
	if s.lazy == nil {
		return nil
	}
	return s.lazy.check()
}

// LazyGroupVersions lists the apiVersions of a lazy default's documents.
func LazyGroupVersions(s *Schema) []string {
	if s.lazy == nil {
		return nil
	}
	return s.lazy.groupVersions()
}

// EmbeddedV3 returns the embedded v3 document file of the default.
func EmbeddedV3(file string) ([]byte, error) {
	return defaultV3.ReadFile(defaultV3Dir + "/" + file)
}

// EmbeddedV3Files lists the embedded v3 document files, sorted.
func EmbeddedV3Files() ([]string, error) {
	entries, err := defaultV3.ReadDir(defaultV3Dir)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Name()
	}
	return out, nil
}

// LazyParsedFiles lists the documents a lazy default has parsed so far.
func LazyParsedFiles(s *Schema) []string {
	if s.lazy == nil {
		return nil
	}
	return s.lazy.parsedFiles()
}

// Test hooks of the two v3 loaders: encoding/json's (user and server
// documents) and pkg/parse's (the embedded documents).
var (
	LoadV3JSON   = loadV3
	LoadV3Parsed = loadV3Parsed
)

// SchemaDiff returns the first difference between two schemas loaded from
// documents (their definitions, GVK index and every type reachable from
// them, compared by structure: names, kinds, fields, merge metadata,
// defaults by value and by their JSON), or "" when they are the same.
func SchemaDiff(a, b *Schema) string {
	if len(a.byName) != len(b.byName) {
		return fmt.Sprintf("%d definitions, against %d", len(a.byName), len(b.byName))
	}
	seen := map[[2]*Type]bool{}
	for name, ta := range a.byName {
		tb, ok := b.byName[name]
		if !ok {
			return "definition " + name + " is missing"
		}
		if d := typeDiff(ta, tb, seen); d != "" {
			return name + ": " + d
		}
	}
	if len(a.byGVK) != len(b.byGVK) {
		return fmt.Sprintf("%d GVKs, against %d", len(a.byGVK), len(b.byGVK))
	}
	for g, ta := range a.byGVK {
		tb, ok := b.byGVK[g]
		if !ok || ta.Name != tb.Name {
			return fmt.Sprintf("GVK %v: %v, against %v", g, ta.Name, tb)
		}
	}
	return ""
}

func typeDiff(a, b *Type, seen map[[2]*Type]bool) string {
	if (a == nil) != (b == nil) {
		return "nil type against non-nil"
	}
	if a == nil || seen[[2]*Type{a, b}] {
		return ""
	}
	seen[[2]*Type{a, b}] = true
	switch {
	case a.Name != b.Name:
		return "name " + a.Name + " against " + b.Name
	case a.Kind != b.Kind || a.Primitive != b.Primitive:
		return fmt.Sprintf("kind %v %q against %v %q", a.Kind, a.Primitive, b.Kind, b.Primitive)
	case strings.Join(a.FieldNames, ",") != strings.Join(b.FieldNames, ",") || len(a.Fields) != len(b.Fields):
		return fmt.Sprintf("fields %v against %v", a.FieldNames, b.FieldNames)
	}
	if d := defaultDiff(a.Default, a.HasDefault, b.Default, b.HasDefault); d != "" {
		return d
	}
	for _, n := range a.FieldNames {
		fa, fb := a.Fields[n], b.Fields[n]
		if fb == nil || fa.Name != fb.Name {
			return "field " + n + " is missing"
		}
		if !reflect.DeepEqual(fa.Meta, fb.Meta) || !reflect.DeepEqual(fa.KubectlMeta, fb.KubectlMeta) {
			return fmt.Sprintf("field %s: meta %+v/%+v against %+v/%+v", n, fa.Meta, fa.KubectlMeta, fb.Meta, fb.KubectlMeta)
		}
		if d := defaultDiff(fa.Default, fa.HasDefault, fb.Default, fb.HasDefault); d != "" {
			return "field " + n + ": " + d
		}
		if d := typeDiff(fa.Type, fb.Type, seen); d != "" {
			return "field " + n + ": " + d
		}
	}
	if d := typeDiff(a.Elem, b.Elem, seen); d != "" {
		return "elem: " + d
	}
	return ""
}

func defaultDiff(a value.Value, hasA bool, b value.Value, hasB bool) string {
	if hasA != hasB || hasA && (!value.Equal(a, b) || string(a.JSON()) != string(b.JSON())) {
		return fmt.Sprintf("default %v %s against %v %s", hasA, a.JSON(), hasB, b.JSON())
	}
	return ""
}

// update makes the compiled-form spec write default/v3.compiled instead of
// checking it.
var update = flag.Bool("update", false, "write openapi/default/v3.compiled from the embedded v3 documents")

// Hooks of the compiled form (compiled.go).
var (
	CompileSchema    = compileSchema
	CompileBlob      = compileBlob
	ReadCompiled     = readCompiled
	CompiledSections = compiledSections
	DefaultCompiled  = func() []byte { return defaultCompiled }
	UpdateCompiled   = func() bool { return *update }
)

// ShapeVerdict is the v2 loader's shape check (checkShape) of the
// definitions of data, in name order: "" when it accepts them all; the
// error is readV2's.
func ShapeVerdict(data []byte) (string, error) {
	doc, err := readV2("", data)
	if err != nil {
		return "", err
	}
	for _, name := range doc.names {
		if err := checkShape(doc.defs[name], name); err != nil {
			return err.Error(), nil
		}
	}
	return "", nil
}

// ShapeNames names the shape the v2 loader reads each definition of data
// as: struct, map, array, primitive or unknown; a reference is "ref".
func ShapeNames(data []byte) (map[string]string, error) {
	doc, err := readV2("", data)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(doc.defs))
	for name, gs := range doc.defs {
		out[name] = "ref"
		if gs.ref() == "" {
			out[name] = [...]string{shapeUnknown: "unknown", shapeStruct: "struct", shapeMap: "map", shapeArray: "array", shapePrimitive: "primitive"}[shapeOf(gs)]
		}
	}
	return out, nil
}

// LazyDiff reads section as the embedded default does (readEmbedded: each
// type decoded when a lookup first reaches it), looks up every name and
// GVK of want, names first or GVKs first, each list forwards or backwards,
// and compares each type graph with want's: "" when every lookup gives a
// type equal to want's (names, kinds, fields, metas, defaults, all the way
// down) and the types are shared exactly as want's are (one type of the
// section for each of want's, and the other way round).
func LazyDiff(file string, section []byte, want *Schema, gvksFirst, backwards bool) string {
	got, err := readEmbedded(file, section)
	if err != nil {
		return err.Error()
	}
	if got.compiled == nil {
		return "the section is not read lazily"
	}
	names := make([]string, 0, len(want.byName))
	for n := range want.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	gvks := make([]GVK, 0, len(want.byGVK))
	for g := range want.byGVK {
		gvks = append(gvks, g)
	}
	sort.Slice(gvks, func(i, j int) bool { return fmt.Sprint(gvks[i]) < fmt.Sprint(gvks[j]) })
	if backwards {
		slices.Reverse(names)
		slices.Reverse(gvks)
	}
	seen := map[[2]*Type]bool{}
	byName := func() string {
		for _, n := range names {
			t, ok := got.ByName(n)
			if !ok {
				return "definition " + n + " is missing"
			}
			if d := typeDiff(t, want.byName[n], seen); d != "" {
				return n + ": " + d
			}
		}
		return ""
	}
	byGVK := func() string {
		for _, g := range gvks {
			apiVersion := g.Version
			if g.Group != "" {
				apiVersion = g.Group + "/" + g.Version
			}
			t, ok := got.ForKind(apiVersion, g.Kind)
			if !ok {
				return fmt.Sprintf("GVK %v is missing", g)
			}
			if d := typeDiff(t, want.byGVK[g], seen); d != "" {
				return fmt.Sprintf("GVK %v: %s", g, d)
			}
		}
		return ""
	}
	first, second := byName, byGVK
	if gvksFirst {
		first, second = byGVK, byName
	}
	if d := first(); d != "" {
		return d
	}
	if d := second(); d != "" {
		return d
	}
	if _, ok := got.ByName("no such definition"); ok {
		return "a missing name resolves"
	}
	if _, ok := got.ForKind("example.com/v1", "Missing"); ok {
		return "a missing kind resolves"
	}
	gotOf, wantOf := map[*Type]*Type{}, map[*Type]*Type{}
	for pair := range seen {
		g, w := pair[0], pair[1]
		if o, ok := wantOf[g]; ok && o != w {
			return "type " + g.Name + " stands for two types of the loader"
		}
		if o, ok := gotOf[w]; ok && o != g {
			return "type " + w.Name + " of the loader is read back as two types"
		}
		wantOf[g], gotOf[w] = w, g
	}
	return ""
}

// LazyRace looks every name and GVK of want up in a fresh lazy read of
// section from n goroutines at once, and reports whether every goroutine
// got the same types.
func LazyRace(file string, section []byte, want *Schema, n int) (bool, error) {
	got, err := readEmbedded(file, section)
	if err != nil {
		return false, err
	}
	var names []string
	for name := range want.byName {
		names = append(names, name)
	}
	var gvks []GVK
	for g := range want.byGVK {
		gvks = append(gvks, g)
	}
	results := make([][]*Type, n)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range names {
				// Each goroutine starts at a different name.
				t, _ := got.ByName(names[(j+i*7)%len(names)])
				results[i] = append(results[i], t)
			}
			for _, g := range gvks {
				t, _ := got.ForKind(g.Group+"/"+g.Version, g.Kind)
				if g.Group == "" {
					t, _ = got.ForKind(g.Version, g.Kind)
				}
				results[i] = append(results[i], t)
			}
		}()
	}
	wg.Wait()
	for i := range results {
		for j, t := range results[i] {
			want := results[0][j]
			if j < len(names) {
				want, _ = got.ByName(names[(j+i*7)%len(names)])
			}
			if t == nil || t != want {
				return false, nil
			}
		}
	}
	return true, nil
}
