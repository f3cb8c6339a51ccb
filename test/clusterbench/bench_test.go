package clusterbench_test

import (
	"context"
	"flag"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/plyproject/ply/test/clusterbench"
)

// The server is started by the first benchmark that needs it and stopped
// by TestMain, so `go test` without -bench starts nothing.
var (
	envOnce sync.Once
	env     *clusterbench.Env
	envErr  error
	lanes   int
)

func TestMain(m *testing.M) {
	code := m.Run()
	if env != nil {
		if err := env.Close(); err != nil {
			os.Stderr.WriteString("clusterbench: " + err.Error() + "\n")
			code = 1
		}
	}
	os.Exit(code)
}

// smokeObjects is the size of the set in a smoke run (-benchtime 1x).
const smokeObjects = 100

// benchEnv returns the shared Env, failing b when it cannot be set up. The
// set has clusterbench.Objects objects, $PLY_BENCH_OBJECTS when set, or
// smokeObjects under -benchtime 1x (kubectl alone takes minutes for 1,000
// objects, too long for a smoke run); $PLY_BENCH_WORKERS sets the library's
// and the CLI's workers.
func benchEnv(b *testing.B) *clusterbench.Env {
	b.Helper()
	envOnce.Do(func() {
		workers := 0
		if s := os.Getenv("PLY_BENCH_WORKERS"); s != "" {
			if workers, envErr = strconv.Atoi(s); envErr != nil {
				return
			}
		}
		n := clusterbench.Objects
		if s := os.Getenv("PLY_BENCH_OBJECTS"); s != "" {
			if n, envErr = strconv.Atoi(s); envErr != nil {
				return
			}
		} else if f := flag.Lookup("test.benchtime"); f != nil && f.Value.String() == "1x" {
			// The smoke run (-benchtime 1x in hack/test.sh) only proves the
			// benchmark works: kubectl needs minutes for 1,000 objects.
			n = smokeObjects
		}
		env, envErr = clusterbench.Setup(n, workers, os.Stderr)
	})
	if envErr != nil {
		b.Fatalf("clusterbench needs a kube-apiserver, etcd and kubectl 1.32 (see docs/cluster.md): %v", envErr)
	}
	return env
}

// BenchmarkApply1000 applies 1,000 objects per iteration with each tool,
// every iteration writing every object, and reports objects/s.
func BenchmarkApply1000(b *testing.B) {
	e := benchEnv(b)
	ctx := context.Background()
	for _, t := range clusterbench.Tools {
		b.Run("tool="+string(t), func(b *testing.B) {
			lanes++
			lane, err := e.NewLane(ctx, t, "bench-"+strconv.Itoa(lanes))
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if _, err := lane.Next(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(e.N*b.N)/b.Elapsed().Seconds(), "objects/s")
			if e.N != clusterbench.Objects {
				b.Logf("the set has %d objects, not %d (smoke run or $PLY_BENCH_OBJECTS)", e.N, clusterbench.Objects)
			}
		})
	}
}

// BenchmarkGetPut measures ply against the ceiling of object-by-object
// clients in the same iterations: each iteration applies the set with
// pkg/cluster's Client.Apply, with the bare client-go GET+PUT loop
// (GetPut, JSON) and with the loop over protobuf (GetPutProto), each in its
// own namespace, starting with a different one each iteration so that no
// tool always runs first. It reports each one's objects/s over all
// iterations and the ratios ply/getput (the target is at least 1.3) and
// getput-proto/getput (what the protobuf wire format gains).
func BenchmarkGetPut(b *testing.B) {
	e := benchEnv(b)
	ctx := context.Background()
	tools := []clusterbench.Tool{clusterbench.Ply, clusterbench.GetPut, clusterbench.GetPutProto}
	ls := make([]*clusterbench.Lane, len(tools))
	for i, t := range tools {
		lanes++
		var err error
		if ls[i], err = e.NewLane(ctx, t, "bench-"+strconv.Itoa(lanes)); err != nil {
			b.Fatal(err)
		}
	}
	spent := make([]time.Duration, len(tools))
	b.ResetTimer()
	for it := range b.N {
		for k := range tools {
			i := (it + k) % len(tools)
			d, err := ls[i].Next(ctx)
			if err != nil {
				b.Fatal(err)
			}
			spent[i] += d
		}
	}
	rate := func(i int) float64 { return float64(e.N*b.N) / spent[i].Seconds() }
	for i, t := range tools {
		b.ReportMetric(rate(i), string(t)+"-objects/s")
	}
	b.ReportMetric(rate(0)/rate(1), "ply/getput")
	b.ReportMetric(rate(2)/rate(1), "proto/json")
	b.ReportMetric(0, "ns/op")
}
