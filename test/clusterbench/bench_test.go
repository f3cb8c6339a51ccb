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

	patchEnvOnce sync.Once
	patchEnv     *clusterbench.PatchEnv
	patchEnvErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if env != nil {
		if err := env.Close(); err != nil {
			os.Stderr.WriteString("clusterbench: " + err.Error() + "\n")
			code = 1
		}
	}
	if patchEnv != nil {
		if err := patchEnv.Close(); err != nil {
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
		var n, workers int
		if n, workers, envErr = settings(); envErr == nil {
			env, envErr = clusterbench.Setup(n, workers, os.Stderr)
		}
	})
	if envErr != nil {
		b.Fatalf("clusterbench needs a kube-apiserver, etcd and kubectl 1.32 (see docs/cluster.md): %v", envErr)
	}
	return env
}

// settings are the size of the set (clusterbench.Objects,
// $PLY_BENCH_OBJECTS when set, or smokeObjects under -benchtime 1x) and
// the workers ($PLY_BENCH_WORKERS; 0, the default, when unset).
func settings() (n, workers int, err error) {
	if s := os.Getenv("PLY_BENCH_WORKERS"); s != "" {
		if workers, err = strconv.Atoi(s); err != nil {
			return 0, 0, err
		}
	}
	n = clusterbench.Objects
	if s := os.Getenv("PLY_BENCH_OBJECTS"); s != "" {
		n, err = strconv.Atoi(s)
	} else if f := flag.Lookup("test.benchtime"); f != nil && f.Value.String() == "1x" {
		// The smoke run (-benchtime 1x in hack/test.sh) only proves the
		// benchmark works: kubectl needs minutes for 1,000 objects.
		n = smokeObjects
	}
	return n, workers, err
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

// nexter is a lane of an interleaved benchmark: each Next writes the set
// once and returns how long it took.
type nexter interface {
	Next(ctx context.Context) (time.Duration, error)
}

// interleave resets b's timer and runs b.N iterations, each calling Next
// on every lane once, starting with a different lane each iteration so
// that none always runs first; it returns each lane's total time.
func interleave(b *testing.B, ctx context.Context, ls []nexter) []time.Duration {
	spent := make([]time.Duration, len(ls))
	b.ResetTimer()
	for it := range b.N {
		for k := range ls {
			i := (it + k) % len(ls)
			d, err := ls[i].Next(ctx)
			if err != nil {
				b.Fatalf("lane %d: %v", i, err)
			}
			spent[i] += d
		}
	}
	return spent
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
	ls := make([]nexter, len(tools))
	for i, t := range tools {
		lanes++
		var err error
		if ls[i], err = e.NewLane(ctx, t, "bench-"+strconv.Itoa(lanes)); err != nil {
			b.Fatal(err)
		}
	}
	spent := interleave(b, ctx, ls)
	rate := func(i int) float64 { return float64(e.N*b.N) / spent[i].Seconds() }
	for i, t := range tools {
		b.ReportMetric(rate(i), string(t)+"-objects/s")
	}
	b.ReportMetric(rate(0)/rate(1), "ply/getput")
	b.ReportMetric(rate(2)/rate(1), "proto/json")
	b.ReportMetric(0, "ns/op")
}

// longListEnv is the number of env entries of BenchmarkPatch's long-list
// Deployments.
const longListEnv = 1000

// BenchmarkPatch measures PATCH with application/strategic-merge-patch+json
// (kubectl's two-way patches between two versions of a set) on the stock
// kube-apiserver and on the one built on ply, the same patches from the
// same client in the same iterations: each iteration patches every object
// of the set on both servers, starting with a different server each
// iteration. set=bench is benchEnv's set (ConfigMaps and Deployments: a
// label, a value, an image and one env var change); set=env1000 is one
// Deployment per 50 objects of it (at least 2), each with 1,000 env entries
// whose values all change. It reports each server's objects/s over all
// iterations and ply/stock (above 1: the server built on ply answers
// faster). $PLY_BENCH_WORKERS sets the requests in flight.
func BenchmarkPatch(b *testing.B) {
	patchEnvOnce.Do(func() {
		var workers int
		if _, workers, patchEnvErr = settings(); patchEnvErr == nil {
			patchEnv, patchEnvErr = clusterbench.SetupPatch(workers, os.Stderr)
		}
	})
	if patchEnvErr != nil {
		b.Fatalf("BenchmarkPatch needs the stock kube-apiserver and the one built on ply (go run ./test/harness/cmd/prepare -ply), etcd: %v", patchEnvErr)
	}
	n, _, err := settings()
	if err != nil {
		b.Fatal(err)
	}
	sets := []struct {
		name      string
		manifests func(version int) []map[string]any
	}{
		{"bench", func(v int) []map[string]any { return clusterbench.Manifests(n, v) }},
		{"env1000", func(v int) []map[string]any { return clusterbench.LongLists(max(2, n/50), longListEnv, v) }},
	}
	for _, s := range sets {
		b.Run("set="+s.name, func(b *testing.B) {
			set, err := clusterbench.NewPatchSet(s.manifests)
			if err != nil {
				b.Fatal(err)
			}
			benchmarkPatchSet(b, set)
		})
	}
}

// benchmarkPatchSet is BenchmarkPatch on one set.
func benchmarkPatchSet(b *testing.B, set *clusterbench.PatchSet) {
	ctx := context.Background()
	servers := clusterbench.PatchServers
	ls := make([]nexter, len(servers))
	for i, kind := range servers {
		lanes++
		var err error
		if ls[i], err = patchEnv.NewPatchLane(ctx, kind, set, "patch-"+strconv.Itoa(lanes)); err != nil {
			b.Fatal(err)
		}
	}
	spent := interleave(b, ctx, ls)
	rate := func(i int) float64 { return float64(set.N*b.N) / spent[i].Seconds() }
	for i, kind := range servers {
		b.ReportMetric(rate(i), string(kind)+"-objects/s")
	}
	b.ReportMetric(rate(1)/rate(0), "ply/stock")
	b.ReportMetric(0, "ns/op")
}
