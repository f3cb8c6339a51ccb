package engine

import (
	"errors"
	"fmt"
	"reflect"
	"sort"

	"k8s.io/apimachinery/pkg/util/mergepatch"
)

// ConflictingMaps reports whether patches left and right, objects held as Go values, set some key to different values
// (MergingMapsHaveConflicts): a value of another kind, a different "$patch" directive, a different scalar, lists
// without merge strategy that differ (lists of scalars compared as sets); merged lists of objects are compared item by
// item, items matched by merge key, and merged lists of scalars never conflict. Keys only one side sets do not
// conflict. Look-ups follow the data, as strategicpatch's do: a failed one is returned with true.
func (o Options) ConflictingMaps(left, right map[string]interface{}, l Lookup) (bool, error) {
	return (&conflictWalk{}).conflicting(left, right, l, "", "", 0)
}

// conflictWalk is a walk of two patches comparing them (ConflictingMaps). Unless seek, it ends at the first conflict
// or failure, as strategicpatch's does, the keys of a map in their order; with seek, a failure (a look-up, values it
// cannot compare) ends the walk of its value only, err keeps the first, and the walk ends at a conflict: one found is
// one strategicpatch's walk, whose order of keys is Go's map order, may meet before any failure.
type conflictWalk struct {
	seek bool
	err  error
}

// fail is the result of failure err: true and err, or with seek, err kept and no conflict.
func (w *conflictWalk) fail(err error) (bool, error) {
	if !w.seek {
		return true, err
	}
	if w.err == nil {
		w.err = err
	}
	return false, nil
}

// conflicting compares two values of one field, its patch strategy (retainKeys aside) and merge key given.
func (w *conflictWalk) conflicting(left, right interface{}, l Lookup, strategy, mergeKey string, depth int) (bool, error) {
	if depth > maxDepth {
		return w.fail(fmt.Errorf("the patches nest deeper than %d levels", maxDepth))
	}
	switch lt := left.(type) {
	case map[string]interface{}:
		rt, ok := right.(map[string]interface{})
		if !ok {
			return true, nil
		}
		ld, lok := lt["$patch"]
		rd, rok := rt["$patch"]
		if lok != rok || (lok && ld != rd) {
			return true, nil
		}
		if strategy == "replace" {
			return false, nil
		}
		return w.conflictingFields(lt, rt, l, depth)
	case []interface{}:
		rt, ok := right.([]interface{})
		if !ok {
			return true, nil
		}
		return w.conflictingLists(lt, rt, l, strategy, mergeKey, depth)
	case string, float64, bool, int64, nil:
		return !reflect.DeepEqual(left, right), nil
	}
	return w.fail(fmt.Errorf("unknown type: %v", reflect.TypeOf(left)))
}

// conflictingFields compares the fields both objects set, but "$patch" and "$retainKeys", in the order of their keys
// (strategicpatch's follows Go's map order, so where a conflict and a failing look-up meet, it returns either).
func (w *conflictWalk) conflictingFields(left, right map[string]interface{}, l Lookup, depth int) (bool, error) {
	keys := make([]string, 0, len(left))
	for key := range left {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		lv := left[key]
		rv, ok := right[key]
		if !ok || key == "$patch" || key == "$retainKeys" {
			continue
		}
		sub, meta, strategy, err := fieldMeta(l, key, lv)
		if err != nil {
			if c, err := w.fail(err); c {
				return true, err
			}
			continue
		}
		if c, err := w.conflicting(lv, rv, sub, strategy, meta.MergeKey, depth+1); c {
			return true, err
		}
	}
	return false, nil
}

// fieldMeta is the schema of field key holding lv in the patch on the left, looked up as strategicpatch looks it up
// (a list's or a map's, nothing for a scalar), and its patch strategy besides retainKeys.
func fieldMeta(l Lookup, key string, lv interface{}) (sub Lookup, meta Meta, strategy string, err error) {
	switch lv.(type) {
	case []interface{}:
		sub, meta, err = lookup(l, key, true)
	case map[string]interface{}:
		sub, meta, err = lookup(l, key, false)
	}
	if err != nil {
		return nil, Meta{}, "", err
	}
	strategy, err = otherStrategy(meta.Strategies)
	return sub, meta, strategy, err
}

