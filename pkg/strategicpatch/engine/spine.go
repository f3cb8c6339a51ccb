package engine

import (
	"errors"
	"maps"
	"slices"
	"strings"
)

// applySpine is ApplyMap where the patch passes through maps with one field each: at a spine level (spineField) the
// result is a copy of original's map with that field's map patched, as the engine's merge gives it (every other
// field of original kept, the one field merged, no directive, strategy or merge key at the level to decide otherwise),
// so that the engine runs once, on the maps below the spine, instead of collating and walking every level of it. The
// engine's run below is applyMap at that depth (the bounds on nesting count from the documents' top), unless the
// patch's map there holds "$patch" or "$retainKeys", which the engine reads otherwise at the top of a document than
// below it, or unless the patch's map there merges fieldwise (fieldwise: its fields scalars onto nothing or scalars,
// nulls, and maps and lists merged by key whose fields do in turn), the engine not run. ok is false, and ApplyMap runs
// the engine on the whole documents, when p has no spine level, when the patch's map below it holds those
// directives, or when the run below fails: its error is the one the whole documents give, with the path from their
// top.
func (o Options) applySpine(original, p map[string]interface{}, l Lookup, depth int) (out map[string]interface{}, ok bool) {
	key, orig, patch, sub, spine := spineField(original, p, l, depth)
	if !spine {
		if out, ok := o.fieldwiseFor().level(original, p, l, depth); ok {
			return out, true
		}
		if depth == 0 {
			return nil, false
		}
		out, err := o.applyMap(original, p, l, false, depth) // (errDecidesEveryField where p holds the directives)
		return out, err == nil
	}
	below, ok := o.applySpine(orig, patch, sub, depth+1)
	if !ok {
		return nil, false
	}
	out = maps.Clone(original)
	out[key] = below
	return out, true
}

// spineField reports whether patch p's map at depth is a spine level of original: p has one field, key, no
// directive, whose value is a map (patch), original's field key is a map too (orig), and l gives the field's schema
// (sub) without strategy or merge key, so that the engine merges patch into orig as it merges the documents whose top
// they are. A nil l is no spine (a field without schema is typed from its values).
func spineField(original, p map[string]interface{}, l Lookup, depth int) (key string, orig, patch map[string]interface{}, sub Lookup, ok bool) {
	if len(p) != 1 || l == nil || depth >= maxDepth {
		return "", nil, nil, nil, false
	}
	var pv interface{}
	for key, pv = range p {
		break // (p has one field: the iterator is not asked for another)
	}
	if strings.HasPrefix(key, "$") {
		return "", nil, nil, nil, false
	}
	if patch, ok = pv.(map[string]interface{}); !ok || patch == nil {
		return "", nil, nil, nil, false
	}
	if orig, ok = original[key].(map[string]interface{}); !ok || orig == nil {
		return "", nil, nil, nil, false
	}
	if sub, ok = plainMapSchema(l, key); !ok {
		return "", nil, nil, nil, false
	}
	return key, orig, patch, sub, true
}

// plainMapSchema returns the schema l gives field key, and whether it is a map's of plain merge: the look-up succeeds
// and gives a schema with neither strategy nor merge key, so that the engine merges the field's map field by field as
// it merges the documents whose top it is.
func plainMapSchema(l Lookup, key string) (Lookup, bool) {
	sub, m, err := l.Struct(key)
	if err != nil || sub == nil || slices.ContainsFunc(m.Strategies, isStrategy) || m.MergeKey != "" {
		return nil, false
	}
	return sub, true
}

// isStrategy reports whether s names a patch strategy (a field without one has none, or the empty one).
func isStrategy(s string) bool { return s != "" }

// errDecidesEveryField is applyMap's answer, below the documents' top, for a patch map holding "$patch" or
// "$retainKeys", which the engine reads otherwise at the top of a document: applySpine runs the engine on the whole
// documents instead. It is found on the patch converted (decidesEveryField), the map not looked up for the keys.
var errDecidesEveryField = errors.New("the patch map below the top holds $patch or $retainKeys")
