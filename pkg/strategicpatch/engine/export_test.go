package engine

import (
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// ApplyMapWhole is ApplyMap converting original whole to ply's values: the result ApplyMap's scoping must give.
func (o Options) ApplyMapWhole(original, p map[string]interface{}, l Lookup) (map[string]interface{}, error) {
	ov, err := fromMap(original)
	if err != nil {
		return nil, err
	}
	pv, err := fromMap(p)
	if err != nil {
		return nil, err
	}
	out, err := o.Apply(ov, pv, l)
	if err != nil {
		return nil, err
	}
	return toMap(out), nil
}

// ApplyMapEngine is ApplyMap running the engine on the whole documents, neither through applySpine's maps nor
// fieldwise's copies: the result those must give.
func (o Options) ApplyMapEngine(original, p map[string]interface{}, l Lookup) (map[string]interface{}, error) {
	out, err := o.applyMap(original, p, l, false, 0)
	if err != nil {
		return o.applyMap(original, p, l, true, 0)
	}
	return out, nil
}

// SkeletonsLen is the number of ApplyMap and ApplyJSON types c keeps by their documents' skeletons.
func (c *Types) SkeletonsLen() int { return c.bySkeleton.len() }

// SkeletonRoom is the room of the skeleton buffer ApplyMap keeps for its next calls after a call on original and p
// under l (a TypeCacher), made with a buffer of its own, and the room a buffer is kept up to.
func SkeletonRoom(original, p map[string]interface{}, l Lookup) (room, max int, err error) {
	ov, err := fromMap(original)
	if err != nil {
		return 0, 0, err
	}
	pv, err := fromMap(p)
	if err != nil {
		return 0, 0, err
	}
	var buf []byte
	if _, _, err := scopedSchemaOf(l, ov, pv, &buf); err != nil {
		return 0, 0, err
	}
	return cap(buf), skeletonRoom, nil
}

// SkeletonLen is the length of the skeleton appendSkeleton leaves of m and whether it is one that is kept.
func SkeletonLen(m map[string]interface{}) (int, bool, error) {
	v, err := fromMap(m)
	if err != nil {
		return 0, false, err
	}
	sig, ok := appendSkeleton(nil, v, 0)
	return len(sig), ok, nil
}

// SkeletonMax bounds the skeletons kept, in bytes.
const SkeletonMax = skeletonMax

// MergesFieldwise reports whether o's ApplyMap merges p into original under l fieldwise at p's top (see fieldwise).
func (o Options) MergesFieldwise(original, p map[string]interface{}, l Lookup) bool {
	_, ok := o.fieldwiseFor().level(original, p, l, 0)
	return ok
}

// ApplyJSONEngine is ApplyJSON running the engine on the whole documents, neither trimmed nor merged fieldwise: the
// bytes those must give.
func (o Options) ApplyJSONEngine(original, p []byte, l Lookup) ([]byte, error) {
	return inArena(func(r jsonReader) ([]byte, error) {
		vs, err := readAll(r.object, original, p)
		if err != nil {
			return nil, err
		}
		return o.applyJSON(vs[0], vs[1], l)
	})
}

// MergesFieldwiseJSON reports whether ApplyJSON, every gate off, merges patch p into original (JSON text, both whole)
// under l fieldwise at p's top (see fieldwiseValues).
func MergesFieldwiseJSON(original, p []byte, l Lookup) bool {
	var fields scratch[value.Field]
	var items scratch[value.Value]
	var keys scratch[string]
	ov, err := jsonReader{}.object(original)
	if err != nil {
		return false
	}
	pv, err := jsonReader{}.object(p)
	if err != nil {
		return false
	}
	_, ok := fieldwiseValues{fields: &fields, items: &items, keys: &keys}.level(ov, pv, l, 0)
	return ok
}

// ThreeWayJSONWhole is ThreeWayJSON reading current whole, not trimmedCurrent's text, into the arena original and
// modified were read into (sharing with them what it writes alike): the result and error trimming must give.
func (o Options) ThreeWayJSONWhole(original, modified, current []byte, l Lookup, overwrite bool) ([]byte, error) {
	return inArena(func(r jsonReader) ([]byte, error) {
		vs, err := readAll(r.document, original, modified, current)
		if err != nil {
			return nil, err
		}
		return o.threeWayJSON(vs[0], vs[1], vs[2], l, overwrite, true, nil)
	})
}

// ThreeWayJSONAlone is ThreeWayJSON reading each document whole and without arena, so sharing nothing.
func (o Options) ThreeWayJSONAlone(original, modified, current []byte, l Lookup, overwrite bool) ([]byte, error) {
	r := jsonReader{}
	vs, err := readAll(r.document, original, modified, current)
	if err != nil {
		return nil, err
	}
	return o.threeWayJSON(vs[0], vs[1], vs[2], l, overwrite, true, nil)
}

// TrimmedCurrent is the text ThreeWayJSON reads for current with overwrite, given original and modified (false: they
// fail to read, or current is read as it is).
func TrimmedCurrent(original, modified, current []byte) (string, bool) {
	var a parse.Arena
	r := jsonReader{arena: &a}
	vs, err := readAll(r.document, original, modified)
	if err != nil || len(current) == 0 {
		return "", false
	}
	text, release := trimmedCurrent(current, vs[1], &a)
	defer release()
	return string(text), &text[0] != &current[0]
}