// lookup asks l for field key's schema (a list's items when slice); no schema gives none.
func lookup(l Lookup, key string, slice bool) (Lookup, Meta, error) {
	if l == nil {
		return nil, Meta{}, nil
	}
	if slice {
		return l.Slice(key)
	}
	return l.Struct(key)
}

// otherStrategy is the strategy of strategies besides retainKeys; more than one is an error.
func otherStrategy(strategies []string) (string, error) {
	var other []string
	for _, s := range strategies {
		if s != "retainKeys" {
			other = append(other, s)
		}
	}
	switch {
	case len(strategies) > 2 || len(other) > 1:
		return "", fmt.Errorf("unexpected patch strategy: %v", strategies)
	case len(other) == 1:
		return other[0], nil
	}
	return "", nil
}

// conflictingLists compares two lists of one field.
func (w *conflictWalk) conflictingLists(left, right []interface{}, l Lookup, strategy, mergeKey string, depth int) (bool, error) {
	itemKind, err := itemKind(left, right)
	if err != nil {
		return w.fail(err)
	}
	if strategy == "merge" {
		if itemKind != reflect.Map {
			return false, nil
		}
		return w.conflictingByKey(left, right, l, mergeKey, depth)
	}
	if len(left) != len(right) {
		return true, nil
	}
	if itemKind != reflect.Map {
		left, right = sortedSet(left), sortedSet(right)
	}
	if len(left) > len(right) {
		// The two sets differ. strategicpatch compares as many items as left's set holds and so indexes past right's
		// here (it panics: class duplicate-items); a set shorter on the left it compares as far as it goes.
		return true, nil
	}
	for i := range left {
		if c, err := w.conflicting(left[i], right[i], l, "", "", depth+1); c {
			return true, err
		}
	}
	return false, nil
}

// itemKind is the one Go kind of the items of lists; lists of lists, items of several types and no items at all are
// errors.
func itemKind(lists ...[]interface{}) (reflect.Kind, error) {
	var first reflect.Type
	for _, list := range lists {
		for _, it := range list {
			t := reflect.TypeOf(it)
			switch {
			case first == nil && t != nil && t.Kind() == reflect.Slice:
				return 0, mergepatch.ErrNoListOfLists
			case first == nil:
				first = t
			case t != first:
				return 0, fmt.Errorf("list element types are not identical: %v", fmt.Sprint(lists))
			}
		}
	}
	if first == nil {
		return 0, errors.New("no elements in any of the given slices")
	}
	return first.Kind(), nil
}

// conflictingByKey compares the items of two merged lists of objects that share a merge key value, in the order of
// their keys' renderings.
func (w *conflictWalk) conflictingByKey(left, right []interface{}, l Lookup, mergeKey string, depth int) (bool, error) {
	lm, err := byKey(left, mergeKey)
	if err != nil {
		return w.fail(err)
	}
	rm, err := byKey(right, mergeKey)
	if err != nil {
		return w.fail(err)
	}
	keys := make([]string, 0, len(lm))
	for k := range lm {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if rv, ok := rm[k]; ok {
			if c, err := w.conflicting(lm[k], rv, l, "", "", depth+1); c {
				return true, err
			}
		}
	}
	return false, nil
}

// byKey indexes the objects of list by their merge key value's rendering (the last of a key winning).
func byKey(list []interface{}, mergeKey string) (map[string]interface{}, error) {
	out := make(map[string]interface{}, len(list))
	for _, it := range list {
		m, ok := it.(map[string]interface{})
		if !ok {
			return nil, fmt.Errorf("invalid element type in merging list:%v", list)
		}
		k, ok := m[mergeKey]
		if !ok {
			return nil, fmt.Errorf("cannot find merge key `%s` in merging list element:%v", mergeKey, m)
		}
		out[fmt.Sprintf("%s", k)] = m
	}
	return out, nil
}

// sortedSet returns the distinct scalars of list sorted by their rendering, in a new slice.
func sortedSet(list []interface{}) []interface{} {
	out := make([]interface{}, 0, len(list))
	for _, it := range list {
		dup := false
		for _, seen := range out {
			if seen == it {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, it)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return fmt.Sprintf("%v", out[i]) < fmt.Sprintf("%v", out[j]) })
	return out
}
