package cluster

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/fuzzseed"
)

// seedFiles adds the manifests under testdata to f.
func seedFiles(f *testing.F) {
	fuzzseed.Files(f, "testdata/read/*.yaml", "testdata/read/dir/*", "testdata/kubectl/*")
}

// FuzzDecodeObjects checks that any input decodes to objects or an error
// naming the file, never a panic, and that every object has what Apply
// needs.
func FuzzDecodeObjects(f *testing.F) {
	seedFiles(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, err := decodeObjects("in.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "in.yaml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, o := range objs {
			if r := refOf(o); r.Kind == "" || r.Name == "" {
				t.Fatalf("object %s without kind or name", o.Source)
			}
		}
	})
}

// FuzzLastApplied checks that the annotation of any object is what
// encoding/json's Encoder (which kubectl's unstructured JSON encoding
// uses) writes for the same document, and that it reads back.
func FuzzLastApplied(f *testing.F) {
	seedFiles(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, err := decodeObjects("in.yaml", data)
		if err != nil {
			return
		}
		for _, o := range objs {
			got := LastAppliedConfiguration(o.Value)
			var generic any
			d := json.NewDecoder(strings.NewReader(got))
			d.UseNumber()
			if err := d.Decode(&generic); err != nil {
				t.Fatalf("annotation is not JSON: %v\n%s", err, got)
			}
			var want bytes.Buffer
			if err := json.NewEncoder(&want).Encode(generic); err != nil {
				t.Fatal(err)
			}
			if got != want.String() {
				t.Fatalf("annotation differs from encoding/json's:\n got %s\nwant %s", got, want.String())
			}
			back, err := parse.Document([]byte(got))
			if err != nil {
				t.Fatalf("annotation does not parse: %v", err)
			}
			if LastAppliedConfiguration(back) != got {
				t.Fatalf("annotation does not round-trip")
			}
			if rec, err := RecordedFrom(WithLastApplied(o.Value)); err != nil || !value.Equal(rec, back) {
				t.Fatalf("RecordedFrom does not read the annotation back: %v", err)
			}
		}
	})
}

// FuzzUnifiedDiff checks that the edit script of any two texts turns one
// into the other.
func FuzzUnifiedDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd\n")
	f.Add("", "x")
	f.Add("x\ny", "x\ny\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		var gotA, gotB strings.Builder
		for _, op := range editScript(splitLines(a), splitLines(b)) {
			if op.kind != '+' {
				gotA.WriteString(op.line)
			}
			if op.kind != '-' {
				gotB.WriteString(op.line)
			}
		}
		if gotA.String() != a || gotB.String() != b {
			t.Fatalf("edit script does not turn %q into %q", a, b)
		}
		if d := unifiedDiff("a", "b", a, b); (d == "") != (a == b) {
			t.Fatalf("diff emptiness wrong for %q, %q", a, b)
		}
	})
}
