package strategicpatch_test

import (
	"encoding/json"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/mergepatch"

	ply "github.com/plyproject/ply/pkg/strategicpatch"
)

// FuzzStrategicMergePatch applies arbitrary text as a patch to arbitrary text with a Deployment's struct schema, and
// creates the two- and three-way patches between them: no call panics, text that is not JSON is
// mergepatch.ErrBadJSONDoc (compared with ==, as the API server does), a result is a JSON object, every call gives the
// same bytes or error twice, and the map form of patch application leaves its arguments as they were, gives the result
// and error of a look-up that keeps no types and, where both succeed, the JSON form's object (the map form converts
// only what the patch reaches, the JSON form everything).
func FuzzStrategicMergePatch(f *testing.F) {
	f.Add([]byte(current), []byte(`{"spec":{"replicas":4,"template":{"spec":{"containers":[{"name":"web","image":"x"}]}}}}`))
	f.Add([]byte(original), []byte(modified))
	f.Add([]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"a","env":[{"name":"x"}]}]}}}}`),
		[]byte(`{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"containers":[{"name":"b"},{"$patch":"delete","name":"a"}]}}}}`))
	f.Add([]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"1","env":[{"name":"X","value":"1"},{"name":"Y","value":"2"}],"ports":[{"containerPort":80}]},{"name":"b","env":[{"name":"X","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}]}}}}`),
		[]byte(`{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"containers":[{"name":"a","env":[{"name":"Y","value":"3"}]}]}}}}`))
	f.Add([]byte(`{"metadata":{"finalizers":["a","b"]}}`), []byte(`{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"],"finalizers":["c"]}}`))
	f.Add([]byte(`{"spec":{"strategy":{"type":"Recreate"}}}`), []byte(`{"spec":{"strategy":{"$retainKeys":["type"],"type":"RollingUpdate"}}}`))
	f.Add([]byte(`not json`), []byte(`{}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		out, err := ply.StrategicMergePatch(a, b, &appsv1.Deployment{})
		again, err2 := ply.StrategicMergePatch(a, b, &appsv1.Deployment{})
		if string(out) != string(again) || errText(err) != errText(err2) {
			t.Fatalf("not deterministic: %s %v / %s %v", out, err, again, err2)
		}
		// The types kept for the Go type's objects (by shape, from earlier inputs) give the result of a look-up that
		// keeps none.
		var asked []string
		uncached, err3 := ply.StrategicMergePatchUsingLookupPatchMeta(a, b, countingLookup{schema, &asked})
		if string(out) != string(uncached) || errText(err) != errText(err3) {
			t.Fatalf("the type kept differs from the type built: %s %v / %s %v", out, err, uncached, err3)
		}
		if len(a) > 0 && len(b) > 0 && (!json.Valid(a) || !json.Valid(b)) && err != mergepatch.ErrBadJSONDoc {
			t.Fatalf("text that is not JSON: %v, want mergepatch.ErrBadJSONDoc", err)
		}
		if err == nil && !isObject(out) {
			t.Fatalf("the result is not a JSON object: %s", out)
		}
		var objA, objB map[string]interface{}
		if json.Unmarshal(a, &objA) == nil && json.Unmarshal(b, &objB) == nil {
			before, _ := json.Marshal([]interface{}{objA, objB})
			fromMaps, mapErr := ply.StrategicMergeMapPatch(objA, objB, &appsv1.Deployment{})
			if after, _ := json.Marshal([]interface{}{objA, objB}); string(before) != string(after) {
				t.Fatalf("StrategicMergeMapPatch modified its arguments")
			}
			if mapErr == nil && err == nil && !sameObject(fromMaps, out) {
				t.Fatalf("the map form's result differs from the JSON form's:\n%v\n%s", fromMaps, out)
			}
			// The types kept by the skeletons of the map form's documents give the result of a look-up that keeps none.
			uncachedMaps, mapErr2 := ply.StrategicMergeMapPatchUsingLookupPatchMeta(objA, objB, countingLookup{schema, &asked})
			if errText(mapErr) != errText(mapErr2) || !reflect.DeepEqual(fromMaps, uncachedMaps) {
				t.Fatalf("the map form's kept type differs from the type built: %v %v / %v %v", fromMaps, mapErr, uncachedMaps, mapErr2)
			}
		}
		for _, create := range []func() ([]byte, error){
			func() ([]byte, error) { return ply.CreateTwoWayMergePatch(a, b, &appsv1.Deployment{}) },
			func() ([]byte, error) { return ply.CreateThreeWayMergePatch(a, b, a, schema, false) },
		} {
			p1, e1 := create()
			p2, e2 := create()
			if string(p1) != string(p2) || errText(e1) != errText(e2) {
				t.Fatalf("patch creation not deterministic: %s %v / %s %v", p1, e1, p2, e2)
			}
			if e1 == nil && !isObject(p1) {
				t.Fatalf("the patch is not a JSON object: %s", p1)
			}
		}
	})
}

// sameObject reports whether m, encoded and decoded, is the object JSON text data holds.
func sameObject(m map[string]interface{}, data []byte) bool {
	encoded, err := json.Marshal(m)
	if err != nil {
		return false
	}
	var a, b interface{}
	return json.Unmarshal(encoded, &a) == nil && json.Unmarshal(data, &b) == nil && reflect.DeepEqual(a, b)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func isObject(data []byte) bool {
	var m map[string]interface{}
	return json.Unmarshal(data, &m) == nil && m != nil
}
