package cluster

import (
	"testing"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// FuzzWithoutOwned checks that what withoutOwned leaves of any object for
// any FieldsV1 set is a part of the object (never a panic, no member or
// item the object lacks), and that the part it leaves and the part
// ownedPart takes never share a member the set names whole.
func FuzzWithoutOwned(f *testing.F) {
	f.Add([]byte(`{"data":{"a":"1","b":"2"}}`), []byte(`{"f:data":{"f:a":{}}}`))
	f.Add([]byte(`{"data":{"a":"1"}}`), []byte(`{"f:data":{"f:a":{}}}`))
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
		rest := withoutOwned(v, set)
		if !partOf(rest, v) {
			t.Fatalf("withoutOwned(%s, %s) = %s: not a part of the object", obj, fields, rest.JSON())
		}
		if v.IsMap() {
			for _, m := range v.Fields() {
				sub, named := set.Get("f:" + m.Key)
				_, dot := sub.Get(".")
				if _, kept := rest.Get(m.Key); named && kept && (dot || sub.Len() == 0) {
					t.Fatalf("withoutOwned(%s, %s) = %s keeps %q, which the set names whole", obj, fields, rest.JSON(), m.Key)
				}
			}
		}
	})
}

// FuzzDryHandOver checks that dryHandOver of any object under any manager
// never panics and leaves a part of the object outside its managedFields.
func FuzzDryHandOver(f *testing.F) {
	f.Add([]byte(`{"metadata":{"managedFields":[{"manager":"kubectl-client-side-apply","operation":"Update",`+
		`"fieldsV1":{"f:data":{".":{},"f:a":{},"f:c":{}},"f:metadata":{"f:annotations":{"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}},`+
		`{"manager":"kubectl","operation":"Apply","fieldsV1":{"f:data":{"f:a":{}}}}],`+
		`"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}"}},"data":{"a":"1","c":"3"}}`), "kubectl")
	f.Add([]byte(`{"metadata":{"managedFields":[{"manager":"x","operation":"Update","fieldsV1":"not a set",`+
		`"fieldsV1x":1}]}}`), "deploy")
	f.Fuzz(func(t *testing.T, obj []byte, manager string) {
		v, err := parse.Document(obj)
		if err != nil || !v.IsMap() {
			return
		}
		got, _ := dryHandOver(v, manager)
		if !partOf(withoutManagedFields(got), withoutManagedFields(v)) {
			t.Fatalf("dryHandOver(%s, %q) = %s: not a part of the object", obj, manager, got.JSON())
		}
	})
}

// withoutManagedFields returns v without metadata.managedFields.
func withoutManagedFields(v value.Value) value.Value {
	md, ok := v.Get("metadata")
	if !ok || !md.IsMap() {
		return v
	}
	return v.With("metadata", md.Without("managedFields"))
}
