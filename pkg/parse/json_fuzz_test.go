package parse

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/fuzzseed"
	"github.com/plyproject/ply/test/jsonv"
)

// FuzzJSONScanner checks ply's JSON scanner against encoding/json (the
// oracle): the same inputs are accepted, and they decode to the same values.
// ply rejects duplicate keys and nesting beyond its limit on purpose; such
// inputs are skipped.
func FuzzJSONScanner(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":[true,false,null,"x\u00e9\ud83d\ude00"],"c":{"d":-1.5e3}}`,
		`[1, 2.0, -0, 9223372036854775807, 9223372036854775808, 1e400]`,
		`{"z":1,"a":2} {"b":3}`, `"\ud800"`, `"\ud800\u0041"`, "\"\xff\"", `{"a":1,}`, `[01]`, `{"a" 1}`,
	} {
		f.Add([]byte(s))
	}
	// The JSON fixtures of the parse tests.
	fuzzseed.Files(f, filepath.Join("testdata", "*", "*.json"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !looksLikeJSON(data) {
			return
		}
		want, werr := oracleJSONStream(data)
		// Owned: the strings share the (cloned) input.
		docs, err, _ := Limits{}.withDefaults().parseJSON(bytes.Clone(data), true, nil, nil)
		if err != nil && (strings.Contains(err.Msg, "duplicate key") || strings.Contains(err.Msg, "nesting is deeper")) {
			return
		}
		if (werr == nil) != (err == nil) {
			t.Fatalf("encoding/json error %v, ply error %v for %q", werr, err, data)
		}
		if err != nil {
			return
		}
		if len(docs) != len(want) {
			t.Fatalf("%d documents, want %d for %q", len(docs), len(want), data)
		}
		for i := range want {
			if !value.Equal(docs[i].v, want[i]) {
				t.Fatalf("document %d: got %s want %s", i, docs[i].v.JSON(), want[i].JSON())
			}
		}
		// Read into memory that earlier inputs used: the same documents.
		defer fuzzArena.Reset()
		again, err, _ := Limits{}.withDefaults().parseJSON(bytes.Clone(data), true, &fuzzArena, nil)
		if err != nil || len(again) != len(want) {
			t.Fatalf("in an Arena: %d documents, error %v for %q", len(again), err, data)
		}
		for i := range want {
			if !value.Equal(again[i].v, want[i]) {
				t.Fatalf("in an Arena, document %d: got %s want %s", i, again[i].v.JSON(), want[i].JSON())
			}
		}
	})
}

// fuzzArena is the Arena FuzzJSONScanner reads every input into a second
// time, so that each reuses memory an earlier input held.
var fuzzArena Arena

// oracleJSONStream decodes every value of data with encoding/json, leaving
// out nulls (as parseJSON does), numbers converted like jsonNumber.
func oracleJSONStream(data []byte) ([]value.Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out []value.Value
	for {
		var x any
		err := dec.Decode(&x)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		v, err := jsonv.FromAny(x)
		if err != nil {
			return nil, err
		}
		if !v.IsNull() {
			out = append(out, v)
		}
	}
}
