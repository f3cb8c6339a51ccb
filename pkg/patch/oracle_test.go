package patch_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// strategicPatch applies the fixture with k8s.io/apimachinery's
// strategicpatch (the oracle; tests only) and returns its result with null
// map fields dropped (ply never puts nulls in a result).
func strategicPatch(f fixture) (value.Value, error) { return strategicPatchWith(f, oracle.Default) }

func strategicPatchV3(f fixture) (value.Value, error) { return strategicPatchWith(f, oracle.DefaultV3) }

func strategicPatchWith(f fixture, kubernetes func() (*oracle.Models, error)) (value.Value, error) {
	var models *oracle.Models
	var err error
	name := f.str("type")
	switch f.str("schema") {
	case "v2":
		models, err = oracle.Default()
	case "default":
		models, err = kubernetes()
	default:
		var data []byte
		data, err = os.ReadFile(filepath.Join("testdata", "schema.json"))
		Expect(err).NotTo(HaveOccurred())
		models, err = oracle.Load(data)
		if name == "" {
			name = "dev.ply.patch.v1.Example"
		}
	}
	Expect(err).NotTo(HaveOccurred())
	if name == "" {
		name = rootName(f)
	}
	Expect(name).NotTo(BeEmpty(), f.file+": name the type for the oracle")
	o, err := models.Oracle(name)
	Expect(err).NotTo(HaveOccurred())
	live := f.get("live").JSON()
	out, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(live, f.get("patch").JSON(), o.Meta())
	if err != nil {
		return value.Value{}, err
	}
	v, err := jsonv.Decode(out)
	Expect(err).NotTo(HaveOccurred())
	return dropNulls(v), nil
}

// dropDeletedMaps classifies the one deliberate difference the
// cross-check meets: a map field the patch deletes with "$patch: delete"
// is absent from ply's result, where strategicpatch leaves an empty map.
// It removes from v (strategicpatch's result) every field that is an
// empty map where p, followed through maps, holds {"$patch": "delete"}.
func dropDeletedMaps(v, p value.Value) value.Value {
	if !v.IsMap() || !p.IsMap() {
		return v
	}
	out := v
	for _, f := range p.Fields() {
		got, ok := v.Get(f.Key)
		if !ok || !f.Value.IsMap() {
			continue
		}
		if d, _ := f.Value.Get("$patch"); d.Kind() == value.KindString {
			if s, _ := d.AsString(); s == "delete" && got.IsMap() && got.Len() == 0 {
				out = out.Without(f.Key)
			}
			continue
		}
		out = out.With(f.Key, dropDeletedMaps(got, f.Value))
	}
	return out
}

func dropNulls(v value.Value) value.Value {
	switch v.Kind() {
	case value.KindMap:
		var fs []value.Field
		for _, f := range v.Fields() {
			if !f.Value.IsNull() {
				fs = append(fs, value.Field{Key: f.Key, Value: dropNulls(f.Value)})
			}
		}
		return value.MapFromSorted(fs)
	case value.KindList:
		items := make([]value.Value, len(v.Items()))
		for i, it := range v.Items() {
			items[i] = dropNulls(it)
		}
		return value.List(items)
	}
	return v
}

// Every fixture that strategicpatch can run (single-field merge keys, no
// deliberate difference) gives under OrderKubectl what strategicpatch
// gives: the same object, list order included, or an error from both
// (the maps "$patch: delete" deletes aside: dropDeletedMaps).
var _ = Describe("cross-check with strategicpatch", func() {
	for _, dir := range []string{"seeds", "directives", "reject", "bad"} {
		DescribeTable(dir,
			func(path string) {
				f := loadFixture(path)
				if !f.oracle() || f.str("schema") == "default" || f.str("schema") == "none" {
					Skip("not comparable: " + f.str("why"))
				}
				want, werr := strategicPatch(f)
				got, err := f.run(patch.OrderKubectl)
				if werr != nil {
					Expect(err).To(HaveOccurred(), "strategicpatch rejects it: %v", werr)
					return
				}
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(equalValue(dropDeletedMaps(want, f.get("patch"))))
			},
			entries(dir),
		)
	}
})

var _ = Describe("the PatchDeleteRemovesMap gate", func() {
	live := jsonv.MustDecode(`{"apiVersion":"patch.ply.dev/v1","kind":"Example","rollingUpdate":{"maxSurge":1},"count":1}`)
	p := jsonv.MustDecode(`{"rollingUpdate":{"$patch":"delete"}}`)
	DescribeTable("decides what \"$patch: delete\" leaves of a map",
		func(g features.Gates, want string) {
			f := fixture{file: "gate"}
			opts := patch.Options{Schema: f.schema(), Gates: g}
			got, err := patch.Apply(live, p, opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got.JSON())).To(Equal(want))
		},
		Entry("on (the default): the field is deleted, as document 001 says", features.Gates{},
			`{"apiVersion":"patch.ply.dev/v1","count":1,"kind":"Example"}`),
		Entry("off: an empty map stays, as strategicpatch leaves it", features.Gates{}.With(features.PatchDeleteRemovesMap, false),
			`{"apiVersion":"patch.ply.dev/v1","count":1,"kind":"Example","rollingUpdate":{}}`),
	)
})

// rootName is the definition name of the fixture's object in its schema
// (live's apiVersion and kind, else the patch's), "" when it has none.
func rootName(f fixture) string {
	obj := f.get("live")
	if !obj.IsMap() {
		obj = f.get("patch")
	}
	av, _ := obj.Get("apiVersion")
	k, _ := obj.Get("kind")
	apiVersion, _ := av.AsString()
	kind, _ := k.AsString()
	if t, ok := f.schema().ForKind(apiVersion, kind); ok {
		return t.Name
	}
	return ""
}
