package collate

import (
	"errors"
	"reflect"
	"unsafe"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/elements"
)

// keptByReset are the collator fields reset keeps (emptied) for the next tree; every other field must be zero after it.
var keptByReset = map[string]bool{
	"maps": true, "lists": true, "sets": true, "atomics": true, "fields": true, "fieldSlab": true, "itemSlab": true,
	"seq": true, "orderIDs": true, "directives": true, "index": true,
}

// nonZero returns a non-zero value of type t, for the kinds a collator's fields have.
func nonZero(t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Pointer:
		v.Set(reflect.New(t.Elem()))
	case reflect.Map:
		v.Set(reflect.MakeMap(t))
	case reflect.Slice:
		v.Set(reflect.MakeSlice(t, 1, 1))
	case reflect.Interface:
		for _, candidate := range []any{errors.New("set"), &elements.MapElement{}} {
			if reflect.TypeOf(candidate).Implements(t) {
				v.Set(reflect.ValueOf(candidate))
			}
		}
	case reflect.Struct:
		v.Field(0).Set(nonZero(t.Field(0).Type))
	}
	return v
}

// field returns c's field i, settable.
func field(c *collator, i int) reflect.Value {
	f := reflect.ValueOf(c).Elem().Field(i)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

var _ = Describe("collator.reset", func() {
	It("zeroes every field it does not keep, and empties those it keeps", func() {
		c := &collator{}
		t := reflect.TypeFor[collator]()
		for i := range t.NumField() {
			if !keptByReset[t.Field(i).Name] {
				f := field(c, i)
				f.Set(nonZero(f.Type()))
				Expect(f.IsZero()).To(BeFalse(), "the test sets %s", t.Field(i).Name)
			}
		}
		tree := elements.Node{}
		alloc(&c.maps).Node = tree
		alloc(&c.atomics).Node = tree
		c.fields = append(c.fields, elements.Field{Name: "a"})
		c.seq, c.orderIDs = append(c.seq, 1), append(c.orderIDs, 2)
		_ = carve(&c.fieldSlab, 2)
		_ = carve(&c.itemSlab, 3)

		c.reset()

		for i := range t.NumField() {
			if name := t.Field(i).Name; !keptByReset[name] {
				Expect(field(c, i).IsZero()).To(BeTrue(), "reset leaves %s set", name)
			}
		}
		Expect(c.maps.used).To(BeZero())
		Expect(c.atomics.used).To(BeZero())
		Expect(c.fields).To(BeEmpty())
		Expect(c.fieldSlab).To(BeEmpty())
		Expect(c.itemSlab).To(BeEmpty())
		Expect(c.seq).To(BeEmpty())
		Expect(c.orderIDs).To(BeEmpty())
	})
})
