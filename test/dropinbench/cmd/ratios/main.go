// Command ratios runs test/dropinbench's benchmarks, ply's pkg/strategicpatch and apimachinery's strategicpatch side by
// side in one process, and prints a markdown table: time, bytes and allocations per call of each, and apimachinery's
// divided by ply's (above 1: ply is cheaper).
//
//	go run ./test/dropinbench/cmd/ratios -benchtime 1s -count 3
//
// With -count above 1 each cell is the median of the runs, the two implementations alternating run by run.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"testing"

	"github.com/plyproject/ply/test/dropinbench"
	"github.com/plyproject/ply/test/internal/benchcase"
)

type result struct{ ns, bytes, allocs int64 }

func main() {
	testing.Init()
	benchtime := flag.String("benchtime", "1s", "run time (or Nx iterations) per benchmark")
	count := flag.Int("count", 1, "runs per benchmark; cells show the median")
	flag.Parse()
	if err := flag.Set("test.benchtime", *benchtime); err != nil {
		fmt.Fprintln(os.Stderr, "ratios: -benchtime:", err)
		os.Exit(2)
	}
	fmt.Printf("%s/%s, %d CPUs, GOMAXPROCS %d, %s, benchtime %s, median of %d\n\n",
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(), *benchtime, *count)
	fmt.Println("| call | env | change | ply ns/op | ply B/op | ply allocs/op | apimachinery ns/op | apimachinery B/op | apimachinery allocs/op | time ratio | bytes ratio | allocs ratio |")
	fmt.Println("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, op := range dropinbench.Ops {
		for _, n := range dropinbench.Sizes {
			for _, change := range benchcase.Changes {
				c, err := dropinbench.NewCase(n, change)
				if err != nil {
					fmt.Fprintln(os.Stderr, "ratios:", err)
					os.Exit(1)
				}
				cells := measure(op, c, *count)
				p, a := cells[0], cells[1]
				fmt.Printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", op, n, change,
					num(p.ns), num(p.bytes), num(p.allocs), num(a.ns), num(a.bytes), num(a.allocs),
					ratio(a.ns, p.ns), ratio(a.bytes, p.bytes), ratio(a.allocs, p.allocs))
			}
		}
	}
}

// measure runs op on c for each API count times, alternating, and returns each API's medians.
func measure(op string, c dropinbench.Case, count int) []result {
	runs := make([][]result, len(dropinbench.APIs))
	for range count {
		for i, api := range dropinbench.APIs {
			r := testing.Benchmark(dropinbench.Bench(api, op, c))
			if r.N == 0 {
				fmt.Fprintf(os.Stderr, "ratios: %s %s %s failed\n", api.Name, op, c.Name())
				os.Exit(1)
			}
			runs[i] = append(runs[i], result{r.NsPerOp(), r.AllocedBytesPerOp(), r.AllocsPerOp()})
		}
	}
	out := make([]result, len(runs))
	for i, rs := range runs {
		out[i] = result{median(rs, func(r result) int64 { return r.ns }), median(rs, func(r result) int64 { return r.bytes }),
			median(rs, func(r result) int64 { return r.allocs })}
	}
	return out
}

func median(rs []result, f func(result) int64) int64 {
	vs := make([]int64, len(rs))
	for i, r := range rs {
		vs[i] = f(r)
	}
	slices.Sort(vs)
	return vs[len(vs)/2]
}

func num(v int64) string {
	s := strconv.FormatInt(v, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func ratio(a, b int64) string {
	if b == 0 {
		return "-"
	}
	return strconv.FormatFloat(float64(a)/float64(b), 'f', 2, 64) + "×"
}
