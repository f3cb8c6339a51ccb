package engine

import (
	"k8s.io/apimachinery/pkg/util/mergepatch"

	"github.com/plyproject/ply/pkg/value"
)

// ApplyJSON is Apply on JSON text (StrategicMergePatchUsingLookupPatchMeta): nil original or patch is {}.
func (o Options) ApplyJSON(original, p []byte, l Lookup) ([]byte, error) {
	if original == nil {
		original = []byte("{}")
	}
	if p == nil {
		p = []byte("{}")
	}
	return inArena(func(r jsonReader) ([]byte, error) {
		if o.Gates == nil && r.arena != nil {
			if pv, err := r.object(p); err == nil { // (else both are read below, for original's error first)
				if out, ok := o.applyJSONTrimmed(original, pv, l, r); ok {
					return out, nil
				}
				ov, err := r.object(original)
				if err != nil {
					return nil, err
				}
				return o.applyJSON(ov, pv, l)
			}
		}
		vs, err := readAll(r.object, original, p)
		if err != nil {
			return nil, err
		}
		return o.applyJSON(vs[0], vs[1], l)
	})
}

// applyJSONTrimmed is ApplyJSON with every feature gate off (strategicpatch's merge) of patch pv, read by r, merging
// original less the fields pv does not reach, which are written back into the result as the text they are (see
// trimmer), merged fieldwise where its shape allows (fieldwiseValues), else by the engine; false where the trimmer
// leaves none out or cannot read original so (ApplyJSON reads it whole, for the error too), where the merge fails
// (the whole merge gives the error), or where the result does not take them back.
func (o Options) applyJSONTrimmed(original []byte, pv value.Value, l Lookup, r jsonReader) ([]byte, bool) {
	t := trimmers.Get().(*trimmer)
	defer t.release()
	trimmed, any := t.root(original, pv, l, r)
	if !any {
		return nil, false
	}
	if o.fieldwiseFor().keyedLists {
		fw := fieldwiseValues{fields: &t.fields, items: &t.items, keys: &t.keys}
		if out, ok := fw.level(trimmed, pv, l, 0); ok {
			return t.write(out)
		}
	}
	s, _, err := scopedSchemaOf(l, trimmed, pv, &t.skeleton)
	if err != nil {
		return nil, false
	}
	out, release, err := o.applyReused(s, trimmed, pv)
	if err != nil {
		return nil, false
	}
	defer release()
	return t.write(out)
}

// ApplyMap is Apply on objects held as Go values (StrategicMergeMapPatchUsingLookupPatchMeta); neither is modified.
// Only what the patch names is converted to ply's values, and of a list it merges into by key only the items it
// names, the others as placeholders (see scoped): the result holds original's other values themselves, as
// strategicpatch's result (original, modified) does, unless the schema type the data gives merges a place where
// something was left out otherwise than scoped assumed (kept.mergesAs): then original is converted whole. Maps the
// patch passes through with one field each are copied, the engine run below them (applySpine), and a map whose patch
// the engine would merge field by field with nothing else to decide is copied with its fields merged (fieldwise:
// scalars onto scalars, maps, and lists merged by key in original's order or a "$setElementOrder"'s naming every
// item). A failed call is made again converting lists whole, so that its error is the one the whole lists give.
func (o Options) ApplyMap(original, p map[string]interface{}, l Lookup) (map[string]interface{}, error) {
	if out, ok := o.applySpine(original, p, l, 0); ok {
		return out, nil
	}
	out, err := o.applyMap(original, p, l, false, 0)
	if err != nil {
		return o.applyMap(original, p, l, true, 0)
	}
	return out, nil
}

