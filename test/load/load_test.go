package load_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/cluster"
	"github.com/plyproject/ply/pkg/parse"
)

const (
	namespace   = "load"
	lastApplied = "kubectl.kubernetes.io/last-applied-configuration"
	// cliEvery: every cliEvery-th round runs the ply binary instead of the
	// library.
	cliEvery = 4
)

var (
	deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	namespacesGVR  = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	names          = []string{"load-0", "load-1", "load-2"}
)

// duration is how long ply and the writers run: $PLY_LOAD_DURATION, or 30s.
func duration() time.Duration {
	GinkgoHelper()
	s := os.Getenv("PLY_LOAD_DURATION")
	if s == "" {
		return 30 * time.Second
	}
	d, err := time.ParseDuration(s)
	Expect(err).NotTo(HaveOccurred(), "PLY_LOAD_DURATION")
	return d
}

// manifest is ply's version v of Deployment name. It owns the labels app
// and ply-version, the annotation ply.example.com/version, the selector,
// the template's app label and container "app" with its image and the env
// vars VERSION and FLAG_<v mod 3> (so every round adds one env var and
// removes another). It leaves replicas, minReadySeconds and
// revisionHistoryLimit to the writers.
func manifest(name string, v int) map[string]any {
	vs := strconv.Itoa(v)
	return map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata": map[string]any{
			"name":        name,
			"labels":      map[string]any{"app": name, "ply-version": vs},
			"annotations": map[string]any{"ply.example.com/version": vs},
		},
		"spec": map[string]any{
			"selector": map[string]any{"matchLabels": map[string]any{"app": name}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": name}},
				"spec": map[string]any{
					"containers": []any{map[string]any{
						"name":  "app",
						"image": "nginx:1." + vs,
						"env": []any{
							map[string]any{"name": "VERSION", "value": vs},
							map[string]any{"name": "FLAG_" + strconv.Itoa(v%3), "value": "on"},
						},
					}},
				},
			},
		},
	}
}

// writer is one client-go writer: it owns one field of every Deployment.
type writer struct {
	name string
	// set writes value n into u's owned field; it returns false when the
	// object is not ready for it (no write is made then).
	set func(u *unstructured.Unstructured, n int64) bool
	// get reads the owned field back (ok false when absent).
	get func(u *unstructured.Unstructured) (any, bool)
	// want is what get must return after set(n).
	want func(n int64) any
}

// container returns the pod template's container called name, or nil.
func container(u *unstructured.Unstructured, name string) map[string]any {
	cs, _, _ := unstructured.NestedSlice(u.Object, "spec", "template", "spec", "containers")
	for _, c := range cs {
		if m, ok := c.(map[string]any); ok && m["name"] == name {
			return m
		}
	}
	return nil
}

// editContainers changes the template's containers in place.
func editContainers(u *unstructured.Unstructured, edit func(cs []any) []any) {
	cs, _, _ := unstructured.NestedSlice(u.Object, "spec", "template", "spec", "containers")
	Expect(unstructured.SetNestedSlice(u.Object, edit(cs), "spec", "template", "spec", "containers")).To(Succeed())
}

// envValue returns the value of env var name in container c.
func envValue(c map[string]any, name string) (string, bool) {
	if c == nil {
		return "", false
	}
	env, _ := c["env"].([]any)
	for _, e := range env {
		if m, ok := e.(map[string]any); ok && m["name"] == name {
			s, ok := m["value"].(string)
			return s, ok
		}
	}
	return "", false
}

func nested(path ...string) func(u *unstructured.Unstructured) (any, bool) {
	return func(u *unstructured.Unstructured) (any, bool) {
		v, ok, _ := unstructured.NestedFieldNoCopy(u.Object, path...)
		return v, ok
	}
}

func setNested(v func(n int64) any, path ...string) func(u *unstructured.Unstructured, n int64) bool {
	return func(u *unstructured.Unstructured, n int64) bool {
		Expect(unstructured.SetNestedField(u.Object, v(n), path...)).To(Succeed())
		return true
	}
}

