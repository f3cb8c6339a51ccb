package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/mergepatch"

	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/pkg/visitors"
)

// docs are the documents of one call by the source ply's errors blame.
type docs map[elements.Source]value.Value

// asAPIMachinery gives err the message strategicpatch gives for the same fault where ply's tells the same thing in its
// own words: a patch list out of $setElementOrder's order, an item without its merge key, an unknown "$patch" value in
// a map (of a patch, or of the delta half kubectl's three-way patch merges into its deletions half); ply's *elements.Error (the source, the field path and what is wrong) stays reachable with errors.As. A
// "$retainKeys" that is not a list or misses a field the patch sets is mergepatch.ErrBadPatchFormatForRetainKeys itself,
// the sentinel the API server compares with ==. Other errors are ply's as they are.
func asAPIMachinery(err error, in docs) error {
	var hd *delta.HalvesDirectiveError
	if errors.As(err, &hd) {
		d, _ := hd.Map.Get(smp.DirectiveKey)
		if s, _ := d.AsString(); hd.InList && s == smp.MergeValue && d.Kind() == value.KindString {
			return &apiError{"merging lists cannot yet be specified in the patch", err}
		}
		return &apiError{mergepatch.ErrBadPatchType(toGo(d), toMap(hd.Map)).Error(), err}
	}
	var hr *delta.HalvesRetainKeysError
	if errors.As(err, &hr) {
		return &apiError{fmt.Sprintf("%v and %v are not deep equal: this may happen when calculating the 3-way diff patch", asJSONGo(toGo(hr.Deletions)), asJSONGo(toGo(hr.Delta))), err}
	}
	var ho *delta.HalvesSetOrderError
	if errors.As(err, &ho) {
		return halvesSetOrder(ho, err)
	}
	ee, ok := asElementsError(err)
	if !ok {
		return err
	}
	doc, ok := in[ee.Source]
	if !ok {
		return err
	}
	switch {
	case strings.HasPrefix(ee.Msg, "the order of the patch list contradicts "+setOrderPrefix),
		strings.HasPrefix(ee.Msg, "patch list item ") && strings.Contains(ee.Msg, " is missing from "+setOrderPrefix):
		parent, field, ok := parentOf(doc, ee.Path)
		if !ok {
			return err
		}
		list, _ := parent.Get(field)
		order, _ := parent.Get(setOrderPrefix + field)
		return &apiError{fmt.Sprintf("The order in patch list:\n%v\n doesn't match %s list:\n%v\n", toGo(list), strings.TrimSuffix(setOrderPrefix, "/"), toGo(order)), err}
	case ee.Source == elements.Patch && (strings.HasPrefix(ee.Msg, "$retainKeys must be a list") ||
		strings.HasPrefix(ee.Msg, "the patch sets field ") && strings.Contains(ee.Msg, " but $retainKeys does not list it")):
		// strategicpatch checks "$retainKeys" in a map the object has (content the object lacks it copies unchecked, and
		// ply's error stays): its sentinel, which the API server answers with 400 Bad Request.
		if live, ok := at(in[elements.Live], ee.Path); ok && live.IsMap() {
			return mergepatch.ErrBadPatchFormatForRetainKeys
		}
		return err
	case ee.Source == elements.Patch && (strings.HasPrefix(ee.Msg, "unknown $patch value ") && strings.Contains(ee.Msg, "; expected ") ||
		strings.HasPrefix(ee.Msg, "$patch: merge is a schema strategy")):
		m, ok := at(doc, ee.Path)
		d, _ := m.Get("$patch")
		if !ok || !m.IsMap() {
			return err
		}
		return &apiError{mergepatch.ErrBadPatchType(toGo(d), toMap(m)).Error(), err}
	case ee.Msg == smp.MarkerNotString:
		return &apiError{"invalid value for special key: " + smp.DirectiveKey, err}
	case ee.Msg == smp.ScalarsByKey:
		// strategicpatch fails on the first value the delta adds, reading it as an object: the list's values are all
		// scalars of one kind (collate.Options.KubectlDiffs), so local's first tells its type.
		list, ok := at(doc, ee.Path)
		if !ok || !list.IsList() || list.Len() == 0 {
			return err
		}
		return &apiError{mergepatch.ErrBadArgType(map[string]interface{}{}, toGo(list.Items()[0])).Error(), err}
	case isKeyedScalars(ee.Msg):
		return keyedScalars(err, ee.Path, in)
	case strings.HasPrefix(ee.Msg, setOrderPrefix) && (strings.Contains(ee.Msg, smp.OrderOfLiveText) ||
		strings.Contains(ee.Msg, smp.OrderOfPatchText)):
		// strategicpatch checks the object's value, then the patch's, before it looks the field up as a list.
		v, ok := at(in[elements.Live], ee.Path)
		if !ok || v.IsList() {
			v, ok = at(in[elements.Patch], ee.Path)
		}
		if !ok || v.IsList() {
			return err
		}
		return &apiError{mergepatch.ErrBadArgType([]interface{}{}, toGo(v)).Error(), err}
	}
	return asNoMergeKey(err, ee, doc)
}

