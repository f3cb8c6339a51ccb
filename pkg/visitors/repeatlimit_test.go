package visitors_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
)

// limitShapes are the fields a random Pod container or volume is drawn from (randomItem): maps, keyed lists (items
// keyed by the fields of limitKeys), sets and lists merged by no strategy, nesting below the depth limits FuzzRepeatLimit
// sets.
var limitShapes = map[string]value.Value{
	"containers": jsonv.MustDecode(`{"image":"s","args":["s"],
		"env":[{"name":"k","value":"s","valueFrom":{"configMapKeyRef":{"key":"s","name":"s"},"fieldRef":{"fieldPath":"s","apiVersion":"s"}}}],
		"readinessProbe":{"exec":{"command":["s"]},"httpGet":{"scheme":"s","port":"s","httpHeaders":[{"name":"s","value":"s"}]},"successThreshold":1},
		"resources":{"limits":{"cpu":"s"},"requests":{"cpu":"s"}},
		"securityContext":{"capabilities":{"add":["s"]},"runAsUser":1,"seLinuxOptions":{"level":"s","role":"s"}},
		"volumeMounts":[{"mountPath":"k","name":"s"}]}`),
	"volumes": jsonv.MustDecode(`{"configMap":{"items":[{"key":"s","path":"s"}],"name":"s"},"emptyDir":{"medium":"s"},
		"ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["s"],"labels":{"k":"s","j":"s"},"ownerReferences":[{"uid":"k","name":"s"}]},
		"spec":{"accessModes":["s"],"selector":{"matchLabels":{"a":"s"}}}}}}`),
}

// limitSets are the sets of scalars of limitShapes (merged lists without a merge key).
var limitSets = []string{"finalizers"}

// limitKeys are the merge keys of the keyed lists of limitShapes: an item drawn gets one of two values there.
var limitKeys = []string{"name", "mountPath", "uid"}

// randomItem draws a value of shape sh: a map some of its fields (in a patch, some null, and a keyed list's or a set's
// field sometimes ordered by a "$setElementOrder", set to a list or not: randomOrder; a list of scalars sometimes another
// kind, or deleted from: oddScalarList), a list of up to two items (keyed ones named A or B), a
// scalar of three.
func randomItem(r *rand.Rand, sh value.Value, patch bool) value.Value {
	switch {
	case sh.IsMap():
		m := value.MustMap()
		for _, f := range sh.Fields() {
			switch n := r.IntN(12); {
			case n < 4:
			case n == 4 && patch:
				m = m.With(f.Key, value.Null)
			default:
				m = m.With(f.Key, randomItem(r, f.Value, patch))
			}
			if scalarList(f.Value) && r.IntN(3) == 0 {
				m = oddScalarList(r, m, f.Key, patch)
			}
			if patch && r.IntN(4) == 0 {
				m = randomOrder(r, m, f.Key, f.Value)
			}
		}
		return m
	case sh.IsList():
		items := make([]value.Value, r.IntN(3))
		for i := range items {
			items[i] = randomItem(r, sh.Items()[0], patch)
			if key := keyOf(sh); key != "" {
				items[i] = items[i].With(key, value.String([]string{"A", "B"}[r.IntN(2)]))
			}
		}
		return value.List(items)
	}
	if s, ok := sh.AsString(); ok {
		return value.String(s + strconv.Itoa(r.IntN(3)))
	}
	return value.Int(int64(r.IntN(3)))
}

// randomOrder returns patch map m ordering its field name, of shape sh, by a "$setElementOrder" of up to two entries
// (a null or an entry without the key among them), where sh is a keyed list or a set (limitSets); else m.
func randomOrder(r *rand.Rand, m value.Value, name string, sh value.Value) value.Value {
	var entry value.Value
	switch key := keyOf(sh); {
	case key != "":
		entry = jsonv.MustDecode(`[{"` + key + `":"s","x":"s"}]`)
	case slices.Contains(limitSets, name):
		entry = sh
	default:
		return m
	}
	order := randomItem(r, entry, false).Items()
	if r.IntN(6) == 0 {
		order = append(order, []value.Value{value.Null, jsonv.MustDecode(`{"x":"s"}`)}[r.IntN(2)])
	}
	return m.With("$setElementOrder/"+name, value.List(order))
}

