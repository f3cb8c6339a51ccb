package engine_test

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"unsafe"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/yaml"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/strategicpatch/engine"
)

// listSchema merges spec.containers by name, each container's env by name and ports by containerPort, each env
// entry's items by k; it fails a look-up of a key it does not declare, as a struct's schema does.
var listSchema = strict{"spec": {sub: strict{
	"containers": {meta: engine.Meta{Strategies: []string{"merge"}, MergeKey: "name"}, sub: strict{
		"name":  {},
		"image": {},
		"env": {meta: engine.Meta{Strategies: []string{"merge"}, MergeKey: "name"}, sub: strict{
			"name": {}, "value": {}, "valueFrom": {sub: lookup{}},
			"items": {sub: lookup{}, meta: engine.Meta{Strategies: []string{"merge"}, MergeKey: "k"}},
		}},
		"ports": {sub: lookup{}, meta: engine.Meta{Strategies: []string{"merge"}, MergeKey: "containerPort"}},
		"resources": {sub: lookup{
			"limits": {sub: lookup{}},
			"items":  {sub: lookup{}, meta: engine.Meta{Strategies: []string{"merge"}, MergeKey: "k"}},
		}},
	}},
}}}

// strict is a lookup failing for the keys it does not declare.
type strict map[string]strictNode

type strictNode struct {
	sub  engine.Lookup
	meta engine.Meta
}

func (l strict) Struct(key string) (engine.Lookup, engine.Meta, error) {
	n, ok := l[key]
	if !ok {
		return nil, engine.Meta{}, fmt.Errorf("unable to find api field %q", key)
	}
	return n.sub, n.meta, nil
}

func (l strict) Slice(key string) (engine.Lookup, engine.Meta, error) { return l.Struct(key) }

// scopedCase is one case of testdata/scopedlists.yaml: a patch applied to an object by ApplyMap.
type scopedCase struct {
	Name     string                 `json:"name"`
	Original map[string]interface{} `json:"original"`
	Patch    map[string]interface{} `json:"patch"`
	// Reused lists the names of env entries of container "web" the patch leaves alone, which the result holds as
	// original's maps themselves.
	Reused []string `json:"reused"`
}

// scopedCases are testdata/scopedlists.yaml's cases.
func scopedCases() []scopedCase { return readScopedCases("testdata/scopedlists.yaml") }

// readScopedCases reads the cases of the YAML file at path.
func readScopedCases(path string) []scopedCase {
	var cases []scopedCase
	readYAML(path, &cases)
	return cases
}

// readYAML reads the YAML file at path into cases.
func readYAML(path string, cases interface{}) {
	data, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	if err := yaml.Unmarshal(data, cases); err != nil {
		panic(err)
	}
}

var _ = Describe("ApplyMap inside lists merged by key", func() {
	for _, c := range scopedCases() {
		It("gives the result of converting the lists whole: "+c.Name, func() {
			on := features.Gates{}
			for _, o := range []engine.Options{{}, {Gates: &on}} {
				before, _ := json.Marshal([]interface{}{c.Original, c.Patch})
				got, err := o.ApplyMap(c.Original, c.Patch, listSchema)
				want, wantErr := o.ApplyMapWhole(c.Original, c.Patch, listSchema)
				after, _ := json.Marshal([]interface{}{c.Original, c.Patch})
				Expect(string(after)).To(Equal(string(before)), "the arguments are left as they were")
				if wantErr != nil {
					Expect(err).To(MatchError(wantErr.Error()))
					continue
				}
				Expect(err).NotTo(HaveOccurred())
				Expect(reflect.DeepEqual(got, want)).To(BeTrue(), "scoped %v\nwhole %v", got, want)
				origJSON, _ := json.Marshal(c.Original)
				patchJSON, _ := json.Marshal(c.Patch)
				fromJSON, err := o.ApplyJSON(origJSON, patchJSON, listSchema)
				Expect(err).NotTo(HaveOccurred())
				Expect(json.Marshal(got)).To(MatchJSON(fromJSON), "the JSON call's result")
			}
		})
		if len(c.Reused) > 0 {
			It("holds original's untouched env entries themselves: "+c.Name, func() {
				got, err := engine.Options{}.ApplyMap(c.Original, c.Patch, listSchema)
				Expect(err).NotTo(HaveOccurred())
				orig, res := webEnv(c.Original), webEnv(got)
				for _, name := range c.Reused {
					Expect(res[name]).NotTo(BeNil(), name)
					Expect(reflect.ValueOf(res[name]).Pointer()).To(Equal(reflect.ValueOf(orig[name]).Pointer()), name)
				}
			})
		}
	}
})

