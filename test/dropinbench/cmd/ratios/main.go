// Command ratios runs test/dropinbench's benchmarks, ply's pkg/strategicpatch and apimachinery's strategicpatch side by
// side in one process, and prints a markdown table: time, bytes and allocations per call of each, and apimachinery's
// divided by ply's (above 1: ply is cheaper).
//
//	go run ./test/dropinbench/cmd/ratios -benchtime 1s -count 3
//	go run ./test/dropinbench/cmd/ratios -cpu -count 5 -match 'CreateThreeWayMergePatch/1000/'  # some rows only
//
// A run calls each implementation 64 calls at a time for -benchtime, the time its clock is stopped included (where
// dropinbench.Loop makes fresh arguments), so that cells are per call of the time the clock ran. With -count above 1
// each cell is the median of the runs, the two implementations alternating run by run, and the time ratio is the
// median of the runs' ratios, their range in parentheses. With -cpu the times are CPU time per call (user and system
// time of the process, its garbage collector included) instead of wall time: on a machine shared with other work, CPU
// time moves less with the load than wall time does.
package main

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/plyproject/ply/test/dropinbench"
	"github.com/plyproject/ply/test/internal/benchcase"
)

type result struct{ ns, bytes, allocs int64 }

// settings are the command's flags.
type settings struct {
	benchtime string
	calls     int           // -benchtime Nx: N calls
	duration  time.Duration // -benchtime as a duration
	count     int
	cpu       bool
	match     *regexp.Regexp // the rows measured, by "call/env/change"
}

func main() {
	var set settings
	flag.StringVar(&set.benchtime, "benchtime", "1s", "run time (or Nx iterations) per benchmark")
	flag.IntVar(&set.count, "count", 1, "runs per benchmark; cells show the median")
	flag.BoolVar(&set.cpu, "cpu", false, "measure CPU time per call (the process's, garbage collection included), not wall time")
	match := flag.String("match", "", "measure only the rows whose \"call/env/change\" matches this regular expression")
	flag.Parse()
	var err error
	if set.match, err = regexp.Compile(*match); err != nil {
		fmt.Fprintln(os.Stderr, "ratios: -match:", err)
		os.Exit(2)
	}
	if err := set.parseBenchtime(); err != nil {
		fmt.Fprintln(os.Stderr, "ratios: -benchtime:", err)
		os.Exit(2)
	}
	clock := "wall time"
	if set.cpu {
		clock = "CPU time"
	}
	fmt.Printf("%s/%s, %d CPUs, GOMAXPROCS %d, %s, benchtime %s, median of %d, %s\n\n",
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version(), set.benchtime, set.count, clock)
	fmt.Println("| call | env | change | ply ns/op | ply B/op | ply allocs/op | apimachinery ns/op | apimachinery B/op | apimachinery allocs/op | time ratio | bytes ratio | allocs ratio |")
	fmt.Println("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, op := range dropinbench.Ops {
		for _, n := range dropinbench.Sizes {
			for _, change := range benchcase.Changes {
				if !set.match.MatchString(fmt.Sprintf("%s/%d/%s", op, n, change)) {
					continue
				}
				c, err := dropinbench.NewCase(n, change)
				if err != nil {
					fmt.Fprintln(os.Stderr, "ratios:", err)
					os.Exit(1)
				}
				cells, timeRatio := measure(op, c, set)
				p, a := cells[0], cells[1]
				fmt.Printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", op, n, change,
					num(p.ns), num(p.bytes), num(p.allocs), num(a.ns), num(a.bytes), num(a.allocs),
					timeRatio, ratio(a.bytes, p.bytes), ratio(a.allocs, p.allocs))
			}
		}
	}
}

