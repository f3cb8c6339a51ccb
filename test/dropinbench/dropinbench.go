// Package dropinbench measures pkg/strategicpatch against k8s.io/apimachinery's strategicpatch, the same calls on the
// same inputs: StrategicMergePatch (JSON, the struct schema of apps/v1 Deployment: the API server's PATCH),
// StrategicMergeMapPatch (the same on maps, deep copies of them included) and CreateThreeWayMergePatch (kubectl apply's patch, Helm's upgrade) on
// test/internal/benchcase's Deployments (10, 100 and 1,000 env entries; the image changed, or every env value).
//
//	go test ./test/dropinbench -run XXX -bench . -benchmem          # testing.B, side by side
//	go run ./test/dropinbench/cmd/ratios -cpu -benchtime 500ms -count 5  # the tables of ratios, docs/strategicpatch.md
//
// The package's Ginkgo suite checks that both implementations return the same bytes (maps) on every input, so the
// numbers compare equal work.
package dropinbench

import (
	"encoding/json"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"

	ply "github.com/plyproject/ply/pkg/strategicpatch"
	"github.com/plyproject/ply/test/internal/benchcase"
)

// Sizes are the env sizes measured.
var Sizes = []int{10, 100, 1000}

// API is one implementation of the three calls measured.
type API struct {
	Name                     string
	StrategicMergePatch      func(original, patch []byte, dataStruct interface{}) ([]byte, error)
	StrategicMergeMapPatch   func(original, patch sp.JSONMap, dataStruct interface{}) (sp.JSONMap, error)
	CreateThreeWayMergePatch func(original, modified, current []byte, schema sp.LookupPatchMeta, overwrite bool, fns ...mergepatch.PreconditionFunc) ([]byte, error)
}

// APIs are ply's and apimachinery's, in that order.
var APIs = []API{
	{"ply", ply.StrategicMergePatch, ply.StrategicMergeMapPatch, ply.CreateThreeWayMergePatch},
	{"apimachinery", sp.StrategicMergePatch, sp.StrategicMergeMapPatch, sp.CreateThreeWayMergePatch},
}

// Ops are the calls measured.
var Ops = []string{"StrategicMergePatch", "StrategicMergeMapPatch", "CreateThreeWayMergePatch"}

// Case is one input: a benchcase Deployment triple and kubectl's patch of it (apimachinery's, the same for both).
type Case struct {
	benchcase.Input
	Patch []byte
	// liveMap and patchMap are Live and Patch decoded, as the API server decodes them (int64 numbers).
	liveMap, patchMap map[string]interface{}
}

// Schema is the Deployment's struct schema, as the API server and Helm read it.
var Schema, _ = sp.NewPatchMetaFromStruct(&appsv1.Deployment{})

// NewCase builds the input of env entries with change ("one" or "all").
func NewCase(env int, change string) (Case, error) {
	in := benchcase.Make(env, change)
	p, err := sp.CreateThreeWayMergePatch(in.Recorded, in.Local, in.Live, Schema, true)
	if err != nil {
		return Case{}, err
	}
	c := Case{Input: in, Patch: p}
	for _, d := range []struct {
		data []byte
		into *map[string]interface{}
	}{{in.Live, &c.liveMap}, {p, &c.patchMap}} {
		var v interface{}
		if err := utiljson.Unmarshal(d.data, &v); err != nil {
			return Case{}, err
		}
		*d.into = v.(map[string]interface{})
	}
	return c, nil
}

// Call runs op of api on c once, returning its result as JSON (maps: encoded only when encode is set). The map call
// takes deep copies of c's live object and patch (runtime.DeepCopyJSON), made in the measured time for both
// implementations: apimachinery modifies its arguments, so a caller keeping them copies them.
func Call(api API, op string, c Case, encode bool) ([]byte, error) {
	switch op {
	case "StrategicMergePatch":
		return api.StrategicMergePatch(c.Live, c.Patch, &appsv1.Deployment{})
	case "StrategicMergeMapPatch":
		out, err := api.StrategicMergeMapPatch(runtime.DeepCopyJSON(c.liveMap), runtime.DeepCopyJSON(c.patchMap), &appsv1.Deployment{})
		if err != nil || !encode {
			return nil, err
		}
		return json.Marshal(out)
	case "CreateThreeWayMergePatch":
		return api.CreateThreeWayMergePatch(c.Recorded, c.Local, c.Live, Schema, true)
	}
	panic("dropinbench: unknown op " + op)
}

// Bench is the benchmark of op of api on c.
func Bench(api API, op string, c Case) func(b *testing.B) {
	return func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Call(api, op, c, false); err != nil {
				b.Fatal(err)
			}
		}
	}
}
