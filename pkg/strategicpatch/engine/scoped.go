package engine

import (
	"slices"
	"strings"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// kept is what scoped leaves out of an object to apply a patch to: the fields the patch does not name, put back into
// the result as they are (ply keeps a field a patch does not name, as strategicpatch does), and the same for the
// objects the patch merges into.
type kept struct {
	rest map[string]interface{}
	sub  map[string]*kept
}

// scoped converts original (of schema l) for applying patch p: at each level where p is a map without "$patch" and
// "$retainKeys" (which decide about every field) that merges into original's (not a field of strategy replace), the
// fields p does not name (by key, or through a "$setElementOrder/" or "$deleteFromPrimitiveList/" directive) are left
// out of the value and kept aside, so that the cost of a small patch to a large object is the patch's.
func (r goReader) scoped(original map[string]interface{}, p value.Value, l Lookup, depth int) (value.Value, *kept, error) {
	if !p.IsMap() || depth > maxDepth {
		v, err := r.fromGo(original, depth)
		return v, nil, err
	}
	if _, ok := p.Get("$patch"); ok {
		v, err := r.fromGo(original, depth)
		return v, nil, err
	}
	if _, ok := p.Get("$retainKeys"); ok {
		v, err := r.fromGo(original, depth)
		return v, nil, err
	}
	k := &kept{}
	fields := r.takeFields(min(p.Len(), len(original)))
	var room [4]string
	listed := directiveLists(p, room[:0])
	for key, ov := range original {
		pv, named := namedBy(p, key, listed)
		if !named {
			if k.rest == nil {
				k.rest = make(map[string]interface{}, len(original))
			}
			k.rest[key] = ov
			continue
		}
		var v value.Value
		var err error
		if om, ok := ov.(map[string]interface{}); ok && pv.IsMap() && merges(l, key) {
			subSchema, _, _ := l.Struct(key)
			var sub *kept
			if v, sub, err = r.scoped(om, pv, subSchema, depth+1); sub != nil {
				if k.sub == nil {
					k.sub = map[string]*kept{}
				}
				k.sub[key] = sub
			}
		} else {
			v, err = r.fromGo(ov, depth+1)
		}
		if err != nil {
			return value.Value{}, nil, err
		}
		fields = append(fields, value.Field{Key: key, Value: v})
	}
	return sortedMap(fields), k, nil
}

// merges reports whether a patch's map for field key of an object of schema l merges into the object's (a field
// without strategy replace that l knows), so that the fields the patch does not name stay.
func merges(l Lookup, key string) bool {
	if l == nil {
		return false
	}
	_, m, err := l.Struct(key)
	return err == nil && !toMeta(m).Strategy.Has(openapi.StrategyReplace)
}

// namedBy returns the value patch map p gives key, and whether p names key: as a field or through a list directive
// (listed, the lists p's directives name).
func namedBy(p value.Value, key string, listed []string) (value.Value, bool) {
	if v, ok := p.Get(key); ok {
		return v, true
	}
	return value.Value{}, !strings.HasPrefix(key, "$") && slices.Contains(listed, key)
}

// directiveLists appends to names the lists that the "$setElementOrder/" and "$deleteFromPrimitiveList/" keys of
// patch map p name.
func directiveLists(p value.Value, names []string) []string {
	for _, f := range p.Fields() {
		if name, ok := listDirective(f.Key); ok {
			names = append(names, name)
		}
	}
	return names
}

// restore puts the fields k kept aside back into result, the map the patch gave.
func (k *kept) restore(result map[string]interface{}) {
	if k == nil || result == nil {
		return
	}
	for key, v := range k.rest {
		if _, ok := result[key]; !ok {
			result[key] = v
		}
	}
	for key, sub := range k.sub {
		if m, ok := result[key].(map[string]interface{}); ok {
			sub.restore(m)
		}
	}
}