var _ = Describe("ApplyMap on long env lists", func() {
	// envCase is container web with n env entries E0..E(n-1), and a patch changing the first named ones.
	envCase := func(n, named int) (original, patch map[string]interface{}) {
		env, changed := make([]interface{}, n), make([]interface{}, named)
		for i := range env {
			env[i] = map[string]interface{}{"name": fmt.Sprintf("E%d", i), "value": "v"}
		}
		for i := range changed {
			changed[i] = map[string]interface{}{"name": fmt.Sprintf("E%d", i), "value": "changed"}
		}
		container := func(env []interface{}) map[string]interface{} {
			return map[string]interface{}{"name": "web", "image": "a", "env": env}
		}
		original = map[string]interface{}{"spec": map[string]interface{}{"containers": []interface{}{container(env)}}}
		patch = map[string]interface{}{"spec": map[string]interface{}{"containers": []interface{}{container(changed)}}}
		return original, patch
	}
	for _, named := range []int{1, 10, 11, 20} {
		It(fmt.Sprintf("gives the whole conversion's result with %d of 20 entries changed", named), func() {
			original, patch := envCase(20, named)
			got := expectWholeResult(original, patch)
			orig, res := webEnv(original), webEnv(got)
			if named < 20 {
				Expect(reflect.ValueOf(res["E19"]).Pointer()).To(Equal(reflect.ValueOf(orig["E19"]).Pointer()),
					"merged fieldwise, an untouched entry is original's map")
			}
			engineRun, err := engine.Options{}.ApplyMapEngine(original, patch, listSchema)
			Expect(err).NotTo(HaveOccurred())
			Expect(engineRun).To(Equal(got))
			res = webEnv(engineRun)
			reused := reflect.ValueOf(res["E19"]).Pointer() == reflect.ValueOf(orig["E19"]).Pointer()
			Expect(reused).To(Equal(named <= 10), "the engine's run: an untouched entry is original's map while the patch names at most half the list")
		})
	}
})

var _ = Describe("ApplyMap finding a list's items by merge key", func() {
	// keyedCase is container web with n env entries E0..E(n-1), each with a field the patch leaves alone when extra
	// (so that a named entry is scoped, not converted whole), and a patch changing the entries named, in the order
	// given.
	keyedCase := func(n int, named []int, extra bool) (original, patch map[string]interface{}) {
		env, changed := make([]interface{}, n), make([]interface{}, len(named))
		for i := range env {
			env[i] = map[string]interface{}{"name": fmt.Sprintf("E%d", i), "value": "v"}
			if extra {
				env[i].(map[string]interface{})["valueFrom"] = map[string]interface{}{"key": "k"}
			}
		}
		for j, i := range named {
			changed[j] = map[string]interface{}{"name": fmt.Sprintf("E%d", i), "value": "changed"}
		}
		container := func(env []interface{}) map[string]interface{} {
			return map[string]interface{}{"name": "web", "env": env}
		}
		original = map[string]interface{}{"spec": map[string]interface{}{"containers": []interface{}{container(env)}}}
		patch = map[string]interface{}{"spec": map[string]interface{}{"containers": []interface{}{container(changed)}}}
		return original, patch
	}
	span := func(from, to, step int) []int {
		var out []int
		for i := from; i != to; i += step {
			out = append(out, i)
		}
		return out
	}
	DescribeTable("gives the whole conversion's result",
		func(n int, named []int, extra bool) {
			original, patch := keyedCase(n, named, extra)
			got := expectWholeResult(original, patch)
			orig, res := webEnv(original), webEnv(got)
			Expect(reflect.ValueOf(res["E39"]).Pointer()).To(Equal(reflect.ValueOf(orig["E39"]).Pointer()),
				"an entry the patch does not name is original's map")
		},
		Entry("a few entries in order, each converted whole", 40, span(0, 5, 1), false),
		Entry("a few entries in reverse order, scoped", 40, span(8, -1, -1), true),
		Entry("16 entries, every other one, scoped", 40, span(0, 32, 2), true),
		Entry("17 entries (past those looked through one by one), each converted whole", 40, span(0, 17, 1), false),
		Entry("20 entries in reverse order, scoped", 40, span(19, -1, -1), true),
	)
})

