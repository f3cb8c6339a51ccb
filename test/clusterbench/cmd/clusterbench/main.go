// Command clusterbench applies the 1,000-object benchmark set (package
// test/clusterbench) to a local kube-apiserver with ply (library and
// binary, each in the client-side and the server-side lane), with the bare client-go GET+PUT loop (JSON and protobuf; the
// ceiling of clients that read and write object by object), and with
// kubectl 1.32 (client-side and --server-side), -runs times each, and
// prints objects/s per run, the mean of each tool and its ratio to the
// GET+PUT loop's, to kubectl's and to kubectl --server-side's, and ply's
// ratio to the loop run by run. Each run's row also holds the CPU
// milliseconds per object of the tool (its process, or this one for the
// library and the loops), of kube-apiserver and of etcd, and the load
// average at its end; the summary ends with each tool's mean CPU per
// object, which shows whose CPU bounds a lane on a small machine:
//
//	go run ./test/clusterbench/cmd/clusterbench [-runs 3] [-slow-runs 1] [-n 1000] [-workers 8] [-tools ply,ply-ssa,kubectl-ssa]
//
// With $PLY_BENCH_APISERVER_PROFILING set, kube-apiserver serves
// /debug/pprof and the command prints, on stderr once the server is up, the
// kubectl command that reads a CPU profile of it (Env.Profiling).
//
// Each tool applies to its own namespace, seeded with version 1 of the set;
// every run applies the other version, so every object is written. The
// runs interleave the tools (ply, ply-ssa, getput, getput-proto, ply-cli,
// ply-cli-ssa, kubectl-ssa, kubectl, ply, ...) so that a slow period of the machine does
// not fall on one tool only; the kubectl tools, minutes per run, take part
// in the first -slow-runs runs only. It exits 1 with a message when the
// server cannot be started or an apply fails.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/plyproject/ply/test/clusterbench"
)

func main() {
	runs := flag.Int("runs", 1, "applies per tool")
	slowRuns := flag.Int("slow-runs", -1, "applies of the kubectl tools, in the first runs (-1: -runs)")
	n := flag.Int("n", clusterbench.Objects, "objects in the set (half ConfigMaps, half Deployments)")
	workers := flag.Int("workers", 0, "ply's concurrent applies (0: its default)")
	verbose := flag.Bool("v", false, "print the API server harness's progress lines")
	only := flag.String("tools", "", "comma-separated tools to run (default: all): "+toolNames())
	flag.Parse()
	if *slowRuns < 0 || *slowRuns > *runs {
		*slowRuns = *runs
	}
	selected, err := selectTools(*only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "clusterbench:", err)
		os.Exit(2)
	}
	if err := run(*runs, *slowRuns, *n, *workers, *verbose, selected); err != nil {
		fmt.Fprintln(os.Stderr, "clusterbench:", err)
		os.Exit(1)
	}
}

// toolNames lists clusterbench.Tools, comma-separated.
func toolNames() string {
	names := make([]string, len(clusterbench.Tools))
	for i, t := range clusterbench.Tools {
		names[i] = string(t)
	}
	return strings.Join(names, ",")
}

// selectTools returns, for each of clusterbench.Tools, whether the list
// only (comma-separated names; empty: every tool) names it.
func selectTools(only string) ([]bool, error) {
	selected := make([]bool, len(clusterbench.Tools))
	if only == "" {
		for i := range selected {
			selected[i] = true
		}
		return selected, nil
	}
	for _, name := range strings.Split(only, ",") {
		found := false
		for i, t := range clusterbench.Tools {
			if string(t) == strings.TrimSpace(name) {
				selected[i], found = true, true
			}
		}
		if !found {
			return nil, fmt.Errorf("-tools: unknown tool %q, want some of %s", name, toolNames())
		}
	}
	return selected, nil
}

// run starts the server, seeds a lane per selected tool, applies runs
// times (the slow tools slowRuns times) and prints the table of runs and
// the summary of means and ratios.
func run(runs, slowRuns, n, workers int, verbose bool, selected []bool) error {
	if runs < 1 {
		return fmt.Errorf("-runs %d: want at least 1", runs)
	}
	var log io.Writer = io.Discard
	if verbose {
		log = os.Stderr
	}
	e, err := clusterbench.Setup(n, workers, log)
	if err != nil {
		return err
	}
	defer e.Close()
	if e.Profiling {
		fmt.Fprintf(os.Stderr, "clusterbench: kube-apiserver serves /debug/pprof: kubectl --kubeconfig %s get --raw '/debug/pprof/profile?seconds=20' >cpu.pprof\n",
			e.Server.Kubeconfig)
	}
	ctx := context.Background()

	lanes := make([]*clusterbench.Lane, len(clusterbench.Tools))
	for i, t := range clusterbench.Tools {
		if !selected[i] {
			continue
		}
		if lanes[i], err = e.NewLane(ctx, t, "clusterbench-"+string(t)); err != nil {
			return err
		}
	}
	rates, cpu, err := measure(ctx, lanes, runs, slowRuns, n)
	if err != nil {
		return err
	}
	fmt.Printf("\n%d objects, %d run(s) (kubectl tools: %d), mean objects/s:\n", n, runs, slowRuns)
	printMeans(rates)
	printPlyRatios(rates)
	printCPU(rates, cpu, n)
	return nil
}

