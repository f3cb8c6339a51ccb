package setofmaps_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// schema chains the CRD before the embedded default schema.
func schema() *openapi.Schema {
	path := filepath.Join("testdata", "routers-crd.yaml")
	data, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	crd, err := openapi.LoadCRD(path, data)
	Expect(err).NotTo(HaveOccurred())
	def, err := openapi.Default()
	Expect(err).NotTo(HaveOccurred())
	return openapi.Union(crd, def)
}

// kubectl is strategicpatch over kubectl's view of the CRD.
func kubectl() *oracle.Oracle {
	data, err := os.ReadFile(filepath.Join("testdata", "kubectl-view.json"))
	Expect(err).NotTo(HaveOccurred())
	models, err := oracle.Load(data)
	Expect(err).NotTo(HaveOccurred())
	o, err := models.Oracle("dev.ply.sets.v1.Router")
	Expect(err).NotTo(HaveOccurred())
	return o
}

// router wraps a spec into a Router; absent (the zero Value) stays null.
func router(spec value.Value, has bool) value.Value {
	if !has {
		return value.Null
	}
	return value.MustMap(
		value.Field{Key: "apiVersion", Value: value.String("sets.ply.dev/v1")},
		value.Field{Key: "kind", Value: value.String("Router")},
		value.Field{Key: "metadata", Value: value.MustMap(value.Field{Key: "name", Value: value.String("r")})},
		value.Field{Key: "spec", Value: spec},
	)
}

type testCase struct{ doc value.Value }

func (c testCase) obj(key string) value.Value {
	v, ok := c.doc.Get(key)
	return router(v, ok)
}

func (c testCase) name() string {
	v, _ := c.doc.Get("name")
	s, _ := v.AsString()
	return s
}

func cases(kind string) []TableEntry {
	data, err := os.ReadFile(filepath.Join("testdata", "cases.yaml"))
	if err != nil {
		panic(err)
	}
	doc, err := parse.Document(data)
	if err != nil {
		panic(err)
	}
	list, _ := doc.Get(kind)
	var out []TableEntry
	for _, c := range list.Items() {
		tc := testCase{c}
		out = append(out, Entry(tc.name(), tc))
	}
	return out
}

func equalJSON(want value.Value) OmegaMatcher { return Equal(string(want.JSON())) }

func js(v value.Value) string { return string(v.JSON()) }

var noSetOfMaps = features.Gates{}.With(features.SetOfMaps, false)

var _ = Describe("collating a set of maps", func() {
	collateRoutes := func(g features.Gates) elements.Element {
		local := router(jsonv.MustDecode(`{"routes":[{"host":"a"},{"host":"b"}]}`), true)
		t, ok := schema().ForKind("sets.ply.dev/v1", "Router")
		Expect(ok).To(BeTrue())
		tree, err := collate.Collate(elements.Values{Local: local, HasLocal: true}, t, collate.Options{Gates: g})
		Expect(err).NotTo(HaveOccurred())
		spec := tree.(*elements.MapElement).Fields[3].Element.(*elements.MapElement)
		Expect(spec.Fields[0].Name).To(Equal("routes"))
		return spec.Fields[0].Element
	}

	It("gives a SetElement of atomic items, one per distinct item", func() {
		set, ok := collateRoutes(features.Gates{}).(*elements.SetElement)
		Expect(ok).To(BeTrue())
		Expect(set.Items).To(HaveLen(2))
		for _, it := range set.Items {
			Expect(it.Element).To(BeAssignableToTypeOf(&elements.AtomicElement{}))
		}
		Expect(set.Items[1].Element.Base().Path().String()).To(Equal(`spec.routes[={"host":"b"}]`))
	})

	It("gives an atomic list without the gate", func() {
		Expect(collateRoutes(noSetOfMaps)).To(BeAssignableToTypeOf(&elements.AtomicElement{}))
	})

	It("refuses an item local repeats, as it refuses a repeated merge key", func() {
		local := router(jsonv.MustDecode(`{"routes":[{"host":"a"},{"host":"a"}]}`), true)
		_, err := apply.Merge(value.Null, local, value.Null, apply.Options{Schema: schema(), Overwrite: true})
		Expect(err).To(MatchError(`local spec.routes: items 0 and 1 are both {"host":"a"}; a set lists each value once`))
	})
})

