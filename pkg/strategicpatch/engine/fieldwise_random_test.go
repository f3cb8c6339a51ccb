package engine_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"

	ply "github.com/plyproject/ply/pkg/strategicpatch"
	"github.com/plyproject/ply/pkg/strategicpatch/engine"
)

// podDoc is a Go struct schema for the generated documents: spec.containers merged by name, their env by name
// (corev1.Container's tags).
type podDoc struct {
	Spec struct {
		Containers []corev1.Container `json:"containers" patchStrategy:"merge" patchMergeKey:"name"`
	} `json:"spec"`
}

// keyedGen generates documents and patches of spec.containers and their env lists, near the shapes fieldwise merges:
// keys from small alphabets (so that some repeat), the patch's items in original's order or not, with an order that
// holds, another, or none, and now and then a null, a map, a directive or an item original lacks.
type keyedGen struct{ r *rand.Rand }

func (g keyedGen) chance(p float64) bool { return g.r.Float64() < p }

// names returns n names drawn from prefix and an alphabet of size (repeats possible where n nears size).
func (g keyedGen) names(prefix string, n, size int) []string {
	out := make([]string, 0, n)
	seen := map[string]bool{}
	for len(out) < n {
		s := fmt.Sprintf("%s%d", prefix, g.r.IntN(size))
		if seen[s] && !g.chance(0.05) {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

func (g keyedGen) original() map[string]interface{} {
	var containers []interface{}
	for _, name := range g.names("c", 1+g.r.IntN(3), 4) {
		var env []interface{}
		for i, e := range g.names("E", g.r.IntN(20), 24) {
			env = append(env, map[string]interface{}{"name": e, "value": fmt.Sprint(i)})
		}
		c := map[string]interface{}{"name": name, "image": "img"}
		if env != nil {
			c["env"] = env
		}
		containers = append(containers, c)
	}
	return map[string]interface{}{"spec": map[string]interface{}{"containers": containers}}
}

// patchList returns a patch list naming some of items (by key), each item made by change, with its order directive
// or none.
func (g keyedGen) patchList(items []interface{}, change func(name string) map[string]interface{}) (list, order []interface{}) {
	for _, x := range items {
		name := x.(map[string]interface{})["name"]
		order = append(order, map[string]interface{}{"name": name})
		if g.chance(0.6) {
			list = append(list, change(name.(string)))
		}
	}
	switch {
	case g.chance(0.1):
		list = append(list, change("new"))
	case g.chance(0.15):
		return g.added(list, order, change)
	case g.chance(0.1) && len(list) > 1:
		list[0], list[len(list)-1] = list[len(list)-1], list[0]
	case g.chance(0.1) && len(order) > 1:
		order = order[1:]
	case g.chance(0.15) && len(order) > 1:
		g.r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		list = inOrder(list, order)
	}
	return list, order
}

// added returns list and order with an item of a new key made by change put at one place of the order and at the
// same place among list's items, as kubectl's patch adds an item.
func (g keyedGen) added(list, order []interface{}, change func(name string) map[string]interface{}) (l, o []interface{}) {
	at := g.r.IntN(len(order) + 1)
	o = append(append(append([]interface{}{}, order[:at]...), map[string]interface{}{"name": "new"}), order[at:]...)
	return inOrder(append(list, change("new")), o), o
}

// inOrder returns list's items (maps keyed by name) in order's order.
func inOrder(list, order []interface{}) []interface{} {
	var out []interface{}
	for _, e := range order {
		for _, x := range list {
			if x.(map[string]interface{})["name"] == e.(map[string]interface{})["name"] {
				out = append(out, x)
			}
		}
	}
	return out
}

func (g keyedGen) envItem(name string) map[string]interface{} {
	item := map[string]interface{}{"name": name, "value": "changed"}
	switch {
	case name == "new": // (an item added holding a null or a directive is added cleaned: docs/strategicpatch.md)
		if g.chance(0.3) {
			item["valueFrom"] = map[string]interface{}{"fieldRef": map[string]interface{}{"fieldPath": "p"}}
		}
	case g.chance(0.03):
		item["value"] = nil
	case g.chance(0.03):
		item["$patch"] = "delete"
	case g.chance(0.03):
		item["valueFrom"] = map[string]interface{}{"fieldRef": map[string]interface{}{"fieldPath": "p"}}
	}
	return item
}

func (g keyedGen) patch(original map[string]interface{}) map[string]interface{} {
	containers := original["spec"].(map[string]interface{})["containers"].([]interface{})
	byName := map[string]map[string]interface{}{}
	for _, x := range containers {
		c := x.(map[string]interface{})
		byName[c["name"].(string)] = c
	}
	list, order := g.patchList(containers, func(name string) map[string]interface{} {
		item := map[string]interface{}{"name": name}
		if g.chance(0.5) {
			item["image"] = "new"
		}
		if env, ok := byName[name]["env"].([]interface{}); ok && g.chance(0.7) {
			envList, envOrder := g.patchList(env, g.envItem)
			item["env"] = envList
			if g.chance(0.7) {
				item["$setElementOrder/env"] = envOrder
			}
		}
		return item
	})
	spec := map[string]interface{}{"containers": list}
	if g.chance(0.7) {
		spec["$setElementOrder/containers"] = order
	}
	return map[string]interface{}{"spec": spec}
}

var _ = Describe("ApplyMap on generated patches of lists merged by key", func() {
	It("gives the engine's run's result and apimachinery's, merging fieldwise where it can, as ApplyJSON does", func() {
		meta, err := sp.NewPatchMetaFromStruct(podDoc{})
		Expect(err).NotTo(HaveOccurred())
		l := ply.Lookup(meta)
		g := keyedGen{rand.New(rand.NewPCG(1, 2))}
		const n = 3000
		fieldwise, fieldwiseJSON := 0, 0
		for range n {
			original := g.original()
			patch := g.patch(original)
			text, _ := json.Marshal([]interface{}{original, patch})
			if (engine.Options{}).MergesFieldwise(original, patch, l) {
				fieldwise++
			}
			if expectJSONEngine(original, patch, l) {
				fieldwiseJSON++
			}
			got, err := engine.Options{}.ApplyMap(original, patch, l)
			expectEngine(engine.Options{}, original, patch, l, got, err)
			if repeatsKey(original) {
				continue // (a patch item merges into the first of its key; documented differences: docs/strategicpatch.md)
			}
			want, wantErr := sp.StrategicMergeMapPatchUsingLookupPatchMeta(runtime.DeepCopyJSON(original), runtime.DeepCopyJSON(patch), meta)
			Expect(wantErr != nil).To(Equal(err != nil), "errors %v / %v on %s", err, wantErr, text)
			if err == nil {
				gotJSON, _ := json.Marshal(got)
				wantJSON, _ := json.Marshal(want)
				Expect(string(gotJSON)).To(Equal(string(wantJSON)), "on %s", text)
			}
		}
		Expect(fieldwise).To(BeNumerically(">", n/5), "the generator reaches the fieldwise shapes")
		Expect(fieldwiseJSON).To(BeNumerically(">", n/5), "ApplyJSON merges fieldwise too") // (a nil list is null in JSON)
		GinkgoWriter.Printf("%d of %d generated patches merged fieldwise\n", fieldwise, n)
	})
})

// repeatsKey reports whether original's containers, or the env of one, name a key twice.
func repeatsKey(original map[string]interface{}) bool {
	repeats := func(list []interface{}) bool {
		seen := map[interface{}]bool{}
		for _, x := range list {
			name := x.(map[string]interface{})["name"]
			if seen[name] {
				return true
			}
			seen[name] = true
		}
		return false
	}
	containers := original["spec"].(map[string]interface{})["containers"].([]interface{})
	if repeats(containers) {
		return true
	}
	for _, c := range containers {
		if env, ok := c.(map[string]interface{})["env"].([]interface{}); ok && repeats(env) {
			return true
		}
	}
	return false
}
