package cluster

import (
	"testing"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// FuzzOwnedPart checks that the part of any object any FieldsV1 set names
// is a part of the object: never a panic, no member or item the object
// lacks.
func FuzzOwnedPart(f *testing.F) {
	f.Add([]byte(`{"data":{"a":"1","b":"2"}}`), []byte(`{"f:data":{"f:a":{}}}`))
	f.Add([]byte(`{"l":[{"name":"a","x":1},{"name":"b"}]}`), []byte(`{"f:l":{"k:{\"name\":\"a\"}":{".":{},"f:x":{}}}}`))
	f.Add([]byte(`{"l":["a","b"]}`), []byte(`{"f:l":{"v:\"b\"":{},"i:0":{}}}`))
	f.Add([]byte(`{"l":[1,2]}`), []byte(`{"f:l":{"k:not json":{},"i:x":{},"v:":{}}}`))
	f.Fuzz(func(t *testing.T, obj, fields []byte) {
		v, err := parse.Document(obj)
		if err != nil {
			return
		}
		set, err := parse.Document(fields)
		if err != nil {
			return
		}
		got := ownedPart(v, set)
		if !partOf(got, v) {
			t.Fatalf("ownedPart(%s, %s) = %s: not a part of the object", obj, fields, got.JSON())
		}
	})
}

// partOf reports whether p is v with members and items left out.
func partOf(p, v value.Value) bool {
	switch {
	case p.IsMap():
		if !v.IsMap() {
			return false
		}
		for _, f := range p.Fields() {
			w, ok := v.Get(f.Key)
			if !ok || !partOf(f.Value, w) {
				return false
			}
		}
		return true
	case p.IsList():
		if !v.IsList() {
			return false
		}
		items, j := v.Items(), 0
		for _, it := range p.Items() {
			for j < len(items) && !partOf(it, items[j]) {
				j++
			}
			if j == len(items) {
				return false
			}
			j++
		}
		return true
	}
	return value.Equal(p, v)
}
