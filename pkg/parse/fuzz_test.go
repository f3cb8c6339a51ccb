package parse

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/fuzzseed"
)

// fuzzLimits keep each fuzz run small.
var fuzzLimits = Limits{MaxBytes: 1 << 20, MaxAliasExpansion: 1 << 16}

func addSeeds(f *testing.F) {
	fuzzseed.Files(f, filepath.Join("testdata", "ok", "*"), filepath.Join("testdata", "error", "*"))
	for _, s := range []string{"", "a: &a [*a]", "{\"a\": [1, {\"b\": null}]}", "- !!binary /w==\n- \"\\x7f\"", "x: 1e400\ny: 0x1F"} {
		f.Add([]byte(s))
	}
}

// FuzzDocuments checks that no input makes Documents panic or fail with
// anything but an *Error, and that every document read re-encodes
// (value.JSON) to JSON that reads back to an equal value (SameAfterJSON).
func FuzzDocuments(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := fuzzLimits.Documents(data)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is a %T, not a *parse.Error", err, err)
			}
			return
		}
		for i, d := range docs {
			if d.IsNull() {
				t.Fatalf("document %d is null; null documents are left out", i)
			}
			j := d.JSON()
			again, jerr, _ := fuzzLimits.withDefaults().parseJSON(j, false, nil, nil)
			if jerr != nil {
				t.Fatalf("document %d re-encodes to %s, which does not read back: %v", i, j, jerr)
			}
			if len(again) != 1 || !SameAfterJSON(d, again[0].v) {
				t.Fatalf("document %d re-encodes to %s, which reads back as %d other documents", i, j, len(again))
			}
			if d.IsMap() || d.IsList() {
				v, err := fuzzLimits.Document(j)
				if err != nil || !SameAfterJSON(d, v) {
					t.Fatalf("document %d re-encodes to %s, which Document reads back as %s (%v)", i, j, v.JSON(), err)
				}
			}
		}
		if len(docs) == 1 {
			v, err := fuzzLimits.Document(data)
			if err != nil || !value.Equal(v, docs[0]) {
				t.Fatalf("Document disagrees with Documents: %v", err)
			}
			owned, err := fuzzLimits.OwnedDocument(bytes.Clone(data))
			if err != nil || !value.Equal(owned, docs[0]) {
				t.Fatalf("OwnedDocument disagrees with Documents: %v", err)
			}
		}
	})
}

// FuzzKubectl checks that whenever both kubectl (sigs.k8s.io/yaml) and
// ply read a single YAML document, they read it to Equal values.
func FuzzKubectl(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		// kubectl splits streams itself and reads JSON through
		// encoding/json; this compares single YAML documents.
		if bytes.Contains(data, []byte("---")) || bytes.Contains(data, []byte("...")) || looksLikeJSON(data) {
			return
		}
		want, kerr := KubectlReadsYAML(data)
		got, err := fuzzLimits.Documents(data)
		if kerr != nil || err != nil {
			return
		}
		if want.IsNull() {
			if len(got) != 0 {
				t.Fatalf("kubectl reads null, ply %d documents", len(got))
			}
			return
		}
		if len(got) != 1 || !SameAfterJSON(got[0], want) {
			var first []byte
			if len(got) > 0 {
				first = got[0].JSON()
			}
			t.Fatalf("kubectl reads %s, ply %d documents, the first %s", want.JSON(), len(got), first)
		}
	})
}
