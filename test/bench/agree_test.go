package bench_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/benchcase"
	"github.com/plyproject/ply/test/jsonv"
)

// The benchmarks are only a fair comparison if the implementations do the
// same work: check that ply, strategicpatch and server-side apply's engine
// (structured-merge-diff alone, and the whole FieldManager) return the
// same object for every input, and that the input actually changes what
// the name says.
var _ = Describe("the benchmark inputs", func() {
	impls, err := benchcase.Impls()
	It("load every implementation", func() {
		Expect(err).NotTo(HaveOccurred())
	})
	if err != nil {
		return
	}
	for _, n := range []int{10, 100} {
		for _, change := range benchcase.Changes {
			in := benchcase.Make(n, change)
			It("merge "+in.Name()+" to the same object in every implementation", func() {
				var results []value.Value
				for _, impl := range impls {
					run, err := impl.Prepare(in)
					Expect(err).NotTo(HaveOccurred(), impl.Name)
					out, err := run()
					Expect(err).NotTo(HaveOccurred(), impl.Name)
					if impl.Name == "ply" || impl.Name == "ply-arena" || impl.Name == "ply-kubectl" {
						// A second run, as the benchmarks repeat it, reuses
						// the first run's memory and returns the same.
						again, err := run()
						Expect(err).NotTo(HaveOccurred(), impl.Name)
						Expect(again).To(MatchJSON(out), impl.Name)
					}
					v, err := jsonv.Decode(out)
					Expect(err).NotTo(HaveOccurred(), impl.Name)
					if impl.Name == "fieldmanager" {
						// The API server's object records who owns what;
						// the others' carry no managedFields.
						md, _ := v.Get("metadata")
						mf, ok := md.Get("managedFields")
						Expect(ok).To(BeTrue(), "fieldmanager returned no managedFields")
						Expect(mf.Len()).To(BeNumerically(">", 0))
						v = v.With("metadata", md.Without("managedFields"))
					}
					results = append(results, v)
				}
				Expect(impls).To(HaveLen(7))
				for i := 1; i < len(results); i++ {
					Expect(value.Equal(results[0], results[i])).To(BeTrue(),
						"%s returned\n%s\n%s returned\n%s", impls[0].Name, results[0].JSON(), impls[i].Name, results[i].JSON())
				}

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
