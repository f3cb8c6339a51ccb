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
	ov, err := readObject(original)
	if err != nil {
		return nil, err
	}
	pv, err := readObject(p)
	if err != nil {
		return nil, err
	}
	out, err := o.Apply(ov, pv, l)
	if err != nil {
		return nil, err
	}
	return out.JSON(), nil
}

// ApplyMap is Apply on objects held as Go values (StrategicMergeMapPatchUsingLookupPatchMeta); neither is modified.
// Only what the patch names is converted to ply's values: the result holds original's other values themselves, as
// strategicpatch's result (original, modified) does.
func (o Options) ApplyMap(original, p map[string]interface{}, l Lookup) (map[string]interface{}, error) {
	pv, err := fromMap(p)
	if err != nil {
		return nil, err
	}
	ov, rest, err := scoped(original, pv, l, 0)
	if err != nil {
		return nil, err
	}
	out, err := o.Apply(ov, pv, l)
	if err != nil {
		return nil, err
	}
	result := toMap(out)
	rest.restore(result)
	return result, nil
}

// ComposeMaps is Compose on patches held as Go values.
func (o Options) ComposeMaps(l Lookup, patches ...map[string]interface{}) (map[string]interface{}, error) {
	vals := make([]value.Value, len(patches))
	for i, p := range patches {
		v, err := fromMap(p)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	out, err := o.Compose(l, vals...)
	if err != nil {
		return nil, err
	}
	return toMap(out), nil
}

// TwoWayJSON is TwoWay on JSON text (CreateTwoWayMergePatchUsingLookupPatchMeta): empty text is {}.
func (o Options) TwoWayJSON(original, modified []byte, l Lookup, fns ...mergepatch.PreconditionFunc) ([]byte, error) {
	ov, err := readDocument(original)
	if err != nil {
		return nil, err
	}
	mv, err := readDocument(modified)
	if err != nil {
		return nil, err
	}
	p, err := o.TwoWay(ov, mv, l, fns...)
	if err != nil {
		return nil, err
	}
	return p.JSON(), nil
}

// TwoWayMap is TwoWay on objects held as Go values (CreateTwoWayMergeMapPatchUsingLookupPatchMeta).
func (o Options) TwoWayMap(original, modified map[string]interface{}, l Lookup, fns ...mergepatch.PreconditionFunc) (map[string]interface{}, error) {
	ov, err := fromMap(original)
	if err != nil {
		return nil, err
	}
	mv, err := fromMap(modified)
	if err != nil {
		return nil, err
	}
	p, err := o.TwoWay(ov, mv, l, fns...)
	if err != nil {
		return nil, err
	}
	return toMap(p), nil
}

// ThreeWayJSON is ThreeWay on JSON text (CreateThreeWayMergePatch): empty text is {}.
func (o Options) ThreeWayJSON(original, modified, current []byte, l Lookup, overwrite bool, fns ...mergepatch.PreconditionFunc) ([]byte, error) {
	ov, err := readDocument(original)
	if err != nil {
		return nil, err
	}
	mv, err := readDocument(modified)
	if err != nil {
		return nil, err
	}
	cv, err := readDocument(current)
	if err != nil {
		return nil, err
	}
	p, err := o.ThreeWay(ov, mv, cv, l, overwrite, fns...)
	if err != nil {
		return nil, err
	}
	return p.JSON(), nil
}
