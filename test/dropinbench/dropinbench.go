// Package dropinbench measures pkg/strategicpatch against k8s.io/apimachinery's strategicpatch, the same calls on the
// same inputs: StrategicMergePatch (JSON, the struct schema of apps/v1 Deployment: the API server's PATCH),
// StrategicMergeMapPatch (the same on maps, two ways, Ops) and CreateThreeWayMergePatch (kubectl apply's patch, Helm's
// upgrade) on test/internal/benchcase's Deployments (10, 100 and 1,000 env entries; the image changed, or every env
// value). CreateThreeWayMergePatch is measured twice: with benchcase's live object as current (its spec recorded's
// text), and as CreateThreeWayMergePatchServed with the live object the API server serves (Served: server metadata,
// managedFields, defaults and status). Both are measured again with overwrite false (…NoOverwrite: current's changes
// since recorded checked for conflicts with the patch; there are none).
//
//	go test ./test/dropinbench -run XXX -bench . -benchmem          # testing.B, side by side
//	go run ./test/dropinbench/cmd/ratios -cpu -benchtime 500ms -count 5  # the tables of ratios, docs/strategicpatch.md
//
// apimachinery's StrategicMergeMapPatch writes into both its arguments; ply's never does. What the map call costs a
// caller thus depends on whether it keeps its arguments, and the two rows time exactly this:
//   - StrategicMergeMapPatch: the caller keeps its arguments. apimachinery is timed on deep copies of both
//     (runtime.DeepCopyJSON) and the call, ply on the call alone, given the case's maps themselves.
//   - StrategicMergeMapPatchFresh: the caller's arguments are its own to give away (decoded for the call, as the API
//     server's are). Both implementations are timed on the call alone, each given deep copies made beforehand, in
//     batches, with the clock stopped.
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

// Ops are the calls measured (StrategicMergeMapPatch two ways, see the package doc).
var Ops = []string{"StrategicMergePatch", "StrategicMergeMapPatch", "StrategicMergeMapPatchFresh", "CreateThreeWayMergePatch",
	"CreateThreeWayMergePatchServed", "CreateThreeWayMergePatchNoOverwrite", "CreateThreeWayMergePatchServedNoOverwrite"}

// writesArguments reports whether api's StrategicMergeMapPatch writes into its arguments (apimachinery's does).
func writesArguments(api API) bool { return api.Name == "apimachinery" }

// Case is one input: a benchcase Deployment triple and kubectl's patch of it (apimachinery's, the same for both).
type Case struct {
	benchcase.Input
	Patch []byte
	// Served is the live object as the API server serves it (see Served), CreateThreeWayMergePatchServed's current.
	Served []byte
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
	served, err := Served(in)
	if err != nil {
		return Case{}, err
	}
	c := Case{Input: in, Patch: p, Served: served}
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

// Call runs op of api on c once, returning its result as JSON (maps: encoded only when encode is set), the map calls'
// arguments made as the package doc says (for StrategicMergeMapPatchFresh, made here).
func Call(api API, op string, c Case, encode bool) ([]byte, error) {
	var args mapArgs
	if op == "StrategicMergeMapPatchFresh" {
		args = c.copies()
	}
	return call(api, op, c, args, encode)
}

// mapArgs are the arguments of one StrategicMergeMapPatchFresh call.
type mapArgs struct{ live, patch map[string]interface{} }

// copies returns deep copies of c's live object and patch.
func (c Case) copies() mapArgs {
	return mapArgs{runtime.DeepCopyJSON(c.liveMap), runtime.DeepCopyJSON(c.patchMap)}
}

// call is Call with StrategicMergeMapPatchFresh's arguments given.
func call(api API, op string, c Case, fresh mapArgs, encode bool) ([]byte, error) {
	var out sp.JSONMap
	var err error
	switch op {
	case "StrategicMergePatch":
		return api.StrategicMergePatch(c.Live, c.Patch, &appsv1.Deployment{})
	case "CreateThreeWayMergePatch":
		return api.CreateThreeWayMergePatch(c.Recorded, c.Local, c.Live, Schema, true)
	case "CreateThreeWayMergePatchServed":
		return api.CreateThreeWayMergePatch(c.Recorded, c.Local, c.Served, Schema, true)
	case "CreateThreeWayMergePatchNoOverwrite":
		return api.CreateThreeWayMergePatch(c.Recorded, c.Local, c.Live, Schema, false)
	case "CreateThreeWayMergePatchServedNoOverwrite":
		return api.CreateThreeWayMergePatch(c.Recorded, c.Local, c.Served, Schema, false)
	case "StrategicMergeMapPatch":
		args := mapArgs{c.liveMap, c.patchMap}
		if writesArguments(api) {
			args = c.copies() // (the caller keeps its arguments)
		}
		out, err = api.StrategicMergeMapPatch(args.live, args.patch, &appsv1.Deployment{})
	case "StrategicMergeMapPatchFresh":
		out, err = api.StrategicMergeMapPatch(fresh.live, fresh.patch, &appsv1.Deployment{})
	default:
		panic("dropinbench: unknown op " + op)
	}
	if err != nil || !encode {
		return nil, err
	}
	return json.Marshal(out)
}

// Timer is the clock of a measured loop, stopped while Loop makes the arguments of the calls ahead.
type Timer interface {
	StopTimer()
	StartTimer()
}

// freshBatch is the number of calls whose arguments Loop makes at once, the clock stopped.
const freshBatch = 64

// Loop calls op of api on c n times, StrategicMergeMapPatchFresh's arguments made in batches with t stopped.
func Loop(api API, op string, c Case, n int, t Timer) error {
	if op != "StrategicMergeMapPatchFresh" {
		for range n {
			if _, err := call(api, op, c, mapArgs{}, false); err != nil {
				return err
			}
		}
		return nil
	}
	args := make([]mapArgs, 0, freshBatch)
	for done := 0; done < n; done += len(args) {
		t.StopTimer()
		args = args[:0]
		for range min(freshBatch, n-done) {
			args = append(args, c.copies())
		}
		t.StartTimer()
		for _, a := range args {
			if _, err := call(api, op, c, a, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// Bench is the benchmark of op of api on c.
func Bench(api API, op string, c Case) func(b *testing.B) {
	return func(b *testing.B) {
		b.ReportAllocs()
		if err := Loop(api, op, c, b.N, b); err != nil {
			b.Fatal(err)
		}
	}
}
