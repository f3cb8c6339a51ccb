package clusterbench_test

import (
	"context"
	"flag"
	"os"
	"strconv"
	"sync"
	"testing"

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
