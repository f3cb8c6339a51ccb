package bench_test

import (
	"testing"

	"github.com/plyproject/ply/test/internal/benchcase"
)

func BenchmarkThreeWay(b *testing.B) {
	impls, err := benchcase.Impls()
	if err != nil {
		b.Fatal(err)
	}
	for _, in := range benchcase.Inputs() {
		for _, impl := range impls {
			b.Run(in.Name()+"/impl="+impl.Name, func(b *testing.B) {
				run, err := impl.Prepare(in)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := run(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