// applyMap is ApplyMap, with lists converted whole when wholeLists is set, of original and p found depth map levels
// down the documents (see applySpine): the bounds on nesting count from the documents' top, and p below the top holding
// "$patch" or "$retainKeys" is errDecidesEveryField.
func (o Options) applyMap(original, p map[string]interface{}, l Lookup, wholeLists bool, depth int) (map[string]interface{}, error) {
	return withGoReader(func(r goReader) (map[string]interface{}, error) {
		r.wholeLists = wholeLists
		if r.kept == nil {
			r.kept = new(keptScratch) // (the zero goReader: memory of the call's own)
		}
		pv, err := r.fromGo(p, depth)
		if err != nil {
			return nil, err
		}
		if depth > 0 && decidesEveryField(pv) {
			return nil, errDecidesEveryField
		}
		ov, rest, err := r.scoped(original, pv, p, nil, l, depth)
		if err != nil {
			return nil, err
		}
		s, t, err := scopedSchemaOf(l, ov, pv, &r.kept.skeleton)
		if err != nil {
			return nil, err
		}
		if !rest.mergesAs(t) {
			// The type the data gives departs from what scoped read of l: convert original whole.
			if ov, err = r.fromGo(original, depth); err != nil {
				return nil, err
			}
			if s, _, err = schemaOf(l, merging, ov, pv); err != nil {
				return nil, err
			}
			rest = nil
		}
		out, release, err := o.applyReusedAt(s, ov, pv, depth)
		if err != nil {
			return nil, err
		}
		defer release() // (toMap builds Go values of their own, but for original's kept ones)
		return rest.toMap(out), nil
	})
}

// ComposeMaps is Compose on patches held as Go values.
func (o Options) ComposeMaps(l Lookup, patches ...map[string]interface{}) (map[string]interface{}, error) {
	vals, err := readAll(fromMap, patches...)
	if err != nil {
		return nil, err
	}
	out, err := o.Compose(l, vals...)
	if err != nil {
		return nil, err
	}
	return toMap(out), nil
}

// TwoWayJSON is TwoWay on JSON text (CreateTwoWayMergePatchUsingLookupPatchMeta): empty text is {}.
func (o Options) TwoWayJSON(original, modified []byte, l Lookup, fns ...mergepatch.PreconditionFunc) ([]byte, error) {
	call := func(r jsonReader) ([]byte, error) {
		vs, err := readAll(r.document, original, modified)
		if err != nil {
			return nil, err
		}
		p, err := o.TwoWay(vs[0], vs[1], l, fns...)
		if err != nil {
			return nil, err
		}
		return p.JSON(), nil
	}
	return inArena(call)
}

// TwoWayMap is TwoWay on objects held as Go values (CreateTwoWayMergeMapPatchUsingLookupPatchMeta).
func (o Options) TwoWayMap(original, modified map[string]interface{}, l Lookup, fns ...mergepatch.PreconditionFunc) (map[string]interface{}, error) {
	vs, err := readAll(fromMap, original, modified)
	if err != nil {
		return nil, err
	}
	p, err := o.TwoWay(vs[0], vs[1], l, fns...)
	if err != nil {
		return nil, err
	}
	return toMap(p), nil
}

// ThreeWayJSON is ThreeWay on JSON text (CreateThreeWayMergePatch): empty text is {}. With overwrite, current is read
// without the values of the fields modified does not hold, which the patch does not depend on (trimmedCurrent); an
// error is computed again from the whole documents (inArena).
func (o Options) ThreeWayJSON(original, modified, current []byte, l Lookup, overwrite bool, fns ...mergepatch.PreconditionFunc) ([]byte, error) {
	call := func(r jsonReader) ([]byte, error) {
		vs, err := readAll(r.document, original, modified)
		if err != nil {
			return nil, err
		}
		text, release := current, func() {}
		if overwrite && r.arena != nil && len(current) > 0 {
			text, release = trimmedCurrent(current, vs[1], r.arena)
		}
		defer release()
		cur, err := r.document(text)
		if err != nil {
			return nil, err
		}
		orderKeys := !overwrite && (orderKeyText(original) || orderKeyText(current))
		return o.threeWayJSON(vs[0], vs[1], cur, l, overwrite, orderKeys, fns)
	}
	return inArena(call)
}

// readAll reads each input with read, in order; the first error is returned, as the callers read them one by one.
func readAll[T any](read func(T) (value.Value, error), inputs ...T) ([]value.Value, error) {
	out := make([]value.Value, len(inputs))
	for i, in := range inputs {
		v, err := read(in)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}