// keyedScalars is asAPIMachinery for ply's error err (smp.KeyedScalars) about a list merged by key at p that holds
// scalars where live holds the list: strategicpatch appends the patch's values to live's and, reading the result's
// first item as an object, fails with mergepatch.ErrBadArgType; where live's and the patch's items are all scalars of
// one Go type and no directive of the patch's map names the list (which strategicpatch reads first). err elsewhere.
func keyedScalars(err error, p fieldpath.Path, in docs) error {
	parent, field, ok := parentOf(in[elements.Patch], p)
	if !ok {
		return err
	}
	if _, has := parent.Get(setOrderPrefix + field); has {
		return err
	}
	if _, has := parent.Get(smp.DeletePrefix + field); has {
		return err
	}
	live, lok := at(in[elements.Live], p)
	patch, _ := parent.Get(field)
	if !lok || !live.IsList() || !patch.IsList() {
		return err
	}
	items := append(slices.Clip(live.Items()), patch.Items()...)
	if len(items) == 0 {
		return err
	}
	if !smp.ScalarsOfKind(items, items[0].Kind()) {
		return err
	}
	return &apiError{mergepatch.ErrBadArgType(map[string]interface{}{}, toGo(items[0])).Error(), err}
}

// isKeyedScalars reports whether msg is smp.KeyedScalars's message.
func isKeyedScalars(msg string) bool {
	_, ok := smp.ReadKeyedScalars(msg)
	return ok
}

// asNoMergeKey is asAPIMachinery for ply's error ee (err) about an item of the list at ee's path in doc that has no
// merge key as strategicpatch reads it: strategicpatch's mergepatch.ErrNoMergeKey naming the item (its nulls dropped,
// for an item whose null key ply dropped: smp.NullKeyDropped; as it stands, for an item lacking a key field:
// smp.MissingMergeKey). err elsewhere.
func asNoMergeKey(err error, ee *elements.Error, doc value.Value) error {
	if m, ok := smp.ReadNullKeyDropped(ee.Msg); ok {
		list, ok := at(doc, ee.Path)
		if !ok || !list.IsList() || m.Item >= list.Len() {
			return err
		}
		item, _ := toGo(visitors.StripNulls(list.Items()[m.Item])).(map[string]interface{})
		return &apiError{mergepatch.ErrNoMergeKey(item, m.Field).Error(), err}
	}
	if m, ok := smp.ReadMissingMergeKey(ee.Msg); ok {
		list, ok := at(doc, ee.Path)
		if !ok || !list.IsList() || m.Item >= list.Len() {
			return err
		}
		item, _ := toGo(list.Items()[m.Item]).(map[string]interface{})
		return &apiError{mergepatch.ErrNoMergeKey(item, strings.Join(m.MergeKey, ",")).Error(), err}
	}
	return err
}

// apiError is strategicpatch's message for a fault ply found: errors.As still finds ply's *elements.Error (the source
// and the field path) through Unwrap.
type apiError struct {
	msg string
	ply error
}

func (e *apiError) Error() string { return e.msg }
func (e *apiError) Unwrap() error { return e.ply }

