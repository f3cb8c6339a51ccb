package patchbench_test

import (
	"testing"

	"github.com/plyproject/ply/test/patchbench"
)

func benchmark(b *testing.B, op func(patchbench.Impl) patchbench.Op) {
	impls, err := patchbench.Impls()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range patchbench.Sizes {
		// The input is built inside the size's sub-benchmark, so that a
		// -bench filter skips building the sizes it does not run.
		b.Run(patchbench.Input{Items: n}.Name(), func(b *testing.B) {
			in, err := patchbench.Make(n)
			if err != nil {
				b.Fatal(err)
			}
			for _, impl := range impls {
				run := op(impl)
				b.Run("impl="+impl.Name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if _, err := run(in); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

// BenchmarkPatchApply applies kubectl's patch (every env item changed) to
// the live Deployment.
func BenchmarkPatchApply(b *testing.B) {
	benchmark(b, func(i patchbench.Impl) patchbench.Op { return i.Apply })
}

// BenchmarkPatchCreate creates the two-way patch from the configuration
// before to the one after the edit.
func BenchmarkPatchCreate(b *testing.B) {
	benchmark(b, func(i patchbench.Impl) patchbench.Op { return i.Create })
}
