package clusterbench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/cluster"
	"github.com/plyproject/ply/test/harness"
)

// Objects is the size of the benchmark's set: half ConfigMaps, half
// Deployments.
const Objects = 1000

// perFile is the number of documents in each generated manifest file.
const perFile = 50

// Tool names a way of applying the set.
type Tool string

// The tools the benchmark compares.
const (
	// Ply applies with pkg/cluster's Client.Apply (its worker pool) in
	// the benchmark's process.
	Ply Tool = "ply"
	// PlyCLI runs the `ply apply -f DIR` binary.
	PlyCLI Tool = "ply-cli"
	// PlySSA is Ply in the server-side lane (Options.Lane
	// LaneServerSide, ForceConflicts, as KubectlSSA).
	PlySSA Tool = "ply-ssa"
	// PlyCLISSA runs `ply apply --server-side --force-conflicts -f DIR`.
	PlyCLISSA Tool = "ply-cli-ssa"
	// Kubectl runs kubectl 1.32's `kubectl apply -f DIR`.
	Kubectl Tool = "kubectl"
	// KubectlSSA runs kubectl 1.32's `kubectl apply --server-side
	// --force-conflicts -f DIR`.
	KubectlSSA Tool = "kubectl-ssa"
	// GetPut is the ceiling of object-by-object clients: a bare client-go
	// loop (typed clients, JSON) making only a GET and a PUT per object,
	// with ply's worker count (Env.getPut).
	GetPut Tool = "getput"
	// GetPutProto is GetPut with the protobuf wire format.
	GetPutProto Tool = "getput-proto"
)

// Tools lists every Tool, in the order the benchmark and the command run
// them: ply and the loops it is compared with first, the slow kubectl
// runs last.
var Tools = []Tool{Ply, PlySSA, GetPut, GetPutProto, PlyCLI, PlyCLISSA, KubectlSSA, Kubectl}

// Slow reports whether t is one of the kubectl tools, which take minutes
// for 1,000 objects.
func (t Tool) Slow() bool { return t == Kubectl || t == KubectlSSA }

// ServerSide reports whether t applies with server-side apply (its lane is
// seeded server-side, under the manager kubectl, so that no run measures
// the hand-over from client-side apply).
func (t Tool) ServerSide() bool { return t == PlySSA || t == PlyCLISSA || t == KubectlSSA }

// pad4 renders i with at least four digits, so that names sort in
// creation order.
func pad4(i int) string {
	s := strconv.Itoa(i)
	for len(s) < 4 {
		s = "0" + s
	}
	return s
}

// Manifests returns version version of a set of n objects: n/2 ConfigMaps
// cm-NNNN and n-n/2 Deployments deploy-NNNN. Every object differs between
// any two versions (a ConfigMap's "version" value; a Deployment's image
// tag, its VERSION env var and a label), so applying another version
// writes every object. Names do not depend on the version.
func Manifests(n, version int) []map[string]any {
	v := strconv.Itoa(version)
	out := make([]map[string]any, 0, n)
	for i := range n / 2 {
		out = append(out, map[string]any{
			"apiVersion": "v1",
			"kind":       "ConfigMap",
			"metadata":   map[string]any{"name": "cm-" + pad4(i), "labels": map[string]any{"bench": "clusterbench"}},
			"data": map[string]any{
				"version": v,
				"index":   strconv.Itoa(i),
				"config":  "listen: 8080\nworkers: 4\nlog: info\n",
			},
		})
	}
	for i := range n - n/2 {
		name := "deploy-" + pad4(i)
		out = append(out, benchDeployment(name, v, map[string]any{
			"name":  "app",
			"image": "nginx:1." + v,
			"ports": []any{
				map[string]any{"name": "http", "containerPort": 8080},
				map[string]any{"name": "metrics", "containerPort": 9090},
			},
			"env": []any{
				map[string]any{"name": "VERSION", "value": v},
				map[string]any{"name": "INDEX", "value": strconv.Itoa(i)},
				map[string]any{"name": "MODE", "value": "bench"},
			},
			"resources": map[string]any{
				"requests": map[string]any{"cpu": "10m", "memory": "16Mi"},
			},
		}))
	}
	return out
}

