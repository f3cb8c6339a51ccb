// Command patchtable runs the strategic merge patch benchmarks of
// test/patchbench for ply and strategicpatch and prints a markdown table:
// per operation (apply, create) and list size, ns/op, B/op and allocs/op
// of each implementation, ply's ns per list item (constant when growth is
// linear) and the ratios strategicpatch/ply (above 1 means ply is
// cheaper).
//
//	go run ./test/patchbench/cmd/patchtable -benchtime 2s -count 5
//
// With -count above 1 each cell is the median of the runs. For confidence
// intervals use `go test -bench` and benchstat (see package patchbench).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plyproject/ply/test/patchbench"
)

func main() {
	testing.Init()
	benchtime := flag.String("benchtime", "1s", "run time (or Nx iterations) per benchmark")
	count := flag.Int("count", 1, "runs per benchmark; cells show the median")
	items := flag.String("items", "", "comma-separated list sizes (default: all of patchbench.Sizes)")
	ops := flag.String("op", "apply,create", "comma-separated operations: apply, create")
	flag.Parse()
	if err := flag.Set("test.benchtime", *benchtime); err != nil {
		fail(2, "-benchtime: "+err.Error())
	}
	sizes := patchbench.Sizes
	if *items != "" {
		sizes = nil
		for _, s := range strings.Split(*items, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n <= 0 {
				fail(2, "-items: bad size "+strconv.Quote(s))
			}
			sizes = append(sizes, n)
		}
	}
	impls, err := patchbench.Impls()
	if err != nil {
		fail(1, err.Error())
	}

	fmt.Printf("%s/%s, %d CPUs, GOMAXPROCS %d, %s, benchtime %s, median of %d\n\n",
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(), *benchtime, *count)
	fmt.Println("| op | items | ply ns/op | ply ns/item | ply B/op | ply allocs/op | strategicpatch ns/op | strategicpatch B/op | strategicpatch allocs/op | time ratio | bytes ratio | allocs ratio |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, op := range strings.Split(*ops, ",") {
		var get func(patchbench.Impl) patchbench.Op
		switch op = strings.TrimSpace(op); op {
		case "apply":
			get = func(i patchbench.Impl) patchbench.Op { return i.Apply }
		case "create":
			get = func(i patchbench.Impl) patchbench.Op { return i.Create }
		default:
			fail(2, "-op: unknown operation "+strconv.Quote(op)+", want apply or create")
		}
		for _, n := range sizes {
			in, err := patchbench.Make(n)
			if err != nil {
				fail(1, err.Error())
			}
			var cells [2]result
			for i, impl := range impls {
				r, err := measure(get(impl), in, *count)
				if err != nil {
					fail(1, impl.Name+" "+op+" "+in.Name()+": "+err.Error())
				}
				cells[i] = r
			}
			p, s := cells[0], cells[1]
			fmt.Printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", op, n,
				num(p.ns), num(p.ns/int64(n)), num(p.bytes), num(p.allocs), num(s.ns), num(s.bytes), num(s.allocs),
				ratio(s.ns, p.ns), ratio(s.bytes, p.bytes), ratio(s.allocs, p.allocs))
		}
	}
}

func fail(code int, msg string) {
	fmt.Fprintln(os.Stderr, "patchtable: "+msg)
	os.Exit(code)
}

type result struct{ ns, bytes, allocs int64 }

// measure runs op on in count times and returns the median of each
// measure.
func measure(op patchbench.Op, in patchbench.Input, count int) (result, error) {
	if _, err := op(in); err != nil {
		return result{}, err
	}
	var ns, bytes, allocs []int64
	for range max(1, count) {
		r := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := op(in); err != nil {
					b.Fatal(err)
				}
			}
		})
		ns = append(ns, r.NsPerOp())
		bytes = append(bytes, r.AllocedBytesPerOp())
		allocs = append(allocs, r.AllocsPerOp())
	}
	return result{median(ns), median(bytes), median(allocs)}, nil
}

func median(xs []int64) int64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// num renders n with thousands separators.
func num(n int64) string {
	s := strconv.FormatInt(n, 10)
	var sb strings.Builder
	for i, r := range s {
		if i > 0 && r != '-' && (len(s)-i)%3 == 0 {
			sb.WriteByte(',')
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

func ratio(a, b int64) string {
	if b == 0 {
		return "n/a"
	}
	return strconv.FormatFloat(float64(a)/float64(b), 'f', 2, 64) + "×"
}
