package cluster

import "github.com/plyproject/ply/pkg/value"

// FieldsV1 sets as ply's values: a tree of maps whose keys name path
// elements ("f:KEY", "k:{...}", "v:...", "i:N"), where a node is a member
// when it has no children or holds ".". The API server writes each element's
// key in one canonical form, so two sets naming the same element use the
// same key, and the operations below compare keys as strings. A node present
// in a set's tree is a member of the set or an ancestor of one.

// unionFields returns the set of the members of a and of b.
func unionFields(a, b value.Value) value.Value {
	af, bf := a.Fields(), b.Fields()
	out := make([]value.Field, 0, max(len(af), len(bf)))
	i, j := 0, 0
	for i < len(af) || j < len(bf) {
		switch {
		case j == len(bf) || (i < len(af) && af[i].Key < bf[j].Key):
			out = append(out, af[i])
			i++
		case i == len(af) || bf[j].Key < af[i].Key:
			out = append(out, bf[j])
			j++
		default:
			out = append(out, value.Field{Key: af[i].Key, Value: unionMember(af[i].Value, bf[j].Value)})
			i, j = i+1, j+1
		}
	}
	return value.MapFromSorted(out)
}

// unionMember is the union of two nodes of one element: a member in
// either (no children, or ".") stays a member when the other has children.
func unionMember(a, b value.Value) value.Value {
	u := unionFields(a, b)
	if (a.Len() == 0 || b.Len() == 0) && u.Len() > 0 {
		u = unionFields(u, value.MustMap(value.Field{Key: ".", Value: value.MustMap()}))
	}
	return u
}

// fieldsOutside returns the members of set that are neither members of
// other nor ancestors of its members: whatever other's tree holds is left
// out, with the members of set below it that other lacks kept.
func fieldsOutside(set, other value.Value) value.Value {
	var out []value.Field
	for _, f := range set.Fields() {
		if f.Key == "." {
			continue // the node itself is in other's tree, or the caller kept it whole
		}
		sub, ok := other.Get(f.Key)
		if !ok {
			out = append(out, f)
			continue
		}
		if rest := fieldsOutside(f.Value, sub); rest.Len() > 0 {
			out = append(out, value.Field{Key: f.Key, Value: rest})
		}
	}
	return value.MapFromSorted(out)
}

// fieldsPath returns the set whose one member is the path of map keys keys.
func fieldsPath(keys ...string) value.Value {
	set := value.MustMap()
	for i := len(keys) - 1; i >= 0; i-- {
		set = value.MustMap(value.Field{Key: "f:" + keys[i], Value: set})
	}
	return set
}
