package strategicpatch

// This file is apimachinery's strategicpatch API over ply's engine. It compiles in two places unchanged: here, where
// types.go aliases apimachinery's types, and inside a copy of apimachinery's own package, in place of its patch.go
// (test/smpsuite), so it names only LookupPatchMeta, PatchMeta, PatchMetaFromStruct, JSONMap, NewPatchMetaFromStruct and the imports
// below, and its own names start with "ply".

import (
	"maps"
	"strings"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/mergepatch"

	"github.com/plyproject/ply/pkg/strategicpatch/engine"
)

// plyKubectl is the engine with every feature gate off: strategicpatch's results.
var plyKubectl = engine.Options{}

// plyLookup walks a LookupPatchMeta for the engine.
type plyLookup struct{ s LookupPatchMeta }

// plyLookupOf adapts s for the engine: a PatchMetaFromStruct through the look-ups cached for its Go type, any other
// schema key by key as it is asked. The keys s is asked about are copies (the engine's may share the memory of a JSON
// argument, engine.Lookup), so that s may keep them.
func plyLookupOf(s LookupPatchMeta) engine.Lookup {
	switch t := s.(type) {
	case nil:
		return nil
	case PatchMetaFromStruct:
		return plyStructOf(t)
	}
	return plyLookup{s}
}

func (l plyLookup) Struct(key string) (engine.Lookup, engine.Meta, error) {
	sub, m, err := l.s.LookupPatchMetadataForStruct(strings.Clone(key))
	return plyLookupOf(sub), engine.Meta{Strategies: m.GetPatchStrategies(), MergeKey: m.GetPatchMergeKey()}, err
}

func (l plyLookup) Slice(key string) (engine.Lookup, engine.Meta, error) {
	sub, m, err := l.s.LookupPatchMetadataForSlice(strings.Clone(key))
	return plyLookupOf(sub), engine.Meta{Strategies: m.GetPatchStrategies(), MergeKey: m.GetPatchMergeKey()}, err
}

// plyStructs holds one *plyStruct per Go type a PatchMetaFromStruct has been asked about (reflect.Type keys), so
// that the tags of a type are read by reflection once per key, whichever call asks.
var plyStructs sync.Map

// plyStructMaxKeys bounds the look-ups cached per type and kind: a struct's fields match JSON keys case-insensitively, so
// the keys that succeed are bounded by its fields only up to case; past the bound, look-ups go to the schema each time.
const plyStructMaxKeys = 256

// plyStruct is the cached walk of one Go type: the successful look-ups of its keys (failed ones are asked again each
// time, so that data cannot grow the cache, and give the schema's error), and the engine's types of its objects. It is
// safe for concurrent use.
type plyStruct struct {
	s PatchMetaFromStruct
	// found holds the look-ups of keys as objects (Struct, plyStructOfObject) and as lists (Slice, plyStructOfList),
	// each read without locking, one atomic load (calls look keys up far more often than they add one; a map keyed by
	// the string alone is read without hashing while small); mu is held while a copy holding one key more replaces one.
	found [2]atomic.Pointer[map[string]plyStructFound]
	mu    sync.Mutex
	types engine.Types
}

// The kinds of look-up, plyStruct.found's indexes.
const (
	plyStructOfObject = iota
	plyStructOfList
)

// plyStructFound is a successful look-up: the field's schema (cached itself) and metadata.
type plyStructFound struct {
	sub  engine.Lookup
	meta engine.Meta
}

func plyStructOf(s PatchMetaFromStruct) *plyStruct {
	if c, ok := plyStructs.Load(s.T); ok {
		return c.(*plyStruct)
	}
	c, _ := plyStructs.LoadOrStore(s.T, &plyStruct{s: s})
	return c.(*plyStruct)
}

// Types keeps the engine's types of objects of c's Go type.
func (c *plyStruct) Types() *engine.Types { return &c.types }

func (c *plyStruct) Struct(key string) (engine.Lookup, engine.Meta, error) {
	return c.lookup(key, plyStructOfObject)
}

func (c *plyStruct) Slice(key string) (engine.Lookup, engine.Meta, error) {
	return c.lookup(key, plyStructOfList)
}

func (c *plyStruct) lookup(key string, kind int) (engine.Lookup, engine.Meta, error) {
	if found := c.found[kind].Load(); found != nil {
		if f, ok := (*found)[key]; ok {
			return f.sub, f.meta, nil
		}
	}
	var sub LookupPatchMeta
	var m PatchMeta
	var err error
	key = strings.Clone(key) // (the caller's may share the memory of a whole document)
	if kind == plyStructOfList {
		sub, m, err = c.s.LookupPatchMetadataForSlice(key)
	} else {
		sub, m, err = c.s.LookupPatchMetadataForStruct(key)
	}
	f := plyStructFound{plyLookupOf(sub), engine.Meta{Strategies: m.GetPatchStrategies(), MergeKey: m.GetPatchMergeKey()}}
	if err != nil {
		return f.sub, f.meta, err
	}
	c.keep(key, kind, f)
	return f.sub, f.meta, nil
}

// keep adds look-up f of key as kind to c.found, a copy with one key more, unless c keeps plyStructMaxKeys of that
// kind already.
func (c *plyStruct) keep(key string, kind int, f plyStructFound) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var old map[string]plyStructFound
	if found := c.found[kind].Load(); found != nil {
		old = *found
	}
	if _, ok := old[key]; ok || len(old) >= plyStructMaxKeys {
		return
	}
	next := make(map[string]plyStructFound, len(old)+1)
	maps.Copy(next, old)
	next[key] = f
	c.found[kind].Store(&next)
}

