package patchgen_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/value"
)

// fuzzSeeds returns the inputs of every fixture as JSON documents
// (original, modified, current; "null" when absent).
func fuzzSeeds(f *testing.F) [][3][]byte {
	var out [][3][]byte
	for _, dir := range []string{"twoway", "threeway", "bad"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.yaml"))
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			doc, err := parse.Document(data)
			if err != nil {
				f.Fatal(err)
			}
			var s [3][]byte
			for i, k := range []string{"original", "modified", "current"} {
				v, ok := doc.Get(k)
				if !ok {
					v = value.Null
				}
				s[i] = v.JSON()
			}
			out = append(out, s)
		}
	}
	return out
}

func fuzzSchema(t testing.TB) *openapi.Schema {
	s, err := openapi.DefaultV2()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sameResult fails unless two runs gave the same patch or the same error.
func sameResult(t *testing.T, p1 value.Value, e1 error, p2 value.Value, e2 error) {
	t.Helper()
	if (e1 == nil) != (e2 == nil) || (e1 != nil && e1.Error() != e2.Error()) {
		t.Fatalf("not deterministic: %v vs %v", e1, e2)
	}
	if e1 == nil && string(p1.JSON()) != string(p2.JSON()) {
		t.Fatalf("not deterministic:\n%s\n%s", p1.JSON(), p2.JSON())
	}
	if e1 == nil && !p1.IsMap() {
		t.Fatalf("the patch is not an object: %s", p1.JSON())
	}
}

// FuzzTwoWay: TwoWay never panics, is deterministic, and puts a directive
// only where the field's strategy allows it.
func FuzzTwoWay(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s[0], s[1])
	}
	schema := fuzzSchema(f)
	f.Fuzz(func(t *testing.T, original, modified []byte) {
		ov, err1 := parse.Document(original)
		mv, err2 := parse.Document(modified)
		if err1 != nil || err2 != nil {
			return
		}
		opts := patchgen.Options{Schema: schema}
		p1, e1 := patchgen.TwoWay(ov, mv, opts)
		p2, e2 := patchgen.TwoWay(ov, mv, opts)
		sameResult(t, p1, e1, p2, e2)
		if e1 != nil || hasDollarKey(ov) || hasDollarKey(mv) {
			return
		}
		root := openapi.Unknown
		av, _ := mv.Get("apiVersion")
		k, _ := mv.Get("kind")
		a, _ := av.AsString()
		kind, _ := k.AsString()
		if rt, ok := schema.ForKind(a, kind); ok && kind != "" {
			root = rt
		}
		if msg := misplacedDirective(p1, root, openapi.Meta{}, false, "."); msg != "" {
			t.Fatalf("%s\npatch %s", msg, p1.JSON())
		}
	})
}

// FuzzThreeWay: ThreeWay never panics and is deterministic, with and
// without overwrite, every gate on or (an original of odd length) off, so
// that lists repeating a merge key are paired as kubectl pairs them.
func FuzzThreeWay(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s[0], s[1], s[2], false)
		f.Add(s[0], s[1], s[2], true)
	}
	schema := fuzzSchema(f)
	f.Fuzz(func(t *testing.T, original, modified, current []byte, overwrite bool) {
		ov, err1 := parse.Document(original)
		mv, err2 := parse.Document(modified)
		cv, err3 := parse.Document(current)
		if err1 != nil || err2 != nil || err3 != nil {
			return
		}
		opts := patchgen.Options{Schema: schema, Overwrite: overwrite}
		if len(original)%2 == 1 {
			opts.Gates = features.Kubectl()
		}
		p1, e1 := patchgen.ThreeWay(ov, mv, cv, opts)
		p2, e2 := patchgen.ThreeWay(ov, mv, cv, opts)
		sameResult(t, p1, e1, p2, e2)
	})
}

// hasDollarKey reports whether v has a map key starting with "$" (input
// that could carry directive-like keys into a patch verbatim).
func hasDollarKey(v value.Value) bool {
	switch v.Kind() {
	case value.KindMap:
		for _, f := range v.Fields() {
			if strings.HasPrefix(f.Key, "$") || hasDollarKey(f.Value) {
				return true
			}
		}
	case value.KindList:
		for _, it := range v.Items() {
			if hasDollarKey(it) {
				return true
			}
		}
	}
	return false
}

// misplacedDirective returns a message for the first directive of patch v
// (of type t with metadata meta; item: v is an item of a merged list of
// maps) that the field's strategy does not allow, or "".
func misplacedDirective(v value.Value, t *openapi.Type, meta openapi.Meta, item bool, at string) string {
	switch v.Kind() {
	case value.KindMap:
		if meta.Strategy.Has(openapi.StrategyReplace) {
			return ""
		}
		for _, f := range v.Fields() {
			switch {
			case f.Key == smp.RetainKeysKey:
				if !meta.Strategy.Has(openapi.StrategyRetainKeys) {
					return at + ": $retainKeys on a map without strategy retainKeys"
				}
			case f.Key == smp.DirectiveKey:
				if !item {
					return at + ": $patch outside a merged list item"
				}
			case strings.HasPrefix(f.Key, smp.SetOrderPrefix):
				lt, lm := t.Child(strings.TrimPrefix(f.Key, smp.SetOrderPrefix))
				if lt.Kind != openapi.KindList || !lm.Strategy.Has(openapi.StrategyMerge) {
					return at + ": " + f.Key + " on a list without strategy merge"
				}
			case strings.HasPrefix(f.Key, smp.DeletePrefix):
				lt, lm := t.Child(strings.TrimPrefix(f.Key, smp.DeletePrefix))
				if lt.Kind != openapi.KindList || !lm.Strategy.Has(openapi.StrategyMerge) || lt.Item().Kind != openapi.KindPrimitive {
					return at + ": " + f.Key + " on a field that is not a merged list of primitives"
				}
			default:
				ct, cm := t.Child(f.Key)
				if msg := misplacedDirective(f.Value, ct, cm, false, at+"."+f.Key); msg != "" {
					return msg
				}
			}
		}
	case value.KindList:
		merged := t.Kind == openapi.KindList && meta.Strategy.Has(openapi.StrategyMerge) && len(meta.MergeKey) > 0
		itemMeta := openapi.Meta{Strategy: meta.Strategy & openapi.StrategyRetainKeys}
		if !merged {
			itemMeta = openapi.Meta{}
		}
		for _, it := range v.Items() {
			if msg := misplacedDirective(it, t.Item(), itemMeta, merged, at+"[]"); msg != "" {
				return msg
			}
		}
	}
	return ""
}
