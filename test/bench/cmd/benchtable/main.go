// Command benchtable runs the three-way apply benchmarks of test/bench for
// ply, strategicpatch and server-side apply's engine (smd: merge.Updater;
// fieldmanager: managedfields.FieldManager) and prints a markdown table:
// ns/op, B/op and allocs/op of each implementation, the ratios of each
// peer to ply (apply.MergeBytes; above 1 means ply is cheaper) and each
// peer's time ratio to ply's value-level variants, ply-values and ply-arena
// (see benchcase.Impls).
//
//	go run ./test/bench/cmd/benchtable -benchtime 2s -count 3
//
// With -count above 1 each cell is the median of the runs. For statistics
// with confidence intervals use `go test -bench` and benchstat instead (see
// docs/benchmarks.md).
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

	"github.com/plyproject/ply/test/internal/benchcase"
)

func main() {
	testing.Init()
	benchtime := flag.String("benchtime", "1s", "run time (or Nx iterations) per benchmark")
	count := flag.Int("count", 1, "runs per benchmark; cells show the median")
	envs := flag.String("env", "", "comma-separated env sizes (default: all of benchcase.EnvSizes)")
	flag.Parse()
	if err := flag.Set("test.benchtime", *benchtime); err != nil {
		fail(2, "-benchtime: "+err.Error())
	}
	sizes, err := envSizes(*envs)
	if err != nil {
		fail(2, "-env: "+err.Error())
	}
	impls, err := benchcase.Impls()
	if err != nil {
		fail(1, err.Error())
	}
	fmt.Printf("%s/%s, %d CPUs, GOMAXPROCS %d, %s, benchtime %s, median of %d\n\n",
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(), *benchtime, *count)
	t := table{impls: impls, plys: plyCount(impls)}
	t.printHeader()
	for _, n := range sizes {
		for _, change := range benchcase.Changes {
			t.printRow(n, change, *count)
		}
	}
}

// fail prints msg as benchtable's error and exits with code.
func fail(code int, msg string) {
	fmt.Fprintln(os.Stderr, "benchtable: "+msg)
	os.Exit(code)
}

// envSizes returns the env sizes list names (comma-separated), or benchcase.EnvSizes when list is empty.
func envSizes(list string) ([]int, error) {
	if list == "" {
		return benchcase.EnvSizes, nil
	}
	var sizes []int
	for _, s := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("bad size %q", s)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

// plyCount is the number of ply's implementations at the head of impls: the peers follow ply and its variants.
func plyCount(impls []benchcase.Impl) int {
	plys := 0
	for plys < len(impls) && strings.HasPrefix(impls[plys].Name, "ply") {
		plys++
	}
	return plys
}

// table prints the Markdown table: a column group per implementation, then each peer's ratio to ply, then each
// peer's ratio to ply's other variants (impls[1:plys]).
type table struct {
	impls []benchcase.Impl
	plys  int
}

// printHeader prints the table's header and alignment rows.
func (t table) printHeader() {
	header := "| env | change |"
	align := "|---:|---|"
	for _, impl := range t.impls {
		header += " " + impl.Name + " ns/op | " + impl.Name + " B/op | " + impl.Name + " allocs/op |"
		align += "---:|---:|---:|"
	}
	for _, impl := range t.impls[t.plys:] {
		header += " " + impl.Name + " ÷ ply time | bytes | allocs |"
		align += "---:|---:|---:|"
	}
	for _, base := range t.impls[1:t.plys] {
		for _, impl := range t.impls[t.plys:] {
			header += " " + impl.Name + " ÷ " + base.Name + " time |"
			align += "---:|"
		}
	}
	fmt.Println(header)
	fmt.Println(align)
}

// printRow measures every implementation on the n-entry case of change count times and prints its row.
func (t table) printRow(n int, change string, count int) {
	in := benchcase.Make(n, change)
	cells := make([]result, len(t.impls))
	for i, impl := range t.impls {
		r, err := measure(impl, in, count)
		if err != nil {
			fail(1, impl.Name+" "+in.Name()+": "+err.Error())
		}
		cells[i] = r
	}
	row := fmt.Sprintf("| %d | %s |", n, change)
	for _, c := range cells {
		row += " " + num(c.ns) + " | " + num(c.bytes) + " | " + num(c.allocs) + " |"
	}
	p := cells[0]
	for _, c := range cells[t.plys:] {
		row += " " + ratio(c.ns, p.ns) + " | " + ratio(c.bytes, p.bytes) + " | " + ratio(c.allocs, p.allocs) + " |"
	}
	for _, b := range cells[1:t.plys] {
		for _, c := range cells[t.plys:] {
			row += " " + ratio(c.ns, b.ns) + " |"
		}
	}
	fmt.Println(row)
}

type result struct{ ns, bytes, allocs int64 }

// measure runs impl on in count times and returns the median of each
// measure.
func measure(impl benchcase.Impl, in benchcase.Input, count int) (result, error) {
	run, err := impl.Prepare(in)
	if err != nil {
		return result{}, err
	}
	if _, err := run(); err != nil {
		return result{}, err
	}
	var ns, bytes, allocs []int64
	for range max(1, count) {
		r := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := run(); err != nil {
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
		if i > 0 && (len(s)-i)%3 == 0 {
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