func str(n int64) any { return "w" + strconv.FormatInt(n, 10) }

// writers are the eight concurrent writers, each owning one field that
// ply's manifests never set.
var writers = []writer{
	{name: "scale", want: func(n int64) any { return n%5 + 1 },
		set: setNested(func(n int64) any { return n%5 + 1 }, "spec", "replicas"), get: nested("spec", "replicas")},
	{name: "label", want: str,
		set: setNested(str, "metadata", "labels", "writer"), get: nested("metadata", "labels", "writer")},
	{name: "annotate", want: str,
		set: setNested(str, "metadata", "annotations", "writer.example.com/note"), get: nested("metadata", "annotations", "writer.example.com/note")},
	{name: "restart", want: str,
		set: setNested(str, "spec", "template", "metadata", "annotations", "writer.example.com/restartedAt"),
		get: nested("spec", "template", "metadata", "annotations", "writer.example.com/restartedAt")},
	{name: "sidecar", want: func(n int64) any { return "busybox:1." + strconv.FormatInt(n, 10) },
		set: func(u *unstructured.Unstructured, n int64) bool {
			image := "busybox:1." + strconv.FormatInt(n, 10)
			editContainers(u, func(cs []any) []any {
				for _, c := range cs {
					if m := c.(map[string]any); m["name"] == "sidecar" {
						m["image"] = image
						return cs
					}
				}
				return append(cs, map[string]any{"name": "sidecar", "image": image, "command": []any{"sleep", "3600"}})
			})
			return true
		},
		get: func(u *unstructured.Unstructured) (any, bool) {
			c := container(u, "sidecar")
			if c == nil {
				return nil, false
			}
			v, ok := c["image"]
			return v, ok
		}},
	{name: "inject-env", want: str,
		set: func(u *unstructured.Unstructured, n int64) bool {
			if container(u, "app") == nil {
				return false
			}
			editContainers(u, func(cs []any) []any {
				for _, c := range cs {
					if m := c.(map[string]any); m["name"] == "app" {
						env, _ := m["env"].([]any)
						for _, e := range env {
							if em := e.(map[string]any); em["name"] == "WRITER_ENV" {
								em["value"] = str(n)
								return cs
							}
						}
						m["env"] = append(env, map[string]any{"name": "WRITER_ENV", "value": str(n)})
					}
				}
				return cs
			})
			return true
		},
		get: func(u *unstructured.Unstructured) (any, bool) {
			s, ok := envValue(container(u, "app"), "WRITER_ENV")
			return s, ok
		}},
	{name: "min-ready", want: func(n int64) any { return n % 100 },
		set: setNested(func(n int64) any { return n % 100 }, "spec", "minReadySeconds"), get: nested("spec", "minReadySeconds")},
	{name: "history", want: func(n int64) any { return n%20 + 1 },
		set: setNested(func(n int64) any { return n%20 + 1 }, "spec", "revisionHistoryLimit"), get: nested("spec", "revisionHistoryLimit")},
}

// writerStats is what one writer did.
type writerStats struct {
	writes, conflicts int
	last              map[string]int64 // deployment -> last value written
}

// runWriter loops over the Deployments until stop is closed, writing
// increasing values with get-modify-update and retrying on conflicts.
func runWriter(w writer, stop <-chan struct{}, seed uint64) (writerStats, error) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, 1))
	st := writerStats{last: map[string]int64{}}
	client := env.dyn.Resource(deploymentsGVR).Namespace(namespace)
	for n := int64(1); ; n++ {
		select {
		case <-stop:
			return st, nil
		default:
		}
		name := names[rng.IntN(len(names))]
		for {
			u, err := client.Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return st, err
			}
			if !w.set(u, n) {
				break
			}
			_, err = client.Update(ctx, u, metav1.UpdateOptions{})
			if apierrors.IsConflict(err) {
				st.conflicts++
				continue
			}
			if err != nil {
				return st, err
			}
			st.writes++
			st.last[name] = n
			break
		}
		time.Sleep(time.Duration(rng.IntN(10)) * time.Millisecond)
	}
}

