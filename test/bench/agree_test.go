package bench_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/benchcase"
	"github.com/plyproject/ply/test/jsonv"
)

// The benchmarks are only a fair comparison if both implementations do the
// same work: check that they return the same object for every input, and
// that the input actually changes what the name says.
var _ = Describe("the benchmark inputs", func() {
	impls, err := benchcase.Impls()
	It("load both implementations", func() {
		Expect(err).NotTo(HaveOccurred())
	})
	if err != nil {
		return
	}
	for _, n := range []int{10, 100} {
		for _, change := range benchcase.Changes {
			in := benchcase.Make(n, change)
			It("merge "+in.Name()+" to the same object in both implementations", func() {
				var results []value.Value
				for _, impl := range impls {
					out, err := impl.Run(in)
					Expect(err).NotTo(HaveOccurred(), impl.Name)
					v, err := jsonv.Decode(out)
					Expect(err).NotTo(HaveOccurred(), impl.Name)
					results = append(results, v)
				}
				Expect(value.Equal(results[0], results[1])).To(BeTrue(),
					"%s returned\n%s\n%s returned\n%s", impls[0].Name, results[0].JSON(), impls[1].Name, results[1].JSON())

				live := jsonv.MustDecode(string(in.Live))
				Expect(value.Equal(results[0], live)).To(BeFalse(), "the merge changes nothing")
				spec, _ := results[0].Get("spec")
				tmpl, _ := spec.Get("template")
				podSpec, _ := tmpl.Get("spec")
				containers, _ := podSpec.Get("containers")
				Expect(containers.Len()).To(Equal(1))
				env, _ := containers.Items()[0].Get("env")
				Expect(env.Len()).To(Equal(n))
				status, ok := results[0].Get("status")
				Expect(ok).To(BeTrue(), "server-set status lost")
				Expect(status.Len()).To(BeNumerically(">", 0))
			})
		}
	}
})