// benchDeployment is the Deployment name of the bench set at version v,
// its one container given.
func benchDeployment(name, v string, container map[string]any) map[string]any {
	return map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata":   map[string]any{"name": name, "labels": map[string]any{"bench": "clusterbench", "version": v}},
		"spec": map[string]any{
			"replicas": 1,
			"selector": map[string]any{"matchLabels": map[string]any{"app": name}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": name}},
				"spec":     map[string]any{"containers": []any{container}},
			},
		},
	}
}

// WriteDir writes Manifests(n, version) into dir (created when missing) as
// YAML files of up to 50 documents each.
func WriteDir(dir string, n, version int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	objs := Manifests(n, version)
	for start := 0; start < len(objs); start += perFile {
		var buf bytes.Buffer
		for _, o := range objs[start:min(start+perFile, len(objs))] {
			b, err := yaml.Marshal(o)
			if err != nil {
				return err
			}
			buf.WriteString("---\n")
			buf.Write(b)
		}
		name := filepath.Join(dir, "objects-"+pad4(start/perFile)+".yaml")
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Env is a running API server with the two tools, and the directories
// holding the two versions of the set.
type Env struct {
	// Server is the API server the objects are applied to.
	Server *harness.Server
	// KubectlBin and PlyBin are the tools' binaries.
	KubectlBin, PlyBin string
	// Dirs[v] holds version v of the set (v = 1, 2; Dirs[0] is unused).
	Dirs [3]string
	// N is the number of objects in the set.
	N int
	// Workers is the library's Options.Workers (0: its default); the CLI
	// gets it as --workers when positive.
	Workers int
	// ListThreshold is the library's Options.ListThreshold (0: its
	// default; -1: a GET per object), set from $PLY_BENCH_LIST_THRESHOLD
	// by Setup.
	ListThreshold int
	// Profiling is true when kube-apiserver serves /debug/pprof (its
	// --profiling), set from $PLY_BENCH_APISERVER_PROFILING (any
	// non-empty value) by Setup: `kubectl --kubeconfig Server.Kubeconfig
	// get --raw '/debug/pprof/profile?seconds=20'` reads a CPU profile of
	// the server while a run goes on.
	Profiling bool

	dir string
	dyn dynamic.Interface
	// typedClients are the loop's clients, JSON and protobuf;
	// typedSets[v] is version v of the set as typed objects.
	typedClients [2]kubernetes.Interface
	typedSets    [3]*typedSet
}

// Setup prepares the harness (building the API server when missing),
// starts a server, finds kubectl 1.32, builds ply (unless $PLY_BIN names a
// ply binary) and writes both versions
// of an n-object set under a temporary directory. log receives the
// harness's progress lines. Close releases everything.
func Setup(n, workers int, log io.Writer) (*Env, error) {
	if n < 2 {
		return nil, errors.New("clusterbench: the set needs at least 2 objects")
	}
	if err := harness.Prepare(); err != nil {
		return nil, err
	}
	kubectl, err := harness.Kubectl()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "ply-clusterbench-")
	if err != nil {
		return nil, err
	}
	e := &Env{KubectlBin: kubectl, N: n, Workers: workers, dir: dir}
	if s := os.Getenv("PLY_BENCH_LIST_THRESHOLD"); s != "" {
		if e.ListThreshold, err = strconv.Atoi(s); err != nil {
			e.Close()
			return nil, fmt.Errorf("clusterbench: $PLY_BENCH_LIST_THRESHOLD: %w", err)
		}
	}
	// $PLY_BIN names a ply binary built beforehand; else it is built.
	if e.PlyBin = os.Getenv("PLY_BIN"); e.PlyBin == "" {
		if e.PlyBin, _, err = harness.BuildPly(filepath.Join(dir, "bin")); err != nil {
			e.Close()
			return nil, err
		}
	}
	for v := 1; v <= 2; v++ {
		e.Dirs[v] = filepath.Join(dir, "v"+strconv.Itoa(v))
		if err := WriteDir(e.Dirs[v], n, v); err != nil {
			e.Close()
			return nil, err
		}
		if e.typedSets[v], err = typed(n, v); err != nil {
			e.Close()
			return nil, err
		}
	}
	opts := harness.Options{Name: "clusterbench", Log: log}
	if e.Profiling = os.Getenv("PLY_BENCH_APISERVER_PROFILING") != ""; e.Profiling {
		opts.ExtraAPIServerFlags = []string{"--profiling=true"}
	}
	if e.Server, err = harness.Start(opts); err != nil {
		e.Close()
		return nil, err
	}
	if e.dyn, err = dynamic.NewForConfig(e.Server.Config); err != nil {
		e.Close()
		return nil, err
	}
	for i, proto := range []bool{false, true} {
		if e.typedClients[i], err = e.clientset(proto); err != nil {
			e.Close()
			return nil, err
		}
	}
	return e, nil
}

// Close stops the server and removes the temporary directory.
func (e *Env) Close() error {
	var err error
	if e.Server != nil {
		err = e.Server.Stop()
	}
	return errors.Join(err, os.RemoveAll(e.dir))
}

var namespaces = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}