// plyStats is what ply did.
type plyStats struct {
	rounds, cliRuns, applies, retried, maxAttempts int
}

var _ = Describe("ply apply under concurrent writers", func() {
	It("loses no update and every apply succeeds", func(ctx SpecContext) {
		ns := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": namespace},
		}}
		_, err := env.dyn.Resource(namespacesGVR).Create(ctx, ns, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())

		opts := cluster.Options{
			Namespace:   namespace,
			Overwrite:   true,
			Ordering:    apply.OrderingSeed,
			Workers:     len(names),
			MaxAttempts: 100,
		}
		client, err := cluster.New(env.srv.Config, opts)
		Expect(err).NotTo(HaveOccurred())
		// One library round in three (even versions; every fourth is the
		// CLI's) reads the Deployments with one LIST
		// (a threshold of 1 puts the three in one group), so that the
		// writers race the bulk read as well as the GETs.
		opts.ListThreshold = 1
		lister, err := cluster.New(env.srv.Config, opts)
		Expect(err).NotTo(HaveOccurred())

		var ps plyStats
		version := 0
		applyRound := func() {
			GinkgoHelper()
			version++
			ps.rounds++
			if version%cliEvery == 0 {
				applyCLI(version)
				ps.cliRuns++
				ps.applies += len(names)
				return
			}
			objs := make([]cluster.Object, 0, len(names))
			for _, name := range names {
				b, err := json.Marshal(manifest(name, version))
				Expect(err).NotTo(HaveOccurred())
				v, err := parse.Document(b)
				Expect(err).NotTo(HaveOccurred())
				objs = append(objs, cluster.Object{Value: v, Source: name + "@v" + strconv.Itoa(version)})
			}
			c := client
			if version%2 == 0 {
				c = lister
			}
			for _, o := range c.Apply(ctx, objs) {
				Expect(o.Err).NotTo(HaveOccurred(), "library apply of %s (round %d)", o.Object.Source, version)
				Expect(o.Attempts).To(BeNumerically(">=", 1))
				ps.applies++
				ps.retried += o.Attempts - 1
				ps.maxAttempts = max(ps.maxAttempts, o.Attempts)
			}
		}
		// The writers need the objects to exist.
		applyRound()

		stop := make(chan struct{})
		stats := make([]writerStats, len(writers))
		errs := make([]error, len(writers))
		var wg sync.WaitGroup
		for i, w := range writers {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				stats[i], errs[i] = runWriter(w, stop, uint64(i))
			}()
		}
		deadline := time.Now().Add(duration())
		func() {
			defer func() { close(stop); wg.Wait() }()
			for time.Now().Before(deadline) {
				applyRound()
			}
		}()
		for i, err := range errs {
			Expect(err).NotTo(HaveOccurred(), "writer %s", writers[i].name)
		}
		// One more round once the writers are quiet: an apply that wrote
		// a stale object would now overwrite their last values.
		if version%cliEvery == cliEvery-1 {
			version++ // keep the last round a library one, whose attempts count
		}
		applyRound()

		writes, conflicts := 0, 0
		for i, w := range writers {
			writes += stats[i].writes
			conflicts += stats[i].conflicts
			GinkgoWriter.Printf("writer %-10s writes %5d conflicts %5d\n", w.name, stats[i].writes, stats[i].conflicts)
			Expect(stats[i].writes).To(BeNumerically(">", 0), "writer %s never wrote", w.name)
		}
		report := map[string]int{
			"ply rounds": ps.rounds, "ply CLI runs": ps.cliRuns, "ply applies": ps.applies,
			"ply conflicts retried (library)": ps.retried, "ply max attempts (library)": ps.maxAttempts,
			"writer writes": writes, "writer conflicts": conflicts,
		}
		GinkgoWriter.Printf("load: %v\n", report)
		AddReportEntry("load figures", report)

		// Everything at rest: every writer's last value and ply's last
		// manifest are both in each live object.
		for _, name := range names {
			u, err := env.dyn.Resource(deploymentsGVR).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
			Expect(err).NotTo(HaveOccurred())
			for i, w := range writers {
				n, ok := stats[i].last[name]
				if !ok {
					continue
				}
				got, ok := w.get(u)
				Expect(ok).To(BeTrue(), "%s: writer %s's field is gone (last wrote %v)", name, w.name, w.want(n))
				Expect(got).To(Equal(w.want(n)), "%s: writer %s's last write was lost", name, w.name)
			}
			expectManifest(u, manifest(name, version))
		}
	}, SpecTimeout(10*time.Minute))
})

