package patchdiff_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	ply "github.com/plyproject/ply/pkg/strategicpatch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/jsonv"
)

// Composing two patches of a Deployment where one holds a map with "$patch" ("replace", "delete", "merge", another
// value) at a field whose schema type is not a map: a list merged by key (a container's env), an atomic list (its
// args), a list of scalars merged (metadata.finalizers), a scalar (its image); the other patch lacking the field,
// holding a value of its kind, null, a plain map or a map with "$patch" there; that patch first or second; and, for a
// container's field, a second patch naming the container twice (a compose repeat), the directive map in one item
// (directedEntries); and a second patch holding a plain map there (plainEntries). Every gate off, pkg/patch.Compose
// gives strategicpatch's mergeMap (kubectl's merge of its patch halves, the oracle's MergePatches): the same object,
// or both fail; the drop-in's MergeStrategicMergeMapPatchUsingLookupPatchMeta gives strategicpatch's result or error
// text exactly. Every gate on (gate MultiFieldMergeKeys), Compose may refuse a map where the schema has a list or a
// scalar, naming the patch and the field's path.
var _ = Describe("Compose of patches holding a map at a field of a list or a scalar, against strategicpatch", func() {
	kubectl, err := difftest.LoadTarget("deployment/" + difftest.Kubectl)
	Expect(err).NotTo(HaveOccurred())
	gated, err := difftest.LoadTarget("deployment")
	Expect(err).NotTo(HaveOccurred())

	DescribeTable("every gate off agrees; gates on refuse naming the patch and the path",
		func(first, second string, paths ...string) {
			want, werr := kubectl.Oracle.MergePatches([]byte(first), []byte(second))
			got, err := patch.Compose(jsonv.MustDecode(first), jsonv.MustDecode(second), kubectl.Root, features.Kubectl())
			if werr != nil {
				Expect(err).To(HaveOccurred(), "strategicpatch fails (%v), ply gives %s", werr, got.JSON())
			} else {
				Expect(err).NotTo(HaveOccurred())
				Expect(got.JSON()).To(MatchJSON(want))
			}

			Expect(dropIn(ply.MergeStrategicMergeMapPatchUsingLookupPatchMeta(kubectl.Oracle.Meta(), decodeMap(first), decodeMap(second)))).
				To(Equal(dropIn(sp.MergeStrategicMergeMapPatchUsingLookupPatchMeta(kubectl.Oracle.Meta(), decodeMap(first), decodeMap(second)))))

			if _, err := patch.Compose(jsonv.MustDecode(first), jsonv.MustDecode(second), gated.Root, features.Gates{}); err != nil {
				var ee *elements.Error
				Expect(errors.As(err, &ee)).To(BeTrue(), "%v", err)
				Expect(ee.Source).To(Equal(elements.Patch), "%v", err)
				Expect(ee.Path.String()).To(BeElementOf(paths), "%v", err)
			}
		},
		directedEntries(),
		plainEntries(),
	)
})

// directedField is a field of directedfields_test.go's shapes: where it lies, the path ply's errors name, and the
// values of its kind the other patch holds.
type directedField struct {
	name, path string
	at         func(v string) string // a patch holding v at the field
	values     []string
	field      string // a container's field: its name; else ""
	lacking    string // a patch holding the field's parent without the field
}

