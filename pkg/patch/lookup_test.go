package patch_test

import (
	"errors"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// lookupSchema is one schema as ply reads it and as strategicpatch does, for the same root type.
type lookupSchema struct {
	ply  func() *openapi.Schema
	meta func() strategicpatch.LookupPatchMeta
	root string
}

var (
	deploymentV2 = lookupSchema{
		ply: func() *openapi.Schema { s, err := openapi.DefaultV2(); Expect(err).NotTo(HaveOccurred()); return s },
		meta: func() strategicpatch.LookupPatchMeta {
			return modelsMeta(oracle.Default, "io.k8s.api.apps.v1.Deployment")
		},
		root: "io.k8s.api.apps.v1.Deployment",
	}
	deploymentV3 = lookupSchema{
		ply: func() *openapi.Schema { s, err := openapi.DefaultV3(); Expect(err).NotTo(HaveOccurred()); return s },
		meta: func() strategicpatch.LookupPatchMeta {
			return modelsMeta(oracle.DefaultV3, "io.k8s.api.apps.v1.Deployment")
		},
		root: "io.k8s.api.apps.v1.Deployment",
	}
	exampleV2 = lookupSchema{
		ply: func() *openapi.Schema { return fixture{}.schema() },
		meta: func() strategicpatch.LookupPatchMeta {
			o, err := oracle.OracleInFile(filepath.Join("testdata", "schema.json"), "dev.ply.patch.v1.Example")
			Expect(err).NotTo(HaveOccurred())
			return o.Meta()
		},
		root: "dev.ply.patch.v1.Example",
	}
	goStruct = lookupSchema{
		ply: func() *openapi.Schema { return openapi.FromTypes(map[string]*openapi.Type{"doc": structDocType}) },
		meta: func() strategicpatch.LookupPatchMeta {
			m, err := strategicpatch.NewPatchMetaFromStruct(&structDoc{})
			Expect(err).NotTo(HaveOccurred())
			return m
		},
		root: "doc",
	}
)

func modelsMeta(models func() (*oracle.Models, error), name string) strategicpatch.LookupPatchMeta {
	m, err := models()
	Expect(err).NotTo(HaveOccurred())
	o, err := m.Oracle(name)
	Expect(err).NotTo(HaveOccurred())
	return o.Meta()
}

// structDoc is a Go type strategicpatch reads by its struct tags (PatchMetaFromStruct); structDocType is the same
// type built in Go for ply, each field's NotAList what that look-up says of the field as a list.
type structDoc struct {
	Count  int        `json:"count"`
	Ptr    *int       `json:"ptr"`
	Sub    structSub  `json:"sub"`
	SubPtr *structSub `json:"subPtr"`
	Names  []string   `json:"names"`
}

type structSub struct {
	Name string `json:"name"`
}

var structDocType = func() *openapi.Type {
	str := &openapi.Type{Name: "string", Kind: openapi.KindPrimitive, Primitive: "string"}
	integer := &openapi.Type{Name: "integer", Kind: openapi.KindPrimitive, Primitive: "integer"}
	sub := openapi.KubectlBuilt(&openapi.Type{Name: "structSub", Kind: openapi.KindStruct, FieldNames: []string{"name"},
		Fields: map[string]*openapi.Field{"name": {Name: "name", Type: str, NotAList: notSlice}}})
	names := openapi.KubectlBuilt(&openapi.Type{Name: "[]string", Kind: openapi.KindList, Elem: str})
	return openapi.KubectlBuilt(&openapi.Type{Name: "structDoc", Kind: openapi.KindStruct,
		FieldNames: []string{"count", "names", "ptr", "sub", "subPtr"},
		Fields: map[string]*openapi.Field{
			"count":  {Name: "count", Type: integer, NotAList: notSlice},
			"names":  {Name: "names", Type: names},
			"ptr":    {Name: "ptr", Type: integer},
			"sub":    {Name: "sub", Type: sub, NotAList: notSlice},
			"subPtr": {Name: "subPtr", Type: sub},
		}})
}()

// notSlice is what PatchMetaFromStruct's look-up of a field neither a slice, an array nor a pointer as a list says.
const notSlice = "expected slice or array type, but got: struct"

// A "$setElementOrder/<f>" naming a declared field that is not a list is refused where the look-up of the schema's
// own reader refuses it (OpenAPI v2: a primitive or a map; Go struct tags: a field neither a slice nor a pointer),
// with that look-up's error and the map's path, and followed (ordering nothing) where it finds the field (OpenAPI
// v3, which kubectl reads from a server; v2 and Go for a reference or a pointer), every gate on or off, as
// strategicpatch does on the same schema.
var _ = Describe("a $setElementOrder naming a declared field that is not a list", func() {
	DescribeTable("follows the look-up of the schema's reader",
		func(sc lookupSchema, live, p, errPath, spErr string) {
			want, werr := strategicMergePatchRecovered([]byte(live), []byte(p), sc.meta())
			for _, g := range []features.Gates{{}, features.Kubectl()} {
				got, err := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(p),
					patch.Options{Schema: sc.ply(), TypeName: sc.root, Ordering: patch.OrderKubectl, Gates: g})
				if spErr == "" {
					Expect(werr).NotTo(HaveOccurred())
					Expect(err).NotTo(HaveOccurred())
					Expect(got).To(equalValue(jsonv.MustDecode(string(want))))
					continue
				}
				Expect(werr).To(MatchError(spErr))
				var ee *elements.Error
				Expect(errors.As(err, &ee)).To(BeTrue(), "ply: %v", err)
				Expect(ee.Source).To(Equal(elements.Patch))
				Expect(ee.Path.String()).To(Equal(errPath))
				Expect(ee.Msg).To(HaveSuffix(": " + spErr))
			}
		},
		Entry("v2, a primitive", deploymentV2, deployment, `{"spec":{"$setElementOrder/minReadySeconds":[1]}}`,
			"spec", "expected slice, but got primitive"),
		Entry("v2, a primitive the patch sets to a list", deploymentV2, deployment, `{"spec":{"$setElementOrder/minReadySeconds":[1],"minReadySeconds":[1]}}`,
			"spec", "expected slice, but got primitive"),
		Entry("v2, a map", deploymentV2, deployment, `{"metadata":{"$setElementOrder/annotations":["a"]}}`,
			"metadata", "expected slice, but got map"),
		Entry("v2, a reference to a struct: found", deploymentV2, deployment, `{"spec":{"$setElementOrder/strategy":[{"type":"x"}]}}`, "", ""),
		Entry("v2, a reference to a primitive definition: found", deploymentV2, `{"apiVersion":"apps/v1","kind":"Deployment","spec":{"strategy":{"rollingUpdate":{}}}}`,
			`{"spec":{"strategy":{"rollingUpdate":{"$setElementOrder/maxSurge":[1]}}}}`, "", ""),
		Entry("v2, an inline object, which the look-up searches for a field of the name", exampleV2, `{"state":{}}`,
			`{"state":{"$setElementOrder/running":[{"a":1}]}}`, "state", `unable to find api field "running" in dev.ply.patch.v1.ContainerState.running`),
		Entry("v2, a map of the test schema", exampleV2, `{"count":1}`, `{"$setElementOrder/labels":["a"]}`,
			".", "expected slice, but got map"),
		Entry("v2, a primitive of the test schema", exampleV2, `{"name":"a"}`, `{"$setElementOrder/count":[1]}`,
			".", "expected slice, but got primitive"),
		Entry("v3, a primitive: found", deploymentV3, deployment, `{"spec":{"$setElementOrder/minReadySeconds":[1]}}`, "", ""),
		Entry("v3, a map: found", deploymentV3, deployment, `{"metadata":{"$setElementOrder/annotations":["a"]}}`, "", ""),
		Entry("Go struct tags, a scalar", goStruct, `{"names":["a"]}`, `{"$setElementOrder/count":[1]}`, ".", notSlice),
		Entry("Go struct tags, a struct", goStruct, `{"names":["a"]}`, `{"$setElementOrder/sub":[{"name":"a"}]}`, ".", notSlice),
		Entry("Go struct tags, a struct's scalar", goStruct, `{"sub":{}}`, `{"sub":{"$setElementOrder/name":["a"]}}`, "sub", notSlice),
		Entry("Go struct tags, a pointer to a scalar: found", goStruct, `{"names":["a"]}`, `{"$setElementOrder/ptr":[1]}`, "", ""),
		Entry("Go struct tags, a pointer to a struct: found", goStruct, `{"names":["a"]}`, `{"$setElementOrder/subPtr":[{"name":"a"}]}`, "", ""),
	)
})

