package engine

import (
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
)

// applySpine is ApplyMap where the patch passes through maps with one field each: at a spine level (spineField) the
// result is a copy of original's map with that field's map patched, as the engine's merge gives it (every other
// field of original kept, the one field merged, no directive, strategy or merge key at the level to decide otherwise),
// so that the engine runs once, on the maps below the spine, instead of collating and walking every level of it. The
// engine's run below is applyMap at that depth (the bounds on nesting count from the documents' top), unless the
// patch's map there holds "$patch" or "$retainKeys", which the engine reads otherwise at the top of a document than
// below it, or unless every field of the patch's map there is a scalar onto a scalar (scalarsLevel). ok is false, and ApplyMap runs the engine on the whole documents, when p has no spine level, when the
// patch's map below it holds those directives, or when the run below fails: its error is the one the whole documents
// give, with the path from their top.
func (o Options) applySpine(original, p map[string]interface{}, l Lookup, depth int) (out map[string]interface{}, ok bool) {
	key, orig, patch, sub, spine := spineField(original, p, l, depth)
	if !spine {
		if out, ok := scalarsLevel(original, p, depth); ok {
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
	sub, m, err := l.Struct(key)
	if err != nil || sub == nil || slices.ContainsFunc(m.Strategies, isStrategy) || m.MergeKey != "" {
		return "", nil, nil, nil, false
	}
	return key, orig, patch, sub, true
}

// isStrategy reports whether s names a patch strategy (a field without one has none, or the empty one).
func isStrategy(s string) bool { return s != "" }

// errDecidesEveryField is applyMap's answer, below the documents' top, for a patch map holding "$patch" or
// "$retainKeys", which the engine reads otherwise at the top of a document: applySpine runs the engine on the whole
// documents instead. It is found on the patch converted (decidesEveryField), the map not looked up for the keys.
var errDecidesEveryField = errors.New("the patch map below the top holds $patch or $retainKeys")

// scalarsLevel returns a copy of original with the fields of p set, where p is a map the engine would merge into
// original field by field taking each of p's values as it is: p has fields, none a directive, each a string, a bool, an
// int64 or a finite float64 (the Go types the engine's result holds of such a value, the patch's own: kept.toMap),
// and original holds, at each of those keys, nothing or such a scalar (or an int, kept where the patch sets the int64
// of its value: standsFor). A scalar paired with a scalar is
// replaced whatever the schema says (no look-up is made for it), and the fields p does not name are kept. p at depth
// near the bound on nesting is left to the engine, which reads it against the bound.
func scalarsLevel(original, p map[string]interface{}, depth int) (map[string]interface{}, bool) {
	if original == nil || len(p) == 0 || depth+2 >= maxDepth {
		return nil, false
	}
	for k, px := range p {
		if strings.HasPrefix(k, "$") || !plainScalar(px) {
			return nil, false
		}
		if ox, ok := original[k]; ok && !plainScalar(ox) {
			if _, isInt := ox.(int); !isInt {
				return nil, false
			}
		}
	}
	out := maps.Clone(original)
	for k, px := range p {
		if oi, isInt := original[k].(int); isInt && px == interface{}(int64(oi)) {
			continue // (original's value stands for the patch's: kept, as kept.toMap keeps it)
		}
		out[k] = px
	}
	return out, true
}

// plainScalar reports whether x is a string, a bool, an int64 or a finite float64.
func plainScalar(x interface{}) bool {
	switch t := x.(type) {
	case string, bool, int64:
		return true
	case float64:
		return !math.IsNaN(t) && !math.IsInf(t, 0)
	}
	return false
}
