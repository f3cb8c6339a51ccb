package value_test

import (
	"path/filepath"
	"testing"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/fuzzseed"
)

// FuzzYAML checks that every document ply reads is written by Value.YAML as
// YAML that reads back to an Equal value, both with ply's parser and with
// kubectl's (sigs.k8s.io/yaml).
func FuzzYAML(f *testing.F) {
	fuzzseed.Files(f, filepath.Join("testdata", "yaml", "*"))
	for _, s := range []string{`"yes"`, `{"a": ["- x", "", 1.0, 1e400]}`, "a: !!binary /w==", "- '#'\n- ':'"} {
		f.Add([]byte(s))
	}
	limits := parse.Limits{MaxBytes: 1 << 16, MaxAliasExpansion: 1 << 12}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := limits.Documents(data)
		if err != nil {
			return
		}
		for _, v := range docs {
			out := v.YAML()
			got, err := parse.Document(out)
			if err != nil {
				t.Fatalf("parse of\n%s\nfails: %v", out, err)
			}
			if !value.Equal(got, v) {
				t.Fatalf("parse of\n%s\ngives %s, want %s", out, got.JSON(), v.JSON())
			}
			k, err := kubectlReadsYAML(out)
			if err != nil {
				t.Fatalf("sigs.k8s.io/yaml of\n%s\nfails: %v", out, err)
			}
			if !jsonEqual(k, v) {
				t.Fatalf("sigs.k8s.io/yaml of\n%s\ngives %s, want %s", out, k.JSON(), v.JSON())
			}
		}
	})
}
