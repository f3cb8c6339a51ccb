package patchbench_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/patchbench"
)

// The benchmarks compare equal work only if both implementations return
// the same thing for every input, and the input changes what the name
// says: check both.
var _ = Describe("the patch benchmark inputs", func() {
	impls, err := patchbench.Impls()
	It("load both implementations", func() {
		Expect(err).NotTo(HaveOccurred())
	})
	if err != nil {
		return
	}
	for _, n := range []int{10, 100, 1000} {
		It("give the same object and the same patch in both implementations with "+patchbench.Input{Items: n}.Name(), func() {
			in, err := patchbench.Make(n)
			Expect(err).NotTo(HaveOccurred())
			for _, op := range []struct {
				name string
				get  func(patchbench.Impl) patchbench.Op
			}{{"apply", func(i patchbench.Impl) patchbench.Op { return i.Apply }}, {"create", func(i patchbench.Impl) patchbench.Op { return i.Create }}} {
				var results []value.Value
				for _, impl := range impls {
					out, err := op.get(impl)(in)
					Expect(err).NotTo(HaveOccurred(), "%s %s", op.name, impl.Name)
					v, err := jsonv.Decode(out)
					Expect(err).NotTo(HaveOccurred(), "%s %s", op.name, impl.Name)
					results = append(results, v)
				}
				Expect(value.Equal(results[0], results[1])).To(BeTrue(),
					"%s: %s returned\n%.2000s\n%s returned\n%.2000s", op.name, impls[0].Name, results[0].JSON(), impls[1].Name, results[1].JSON())
			}

			// The patch changes every env item, and applying it gives
			// modified's env on top of live's server-set fields.
			p := jsonv.MustDecode(string(in.Patch))
			Expect(envOf(p).Len()).To(Equal(n))
			patched, err := impls[0].Apply(in)
			Expect(err).NotTo(HaveOccurred())
			obj := jsonv.MustDecode(string(patched))
			Expect(value.Equal(envOf(obj), envOf(jsonv.MustDecode(string(in.Modified))))).To(BeTrue())
			Expect(value.Equal(envOf(obj), envOf(jsonv.MustDecode(string(in.Live))))).To(BeFalse())
			_, hasStatus := obj.Get("status")
			Expect(hasStatus).To(BeTrue(), "server-set status lost")
		})
	}
})

// envOf returns the env list of the first container of a Deployment (or
// of a patch of one).
func envOf(obj value.Value) value.Value {
	GinkgoHelper()
	v := obj
	for _, f := range []string{"spec", "template", "spec", "containers"} {
		var ok bool
		v, ok = v.Get(f)
		Expect(ok).To(BeTrue(), f)
	}
	Expect(v.Len()).To(Equal(1))
	env, ok := v.Items()[0].Get("env")
	Expect(ok).To(BeTrue())
	return env
}
