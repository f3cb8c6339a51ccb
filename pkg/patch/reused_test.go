package patch_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

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