const deployment = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a"},"spec":{"replicas":1}}`

// A field the schema does not declare, which live and the patch both hold as objects (or both as lists), is merged
// by the no-schema rules (maps merge, lists are replaced), every gate on or off, where strategicpatch's look-up of it
// fails under every schema it reads (class oracle-no-meta-undeclared of test/patchdiff; docs/strategicpatch.md).
// Where live lacks the field both take the patch's value.
var _ = Describe("a field the schema does not declare", func() {
	DescribeTable("is merged by the no-schema rules where strategicpatch's look-up fails",
		func(sc lookupSchema, live, p, want, spErr string) {
			_, werr := strategicMergePatchRecovered([]byte(live), []byte(p), sc.meta())
			if spErr == "" {
				Expect(werr).NotTo(HaveOccurred())
			} else {
				Expect(werr).To(MatchError(ContainSubstring(spErr)))
			}
			for _, g := range []features.Gates{{}, features.Kubectl()} {
				got, err := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(p),
					patch.Options{Schema: sc.ply(), TypeName: sc.root, Ordering: patch.OrderKubectl, Gates: g})
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(equalValue(jsonv.MustDecode(want)))
			}
		},
		Entry("v2, objects", deploymentV2, `{"spec":{"zzz":{"a":1,"keep":"x"}}}`, `{"spec":{"zzz":{"a":2,"b":{"c":1}}}}`,
			`{"spec":{"zzz":{"a":2,"b":{"c":1},"keep":"x"}}}`, `unable to find api field "zzz" in io.k8s.api.apps.v1.DeploymentSpec`),
		Entry("v3, objects", deploymentV3, `{"spec":{"zzz":{"a":1,"keep":"x"}}}`, `{"spec":{"zzz":{"a":2,"b":{"c":1}}}}`,
			`{"spec":{"zzz":{"a":2,"b":{"c":1},"keep":"x"}}}`, `unable to find api field "zzz"`),
		Entry("v3, lists", deploymentV3, `{"spec":{"zzz":[1,2]}}`, `{"spec":{"zzz":[3]}}`, `{"spec":{"zzz":[3]}}`,
			`unable to find api field "zzz"`),
		Entry("Go struct tags, objects", goStruct, `{"zzz":{"a":1}}`, `{"zzz":{"b":2}}`, `{"zzz":{"a":1,"b":2}}`,
			`unable to find api field in struct structDoc for the json field "zzz"`),
		Entry("v3, live lacking it: taken as the patch's", deploymentV3, `{"spec":{}}`, `{"spec":{"zzz":{"b":{"$patch":"delete"}}}}`,
			`{"spec":{"zzz":{}}}`, ""),
	)
})
