package apply_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/test/oracle"
)

// objectListSchema types field "ptr" as an object of merge strategy, keyed by name, as apimachinery's own test schema
// types mergeItemPtr; "list" is a list of the same objects.
const objectListSchema = `{"swagger": "2.0", "info": {"title": "t", "version": "v1"}, "paths": {}, "definitions": {
  "Holder": {"type": "object", "properties": {
    "list": {"type": "array", "items": {"$ref": "#/definitions/Item"}, "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name"},
    "ptr": {"$ref": "#/definitions/Item", "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name"}}},
  "Item": {"type": "object", "properties": {"name": {"type": "string"}, "value": {"type": "string"}}}}}`

var _ = Describe("a list where the schema has an object field of merge strategy", func() {
	recorded := `{list: [{name: a, value: a}, {name: b, value: b}], ptr: [{name: c, value: c}, {name: d, value: d}]}`
	local := `{list: [{name: b, value: b}], ptr: [{name: d, value: d}, {name: c, value: x}]}`
	live := `{list: [{name: a, value: a}, {name: b, value: b}], ptr: [{name: c, value: c}, {name: e}, {name: d, value: d}]}`

	It("is refused naming the path; with gate MultiFieldMergeKeys off, merged as kubectl merges it (a list of the object, by the field's key)", func() {
		s, err := openapi.LoadV2([]byte(objectListSchema))
		Expect(err).NotTo(HaveOccurred())
		opts := apply.DefaultOptions()
		opts.Schema, opts.TypeName = s, "Holder"
		_, err = apply.Merge(mustParse(recorded), mustParse(local), mustParse(live), opts)
		Expect(err).To(MatchError("local ptr: expected an object (Item), got array"))

		models, err := oracle.Load([]byte(objectListSchema))
		Expect(err).NotTo(HaveOccurred())
		o, err := models.Oracle("Holder")
		Expect(err).NotTo(HaveOccurred())
		want, err := o.Apply(mustParse(recorded).JSON(), mustParse(local).JSON(), mustParse(live).JSON(), true)
		Expect(err).NotTo(HaveOccurred())
		kubectl, err := parse.Document(want.Object)
		Expect(err).NotTo(HaveOccurred())
		for _, gates := range []features.Gates{features.Kubectl(), features.Gates{}.With(features.MultiFieldMergeKeys, false)} {
			opts.Gates = gates
			res, err := apply.Merge(mustParse(recorded), mustParse(local), mustParse(live), opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Object).To(equalValue(kubectl))
		}
		Expect(kubectl).To(equalValue(mustParse(`{list: [{name: b, value: b}], ptr: [{name: e}, {name: d, value: d}, {name: c, value: x}]}`)))
	})
})