// directedEntries are the shapes of a map holding "$patch" in either patch.
func directedEntries() []TableEntry {
	fields := directedFields()
	directives := []string{`{"$patch":"replace"}`, `{"$patch":"delete"}`, `{"$patch":"merge"}`, `{"$patch":"bogus"}`,
		`{"$patch":"replace","x":1}`, `{"$patch":"delete","x":1}`}
	var entries []TableEntry
	for _, f := range fields {
		for _, d := range directives {
			others := append([]string{"", "null", `{"x":1}`, `{"$patch":"replace"}`, `{"$patch":"bogus"}`}, f.values...)
			for _, o := range others {
				other := `{"kind":"Deployment"}`
				if o != "" {
					other = f.at(o)
				}
				entries = append(entries, Entry(fmt.Sprintf("%s, %s second, %s first", f.name, d, other), other, f.at(d), f.path))
				if o == `{"x":1}` { // (second's plain map where the schema has a list or a scalar: plainEntries)
					continue
				}
				entries = append(entries, Entry(fmt.Sprintf("%s, %s first, %s second", f.name, d, other), f.at(d), other, f.path))
				if f.field != "" && o != "" {
					// A compose repeat: the second patch names container c twice, the directive map in one item.
					list := "spec.template.spec.containers"
					entries = append(entries,
						Entry(fmt.Sprintf("%s, %s after %s in a repeat", f.name, d, o), f.lacking, repeated(f.field, o, d), f.path, list),
						Entry(fmt.Sprintf("%s, %s before %s in a repeat", f.name, d, o), f.lacking, repeated(f.field, d, o), f.path, list))
				}
			}
		}
	}
	return entries
}

// plainEntries are shapes of a second patch holding a map without "$patch" where the schema has a list or a scalar:
// first lacking the field (or the container, or the list), holding a value of its kind, null, a plain map, a map
// holding "$patch", a map holding a "$setElementOrder" for x (another order, or the second's); the second's map holding
// a scalar, a map, a list, nothing, a null beside a map holding "$patch", a "$setElementOrder" for x (which
// strategicpatch looks up only where it merges the map into the first's), a "$deleteFromPrimitiveList" holding a map
// with "$patch" (kept as it stands where the map merges into the first's);
// and, for a container's field, that map in one item of a compose repeat (container c named twice in the second
// patch), the other item holding one of first's values there.
func plainEntries() []TableEntry {
	fields := directedFields()
	plains := []string{`{"x":1}`, `{"x":{"y":1}}`, `{"x":[1]}`, `{}`, `{"x":null,"w":{"a":{"$patch":"delete"}}}`,
		`{"$setElementOrder/x":[1],"w":1}`, `{"$deleteFromPrimitiveList/x":[{"$patch":"delete"},"a"],"w":1}`}
	firsts := []string{"", "null", `{"x":2}`, `{"x":{"z":1}}`, `{"x":[2]}`, `{"w":1}`, `{"$patch":"replace","x":{"z":1}}`,
		`{"$patch":"replace","x":2}`, `{"$patch":"delete"}`, `{"$setElementOrder/x":[2],"v":1}`, `{"$setElementOrder/x":[1],"w":1}`}
	var entries []TableEntry
	for _, f := range fields {
		others := append(append([]string{"absent"}, firsts...), f.values...)
		for _, p := range plains {
			for _, o := range others {
				first := f.at(o)
				switch o {
				case "": // (first lacks the field: container c without it, or metadata without finalizers)
					first = f.lacking
				case "absent":
					first = `{"kind":"Deployment"}`
				}
				entries = append(entries, Entry(fmt.Sprintf("%s, plain %s second, %s first", f.name, p, first), first, f.at(p), f.path))
				if f.field == "" || o == "absent" || o == "" {
					continue
				}
				list := "spec.template.spec.containers"
				entries = append(entries,
					Entry(fmt.Sprintf("%s, plain %s after %s in a repeat", f.name, p, o), f.lacking, repeated(f.field, o, p), f.path, list),
					Entry(fmt.Sprintf("%s, plain %s before %s in a repeat", f.name, p, o), f.lacking, repeated(f.field, p, o), f.path, list))
			}
		}
	}
	return entries
}

// repeated is a patch naming container c twice, holding v then w at field f.
func repeated(f, v, w string) string {
	return fmt.Sprintf(`{"spec":{"template":{"spec":{"containers":[{"name":"c","%s":%s},{"name":"c","%s":%s}]}}}}`, f, v, f, w)
}

