package delta

import (
	"slices"
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// SetOrderFault is what kubectl's merge of the three-way patch's halves finds wrong with a "$setElementOrder/<f>" of
// the delta half's map (HalvesSetOrderError).
type SetOrderFault int

const (
	// OrderDiffers: the deletions half's map holds the key with another value.
	OrderDiffers SetOrderFault = iota
	// OrderNotList: the key's value, or the value either half holds at <f>, is not a list (HalvesSetOrderError.List).
	OrderNotList
	// OrderContradicts: the delta's list <f> (its items but those holding "$patch") is not in the order's order, or
	// holds an item the order does not name.
	OrderContradicts
	// OrderLookup: the schema's look-up of <f> as a list fails (openapi.Field.NotAList of the map's type, the
	// look-up's error: HalvesSetOrderError.Lookup).
	OrderLookup
	// OrderNoItems: neither half's list <f> holds an item (strategicpatch cannot tell their items' type).
	OrderNoItems
	// OrderItemNotMap, OrderItemNoKey: an item of the order of a list of maps merged by key is not a map, or lacks the
	// merge key (HalvesSetOrderError.List is the item, Lookup the merge key).
	OrderItemNotMap
	OrderItemNoKey
	// OrderItemTypes: the halves' lists <f>, of a list without merge key whose items and order's are all strings,
	// numbers and bools, hold items of more than one Go type (HalvesSetOrderError.List holds the two lists, the
	// deletions half's first, an absent one empty).
	OrderItemTypes
)

// HalvesSetOrderError is the error of kubectl's merge of its three-way patch's halves at a "$setElementOrder/<f>" of
// the delta half's map (local's data, written by the patch) where the deletions half holds the map too: Err blames
// local at the key's path; Order is its value, List the value the fault names (OrderNotList) or the delta's list
// (OrderContradicts).
type HalvesSetOrderError struct {
	Err         *elements.Error
	Fault       SetOrderFault
	Order, List value.Value
	Lookup      string
}

func (e *HalvesSetOrderError) Error() string { return e.Err.Error() }
func (e *HalvesSetOrderError) Unwrap() error { return e.Err }

// checkOrders checks each "$setElementOrder/<f>" of the delta half's map delta against the deletions half's map dels
// (type t, at path) as kubectl's merge of the halves does before it merges their fields: the same key in dels must hold
// an equal value; the key's value, and <f> in either half, must be lists; the delta's list <f>, less its items holding
// "$patch", must name its items in the order's order, each named by it (by merge key for a list merged by key, by
// value for a list of scalars; other lists are not checked), once the schema's look-up of <f> as a list succeeds (it
// fails where the map's type holds the look-up's error: openapi.Field.NotAList). The first fault in the map's key order
// is h.err.
func (h *halvesMerged) checkOrders(dels, delta value.Value, t *openapi.Type, path fieldpath.Path) {
	if !delta.IsMap() || !dels.IsMap() {
		return
	}
	for _, f := range delta.Fields() {
		field, ok := strings.CutPrefix(f.Key, smp.SetOrderPrefix)
		if !ok {
			continue
		}
		fail := func(fault SetOrderFault, list value.Value, msg string) {
			h.err = &HalvesSetOrderError{Err: &elements.Error{Source: elements.Local, Path: path.Child(fieldpath.Field(f.Key)), Msg: msg}, Fault: fault, Order: f.Value, List: list}
		}
		d, has := dels.Get(f.Key)
		switch {
		case has && !value.Equal(d, f.Value):
			fail(OrderDiffers, value.Value{}, "the three-way patch's halves hold different "+f.Key)
			return
		case !f.Value.IsList():
			fail(OrderNotList, f.Value, f.Key+" is not a list")
			return
		}
		for _, half := range [...]value.Value{dels, delta} {
			if l, has := half.Get(field); has && !l.IsList() {
				fail(OrderNotList, l, f.Key+" orders a value that is not a list")
				return
			}
		}
		if fd := t.Field(field); fd != nil && fd.NotAList != "" {
			fail(OrderLookup, value.Value{}, f.Key+" orders a list, but the schema's look-up of "+field+" as a list fails: "+fd.NotAList)
			h.err.(*HalvesSetOrderError).Lookup = fd.NotAList
			return
		}
		list, _ := delta.Get(field)
		_, meta := t.Child(field)
		key := ""
		if len(meta.MergeKey) > 0 {
			key = meta.MergeKey[0]
		}
		if !inOrder(list, f.Value, key) {
			fail(OrderContradicts, list, "the order of the patch list contradicts "+f.Key)
			return
		}
		if fault, item := orderedItems(dels, delta, field, f.Value, key); fault != orderFits {
			fail(fault, item, f.Key+" cannot order the halves' lists "+field+": "+faultText[fault])
			h.err.(*HalvesSetOrderError).Lookup = key
			return
		}
	}
}

// orderFits is orderedItems's answer where it finds no fault.
const orderFits SetOrderFault = -1

// faultText is ply's words for the faults orderedItems finds.
var faultText = map[SetOrderFault]string{
	OrderNoItems:    "neither holds an item",
	OrderItemNotMap: "an item of the order is not a map",
	OrderItemNoKey:  "an item of the order lacks the merge key",
	OrderItemTypes:  "their items are not of one type",
}

// orderedItems checks what kubectl's merge of the halves checks of the lists <f> (field) the delta's order orders,
// once the order holds: where either half holds the list, one of them must hold an item; a list without merge key of
// strings, numbers and bools must hold items of one Go type; a list merged by key that one half holds must hold maps
// holding the key, and where the first item is a map every item of the order must be a map holding the key
// (strategicpatch's partition of the merged list by the order, sliceElementType, then normalizeSliceOrder's check of
// the order); the fault and the item it names, orderFits if none. (A list strategicpatch panics on is not checked.)
func orderedItems(dels, delta value.Value, field string, order value.Value, key string) (SetOrderFault, value.Value) {
	dl, inDels := dels.Get(field)
	pl, inDelta := delta.Get(field)
	if !inDels && !inDelta {
		return orderFits, value.Value{}
	}
	first, ok := value.Value{}, false
	for _, l := range [...]value.Value{dl, pl} {
		if items := l.Items(); !ok && len(items) > 0 {
			first, ok = items[0], true
		}
	}
	switch {
	case !ok:
		return OrderNoItems, value.Value{}
	case key == "" && scalarsOfKinds(dl, pl, order) && !oneGoType(first, dl, pl):
		return OrderItemTypes, value.List([]value.Value{value.List(dl.Items()), value.List(pl.Items())})
	case key == "":
		return orderFits, value.Value{}
	case inDels != inDelta:
		// The merged list is the one half's (the delta's less its maps holding "$patch"): strategicpatch's partition of
		// it by the order fails at its first item that is not a map or lacks the key.
		held := dl
		if inDelta {
			held, _ = smp.WithoutDirectives(pl)
		}
		for _, it := range held.Items() {
			if !it.IsMap() {
				return OrderItemNotMap, it
			}
			if _, has := it.Get(key); !has {
				return OrderItemNoKey, it
			}
		}
	}
	if !first.IsMap() {
		return orderFits, value.Value{}
	}
	for _, it := range order.Items() {
		if !it.IsMap() {
			return OrderItemNotMap, it
		}
		if _, has := it.Get(key); !has {
			return OrderItemNoKey, it
		}
	}
	return orderFits, value.Value{}
}

// inOrder reports whether list's items are named in order by order's, as kubectl's merge checks them: an item
// holding "$patch" is skipped (for a list merged by key, one holding "$patch": "delete" is not read at all), others
// are compared by the value of field key of maps, or (key "") by scalar value, each with the order's next names until
// one matches; the list is out of order where items stay when the names run out. Lists it cannot so compare are in
// order.
func inOrder(list, order value.Value, key string) bool {
	items, names := list.Items(), order.Items()
	if len(items) == 0 || len(names) == 0 {
		return true
	}
	if key != "" {
		items = slices.DeleteFunc(slices.Clone(items), func(it value.Value) bool {
			d, ok := it.Get(smp.DirectiveKey)
			s, _ := d.AsString()
			return ok && it.IsMap() && s == smp.DeleteValue
		})
	}
	i, j := 0, 0
	for i < len(items) && j < len(names) {
		if _, directive := items[i].Get(smp.DirectiveKey); directive && items[i].IsMap() {
			i++
			continue
		}
		a, b, ok := comparable(items[i], names[j], key)
		if !ok {
			return true
		}
		if value.Equal(a, b) {
			i++
		}
		j++
	}
	return i >= len(items) || j < len(names)
}

// comparable is what kubectl's check of an order compares of list item it and order's name: field key of both (maps
// holding it), or both themselves (key ""); ok false where that is not two scalars.
func comparable(it, name value.Value, key string) (a, b value.Value, ok bool) {
	a, b = it, name
	if key != "" {
		var ok1, ok2 bool
		a, ok1 = it.Get(key)
		b, ok2 = name.Get(key)
		if !it.IsMap() || !name.IsMap() || !ok1 || !ok2 {
			return a, b, false
		}
	}
	return a, b, !isCollection(a) && !isCollection(b)
}

// scalarsOfKinds reports whether every item of lists is a string, a number or a bool (no null, map or list: on those
// strategicpatch's partition of a list without merge key panics first).
func scalarsOfKinds(lists ...value.Value) bool {
	for _, l := range lists {
		for _, it := range l.Items() {
			if k := it.Kind(); k != value.KindString && k != value.KindInt && k != value.KindFloat && k != value.KindBool {
				return false
			}
		}
	}
	return true
}

// oneGoType reports whether every item of lists decodes to first's Go type (an integer to int64, a decimal to
// float64: JSON decoding's).
func oneGoType(first value.Value, lists ...value.Value) bool {
	for _, l := range lists {
		for _, it := range l.Items() {
			if it.Kind() != first.Kind() {
				return false
			}
		}
	}
	return true
}
