package parse_test

import (
	"reflect"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/value"
)

var _ = Describe("the slab a document's maps and lists are carved from", func() {
	It("holds two list items in the room of one map field, with the pointers where the collector looks for them", func() {
		field, item := reflect.TypeOf(value.Field{}), reflect.TypeOf(value.Value{})
		Expect(field.Size()).To(Equal(2 * item.Size()))
		// A Value: a pointer word, then a word without pointers.
		Expect(item.NumField()).To(Equal(2))
		Expect(item.Field(0).Type.Kind()).To(Equal(reflect.UnsafePointer))
		Expect(item.Field(0).Offset).To(BeZero())
		Expect(item.Field(1).Type.Kind()).To(Equal(reflect.Uint64))
		// A Field: a string (its data pointer, then its length), then a Value.
		Expect(field.Field(0).Type.Kind()).To(Equal(reflect.String))
		Expect(field.Field(0).Offset).To(BeZero())
		Expect(field.Field(1).Type).To(Equal(item))
		Expect(field.Field(1).Offset).To(Equal(item.Size()))
	})
})
