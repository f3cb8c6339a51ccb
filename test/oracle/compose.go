package oracle

import (
	"encoding/json"
	"fmt"
	"slices"
	_ "unsafe" // go:linkname

	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

// mergeMap is strategicpatch's own merge of a patch into a map, unexported:
// CreateThreeWayMergePatch merges the delta half of its patch into the
// deletions half with it.
//
//go:linkname mergeMap k8s.io/apimachinery/pkg/util/strategicpatch.mergeMap
func mergeMap(original, patch map[string]interface{}, schema strategicpatch.LookupPatchMeta, opts strategicpatch.MergeOptions) (map[string]interface{}, error)

// MergePatches merges patch second into patch first (JSON objects) as
// CreateThreeWayMergePatch merges its two halves: mergeMap(first, second)
// with MergeParallelList and IgnoreUnmatchedNulls off. (The exported
// MergeStrategicMergeMapPatchUsingLookupPatchMeta, MergedPatches below,
// merges first into {} before, which drops the maps of first that hold
// "$patch": its delete items.) A panic is returned as an error.
func (o *Oracle) MergePatches(first, second []byte) ([]byte, error) {
	return o.merge(first, second, func(f, s map[string]interface{}) (map[string]interface{}, error) {
		return mergeMap(f, s, o.meta, strategicpatch.MergeOptions{})
	})
}

// MergePatchesWithoutRoom is MergePatches with both patches' lists holding
// no room to grow (capacity their length), as lists converted from typed
// objects hold none. Where a set names a value twice and its array has
// room for the list merged into it, strategicpatch's append writes into it
// and its deduplication in place rewrites that list, by which it then
// ranks the result; without room its order follows the list as given
// (class oracle-aliases-first). The set is the first patch's, or the
// second's where an item of a key new to the first holds it and a later
// item of that key merges a set into it.
func (o *Oracle) MergePatchesWithoutRoom(first, second []byte) ([]byte, error) {
	return o.merge(first, second, func(f, s map[string]interface{}) (map[string]interface{}, error) {
		return mergeMap(ClipLists(f).(map[string]interface{}), ClipLists(s).(map[string]interface{}), o.meta, strategicpatch.MergeOptions{})
	})
}

// ClipLists returns v, a decoded JSON value, with every list's capacity its
// length, modifying v.
func ClipLists(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, f := range x {
			x[k] = ClipLists(f)
		}
	case []any:
		for i, it := range x {
			x[i] = ClipLists(it)
		}
		return slices.Clip(x)
	}
	return v
}

// MergedPatches is MergeStrategicMergeMapPatchUsingLookupPatchMeta(meta,
// first, second). A panic is returned as an error.
func (o *Oracle) MergedPatches(first, second []byte) ([]byte, error) {
	return o.merge(first, second, func(f, s map[string]interface{}) (map[string]interface{}, error) {
		return strategicpatch.MergeStrategicMergeMapPatchUsingLookupPatchMeta(o.meta, f, s)
	})
}

func (o *Oracle) merge(first, second []byte, merge func(f, s map[string]interface{}) (map[string]interface{}, error)) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("oracle: strategicpatch panicked: %v", p)
		}
	}()
	var f, s map[string]interface{}
	if err := json.Unmarshal(first, &f); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(second, &s); err != nil {
		return nil, err
	}
	m, err := merge(f, s)
	if err != nil {
		return nil, err
	}
	return json.Marshal(m)
}
