package strategicpatch_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"

	ply "github.com/plyproject/ply/pkg/strategicpatch"
)

// FuzzStrategicMergePatchTrimmed applies arbitrary text as a patch to arbitrary text with a Deployment's struct
// schema, merging the fields the patch does not reach (StrategicMergePatch) and not (StrategicMergePatchWhole): both
// give the same bytes or the same error.
func FuzzStrategicMergePatchTrimmed(f *testing.F) {
	for _, c := range trimCases {
		f.Add([]byte(c.Original), []byte(c.Patch))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		got, err := ply.StrategicMergePatch(a, b, &appsv1.Deployment{})
		want, wantErr := ply.StrategicMergePatchWhole(a, b, &appsv1.Deployment{})
		if string(got) != string(want) || errText(err) != errText(wantErr) {
			t.Fatalf("trimmed %s %v, whole %s %v", got, err, want, wantErr)
		}
	})
}