// expectWholeResult applies patch to original under listSchema by ApplyMap, expects the result ApplyMapWhole gives
// (the whole conversion's), and returns it.
func expectWholeResult(original, patch map[string]interface{}) map[string]interface{} {
	GinkgoHelper()
	got, err := engine.Options{}.ApplyMap(original, patch, listSchema)
	Expect(err).NotTo(HaveOccurred())
	want, err := engine.Options{}.ApplyMapWhole(original, patch, listSchema)
	Expect(err).NotTo(HaveOccurred())
	Expect(reflect.DeepEqual(got, want)).To(BeTrue(), "scoped %v\nwhole %v", got, want)
	return got
}

// webEnv returns the env entries of obj's container "web" by name.
func webEnv(obj map[string]interface{}) map[string]map[string]interface{} {
	out := map[string]map[string]interface{}{}
	spec, _ := obj["spec"].(map[string]interface{})
	containers, _ := spec["containers"].([]interface{})
	for _, c := range containers {
		cm, _ := c.(map[string]interface{})
		if cm["name"] != "web" {
			continue
		}
		env, _ := cm["env"].([]interface{})
		for _, e := range env {
			if em, ok := e.(map[string]interface{}); ok {
				if name, ok := em["name"].(string); ok {
					out[name] = em
				}
			}
		}
	}
	return out
}

var _ = Describe("ApplyMap's scalars taken from the patch", func() {
	// container is a spec holding container web with the given image, replicas and env entry A.
	container := func(image string, replicas interface{}, value string) map[string]interface{} {
		return map[string]interface{}{"spec": map[string]interface{}{"replicas": replicas, "containers": []interface{}{
			map[string]interface{}{"name": "web", "image": image, "env": []interface{}{
				map[string]interface{}{"name": "A", "value": value}, map[string]interface{}{"name": "B", "value": "b"},
			}},
		}}}
	}
	// webOf returns container web of obj and its env entry A.
	webOf := func(obj map[string]interface{}) (web, a map[string]interface{}) {
		spec := obj["spec"].(map[string]interface{})
		web = spec["containers"].([]interface{})[0].(map[string]interface{})
		return web, web["env"].([]interface{})[0].(map[string]interface{})
	}
	// boxOf is the data word of interface value x: where the string it holds is boxed.
	boxOf := func(x interface{}) unsafe.Pointer { return (*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1] }

	It("holds the patch's strings themselves and its numbers as the whole conversion gives them", func() {
		original := container("a", int64(1), "1")
		patch := container("b", 3, "2") // (3 an int: the result holds the int64 converting it gives)
		got := expectWholeResult(original, patch)
		Expect(got["spec"].(map[string]interface{})["replicas"]).To(Equal(int64(3)))
		gotWeb, gotA := webOf(got)
		patchWeb, patchA := webOf(patch)
		Expect(boxOf(gotWeb["image"])).To(Equal(boxOf(patchWeb["image"])), "the patch's image itself")
		Expect(boxOf(gotA["value"])).To(Equal(boxOf(patchA["value"])), "the patch's env value itself")
	})
})
