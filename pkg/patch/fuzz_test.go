package patch_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
)

// FuzzApply applies arbitrary patches to arbitrary objects with the test
// schema, seeded with every fixture: Apply must not panic, its errors are
// *elements.Error, a result is an object that survives a JSON round trip,
// Apply is deterministic, and OrderKubectl gives what OrderSeed gives (the
// same error, or the same items) but for the order of list items. With
// every gate off, too, it gives an *elements.Error or an object, the same
// each time.
func FuzzApply(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.yaml"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		doc, err := parse.Document(data)
		if err != nil {
			f.Fatal(file, err)
		}
		live, _ := doc.Get("live")
		p, _ := doc.Get("patch")
		f.Add(live.JSON(), p.JSON())
	}
	// A list naming one key twice, merged in turn with every gate off.
	f.Add([]byte(`{"apiVersion":"patch.ply.dev/v1","kind":"Example","keyed":[{"mergeKey":"a","other":"A"}]}`),
		[]byte(`{"$setElementOrder/keyed":[{"mergeKey":"a"},{"mergeKey":"b"},{"mergeKey":"a"}],"keyed":[{"mergeKey":"a","other":null},{"mergeKey":"b"},{"mergeKey":"a","other":"B"}]}`))
	s, err := testSchema()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, liveDoc, patchDoc []byte) {
		limits := parse.Limits{MaxBytes: 1 << 16}
		live, err := limits.Document(liveDoc)
		if err != nil {
			return
		}
		p, err := limits.Document(patchDoc)
		if err != nil {
			return
		}
		checkGatesOff(t, live, p, s)
		checkReused(t, live, p, s)
		opts := patch.Options{Schema: s}
		out, err := patch.Apply(live, p, opts)
		again, err2 := patch.Apply(live, p, opts)
		if err != nil {
			var ee *elements.Error
			if !errors.As(err, &ee) {
				t.Fatalf("error %T %v is not an *elements.Error", err, err)
			}
			if err2 == nil || err2.Error() != err.Error() {
				t.Fatalf("not deterministic: %v, then %v", err, err2)
			}
			opts.Ordering = patch.OrderKubectl
			if _, errK := patch.Apply(live, p, opts); errK == nil || errK.Error() != err.Error() {
				t.Fatalf("OrderSeed fails with %v, OrderKubectl with %v", err, errK)
			}
			return
		}
		if err2 != nil || !value.Equal(out, again) {
			t.Fatalf("not deterministic: %s, then %s (%v)", out.JSON(), again.JSON(), err2)
		}
		if !out.IsMap() {
			t.Fatalf("result is %s, not an object", out.Kind())
		}
		back, err := parse.Document(out.JSON())
		if err != nil || !value.Equal(back, out) {
			t.Fatalf("result %s does not survive a JSON round trip: %v", out.JSON(), err)
		}
		opts.Ordering = patch.OrderKubectl
		kubectl, err := patch.Apply(live, p, opts)
		if err != nil {
			t.Fatalf("OrderKubectl fails where OrderSeed does not: %v", err)
		}
		if !value.Equal(sortedLists(kubectl), sortedLists(out)) {
			t.Fatalf("OrderKubectl gives other items: %s, OrderSeed %s", kubectl.JSON(), out.JSON())
		}
	})
}

// checkGatesOff checks Apply with every gate off (a patch's repeated keys merged in turn among them): an
// *elements.Error or an object, the same twice.
func checkGatesOff(t *testing.T, live, p value.Value, s *openapi.Schema) {
	off := patch.Options{Schema: s, Gates: features.Kubectl()}
	if out, err := patch.Apply(live, p, off); err != nil {
		var ee *elements.Error
		if !errors.As(err, &ee) {
			t.Fatalf("every gate off: error %T %v is not an *elements.Error", err, err)
		}
	} else if again, err := patch.Apply(live, p, off); !out.IsMap() || err != nil || !value.Equal(out, again) {
		t.Fatalf("every gate off: %s, then %s (%v)", out.JSON(), again.JSON(), err)
	}
}

// checkReused checks that ApplyReused gives Apply's result or error, its memory and Walker kept from calls under
// other options (every gate off, then the defaults).
func checkReused(t *testing.T, live, p value.Value, s *openapi.Schema) {
	for _, o := range []patch.Options{{Schema: s, Gates: features.Kubectl()}, {Schema: s}} {
		want, wantErr := patch.Apply(live, p, o)
		got, release, err := patch.ApplyReused(live, p, o)
		switch {
		case (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error():
			t.Fatalf("ApplyReused fails with %v, Apply with %v", err, wantErr)
		case err == nil && !value.Equal(got, want):
			t.Fatalf("ApplyReused gives %s, Apply %s", got.JSON(), want.JSON())
		}
		release()
	}
}
