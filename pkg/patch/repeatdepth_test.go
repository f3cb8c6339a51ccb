package patch_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
)

// A repeat nested in a repeat (a list naming a key twice inside a later item of a key) is held to MaxDepth at its
// place in the patch, counted from the patch's root: the patch gives what its items give applied one after another
// (steps: each a patch from the root), an error at the same path, or the same object.
var _ = Describe("a repeat nested in a repeat, near the depth limit", func() {
	const pod = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}]}}`
	DescribeTable("as its items applied one after another, every gate off",
		func(live, p string, steps []string, maxDepth int, wantErr string) {
			opts := patch.Options{Gates: features.Kubectl(), MaxDepth: maxDepth}
			got, err := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(p), opts)
			want, stepErr := jsonv.MustDecode(live), error(nil)
			for _, step := range steps {
				if want, stepErr = patch.Apply(want, jsonv.MustDecode(step), opts); stepErr != nil {
					break
				}
			}
			if wantErr != "" {
				Expect(stepErr).To(MatchError(ContainSubstring(wantErr)))
				Expect(err).To(MatchError(stepErr.Error()))
				return
			}
			Expect(stepErr).NotTo(HaveOccurred())
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(equalValue(want))
		},
		Entry("an env item's empty map at the limit onto the outcome's map with fields: refused there",
			pod, `{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"A","value":"x"},{"name":"A","valueFrom":{"fieldRef":{}}}]}]}}`,
			[]string{`{"spec":{"containers":[{"name":"c","image":"i"}]}}`, `{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"x"}]}]}}`,
				`{"spec":{"containers":[{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{}}}]}]}}`}, 7,
			"spec.containers[name=c].env[name=A].valueFrom.fieldRef.fieldPath: nesting is deeper than the limit of 7 levels"),
		Entry("the same one level above the limit: merged",
			pod, `{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"A","value":"x"},{"name":"A","valueFrom":{"fieldRef":{}}}]}]}}`,
			[]string{`{"spec":{"containers":[{"name":"c","image":"i"}]}}`, `{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"x"}]}]}}`,
				`{"spec":{"containers":[{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{}}}]}]}}`}, 8, ""),
		Entry("the nested repeat's map at the limit holding \"$retainKeys\": refused there",
			pod, `{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"A","value":"x"},{"name":"A","valueFrom":{"fieldRef":{"$retainKeys":["fieldPath"]}}}]}]}}`,
			[]string{`{"spec":{"containers":[{"name":"c","image":"i"}]}}`, `{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"x"}]}]}}`,
				`{"spec":{"containers":[{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{"$retainKeys":["fieldPath"]}}}]}]}}`}, 7,
			"spec.containers[name=c].env[name=A].valueFrom.fieldRef.fieldPath: nesting is deeper than the limit of 7 levels"),
	)

	It("counts a repeat the front-end applies again from the patch's root", func() {
		_, err := patch.Apply(value.Null, jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","spec":{"containers":[{"name":"c"},{"name":"c","env":[{"name":"A"},{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}]}}`),
			patch.Options{Gates: features.Kubectl(), MaxDepth: 7})
		Expect(err).To(MatchError(ContainSubstring("spec.containers[name=c].env[name=A].valueFrom.fieldRef.fieldPath: nesting is deeper than the limit of 7 levels")))
	})
})
