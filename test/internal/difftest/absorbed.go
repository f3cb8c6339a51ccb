package difftest

import (
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
)

// AbsorbedLeak reports whether ply's object equals strategicpatch's result
// re-derived without the directives it leaks (the OracleLeaksDirective
// class where the leak is absorbed rather than left in the raw result).
// strategicpatch copies a patch value the outcome lacks raw, directives
// inside, and merges each later item of a key into the copy of the first,
// so a copied directive becomes data the later items merge into: a nested
// "$patch": "delete" item they match and order, a "$patch": "replace" map
// they replace into. The re-derivation is strategicpatch itself on live
// and the patch with each directive it would copy given its effect on
// content the outcome lacks first (withoutLeakedFirsts, the effect
// test/patchdiff's leakedDirectives gives it), sent as the patch was
// (jsonv.DecimalJSON: decimals kept, so test/patchdiff's DecimalMergeKey
// defect stays in), the raw result cleaned the same way. It holds only
// where the patch has such a directive, and strategicpatch accepts the
// patch so cleaned. p is the patch strategicpatch applied to live (test/
// patchdiff's patch, or the three-way patch kubectl sends in Run), ply the
// object ply gives.
func AbsorbedLeak(t *Target, live, p, ply value.Value) bool {
	cleaned, changed := withoutLeakedFirsts(p, live, t.Root)
	if !changed {
		return false
	}
	_, raw, err := OracleApplyPatch(t, encode(live), jsonv.DecimalJSON(cleaned))
	if err != nil {
		return false
	}
	norm, _ := serverNormalize(WithoutDirectiveMaps(raw))
	return value.Equal(norm, ply)
}

// OracleApplyPatch applies patch p to live with strategicpatch, as the API
// server does, and returns the result as the server stores it
// (ServerNormalize) and as strategicpatch returned it; a panic in
// strategicpatch is returned as an error.
func OracleApplyPatch(t *Target, live, p []byte) (stored, raw value.Value, err error) {
	var out []byte
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
			}
		}()
		out, err = strategicpatch.StrategicMergePatchUsingLookupPatchMeta(live, p, t.Oracle.Meta())
	}()
	if err != nil {
		return value.Null, value.Null, err
	}
	raw, err = jsonv.Decode(out)
	if err != nil {
		return value.Null, value.Null, fmt.Errorf("decoding strategicpatch's output: %w", err)
	}
	stored, _ = serverNormalize(raw)
	return stored, raw, nil
}

// WithoutDirectiveMaps drops from v every map holding a "$patch" key (a
// list item, or a field's value), as strategicpatch does when it copies a
// patch value into an object that lacks it.
func WithoutDirectiveMaps(v value.Value) value.Value {
	switch v.Kind() {
	case value.KindMap:
		fs := make([]value.Field, 0, v.Len())
		for _, f := range v.Fields() {
			if _, d := f.Value.Get("$patch"); d && f.Value.IsMap() {
				continue
			}
			fs = append(fs, value.Field{Key: f.Key, Value: WithoutDirectiveMaps(f.Value)})
		}
		return value.MapFromSorted(fs)
	case value.KindList:
		items := make([]value.Value, 0, v.Len())
		for _, it := range v.Items() {
			if _, d := it.Get("$patch"); d && it.IsMap() {
				continue
			}
			items = append(items, WithoutDirectiveMaps(it))
		}
		return value.List(items)
	}
	return v
}

// withoutLeakedFirsts returns patch map p (of type t, merged into base,
// the outcome so far) with the directives strategicpatch copies raw given
// their effect on content the outcome lacks (WithoutDirectiveMaps): a
// field's map holding "$patch" where base lacks the field is dropped, and
// any other value base lacks loses its maps holding "$patch". It follows
// the fields strategicpatch merges: maps base holds as maps (not those
// holding "$patch"), and lists merged by a one-field key base holds as
// lists, item by item (listWithoutLeakedFirsts). changed reports whether
// it dropped anything.
func withoutLeakedFirsts(p, base value.Value, t *openapi.Type) (_ value.Value, changed bool) {
	if t == nil || !p.IsMap() {
		return p, false
	}
	if _, directed := p.Get("$patch"); directed {
		return p, false
	}
	out := p
	for _, f := range p.Fields() {
		if strings.HasPrefix(f.Key, "$") {
			continue
		}
		ct, meta := t.Child(f.Key)
		var bv value.Value
		held := false
		if base.IsMap() {
			bv, held = base.Get(f.Key)
		}
		_, directed := f.Value.Get("$patch")
		var nv value.Value
		ok := false
		switch {
		case !held && f.Value.IsMap() && directed:
			out, changed = out.Without(f.Key), true
			continue
		case !held:
			nv = WithoutDirectiveMaps(f.Value)
			ok = !value.Equal(nv, f.Value)
		case f.Value.IsMap() && bv.IsMap():
			nv, ok = withoutLeakedFirsts(f.Value, bv, ct)
		case f.Value.IsList() && bv.IsList() && ct != nil && ct.Kind == openapi.KindList &&
			meta.Strategy.Has(openapi.StrategyMerge) && len(meta.MergeKey) == 1:
			nv, ok = listWithoutLeakedFirsts(f.Value, bv, ct.Item(), meta.MergeKey[0])
		}
		if ok {
			out, changed = out.With(f.Key, nv), true
		}
	}
	return out, changed
}