// directedFields are the fields of plainEntries' shapes.
func directedFields() []directedField {
	container := func(f string) func(string) string {
		return func(v string) string {
			return fmt.Sprintf(`{"spec":{"template":{"spec":{"containers":[{"name":"c","%s":%s}]}}}}`, f, v)
		}
	}
	lacking := container("tty")("true")
	return []directedField{
		{"a list merged by key", "spec.template.spec.containers[name=c].env", container("env"), []string{`[{"name":"a","value":"1"}]`}, "env", lacking},
		{"an atomic list", "spec.template.spec.containers[name=c].args", container("args"), []string{`["a"]`}, "args", lacking},
		{"a list of scalars merged", "metadata.finalizers", func(v string) string { return `{"metadata":{"finalizers":` + v + `}}` },
			[]string{`["a"]`}, "", `{"metadata":{"name":"n"}}`},
		{"a scalar", "spec.template.spec.containers[name=c].image", container("image"), []string{`"s"`}, "image", lacking},
	}
}

func decodeMap(s string) map[string]interface{} {
	var m map[string]interface{}
	Expect(json.Unmarshal([]byte(s), &m)).To(Succeed())
	return m
}

// dropIn is a drop-in call's result as JSON, or its error's text.
func dropIn(m map[string]interface{}, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	data, err := json.Marshal(m)
	Expect(err).NotTo(HaveOccurred())
	return string(data)
}

// directedMaps are the maps directField writes: holding "$patch", or plain (holding no "$" key).
var directedMaps = []string{`{"$patch":"replace"}`, `{"$patch":"delete"}`, `{"$patch":"merge"}`, `{"$patch":"bogus"}`,
	`{"$patch":"replace","x":"1"}`, `{"$patch":"delete","x":"1"}`, `{"x":"1"}`, `{"x":{"y":"1"}}`, `{"x":["1"]}`}

// directField returns patch map p, of type t, with about one in four of its fields that hold a list or a scalar
// where the schema has a list or a scalar (at any depth, in maps and in the items of lists merged by key, their key
// fields left alone) set to a map (directedMaps), and whether it set any holding "$patch" (directed), any plain one.
func directField(p value.Value, t *openapi.Type, r *rand.Rand) (_ value.Value, directed, plain bool) {
	return directFieldBut(p, t, nil, r)
}

// directFieldBut is directField leaving the fields named keep alone.
func directFieldBut(p value.Value, t *openapi.Type, keep []string, r *rand.Rand) (_ value.Value, directed, plain bool) {
	if !p.IsMap() {
		return p, false, false
	}
	out := p
	for _, f := range p.Fields() {
		if strings.HasPrefix(f.Key, "$") || slices.Contains(keep, f.Key) {
			continue
		}
		ct, meta := t.Child(f.Key)
		v := f.Value
		switch {
		case v.IsMap():
			if nv, d, pl := directFieldBut(v, ct, nil, r); d || pl {
				out, directed, plain = out.With(f.Key, nv), directed || d, plain || pl
			}
		case v.IsList() && ct.Kind == openapi.KindList && len(meta.MergeKey) > 0 && r.IntN(4) > 0:
			items := slices.Clone(v.Items())
			for i, it := range items {
				if nv, d, pl := directFieldBut(it, ct.Item(), meta.MergeKey, r); d || pl {
					items[i], directed, plain = nv, directed || d, plain || pl
				}
			}
			out = out.With(f.Key, value.List(items))
		case v.Kind() != value.KindNull && (ct.Kind == openapi.KindList || ct.Kind == openapi.KindPrimitive) && r.IntN(4) == 0:
			d := jsonv.MustDecode(directedMaps[r.IntN(len(directedMaps))])
			_, holds := d.Get("$patch")
			out, directed, plain = out.With(f.Key, d), directed || holds, plain || !holds
		}
	}
	return out, directed, plain
}

// countDirected counts a second patch directField rewrote: "directed-field" where it wrote a map holding "$patch",
// "plain-field" where it wrote a plain map.
func countDirected(counts map[string]int, directed, plain bool) {
	if directed {
		counts["directed-field"]++
	}
	if plain {
		counts["plain-field"]++
	}
}