// applyCLI applies version v with the ply binary.
func applyCLI(v int) {
	GinkgoHelper()
	dir := filepath.Join(env.dir, "manifests", strconv.Itoa(v))
	Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
	for _, name := range names {
		b, err := yaml.Marshal(manifest(name, v))
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(filepath.Join(dir, name+".yaml"), b, 0o644)).To(Succeed())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, env.ply, "apply", "--kubeconfig", env.srv.Kubeconfig, "-n", namespace, "--max-attempts", "100", "-f", dir)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	Expect(cmd.Run()).To(Succeed(), "ply apply (round %d)\nstdout:\n%s\nstderr:\n%s", v, stdout.String(), stderr.String())
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	Expect(lines).To(HaveLen(len(names)), "ply apply prints one line per object:\n%s", stdout.String())
	for _, l := range lines {
		Expect(l).To(Or(HaveSuffix(" configured"), HaveSuffix(" unchanged")), "round %d", v)
	}
}

// expectManifest checks that every field of ply's manifest m is in the
// live object u, that env vars m dropped are gone, and that the
// last-applied annotation is m.
func expectManifest(u *unstructured.Unstructured, m map[string]any) {
	GinkgoHelper()
	name := u.GetName()
	labels := m["metadata"].(map[string]any)["labels"].(map[string]any)
	for k, v := range labels {
		Expect(u.GetLabels()).To(HaveKeyWithValue(k, v), "%s: ply's label", name)
	}
	for k, v := range m["metadata"].(map[string]any)["annotations"].(map[string]any) {
		Expect(u.GetAnnotations()).To(HaveKeyWithValue(k, v), "%s: ply's annotation", name)
	}
	want := m["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
	c := container(u, "app")
	Expect(c).NotTo(BeNil(), "%s: ply's container", name)
	Expect(c["image"]).To(Equal(want["image"]), "%s: ply's image", name)
	for _, e := range want["env"].([]any) {
		em := e.(map[string]any)
		got, ok := envValue(c, em["name"].(string))
		Expect(ok).To(BeTrue(), "%s: ply's env var %s is missing", name, em["name"])
		Expect(got).To(Equal(em["value"]), "%s: env var %s", name, em["name"])
	}
	for i := range 3 {
		flag := "FLAG_" + strconv.Itoa(i)
		_, inManifest := envValue(want, flag)
		_, live := envValue(c, flag)
		Expect(live).To(Equal(inManifest), "%s: env var %s present=%v, ply's manifest says %v", name, flag, live, inManifest)
	}
	var rec map[string]any
	Expect(json.Unmarshal([]byte(u.GetAnnotations()[lastApplied]), &rec)).To(Succeed(), "%s: last-applied annotation", name)
	unstructured.RemoveNestedField(rec, "metadata", "namespace")
	unstructured.RemoveNestedField(rec, "metadata", "annotations", lastApplied)
	Expect(rec).To(Equal(runtimeJSON(m)), "%s: the last-applied annotation is not ply's last manifest", name)
}

// runtimeJSON round-trips m through JSON so its numbers and types compare
// equal to a decoded annotation.
func runtimeJSON(m map[string]any) map[string]any {
	GinkgoHelper()
	b, err := json.Marshal(m)
	Expect(err).NotTo(HaveOccurred())
	var out map[string]any
	Expect(json.Unmarshal(b, &out)).To(Succeed())
	return out
}
