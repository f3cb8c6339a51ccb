package engine_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/strategicpatch/engine"
)

// FuzzApplyMapScoped applies arbitrary JSON objects as a patch to arbitrary JSON objects through ApplyMap, which
// converts only what the patch reaches (items of lists merged by key it does not name as placeholders) and runs the
// engine below the maps the patch passes through with one field each (applySpine) or merges fieldwise below them
// (fieldwise), and through ApplyMapWhole, which
// converts original whole: with every gate off and every gate on, under listSchema, a schema whose look-ups never
// fail and spineSchema, both give equal results (reflect.DeepEqual) or the same error, and leave the arguments as
// they were.
func FuzzApplyMapScoped(f *testing.F) {
	cases := append(scopedCases(), spineCases()...)
	for _, c := range fieldwiseCases() {
		cases = append(cases, c.scopedCase)
	}
	for _, c := range cases {
		original, _ := json.Marshal(c.Original)
		patch, _ := json.Marshal(c.Patch)
		f.Add(original, patch)
	}
	on := features.Gates{}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		var original, patch map[string]interface{}
		if json.Unmarshal(a, &original) != nil || json.Unmarshal(b, &patch) != nil {
			return
		}
		before, _ := json.Marshal([]interface{}{original, patch})
		for _, l := range []engine.Lookup{listSchema, lenientListSchema, spineSchema} {
			for _, o := range []engine.Options{{}, {Gates: &on}} {
				got, err := o.ApplyMap(original, patch, l)
				want, wantErr := o.ApplyMapWhole(original, patch, l)
				if errText(err) != errText(wantErr) {
					t.Fatalf("errors differ: scoped %v, whole %v", err, wantErr)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("results differ:\nscoped %v\nwhole  %v", got, want)
				}
			}
		}
		if after, _ := json.Marshal([]interface{}{original, patch}); string(after) != string(before) {
			t.Fatalf("ApplyMap modified its arguments")
		}
	})
}

// lenientListSchema is listSchema's merge metadata in look-ups that never fail.
var lenientListSchema = lookup{"spec": {sub: lookup{
	"containers": {meta: engine.Meta{Strategies: []string{"merge"}, MergeKey: "name"}, sub: lookup{
		"env": {meta: engine.Meta{Strategies: []string{"merge"}, MergeKey: "name"}, sub: lookup{
			"items": {sub: lookup{}, meta: engine.Meta{Strategies: []string{"merge"}, MergeKey: "k"}},
		}},
		"ports": {sub: lookup{}, meta: engine.Meta{Strategies: []string{"merge"}, MergeKey: "containerPort"}},
	}},
}}}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