var _ = Describe("merging a set of maps", func() {
	DescribeTable("merges item by item; without the gate, as strategicpatch",
		func(c testCase) {
			recorded, local, live := c.obj("recorded"), c.obj("local"), c.obj("live")
			res, err := apply.Merge(recorded, local, live, apply.Options{Schema: schema(), Overwrite: true})
			Expect(err).NotTo(HaveOccurred())
			Expect(js(res.Object)).To(equalJSON(c.obj("want")))

			off, err := apply.Merge(recorded, local, live, apply.Options{Schema: schema(), Overwrite: true, Gates: noSetOfMaps, Ordering: apply.OrderingKubectl})
			Expect(err).NotTo(HaveOccurred())
			var rec []byte
			if !recorded.IsNull() {
				rec = recorded.JSON()
			}
			want, err := kubectl().Apply(rec, local.JSON(), live.JSON(), true)
			Expect(err).NotTo(HaveOccurred())
			Expect(js(off.Object)).To(Equal(js(jsonv.MustDecode(string(want.Object)))))
		},
		cases("merges"),
	)
})

var _ = Describe("patching a set of maps", func() {
	DescribeTable("adds, deletes and orders whole items; without the gate, as strategicpatch or refused",
		func(c testCase) {
			live, p := c.obj("live"), c.obj("patch")
			got, err := patch.Apply(live, p, patch.Options{Schema: schema()})
			Expect(err).NotTo(HaveOccurred())
			Expect(js(got)).To(equalJSON(c.obj("want")))

			off, err := patch.Apply(live, p, patch.Options{Schema: schema(), Gates: noSetOfMaps, Ordering: patch.OrderKubectl})
			if _, ok := c.doc.Get("kubectl"); !ok {
				Expect(err).To(MatchError(ContainSubstring("spec.routes: $")), "a directive for a list that does not merge")
				return
			}
			Expect(err).NotTo(HaveOccurred())
			want, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(live.JSON(), p.JSON(), kubectl().Meta())
			Expect(err).NotTo(HaveOccurred())
			Expect(js(off)).To(Equal(js(jsonv.MustDecode(string(want)))))
			Expect(js(off)).To(equalJSON(c.obj("kubectl")))
		},
		cases("patches"),
	)
})

var _ = Describe("generating patches for a set of maps", func() {
	DescribeTable("the three-way patch, applied to live, gives what the merge gives",
		func(c testCase) {
			recorded, local, live := c.obj("recorded"), c.obj("local"), c.obj("live")
			opts := patchgen.Options{Schema: schema(), Overwrite: true}
			p, err := patchgen.ThreeWay(recorded, local, live, opts)
			Expect(err).NotTo(HaveOccurred())
			got, err := patch.Apply(live, p, patch.Options{Schema: schema()})
			Expect(err).NotTo(HaveOccurred())
			res, err := apply.Merge(recorded, local, live, apply.Options{Schema: schema(), Overwrite: true})
			Expect(err).NotTo(HaveOccurred())
			Expect(js(got)).To(Equal(js(res.Object)), "patch %s", js(p))
		},
		cases("merges"),
	)

	It("writes added items, the removed ones in $deleteFromPrimitiveList, and $setElementOrder", func() {
		original := router(jsonv.MustDecode(`{"routes":[{"host":"a"},{"host":"b"}]}`), true)
		modified := router(jsonv.MustDecode(`{"routes":[{"host":"c"},{"host":"a"}]}`), true)
		p, err := patchgen.TwoWay(original, modified, patchgen.Options{Schema: schema()})
		Expect(err).NotTo(HaveOccurred())
		Expect(js(p)).To(Equal(`{"spec":{"$deleteFromPrimitiveList/routes":[{"host":"b"}],"$setElementOrder/routes":[{"host":"c"},{"host":"a"}],"routes":[{"host":"c"}]}}`))
	})
})