// parentOf returns the map holding the value at path p of v, and its field name.
func parentOf(v value.Value, p fieldpath.Path) (value.Value, string, bool) {
	if len(p) == 0 || p[len(p)-1].Kind != fieldpath.FieldElement {
		return value.Value{}, "", false
	}
	parent, ok := at(v, p[:len(p)-1])
	return parent, p[len(p)-1].Field, ok && parent.IsMap()
}

// at returns the value at path p of v.
func at(v value.Value, p fieldpath.Path) (value.Value, bool) {
	for _, e := range p {
		var ok bool
		switch e.Kind {
		case fieldpath.FieldElement:
			v, ok = v.Get(e.Field)
		case fieldpath.IndexElement:
			ok = v.IsList() && e.Index < v.Len()
			if ok {
				v = v.Items()[e.Index]
			}
		default:
			v, ok = itemAt(v, e)
		}
		if !ok {
			return value.Value{}, false
		}
	}
	return v, true
}

// itemAt returns the first item of list v that element e (a merge key or a set value) selects.
func itemAt(v value.Value, e fieldpath.Element) (value.Value, bool) {
	if !v.IsList() {
		return value.Value{}, false
	}
	for x, it := range v.Items() {
		if namedBy(e, x, it) {
			return it, true
		}
	}
	return value.Value{}, false
}

// namedBy reports whether path element e names it, item x of a list: by its index, its value or its merge key.
func namedBy(e fieldpath.Element, x int, it value.Value) bool {
	switch e.Kind {
	case fieldpath.IndexElement:
		return x == e.Index
	case fieldpath.ValueElement:
		return value.Equal(it, e.Value)
	case fieldpath.KeyElement:
		return matchesKey(it, e.Key)
	}
	return false
}

func matchesKey(item value.Value, key []fieldpath.KeyField) bool {
	for _, kf := range key {
		if v, ok := item.Get(kf.Name); !ok || !value.Equal(v, kf.Value) {
			return false
		}
	}
	return true
}

// asJSONGo is Go value x (of toGo) with its integers as float64, as encoding/json decodes a number into an interface{}
// (so that fmt prints it as strategicpatch's messages do).
func asJSONGo(x interface{}) interface{} {
	switch t := x.(type) {
	case int64:
		return float64(t)
	case map[string]interface{}:
		for k, v := range t {
			t[k] = asJSONGo(v)
		}
	case []interface{}:
		for i, v := range t {
			t[i] = asJSONGo(v)
		}
	}
	return x
}

// halvesSetOrder is strategicpatch's error for ply's err (ho) at a "$setElementOrder/<f>" of the delta half kubectl's
// three-way patch merges into its deletions half.
func halvesSetOrder(ho *delta.HalvesSetOrderError, err error) error {
	switch ho.Fault {
	case delta.OrderDiffers:
		return mergepatch.ErrBadPatchFormatForSetElementOrderList
	case delta.OrderNotList:
		return &apiError{mergepatch.ErrBadArgType([]interface{}{}, toGo(ho.List)).Error(), err}
	case delta.OrderLookup:
		return &apiError{ho.Lookup, err}
	case delta.OrderNoItems:
		return &apiError{"no elements in any of the given slices", err}
	case delta.OrderItemNotMap:
		return &apiError{mergepatch.ErrBadArgType(map[string]interface{}(nil), toGo(ho.List)).Error(), err}
	case delta.OrderItemTypes:
		halves := ho.List.Items()
		return &apiError{fmt.Sprintf("list element types are not identical: %v", fmt.Sprint([][]interface{}{toGo(halves[0]).([]interface{}), toGo(halves[1]).([]interface{})})), err}
	case delta.OrderItemNoKey:
		return &apiError{mergepatch.ErrNoMergeKey(toMap(ho.List), ho.Lookup).Error(), err}
	}
	return &apiError{fmt.Sprintf("The order in patch list:\n%v\n doesn't match %s list:\n%v\n", asJSONGo(toGo(ho.List)), strings.TrimSuffix(setOrderPrefix, "/"), asJSONGo(toGo(ho.Order))), err}
}