// measure runs op on c for each API set.count times, alternating, and returns each API's medians and the time ratio
// (apimachinery's over ply's): the median of the runs' ratios, with their range when there are several.
func measure(op string, c dropinbench.Case, set settings) ([]result, string) {
	runs := make([][]result, len(dropinbench.APIs))
	for range set.count {
		for i, api := range dropinbench.APIs {
			r, err := run(api, op, c, set)
			if err != nil {
				fmt.Fprintf(os.Stderr, "ratios: %s %s %s: %v\n", api.Name, op, c.Name(), err)
				os.Exit(1)
			}
			runs[i] = append(runs[i], r)
		}
	}
	out := make([]result, len(runs))
	for i, rs := range runs {
		out[i] = result{median(rs, func(r result) int64 { return r.ns }), median(rs, func(r result) int64 { return r.bytes }),
			median(rs, func(r result) int64 { return r.allocs })}
	}
	ratios := make([]float64, set.count)
	for i := range ratios {
		ratios[i] = float64(runs[1][i].ns) / float64(max(runs[0][i].ns, 1))
	}
	slices.Sort(ratios)
	timeRatio := strconv.FormatFloat(ratios[len(ratios)/2], 'f', 2, 64) + "×"
	if set.count > 1 {
		timeRatio += fmt.Sprintf(" (%.2f–%.2f)", ratios[0], ratios[len(ratios)-1])
	}
	return out, timeRatio
}

// run measures op of api on c once: its time per call (CPU time with set.cpu, else wall time), bytes and allocations,
// calling it for set.benchtime (a duration, the time stopped included, or N calls written Nx), 64 calls at a time, the
// clock stopped where dropinbench.Loop stops it.
func run(api dropinbench.API, op string, c dropinbench.Case, set settings) (result, error) {
	calls, d := set.calls, set.duration
	if _, err := dropinbench.Call(api, op, c, false); err != nil { // warm the caches
		return result{}, err
	}
	clock := stopClock{now: wallTime}
	if set.cpu {
		clock.now = processCPU
	}
	n, start := 0, time.Now()
	for n < max(calls, 1) || time.Since(start) < d { // (the bound counts the untimed work too: copies can cost far more than calls)
		step := 64
		if calls > 0 {
			step = min(step, calls-n)
		}
		clock.StartTimer()
		if err := dropinbench.Loop(api, op, c, step, &clock); err != nil {
			return result{}, err
		}
		clock.StopTimer()
		if clock.err != nil {
			return result{}, clock.err
		}
		n += step
	}
	return result{clock.spent.Nanoseconds() / int64(n), int64(clock.bytes) / int64(n), int64(clock.mallocs) / int64(n)}, nil
}

// parseBenchtime reads set.benchtime: N calls written Nx, or a duration.
func (set *settings) parseBenchtime() error {
	if n, ok := strings.CutSuffix(set.benchtime, "x"); ok {
		var err error
		if set.calls, err = strconv.Atoi(n); err != nil || set.calls < 1 {
			return fmt.Errorf("%q is not a number of calls", set.benchtime)
		}
		return nil
	}
	var err error
	set.duration, err = time.ParseDuration(set.benchtime)
	return err
}

// stopClock is a dropinbench.Timer adding up the time now tells (the process's CPU time, or wall time), bytes and
// allocations while it runs.
type stopClock struct {
	now            func() (time.Duration, error)
	spent          time.Duration
	bytes, mallocs uint64
	started        time.Duration
	start          runtime.MemStats
	err            error
}

func (t *stopClock) StartTimer() {
	runtime.ReadMemStats(&t.start)
	var err error
	if t.started, err = t.now(); err != nil && t.err == nil {
		t.err = err
	}
}

func (t *stopClock) StopTimer() {
	now, _ := t.now()
	var end runtime.MemStats
	runtime.ReadMemStats(&end)
	t.spent += now - t.started
	t.bytes += end.TotalAlloc - t.start.TotalAlloc
	t.mallocs += end.Mallocs - t.start.Mallocs
}

// wallTime is the time since the process started.
func wallTime() (time.Duration, error) { return time.Since(processStart), nil }

var processStart = time.Now()

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
