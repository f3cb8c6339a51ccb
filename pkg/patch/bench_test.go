package patch_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// benchInputs returns a live object whose merged list "klist" holds n
// items and a patch that changes every one of them, with a
// $setElementOrder reversing the list (kubectl sends one).
func benchInputs(n int) (live, p value.Value) {
	items := make([]value.Value, n)
	changes := make([]value.Value, n)
	order := make([]value.Value, n)
	for i := range n {
		k := value.String("item-" + strconv.Itoa(i))
		items[i] = value.MustMap(value.Field{Key: "foo", Value: k}, value.Field{Key: "other", Value: value.Int(int64(i))})
		changes[n-1-i] = value.MustMap(value.Field{Key: "foo", Value: k}, value.Field{Key: "other", Value: value.Int(int64(i + 1))})
		order[n-1-i] = value.MustMap(value.Field{Key: "foo", Value: k})
	}
	live = value.MustMap(
		value.Field{Key: "apiVersion", Value: value.String("patch.ply.dev/v1")},
		value.Field{Key: "kind", Value: value.String("Example")},
		value.Field{Key: "klist", Value: value.List(items)},
	)
	p = value.MustMap(
		value.Field{Key: "$setElementOrder/klist", Value: value.List(order)},
		value.Field{Key: "klist", Value: value.List(changes)},
	)
	return live, p
}

// BenchmarkApply applies a patch that changes every item of a merged list
// of 10 to 5000 items, with each ordering.
func BenchmarkApply(b *testing.B) {
	s, err := testSchema()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{10, 100, 1000, 5000} {
		live, p := benchInputs(n)
		for _, o := range []patch.Ordering{patch.OrderSeed, patch.OrderKubectl} {
			opts := patch.Options{Schema: s, Ordering: o}
			b.Run("items="+strconv.Itoa(n)+"/ordering="+orderingFlag(o), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := patch.Apply(live, p, opts); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkApplyReused is BenchmarkApply's kubectl ordering through ApplyReused, the result encoded before its memory
// is released, as the strategicpatch drop-in does: the maps and lists of the result cost no allocation of their own.
func BenchmarkApplyReused(b *testing.B) {
	s, err := testSchema()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{10, 100, 1000, 5000} {
		live, p := benchInputs(n)
		opts := patch.Options{Schema: s, Ordering: patch.OrderKubectl}
		b.Run("items="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				out, release, err := patch.ApplyReused(live, p, opts)
				if err != nil {
					b.Fatal(err)
				}
				_ = out.JSON()
				release()
			}
		})
	}
}

// BenchmarkApplyRepeats applies, with every gate off, a patch naming each key of a merged list of 10 to 1000 items
// twice, as kubectl sends for a manifest repeating keys: each second item merges in turn into the first's outcome.
func BenchmarkApplyRepeats(b *testing.B) {
	s, err := testSchema()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{10, 100, 1000} {
		live, p := benchInputs(n)
		changes, _ := p.Get("klist")
		twice := make([]value.Value, 0, 2*n)
		for _, it := range changes.Items() {
			other, _ := it.Get("other")
			again, _ := other.AsInt()
			twice = append(twice, it, it.With("other", value.Int(again+1)))
		}
		p = p.Without("$setElementOrder/klist").With("klist", value.List(twice))
		opts := patch.Options{Schema: s, Gates: features.Kubectl()}
		b.Run("items="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := patch.Apply(live, p, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// orderingFlag names an ordering as ply's --ordering flag does.
func orderingFlag(o patch.Ordering) string {
	if o == patch.OrderKubectl {
		return "kubectl"
	}
	return "seed"
}

// answeredInputs returns a Pod and a patch naming container keys again whose later items Phase 2 leaves to the
// front-end under a depth limit of 6 (their maps' scalars lie at it: visitors.InTurn). flat: n containers, each named
// twice; chain: one container named 2n+1 times, its repeats in turn a plain one Phase 2 decides and one it asks about.
func answeredInputs(n int, chain bool) (live, p value.Value) {
	const later = `{"name":"%s","$setElementOrder/args":[],"args":["c"],"resources":{"limits":{"cpu":"1"},"requests":{}}}`
	var liveItems, items []string
	for i := range n {
		name := "c" + strconv.Itoa(i)
		if chain {
			name = "c"
		}
		if !chain || i == 0 {
			liveItems = append(liveItems, `{"name":"`+name+`","resources":{"limits":{"memory":"1Gi"}}}`)
			items = append(items, `{"name":"`+name+`","tty":true}`)
		}
		if chain {
			items = append(items, `{"name":"c","image":"i`+strconv.Itoa(i)+`"}`)
		}
		items = append(items, fmt.Sprintf(later, name))
	}
	live = jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[` +
		strings.Join(liveItems, ",") + `]}}`)
	return live, jsonv.MustDecode(`{"spec":{"containers":[` + strings.Join(items, ",") + `]}}`)
}

// BenchmarkApplyAnswered applies answeredInputs' patches, every gate off, by ply (each later item the front-end
// answers, the walk going on from its question) and by strategicpatch, side by side: both grow linearly with n.
func BenchmarkApplyAnswered(b *testing.B) {
	sp, err := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
	if err != nil {
		b.Fatal(err)
	}
	for _, shape := range []string{"flat", "chain"} {
		for _, n := range []int{10, 100, 1000} {
			live, p := answeredInputs(n, shape == "chain")
			liveJSON, patchJSON := live.JSON(), p.JSON()
			opts := patch.Options{Gates: features.Kubectl(), MaxDepth: 6}
			b.Run("shape="+shape+"/n="+strconv.Itoa(n)+"/impl=ply", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := patch.Apply(live, p, opts); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("shape="+shape+"/n="+strconv.Itoa(n)+"/impl=strategicpatch", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(liveJSON, patchJSON, sp.Meta()); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