// listWithoutLeakedFirsts is withoutLeakedFirsts for patch list v merged by
// key onto the outcome's list bl, items of type it: each item onto the
// outcome of the items of its key before it, the first onto bl's item of
// its key, or onto nothing where bl lacks the key. strategicpatch deletes
// bl's items of each key a "$patch": "delete" item of v names before it
// merges v's other items, so those keys count as absent from bl; a list
// holding another "$patch" item is left as it is.
func listWithoutLeakedFirsts(v, bl value.Value, it *openapi.Type, key string) (_ value.Value, changed bool) {
	outcome := map[string]value.Value{}
	for _, item := range v.Items() {
		d, directive := item.Get("$patch")
		s, _ := d.AsString()
		kv, keyed := item.Get(key)
		switch {
		case !item.IsMap() || directive && (s != "delete" || !keyed):
			return v, false
		case directive:
			outcome[string(kv.JSON())] = value.Null
		}
	}
	out := make([]value.Value, 0, v.Len())
	for _, item := range v.Items() {
		kv, keyed := item.Get(key)
		if _, directive := item.Get("$patch"); directive || !keyed {
			out = append(out, item)
			continue
		}
		id := string(kv.JSON())
		cur, seen := outcome[id]
		if !seen {
			cur, _ = firstItem(bl, key, kv)
		}
		var nv value.Value
		var ok bool
		if cur.IsNull() {
			nv = WithoutDirectiveMaps(item)
			ok = !value.Equal(nv, item)
		} else {
			nv, ok = withoutLeakedFirsts(item, cur, it)
		}
		outcome[id] = mergedView(cur, nv, it)
		out = append(out, nv)
		changed = changed || ok
	}
	return value.List(out), changed
}

// mergedView returns base with patch value p (of type t, its directive
// maps given their effect already where base lacks them) merged in, as far
// as withoutLeakedFirsts reads it: which fields, and which keys of lists
// merged by a one-field key, the outcome holds. Maps merge field by field
// (a null, or a map holding "$patch": "delete", removes the field), keyed
// lists item by item, anything else is p's.
func mergedView(base, p value.Value, t *openapi.Type) value.Value {
	if !p.IsMap() || t == nil {
		return p
	}
	if !base.IsMap() {
		base = value.MustMap()
	}
	out := base
	for _, f := range p.Fields() {
		if strings.HasPrefix(f.Key, "$") {
			continue
		}
		ct, meta := t.Child(f.Key)
		bv, _ := base.Get(f.Key)
		d, directed := f.Value.Get("$patch")
		s, _ := d.AsString()
		switch {
		case f.Value.IsNull() || directed && s == "delete":
			out = out.Without(f.Key)
		case f.Value.IsMap():
			out = out.With(f.Key, mergedView(bv, f.Value, ct))
		case f.Value.IsList() && bv.IsList() && ct != nil && ct.Kind == openapi.KindList &&
			meta.Strategy.Has(openapi.StrategyMerge) && len(meta.MergeKey) == 1:
			out = out.With(f.Key, mergedListView(bv, f.Value, ct.Item(), meta.MergeKey[0]))
		default:
			out = out.With(f.Key, f.Value)
		}
	}
	return out
}

// mergedListView is mergedView for patch list p merged by key onto list bl.
func mergedListView(bl, p value.Value, it *openapi.Type, key string) value.Value {
	items := append([]value.Value(nil), bl.Items()...)
	for _, item := range p.Items() {
		kv, keyed := item.Get(key)
		if !keyed {
			continue
		}
		at, n := ItemIndex(items, key, kv)
		d, directive := item.Get("$patch")
		s, _ := d.AsString()
		switch {
		case directive && s == "delete":
			items = slices.DeleteFunc(items, func(x value.Value) bool { k, ok := x.Get(key); return ok && value.Equal(k, kv) })
		case directive:
		case n == 0:
			items = append(items, mergedView(value.Null, item, it))
		default:
			items[at] = mergedView(items[at], item, it)
		}
	}
	return value.List(items)
}

// ItemIndex returns the index of the first of items whose field key holds
// kv, and how many do.
func ItemIndex(items []value.Value, key string, kv value.Value) (first, n int) {
	for i, it := range items {
		if k, ok := it.Get(key); ok && value.Equal(k, kv) {
			if n == 0 {
				first = i
			}
			n++
		}
	}
	return first, n
}

// firstItem returns the first item of list l whose field key holds kv.
func firstItem(l value.Value, key string, kv value.Value) (value.Value, bool) {
	first, n := ItemIndex(l.Items(), key, kv)
	if n == 0 {
		return value.Null, false
	}
	return l.Items()[first], true
}