// CreateNamespace creates namespace ns.
func (e *Env) CreateNamespace(ctx context.Context, ns string) error {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns},
	}}
	_, err := e.dyn.Resource(namespaces).Create(ctx, u, metav1.CreateOptions{})
	return err
}

// Apply applies version v (1 or 2) of the set to namespace ns with tool t
// and checks that every object was created or configured (every apply of
// the benchmark writes). The error names the tool and carries its output.
func (e *Env) Apply(ctx context.Context, t Tool, ns string, v int) error {
	_, err := e.apply(ctx, t, ns, v)
	return err
}

// apply is Apply, returning the CPU time of the tool's process when it
// runs one (the binaries); zero for the tools run in this process.
func (e *Env) apply(ctx context.Context, t Tool, ns string, v int) (time.Duration, error) {
	if v != 1 && v != 2 {
		return 0, fmt.Errorf("clusterbench: version %d: want 1 or 2", v)
	}
	dir := e.Dirs[v]
	switch t {
	case Ply:
		return 0, e.applyLibrary(ctx, ns, dir, cluster.LaneClientSide)
	case PlySSA:
		return 0, e.applyLibrary(ctx, ns, dir, cluster.LaneServerSide)
	case PlyCLI, PlyCLISSA:
		args := []string{"apply", "--kubeconfig", e.Server.Kubeconfig, "-n", ns, "-f", dir}
		if t == PlyCLISSA {
			args = append(args, "--server-side", "--force-conflicts")
		}
		if e.Workers > 0 {
			args = append(args, "--workers", strconv.Itoa(e.Workers))
		}
		return e.run(ctx, t, e.PlyBin, args)
	case Kubectl:
		return e.run(ctx, t, e.KubectlBin, []string{"apply", "--kubeconfig", e.Server.Kubeconfig, "-n", ns, "-f", dir})
	case KubectlSSA:
		return e.run(ctx, t, e.KubectlBin, []string{"apply", "--server-side", "--force-conflicts", "--kubeconfig", e.Server.Kubeconfig, "-n", ns, "-f", dir})
	case GetPut, GetPutProto:
		return 0, e.getPut(ctx, ns, v, t == GetPutProto)
	}
	return 0, fmt.Errorf("clusterbench: unknown tool %q", t)
}