// CreateTwoWayMergePatch returns the patch from original to modified (JSON; empty: {}), the schema read from the Go
// struct dataStruct's tags, checked by fns.
func CreateTwoWayMergePatch(original, modified []byte, dataStruct interface{}, fns ...mergepatch.PreconditionFunc) ([]byte, error) {
	schema, err := NewPatchMetaFromStruct(dataStruct)
	if err != nil {
		return nil, err
	}
	return plyKubectl.TwoWayJSON(original, modified, plyStructOf(schema), fns...)
}

// CreateTwoWayMergePatchUsingLookupPatchMeta is CreateTwoWayMergePatch with the schema given.
func CreateTwoWayMergePatchUsingLookupPatchMeta(original, modified []byte, schema LookupPatchMeta, fns ...mergepatch.PreconditionFunc) ([]byte, error) {
	return plyKubectl.TwoWayJSON(original, modified, plyLookupOf(schema), fns...)
}

// CreateTwoWayMergeMapPatch is CreateTwoWayMergePatch on objects held as Go values.
func CreateTwoWayMergeMapPatch(original, modified JSONMap, dataStruct interface{}, fns ...mergepatch.PreconditionFunc) (JSONMap, error) {
	schema, err := NewPatchMetaFromStruct(dataStruct)
	if err != nil {
		return nil, err
	}
	return plyKubectl.TwoWayMap(original, modified, plyStructOf(schema), fns...)
}

// CreateTwoWayMergeMapPatchUsingLookupPatchMeta is CreateTwoWayMergeMapPatch with the schema given.
func CreateTwoWayMergeMapPatchUsingLookupPatchMeta(original, modified JSONMap, schema LookupPatchMeta, fns ...mergepatch.PreconditionFunc) (JSONMap, error) {
	return plyKubectl.TwoWayMap(original, modified, plyLookupOf(schema), fns...)
}

// StrategicMergePatch applies patch to original (JSON; nil: {}), the schema read from dataStruct's tags.
func StrategicMergePatch(original, patch []byte, dataStruct interface{}) ([]byte, error) {
	schema, err := NewPatchMetaFromStruct(dataStruct)
	if err != nil {
		return nil, err
	}
	return plyKubectl.ApplyJSON(original, patch, plyStructOf(schema))
}

// StrategicMergePatchUsingLookupPatchMeta is StrategicMergePatch with the schema given.
func StrategicMergePatchUsingLookupPatchMeta(original, patch []byte, schema LookupPatchMeta) ([]byte, error) {
	return plyKubectl.ApplyJSON(original, patch, plyLookupOf(schema))
}

// StrategicMergeMapPatch is StrategicMergePatch on objects held as Go values, which it leaves unmodified. Unstructured
// objects carry no tags: their dataStruct is refused with mergepatch.ErrUnsupportedStrategicMergePatchFormat.
func StrategicMergeMapPatch(original, patch JSONMap, dataStruct interface{}) (JSONMap, error) {
	schema, err := NewPatchMetaFromStruct(dataStruct)
	if err != nil {
		return nil, err
	}
	if _, ok := dataStruct.(*unstructured.Unstructured); ok {
		return nil, mergepatch.ErrUnsupportedStrategicMergePatchFormat
	}
	return plyKubectl.ApplyMap(original, patch, plyStructOf(schema))
}

// StrategicMergeMapPatchUsingLookupPatchMeta is StrategicMergeMapPatch with the schema given.
func StrategicMergeMapPatchUsingLookupPatchMeta(original, patch JSONMap, schema LookupPatchMeta) (JSONMap, error) {
	return plyKubectl.ApplyMap(original, patch, plyLookupOf(schema))
}

// MergeStrategicMergeMapPatchUsingLookupPatchMeta merges patches in turn into one, nulls and directives kept, a later
// patch's value winning.
func MergeStrategicMergeMapPatchUsingLookupPatchMeta(schema LookupPatchMeta, patches ...JSONMap) (JSONMap, error) {
	maps := make([]map[string]interface{}, len(patches))
	for i, p := range patches {
		maps[i] = p
	}
	return plyKubectl.ComposeMaps(plyLookupOf(schema), maps...)
}

// MergingMapsHaveConflicts reports whether patches left and right set a key to different values.
func MergingMapsHaveConflicts(left, right map[string]interface{}, schema LookupPatchMeta) (bool, error) {
	return plyKubectl.ConflictingMaps(left, right, plyLookupOf(schema))
}

// CreateThreeWayMergePatch returns kubectl apply's patch: current -> modified, plus original -> modified's deletions
// (JSON; empty: {}), checked by fns; unless overwrite, a change of current since original that the patch changes
// otherwise is a mergepatch.ErrConflict.
func CreateThreeWayMergePatch(original, modified, current []byte, schema LookupPatchMeta, overwrite bool, fns ...mergepatch.PreconditionFunc) ([]byte, error) {
	return plyKubectl.ThreeWayJSON(original, modified, current, plyLookupOf(schema), overwrite, fns...)
}

// ItemAddedToModifiedSlice reports original > modified.
func ItemAddedToModifiedSlice(original, modified string) bool { return original > modified }

// ItemRemovedFromModifiedSlice reports original < modified.
func ItemRemovedFromModifiedSlice(original, modified string) bool { return original < modified }

// ItemMatchesOriginalAndModifiedSlice reports original == modified.
func ItemMatchesOriginalAndModifiedSlice(original, modified string) bool { return original == modified }

// CreateDeleteDirective returns the list item that deletes the items whose mergeKey is mergeKeyValue.
func CreateDeleteDirective(mergeKey string, mergeKeyValue interface{}) map[string]interface{} {
	return map[string]interface{}{mergeKey: mergeKeyValue, "$patch": "delete"}
}
