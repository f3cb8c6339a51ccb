package patch_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/test/jsonv"
)

var _ = Describe("ApplyReused, its memory released and reused call after call", func() {
	// pod is a Pod whose one container has n env entries, values prefixed by v; without object, a patch (no kind).
	pod := func(n int, v string, object bool) string {
		var b strings.Builder
		if object {
			b.WriteString(`{"apiVersion":"v1","kind":"Pod",`)
		} else {
			b.WriteString(`{`)
		}
		fmt.Fprintf(&b, `"metadata":{"labels":{"v":%q}},"spec":{"containers":[{"name":"web","image":%q,"env":[`, v, v)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"name":"VAR_%04d","value":"%s-%d"}`, i, v, i)
		}
		b.WriteString(`]}]}}`)
		return b.String()
	}
	It("gives Apply's result, larger and smaller merges in turn, each intact until released", func() {
		for _, gates := range []features.Gates{{}, features.Kubectl()} {
			opts := patch.Options{Gates: gates}
			for _, n := range []int{3, 600, 1, 5000, 40, 2} {
				live, p := jsonv.MustDecode(pod(n, "old", true)), jsonv.MustDecode(pod(n, "new", false))
				want, err := patch.Apply(live, p, opts)
				Expect(err).NotTo(HaveOccurred())
				got, release, err := patch.ApplyReused(live, p, opts)
				Expect(err).NotTo(HaveOccurred())
				// Another call's memory is not this one's: its result stays whole until released.
				_, releaseOther, err := patch.ApplyReused(live, jsonv.MustDecode(pod(n/2, "other", false)), opts)
				Expect(err).NotTo(HaveOccurred())
				releaseOther()
				Expect(string(got.JSON())).To(Equal(string(want.JSON())), "%d entries", n)
				release()
			}
		}
	})

	It("gives Apply's result whatever the options of the calls before, repeated keys applied in turn during the walk", func() {
		live := jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[` +
			`{"name":"c","image":"i","env":[{"name":"A","value":"0"}]},{"name":"d","image":"j"}]}}`)
		patches := []string{
			// Containers "d" named twice: with gate UniqueMergeKeys off the second merges into the first's outcome.
			`{"spec":{"$setElementOrder/containers":[{"name":"d"},{"name":"c"},{"name":"d"}],"containers":[` +
				`{"name":"d","image":"x","env":[{"name":"A","value":"1"}]},{"name":"d","env":[{"name":"B","value":"2"},{"name":"A","value":"3"}]}]}}`,
			`{"spec":{"containers":[{"name":"e","image":"k"},{"name":"c","env":[{"name":"B","value":"4"}]}]}}`,
		}
		options := []patch.Options{
			{Gates: features.Kubectl(), Ordering: patch.OrderKubectl},
			{Ordering: patch.OrderSeed},
			{Ordering: patch.OrderKubectl},
			{Gates: features.Kubectl(), Ordering: patch.OrderKubectl},
			{Gates: features.Kubectl(), Ordering: patch.OrderKubectl},
			{Ordering: patch.OrderSeed},
		}
		for round := range 3 {
			for i, opts := range options {
				for j, text := range patches {
					p := jsonv.MustDecode(text)
					want, wantErr := patch.Apply(live, p, opts)
					got, release, err := patch.ApplyReused(live, p, opts)
					if wantErr != nil {
						Expect(err).To(MatchError(wantErr.Error()), "round %d, options %d, patch %d", round, i, j)
					} else {
						Expect(err).NotTo(HaveOccurred())
						Expect(string(got.JSON())).To(Equal(string(want.JSON())), "round %d, options %d, patch %d", round, i, j)
					}
					release()
				}
			}
		}
	})

	It("gives strategicpatch's result for a patch whose maps give hundreds of fields directives, call after call", func() {
		// Each of n containers has its env and ports ordered by "$setElementOrder": 2n fields' directives, more than
		// one chunk of the collation's memory holds.
		object := func(n int, v string, patch bool) string {
			var b strings.Builder
			if patch {
				b.WriteString(`{"spec":{"containers":[`)
			} else {
				b.WriteString(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[`)
			}
			for i := range n {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `{"name":"c%d","image":%q,`, i, v)
				if patch {
					fmt.Fprintf(&b, `"$setElementOrder/env":[{"name":"B"},{"name":"A"}],"$setElementOrder/ports":[{"containerPort":%d}],`, 80+i)
				}
				first, second := "A", "B" // (the patch's in its "$setElementOrder" order)
				if patch {
					first, second = second, first
				}
				fmt.Fprintf(&b, `"env":[{"name":%q,"value":%q},{"name":%q,"value":%q}],"ports":[{"containerPort":%d}]}`, first, v, second, v, 80+i)
			}
			b.WriteString(`]}}`)
			return b.String()
		}
		opts := patch.Options{Gates: features.Kubectl(), Ordering: patch.OrderKubectl}
		for _, n := range []int{600, 3, 900} {
			live, p := object(n, "old", false), object(n, "new", true)
			want, err := strategicpatch.StrategicMergePatch([]byte(live), []byte(p), corev1.Pod{})
			Expect(err).NotTo(HaveOccurred())
			got, release, err := patch.ApplyReused(jsonv.MustDecode(live), jsonv.MustDecode(p), opts)
			Expect(err).NotTo(HaveOccurred())
			_, releaseOther, err := patch.ApplyReused(jsonv.MustDecode(live), jsonv.MustDecode(object(n/2, "other", true)), opts)
			Expect(err).NotTo(HaveOccurred())
			releaseOther()
			Expect(string(got.JSON())).To(Equal(string(jsonv.MustDecode(string(want)).JSON())), "%d containers", n)
			release()
		}
	})

	It("gives Apply's error, with nothing to release", func() {
		live := jsonv.MustDecode(pod(3, "old", true))
		p := jsonv.MustDecode(`{"spec":{"containers":[{"image":"no-name"}]}}`)
		_, wantErr := patch.Apply(live, p, patch.Options{})
		Expect(wantErr).To(HaveOccurred())
		_, release, err := patch.ApplyReused(live, p, patch.Options{})
		Expect(err).To(MatchError(wantErr.Error()))
		release()
	})
})
