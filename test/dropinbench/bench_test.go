package dropinbench_test

import (
	"fmt"
	"testing"

	"github.com/plyproject/ply/test/dropinbench"
	"github.com/plyproject/ply/test/internal/benchcase"
)

func BenchmarkDropIn(b *testing.B) {
	for _, op := range dropinbench.Ops {
		for _, n := range dropinbench.Sizes {
			for _, change := range benchcase.Changes {
				for _, api := range dropinbench.APIs {
					b.Run(fmt.Sprintf("op=%s/env=%d/change=%s/impl=%s", op, n, change, api.Name), func(b *testing.B) {
						c, err := dropinbench.NewCase(n, change) // (built for the benchmarks run only)
						if err != nil {
							b.Fatal(err)
						}
						b.ResetTimer()
						dropinbench.Bench(api, op, c)(b)
					})
				}
			}
		}
	}
}

// BenchmarkConfigMap is CreateThreeWayMergePatch on a ConfigMap of many data keys, current's written in increasing
// order or not.
func BenchmarkConfigMap(b *testing.B) {
	for _, keys := range dropinbench.ConfigMapSizes {
		for _, sorted := range []bool{true, false} {
			c := dropinbench.NewConfigMapCase(keys, sorted)
			for _, api := range dropinbench.APIs {
				b.Run("op=CreateThreeWayMergePatch/"+c.Name()+"/impl="+api.Name, func(b *testing.B) {
					b.ReportAllocs()
					for range b.N {
						if _, err := c.Call(api); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
