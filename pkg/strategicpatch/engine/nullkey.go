package engine

import (
	"errors"
	"slices"

	"k8s.io/apimachinery/pkg/util/mergepatch"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// nullKeyMark stands for the null key of the two items nullKeyMerged merges: a string no merge key holds.
const nullKeyMark = "\x00ply: null merge key\x00"

// nullKeyMerged gives err, ply's error of a null merge key naming another item (smp.NullKeyMerge), strategicpatch's message: mergepatch.ErrNoMergeKey of the item
// the patch's item merges into, merged, the key field deleted by the null. apply makes the failed call again on the
// documents given (in), the two items' key field set to nullKeyMark, so that they merge as strategicpatch merges them;
// the item of that key in its result, without the field, is strategicpatch's. ok is false where err is another error,
// or the call fails again.
func nullKeyMerged(err error, in docs, apply func(live, p value.Value) (value.Value, error)) (error, bool) {
	ee, ok := asElementsError(err)
	if !ok || ee.Source != elements.Patch {
		return err, false
	}
	m, ok := smp.ReadNullKeyMerge(ee.Msg)
	if !ok {
		return err, false
	}
	i, j := m.Item, m.Other
	field, mark := m.Field, value.String(nullKeyMark)
	set := func(it value.Value) (value.Value, bool) { return it.With(field, mark), it.IsMap() }
	live, p := in[elements.Live], in[elements.Patch]
	p, ok = setAt(p, append(slices.Clip(ee.Path), fieldpath.Element{Kind: fieldpath.IndexElement, Index: i}), set)
	other := &p
	if m.InLive {
		other = &live
	}
	var ok2 bool
	*other, ok2 = setAt(*other, append(slices.Clip(ee.Path), fieldpath.Element{Kind: fieldpath.IndexElement, Index: j}), set)
	if !ok || !ok2 {
		return err, false
	}
	out, aerr := apply(live, p)
	list, found := at(out, ee.Path)
	if aerr != nil || !found || !list.IsList() {
		return err, false
	}
	for _, it := range list.Items() {
		if v, ok := it.Get(field); ok && value.Equal(v, mark) {
			return &apiError{mergepatch.ErrNoMergeKey(toMap(it.Without(field)), field).Error(), err}, true
		}
	}
	return err, false
}

// asElementsError returns ply's *elements.Error err is or wraps.
func asElementsError(err error) (*elements.Error, bool) {
	var ee *elements.Error
	ok := errors.As(err, &ee)
	return ee, ok
}

// setAt returns v with the value at path p replaced by f's result; ok is false where v has no value at p, or f says so.
func setAt(v value.Value, p fieldpath.Path, f func(value.Value) (value.Value, bool)) (value.Value, bool) {
	if len(p) == 0 {
		return f(v)
	}
	e := p[0]
	if e.Kind == fieldpath.FieldElement {
		c, ok := v.Get(e.Field)
		if !ok || !v.IsMap() {
			return v, false
		}
		c, ok = setAt(c, p[1:], f)
		return v.With(e.Field, c), ok
	}
	if !v.IsList() {
		return v, false
	}
	for x, it := range v.Items() {
		if namedBy(e, x, it) {
			c, ok := setAt(it, p[1:], f)
			items := slices.Clone(v.Items())
			items[x] = c
			return value.List(items), ok
		}
	}
	return v, false
}