// oddKinds are values a list of scalars of an outcome may hold otherwise: a scalar, a map, null, items of mixed kinds,
// a null item, objects, numbers.
var oddKinds = []string{`"s0"`, `{"a":"s0"}`, `null`, `["s0",1]`, `["s0",null]`, `[{"a":1}]`, `[1,2]`}

// oddScalarList returns map m with its list of scalars field name, in an outcome (patch false), another value of
// oddKinds, or, in a patch, left out and deleted from by "$deleteFromPrimitiveList".
func oddScalarList(r *rand.Rand, m value.Value, name string, patch bool) value.Value {
	if !patch {
		return m.With(name, jsonv.MustDecode(oddKinds[r.IntN(len(oddKinds))]))
	}
	return m.Without(name).With("$deleteFromPrimitiveList/"+name, jsonv.MustDecode([]string{`["s0"]`, `[1]`, `[]`}[r.IntN(3)]))
}

// scalarList reports whether shape sh is a list of scalars.
func scalarList(sh value.Value) bool {
	return sh.IsList() && !sh.Items()[0].IsMap()
}

// keyOf returns the merge key of keyed list shape sh (limitKeys), else "".
func keyOf(sh value.Value) string {
	if !sh.IsList() || !sh.Items()[0].IsMap() {
		return ""
	}
	for _, k := range limitKeys {
		if _, keyed := sh.Items()[0].Get(k); keyed {
			return k
		}
	}
	return ""
}

// FuzzRepeatLimit draws from seed a Pod whose containers or volumes hold an item, and a patch naming its key twice
// under a depth limit of 4 to 8 levels (or the default): the repeat, merged onto the outcome of its key's first item,
// often fails by the limit or by its "$setElementOrder", or deletes from a list the outcome holds as another kind,
// which Phase 2 decides from the patch's item and that outcome (repeatlimit.go, deletes.go). The result or error must be that
// of the patch's items applied one after another.
func FuzzRepeatLimit(f *testing.F) {
	for seed := range uint64(1000) {
		f.Add(seed)
	}
	// (Found by fuzzing: a set the outcome holds with a null item, refused before a list held empty and ordered; a list
	// held empty and ordered in a map the outcome lacks, a map at the depth limit after it.)
	f.Add(uint64(2463))
	f.Add(uint64(3440))
	f.Add(uint64(3371))
	f.Fuzz(func(t *testing.T, seed uint64) {
		r := rand.New(rand.NewPCG(seed, 33))
		list := []string{"containers", "volumes"}[r.IntN(2)]
		item := func(patch bool) value.Value {
			return randomItem(r, limitShapes[list], patch).With("name", value.String("c"))
		}
		spec := func(items ...value.Value) value.Value {
			return value.MustMap().With("spec", value.MustMap().With(list, value.List(items)))
		}
		live := spec(item(false)).With("apiVersion", value.String("v1")).With("kind", value.String("Pod"))
		first := value.MustMap().With("name", value.String("c"))
		if r.IntN(2) == 0 {
			first = item(true)
		}
		repeat := item(true)
		opts := patch.Options{Gates: features.Kubectl(), MaxDepth: []int{0, 4, 5, 6, 7, 8}[r.IntN(6)]}
		got, err := patch.Apply(live, spec(first, repeat), opts)
		once, err1 := patch.Apply(live, spec(first), opts)
		if err1 != nil {
			return // (no outcome to apply the repeat to)
		}
		want, wantErr := patch.Apply(once, spec(repeat), opts)
		if errString(err) != errString(wantErr) || (err == nil && !value.Equal(got, want)) {
			t.Fatalf("MaxDepth %d, live %s, items %s then %s:\n  patch applied: %s %v\n  items in turn: %s %v", opts.MaxDepth,
				live.JSON(), first.JSON(), repeat.JSON(), got.JSON(), err, want.JSON(), wantErr)
		}
	})
}
