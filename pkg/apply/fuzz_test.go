package apply_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// FuzzMerge feeds arbitrary recorded/local/live documents to Merge against
// the Deployment schema, with every gate on or (mode 4) off: Merge must
// never panic, must be deterministic and agree with MergeBytes on the same
// text, and with the seed ordering re-applying local onto its own result
// must change nothing.
func FuzzMerge(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "seeds", "*.yaml"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		doc, err := parse.Document(data)
		if err != nil {
			f.Fatal(err)
		}
		get := func(k string) []byte { v, _ := doc.Get(k); return v.JSON() }
		f.Add(get("recorded"), get("local"), get("live"), uint8(0))
	}
	f.Add([]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1}]}]}}}}`),
		[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"a","env":[{"name":"X"}]},{"name":"b"}]}}}}`),
		[]byte(`{"spec":{"strategy":{"rollingUpdate":{}},"template":{"spec":{"containers":[{"name":"b"},{"name":"a","ports":[]}]}}}}`), uint8(3))
	// Every gate off (mode 4): a port repeated under kubectl's one-field key.
	f.Add([]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"a","ports":[{"containerPort":53,"protocol":"TCP"},{"containerPort":53,"protocol":"UDP"}]}]}}}}`),
		[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"a","ports":[{"containerPort":53,"protocol":"UDP"}]}]}}}}`),
		[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"a","ports":[{"containerPort":53,"protocol":"TCP","name":"x"}]}]}}}}`), uint8(4))
	f.Fuzz(func(t *testing.T, recorded, local, live []byte, mode uint8) {
		rv, err1 := optional(recorded)
		lv, err2 := parse.Document(local)
		vv, err3 := optional(live)
		if err1 != nil || err2 != nil || err3 != nil {
			return
		}
		opts := apply.Options{TypeName: "io.k8s.api.apps.v1.Deployment", Overwrite: mode&1 == 0}
		if mode&2 != 0 {
			opts.Ordering = apply.OrderingKubectl
		}
		if mode&4 != 0 {
			opts.Gates = features.Kubectl()
		}
		res, err := apply.Merge(rv, lv, vv, opts)
		again, err2x := apply.Merge(rv, lv, vv, opts)
		if (err == nil) != (err2x == nil) || (err != nil && err.Error() != err2x.Error()) {
			t.Fatalf("not deterministic: %v vs %v", err, err2x)
		}
		// MergeBytes, on the same text, fails alike or encodes the same object.
		out, warnings, errBytes := apply.MergeBytes(recorded, local, live, opts)
		if (err == nil) != (errBytes == nil) || (err != nil && err.Error() != errBytes.Error()) {
			t.Fatalf("MergeBytes: %v, Merge: %v", errBytes, err)
		}
		if err != nil {
			return
		}
		if string(out) != string(res.Object.JSON()) || !slices.Equal(warnings, res.Warnings) {
			t.Fatalf("MergeBytes returned\n%s %q\nMerge\n%s %q", out, warnings, res.Object.JSON(), res.Warnings)
		}
		if !value.Equal(res.Object, again.Object) || len(res.Changes) != len(again.Changes) {
			t.Fatalf("not deterministic:\n%s\n%s", res.Object.JSON(), again.Object.JSON())
		}
		if !res.Object.IsMap() {
			t.Fatalf("result is not an object: %s", res.Object.JSON())
		}
		if opts.Ordering != apply.OrderingSeed || !opts.Overwrite || mode&4 != 0 {
			return
		}
		second, err := apply.Merge(lv, lv, res.Object, opts)
		if err != nil {
			t.Fatalf("re-apply failed: %v", err)
		}
		if !value.Equal(second.Object, res.Object) || len(second.Changes) != 0 {
			t.Fatalf("re-apply changed the object:\nfirst  %s\nsecond %s\nchanges %v", res.Object.JSON(), second.Object.JSON(), second.Changes)
		}
	})
}

// optional reads an object that may be absent, as MergeBytes reads recorded
// and live: input holding no document is null.
func optional(data []byte) (value.Value, error) {
	v, err := parse.Document(data)
	var pe *parse.Error
	if errors.As(err, &pe) && pe.NoDocument() {
		return value.Null, nil
	}
	return v, err
}
