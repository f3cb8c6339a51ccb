package dropinbench_test

import (
	"encoding/json"
	"testing"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/plyproject/ply/test/dropinbench"
)

// fixedCases are patches whose cost is the call's own rather than the data's: a top-level scalar onto a two-field
// object, and a scalar four levels down (spec.template.spec.hostname) onto an object holding that path.
var fixedCases = []struct{ name, original, patch string }{
	{"trivial", `{"kind":"Deployment","apiVersion":"apps/v1"}`, `{"kind":"X"}`},
	{"depth4", `{"kind":"Deployment","apiVersion":"apps/v1","spec":{"replicas":1,"template":{"metadata":{"name":"a"},"spec":{"hostname":"a","subdomain":"b"}}}}`,
		`{"spec":{"template":{"spec":{"hostname":"h"}}}}`},
}

// BenchmarkFixedCost measures the per-call and per-level cost of StrategicMergePatch and StrategicMergeMapPatch, ply
// and apimachinery side by side. apimachinery's map call is given the same maps each time (it writes into them; the
// patches are idempotent), so that it is timed on the merge alone.
func BenchmarkFixedCost(b *testing.B) {
	for _, c := range fixedCases {
		var orig, patch map[string]interface{}
		if err := json.Unmarshal([]byte(c.original), &orig); err != nil {
			b.Fatal(err)
		}
		if err := json.Unmarshal([]byte(c.patch), &patch); err != nil {
			b.Fatal(err)
		}
		for _, api := range dropinbench.APIs {
			b.Run("op=StrategicMergeMapPatch/case="+c.name+"/impl="+api.Name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := api.StrategicMergeMapPatch(orig, patch, &appsv1.Deployment{}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("op=StrategicMergePatch/case="+c.name+"/impl="+api.Name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := api.StrategicMergePatch([]byte(c.original), []byte(c.patch), &appsv1.Deployment{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