// applyLibrary reads dir and applies it with pkg/cluster in lane.
func (e *Env) applyLibrary(ctx context.Context, ns, dir string, lane cluster.Lane) error {
	objs, err := cluster.ReadObjects([]string{dir}, false, nil)
	if err != nil {
		return err
	}
	c, err := cluster.New(e.Server.Config, cluster.Options{
		Namespace: ns, Overwrite: true, Ordering: apply.OrderingSeed, Workers: e.Workers, ListThreshold: e.ListThreshold,
		Lane: lane, ForceConflicts: lane == cluster.LaneServerSide,
	})
	if err != nil {
		return err
	}
	outcomes := c.Apply(ctx, objs)
	if len(outcomes) != e.N {
		return fmt.Errorf("clusterbench: ply applied %d objects, want %d", len(outcomes), e.N)
	}
	for _, o := range outcomes {
		if o.Err != nil {
			return fmt.Errorf("clusterbench: ply: %s: %w", o.Ref, o.Err)
		}
		if o.Action != cluster.Created && o.Action != cluster.Configured && o.Action != cluster.ServerSideApplied {
			return fmt.Errorf("clusterbench: ply: %s %s, want created, configured or serverside-applied", o.Ref, o.Action)
		}
	}
	return nil
}

// run executes a tool's binary and checks its report: one line per object,
// each "created", "configured" or (server-side apply) "serverside-applied".
// It returns the CPU time (user and system) the process used.
func (e *Env) run(ctx context.Context, t Tool, bin string, args []string) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("clusterbench: %s %s: %w\nstderr:\n%s", t, strings.Join(args, " "), err, lastLines(stderr.String(), 20))
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	written := 0
	for _, l := range strings.Split(stdout.String(), "\n") {
		if strings.HasSuffix(l, " created") || strings.HasSuffix(l, " configured") || strings.HasSuffix(l, " serverside-applied") {
			written++
		}
	}
	if written != e.N {
		return cpu, fmt.Errorf("clusterbench: %s reported %d objects created or configured, want %d\nstdout:\n%s", t, written, e.N, lastLines(stdout.String(), 20))
	}
	return cpu, nil
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Lane is one tool's namespace: Seed fills it with version 1 (with the
// library, not measured), then each Next applies the other version.
type Lane struct {
	env  *Env
	tool Tool
	ns   string
	v    int
}

// NewLane creates namespace ns and seeds it with version 1 of the set.
func (e *Env) NewLane(ctx context.Context, t Tool, ns string) (*Lane, error) {
	if err := e.CreateNamespace(ctx, ns); err != nil {
		return nil, err
	}
	lane := cluster.LaneClientSide
	if t.ServerSide() {
		lane = cluster.LaneServerSide
	}
	if err := e.applyLibrary(ctx, ns, e.Dirs[1], lane); err != nil {
		return nil, err
	}
	return &Lane{env: e, tool: t, ns: ns, v: 1}, nil
}

// Next applies the version the lane's namespace does not hold, so every
// object is written, and returns how long the apply took.
func (l *Lane) Next(ctx context.Context) (time.Duration, error) {
	s, err := l.Measure(ctx)
	return s.Wall, err
}

// Sample is what one apply of the set took.
type Sample struct {
	// Wall is the time from start to end.
	Wall time.Duration
	// Client is the CPU time (user and system) of the tool: of its process
	// for the binaries, of this process for the library and the loops.
	Client time.Duration
	// APIServer and Etcd are the CPU times the server's two processes used
	// meanwhile (on a shared machine, with whatever else reached them).
	APIServer, Etcd time.Duration
}

// Measure is Next, with the CPU times of the client and of the server.
func (l *Lane) Measure(ctx context.Context) (Sample, error) {
	l.v = 3 - l.v
	api0, etcd0, err := l.env.Server.CPU()
	if err != nil {
		return Sample{}, err
	}
	self0 := selfCPU()
	start := time.Now()
	child, err := l.env.apply(ctx, l.tool, l.ns, l.v)
	s := Sample{Wall: time.Since(start), Client: child}
	if err != nil {
		return s, err
	}
	if child == 0 {
		s.Client = selfCPU() - self0
	}
	api1, etcd1, err := l.env.Server.CPU()
	s.APIServer, s.Etcd = api1-api0, etcd1-etcd0
	return s, err
}

// selfCPU is the CPU time (user and system) this process has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
