package engine

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/mergepatch"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// diffPair is two documents strategicpatch diffs creating a patch, in its order: the one it diffs from, then modified.
type diffPair [2]value.Value

// diffError is the error of creating a patch, err, as strategicpatch words it: for an item of a list merged by key
// lacking its merge key field, the item strategicpatch meets first (diffNoMergeKey) among the documents it diffs,
// pairs in its order; else asAPIMachinery's.
func diffError(err error, in docs, pairs ...diffPair) error {
	if e, ok := diffNoMergeKey(err, pairs); ok {
		return e
	}
	if e, ok := diffMixedKinds(err, pairs); ok {
		return e
	}
	return asAPIMachinery(err, in)
}

// diffMixedKinds is strategicpatch's error where ply's err refuses an item of the list merged by key at the error's
// path for not being an object: strategicpatch's diff of a pair's lists there (both lists, the first not empty) first
// checks that their items are of one Go type, and fails naming both lists where they are not. ok is false where err is
// another error or no pair's lists there mix types.
func diffMixedKinds(err error, pairs []diffPair) (error, bool) {
	ee, ok := asElementsError(err)
	if !ok || !strings.Contains(ee.Msg, notAnObject) {
		return err, false
	}
	for _, pair := range pairs {
		a, aok := at(pair[0], ee.Path)
		b, bok := at(pair[1], ee.Path)
		if !aok || !bok || !a.IsList() || !b.IsList() || a.Len() == 0 {
			continue
		}
		lists := [][]interface{}{toGo(a).([]interface{}), toGo(b).([]interface{})}
		if mixedGoTypes(lists) {
			return &apiError{fmt.Sprintf("list element types are not identical: %v", lists), err}, true
		}
	}
	return err, false
}

// notAnObject is the words ply's messages refusing an item of a list merged by key that is not an object share
// (smp.MergeKeyNotScalar's and the collation's).
const notAnObject = ": expected an object with "

// mixedGoTypes reports whether the items of lists, in turn, are not all of one Go type (a list of lists first, which
// strategicpatch refuses otherwise, is not reported).
func mixedGoTypes(lists [][]interface{}) bool {
	var first reflect.Type
	for _, l := range lists {
		for _, it := range l {
			t := reflect.TypeOf(it)
			switch {
			case first == nil && (t == nil || t.Kind() == reflect.Slice):
				return false
			case first == nil:
				first = t
			case t != first:
				return true
			}
		}
	}
	return false
}

// diffNoMergeKey is strategicpatch's mergepatch.ErrNoMergeKey where ply's err is an item lacking its merge key field
// in the list at the error's path: strategicpatch diffs each pair's lists there (where both hold a list of objects,
// the first not empty) sorting each by the text of its items' keys ("%v", nil for a key field missing) and walking both
// in that order, and fails on the first item without the field, the first list's before the second's at each step.
// ok is false where err is another error or the walk finds no such item.
func diffNoMergeKey(err error, pairs []diffPair) (error, bool) {
	ee, ok := asElementsError(err)
	if !ok {
		return err, false
	}
	var mk string
	if m, ok := smp.ReadMissingMergeKey(ee.Msg); ok {
		mk = strings.Join(m.MergeKey, ",")
	} else if m, ok := smp.ReadMergeKeyNotScalar(ee.Msg); ok && m.Got == smp.GotWithoutKey {
		mk = strings.Join(m.MergeKey, ",")
	} else {
		return err, false
	}
	for _, pair := range pairs {
		if item, ok := firstWithoutKey(pair, ee.Path, mk); ok {
			return &apiError{mergepatch.ErrNoMergeKey(toMap(item), mk).Error(), err}, true
		}
	}
	return err, false
}

// firstWithoutKey is the item without field mk that strategicpatch's walk of pair's lists of objects at path p meets
// first (diffNoMergeKey).
func firstWithoutKey(pair diffPair, p fieldpath.Path, mk string) (value.Value, bool) {
	a, aok := at(pair[0], p)
	b, bok := at(pair[1], p)
	if !aok || !bok || !a.IsList() || !b.IsList() || a.Len() == 0 {
		return value.Value{}, false
	}
	sa, ok := sortedByKeyText(a.Items(), mk)
	if !ok {
		return value.Value{}, false
	}
	sb, ok := sortedByKeyText(b.Items(), mk)
	if !ok {
		return value.Value{}, false
	}
	i, j := 0, 0
	for i < len(sa) || j < len(sb) {
		if i < len(sa) && !sa[i].held {
			return sa[i].item, true
		}
		if j < len(sb) && !sb[j].held {
			return sb[j].item, true
		}
		switch {
		case i < len(sa) && j < len(sb) && sa[i].text == sb[j].text:
			i, j = i+1, j+1
		case i >= len(sa) || (j < len(sb) && sa[i].text > sb[j].text):
			j++
		default:
			i++
		}
	}
	return value.Value{}, false
}

// keyText is an item of a list merged by key with the text of its key ("%v" of the Go value, "<nil>" for a field null
// or missing) and whether it holds the field.
type keyText struct {
	item value.Value
	text string
	held bool
}

// byKeyText sorts keyTexts as strategicpatch's SortableSliceOfMaps sorts maps: i before j where i's text is not
// greater (Less holds for equal texts too), with sort.Sort, so that equal texts end in its order.
type byKeyText []keyText

func (s byKeyText) Len() int           { return len(s) }
func (s byKeyText) Less(i, j int) bool { return s[i].text <= s[j].text }
func (s byKeyText) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }

// sortedByKeyText is items sorted by their key mk's text; ok is false where an item is not an object.
func sortedByKeyText(items []value.Value, mk string) ([]keyText, bool) {
	out := make(byKeyText, len(items))
	for x, it := range items {
		if !it.IsMap() {
			return nil, false
		}
		k, held := it.Get(mk)
		var g interface{}
		if held {
			g = toGo(k)
		}
		out[x] = keyText{item: it, text: fmt.Sprintf("%v", g), held: held}
	}
	sort.Sort(out)
	return out, true
}