// measure applies with every lane (lanes[i] is clusterbench.Tools[i]'s, nil
// when not selected)
// runs times, interleaving the tools, the slow ones in the first slowRuns
// runs only, and prints a row per apply: its time, objects/s, the CPU
// milliseconds per object of the tool, the API server and etcd, and the
// load average when it ended. rates[i] holds the objects/s of the runs of
// clusterbench.Tools[i], n objects each; cpu[i] the sum of their samples.
func measure(ctx context.Context, lanes []*clusterbench.Lane, runs, slowRuns, n int) ([][]float64, []clusterbench.Sample, error) {
	rates := make([][]float64, len(clusterbench.Tools))
	cpu := make([]clusterbench.Sample, len(clusterbench.Tools))
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "run\ttool\tseconds\tobjects/s\tclient ms/obj\tapiserver ms/obj\tetcd ms/obj\tload\t\n")
	for r := 1; r <= runs; r++ {
		for i, t := range clusterbench.Tools {
			if lanes[i] == nil || t.Slow() && r > slowRuns {
				continue
			}
			s, err := lanes[i].Measure(ctx)
			if err != nil {
				return nil, nil, err
			}
			rate := float64(n) / s.Wall.Seconds()
			rates[i] = append(rates[i], rate)
			cpu[i] = add(cpu[i], s)
			fmt.Fprintf(tw, "%d\t%s\t%.2f\t%.1f\t%.2f\t%.2f\t%.2f\t%s\t\n", r, t, s.Wall.Seconds(), rate,
				perObject(s.Client, n), perObject(s.APIServer, n), perObject(s.Etcd, n), loadAverage())
		}
	}
	tw.Flush()
	return rates, cpu, nil
}

// add sums two samples.
func add(a, b clusterbench.Sample) clusterbench.Sample {
	return clusterbench.Sample{Wall: a.Wall + b.Wall, Client: a.Client + b.Client, APIServer: a.APIServer + b.APIServer, Etcd: a.Etcd + b.Etcd}
}

// perObject is d per object in milliseconds.
func perObject(d time.Duration, n int) float64 { return d.Seconds() * 1000 / float64(n) }

// loadAverage is the one-minute load average ("?" where /proc/loadavg
// cannot be read).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// printCPU prints, for each tool that ran, the mean CPU milliseconds per
// object of the tool, the API server and etcd over its runs (rates[i]
// holds one rate per run of clusterbench.Tools[i], cpu[i] their sum).
func printCPU(rates [][]float64, cpu []clusterbench.Sample, n int) {
	fmt.Printf("mean CPU ms per object: client, apiserver, etcd, all three\n")
	for i, t := range clusterbench.Tools {
		if len(rates[i]) == 0 {
			continue
		}
		s, objects := cpu[i], n*len(rates[i])
		fmt.Printf("  %-12s %6.2f %6.2f %6.2f %6.2f\n", t, perObject(s.Client, objects), perObject(s.APIServer, objects),
			perObject(s.Etcd, objects), perObject(s.Client+s.APIServer+s.Etcd, objects))
	}
}

// printMeans prints each tool's mean objects/s and its ratios to the
// GET+PUT loop's, to kubectl's and to kubectl --server-side's; a tool that did not run (kubectl's
// with -slow-runs 0) is "not run", and a ratio to it "-".
func printMeans(rates [][]float64) {
	getput, kubectl := mean(ratesOf(rates, clusterbench.GetPut)), mean(ratesOf(rates, clusterbench.Kubectl))
	kubectlSSA := mean(ratesOf(rates, clusterbench.KubectlSSA))
	for i, t := range clusterbench.Tools {
		if len(rates[i]) == 0 {
			fmt.Printf("  %-12s %8s\n", t, "not run")
			continue
		}
		m := mean(rates[i])
		fmt.Printf("  %-12s %8.1f  (%s getput, %s kubectl, %s kubectl-ssa)\n", t, m, ratio(m, getput), ratio(m, kubectl), ratio(m, kubectlSSA))
	}
}

// printPlyRatios prints ply's rate over the GET+PUT loop's, run by run,
// and their range, when both ran.
func printPlyRatios(rates [][]float64) {
	ply, loop := ratesOf(rates, clusterbench.Ply), ratesOf(rates, clusterbench.GetPut)
	if len(ply) == 0 || len(loop) != len(ply) {
		return
	}
	fmt.Printf("ply/getput run by run:")
	lo, hi := 0.0, 0.0
	for r := range ply {
		x := ply[r] / loop[r]
		if r == 0 || x < lo {
			lo = x
		}
		if r == 0 || x > hi {
			hi = x
		}
		fmt.Printf(" %.2f", x)
	}
	fmt.Printf(" (range %.2f-%.2f)\n", lo, hi)
}

// mean is the mean of xs; NaN when xs is empty.
func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// ratesOf returns the rates of tool t (rates[i] is clusterbench.Tools[i]'s).
func ratesOf(rates [][]float64, t clusterbench.Tool) []float64 {
	for i, u := range clusterbench.Tools {
		if u == t {
			return rates[i]
		}
	}
	return nil
}

// ratio renders a/b as "1.23x"; "-" when either is NaN (a tool that did
// not run).
func ratio(a, b float64) string {
	if math.IsNaN(a) || math.IsNaN(b) {
		return "-"
	}
	return strconv.FormatFloat(a/b, 'f', 2, 64) + "x"
}
