package faults

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/plyproject/ply/test/harness"
)

var configMaps = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

// commandTimeout bounds every ply run: far above what a run takes under
// faults (the retry time is 30s), far below a run that hangs.
const commandTimeout = 150 * time.Second

// names returns cm-FROM ... cm-(TO-1).
func names(from, to int) []string {
	out := make([]string, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, fmt.Sprintf("cm-%03d", i))
	}
	return out
}

// manifest writes a file of one ConfigMap per name with data {gen:
// gen(name)} and returns its path.
func manifest(objs []string, gen func(name string) string) string {
	var sb strings.Builder
	for _, n := range objs {
		fmt.Fprintf(&sb, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\ndata:\n  gen: %q\n", n, gen(n))
	}
	file := filepath.Join(GinkgoT().TempDir(), "manifest.yaml")
	Expect(os.WriteFile(file, []byte(sb.String()), 0o644)).To(Succeed())
	return file
}

// plyApply runs `ply apply` against kubeconfig in ns with file and extra
// flags.
func plyApply(kubeconfig, ns, file string, extra ...string) harness.Result {
	GinkgoHelper()
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	args := append([]string{"apply", "--kubeconfig", kubeconfig, "-n", ns, "-f", file}, extra...)
	r, err := harness.Run(ctx, harness.Cmd{Path: plyBin, Args: args})
	Expect(err).NotTo(HaveOccurred())
	GinkgoWriter.Printf("$ ply %s\nexit code %d after %s, %d stdout lines\n--- stderr:\n%s", strings.Join(args, " "),
		r.ExitCode, r.Duration.Round(time.Millisecond), strings.Count(r.Stdout, "\n"), r.Stderr)
	return r
}

var outputLine = regexp.MustCompile(`^configmap/(cm-\d{3}) (created|configured|unchanged|pruned)$`)

// reported returns what ply's output reports per ConfigMap; other lines
// fail the spec.
func reported(r harness.Result) map[string]string {
	GinkgoHelper()
	out := map[string]string{}
	for _, l := range strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n") {
		if l == "" {
			continue
		}
		m := outputLine.FindStringSubmatch(l)
		Expect(m).NotTo(BeNil(), "unexpected output line %q", l)
		Expect(out).NotTo(HaveKey(m[1]), "%s reported twice", m[1])
		out[m[1]] = m[2]
	}
	return out
}

// state is what the server holds of one ConfigMap: its UID, data.gen and
// last-applied annotation (what ply writes), and its writer label.
type state struct {
	uid, gen, recorded, writer string
}

// describe renders s for a mismatch (exists says whether there is one).
func (s state) describe(exists bool) string {
	if !exists {
		return "absent"
	}
	return fmt.Sprintf("uid %s gen %q recording %d bytes", s.uid, s.gen, len(s.recorded))
}

// snapshot reads the ConfigMaps of ns, by name.
func snapshot(ns string) map[string]state {
	GinkgoHelper()
	list, err := srv.Dynamic().Resource(configMaps).Namespace(ns).List(context.Background(), metav1.ListOptions{})
	Expect(err).NotTo(HaveOccurred())
	out := map[string]state{}
	for _, cm := range list.Items {
		data, _ := cm.Object["data"].(map[string]any)
		gen, _ := data["gen"].(string)
		out[cm.GetName()] = state{uid: string(cm.GetUID()), gen: gen,
			recorded: cm.GetAnnotations()["kubectl.kubernetes.io/last-applied-configuration"], writer: cm.GetLabels()["writer"]}
	}
	return out
}

// sent returns, per ConfigMap of ns, the methods of the requests among ex
// the proxy forwarded to the server (whatever it answered, or whether the
// answer reached ply: a server killed while it writes may store the write
// and answer nothing).
func sent(ex []harness.Exchange, ns string) map[string]map[string]bool {
	prefix := "/api/v1/namespaces/" + ns + "/configmaps"
	out := map[string]map[string]bool{}
	for _, e := range ex {
		if !strings.HasPrefix(e.Path, prefix) || !e.Fault.Forwarded() {
			continue
		}
		if out[e.Name] == nil {
			out[e.Name] = map[string]bool{}
		}
		out[e.Name][e.Method] = true
	}
	return out
}

// mismatches lists the objects whose reported outcome the server's states
// before and after the run contradict, or that ply reports written without
// having sent the write: created (absent before, present after, a create
// sent), configured (the same object, its data or recorded configuration
// changed, an update sent), unchanged (the same object, data and recorded
// configuration), pruned (present before, gone after, a delete sent).
func mismatches(rep map[string]string, before, after map[string]state, sent map[string]map[string]bool) []string {
	var out []string
	for name, action := range rep {
		b, had := before[name]
		a, has := after[name]
		same := had && has && a.uid == b.uid
		ok := false
		switch action {
		case "created":
			ok = !had && has && sent[name][http.MethodPost]
		case "configured":
			ok = same && (a.gen != b.gen || a.recorded != b.recorded) && sent[name][http.MethodPut]
		case "unchanged":
			ok = same && a.gen == b.gen && a.recorded == b.recorded
		case "pruned":
			ok = had && !has && sent[name][http.MethodDelete]
		}
		if !ok {
			out = append(out, fmt.Sprintf("%s reported %s: before %s, after %s, sent %v", name, action, b.describe(had), a.describe(has), keys(sent[name])))
		}
	}
	sort.Strings(out)
	return out
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// lostObjects lists the objects of want (name → gen) that the server does
// not hold with their data, and those of gone that it still holds.
func lostObjects(ns string, want map[string]string, gone []string) []string {
	GinkgoHelper()
	list, err := srv.Dynamic().Resource(configMaps).Namespace(ns).List(context.Background(), metav1.ListOptions{})
	Expect(err).NotTo(HaveOccurred())
	live := map[string]string{}
	for _, cm := range list.Items {
		data, _ := cm.Object["data"].(map[string]any)
		gen, _ := data["gen"].(string)
		live[cm.GetName()] = gen
	}
	var out []string
	for name, gen := range want {
		if got, ok := live[name]; !ok || got != gen {
			out = append(out, fmt.Sprintf("%s: want gen %q, the server holds %q (exists: %v)", name, gen, got, ok))
		}
	}
	for _, name := range gone {
		if _, ok := live[name]; ok {
			out = append(out, name+": pruned, but still there")
		}
	}
	sort.Strings(out)
	return out
}

// faultCounts counts the faults of ex by name.
func faultCounts(ex []harness.Exchange) (int, map[string]int) {
	n, by := 0, map[string]int{}
	for _, e := range ex {
		if e.Fault != harness.NoFault {
			n++
			by[e.Fault.String()]++
		}
	}
	return n, by
}

// randomFaults returns a plan that gives each request a fault with
// probability rate, drawn evenly from harness.Faults, from a source seeded
// with seed; stalls last stall.
func randomFaults(seed uint64, rate float64, stall time.Duration) *harness.FaultPlan {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	return &harness.FaultPlan{
		Stall: stall,
		Choose: func(*http.Request) harness.Fault {
			if rng.Float64() >= rate {
				return harness.NoFault
			}
			return harness.Faults[rng.IntN(len(harness.Faults))]
		},
	}
}

// writer is a concurrent writer: it labels random objects of its names
// directly on the server (not through the proxy) with a read-update loop,
// retrying its own conflicts, and remembers the last value it wrote to
// each.
type writer struct {
	ns    string
	names []string
	rng   *rand.Rand

	mu     sync.Mutex
	last   map[string]string
	writes int

	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{}
}

// startWriter starts a writer on names of ns.
func startWriter(ns string, objs []string, seed uint64) *writer {
	w := &writer{ns: ns, names: objs, rng: rand.New(rand.NewPCG(seed, seed)), last: map[string]string{},
		stop: make(chan struct{}), done: make(chan struct{})}
	go w.run()
	// A spec that fails before finish still stops its writer, so that it
	// never writes into the next spec's server restarts.
	DeferCleanup(func() {
		w.stopOnce.Do(func() { close(w.stop) })
		<-w.done
	})
	return w
}

func (w *writer) run() {
	defer GinkgoRecover()
	defer close(w.done)
	ri := srv.Dynamic().Resource(configMaps).Namespace(w.ns)
	ctx := context.Background()
	for n := 1; ; n++ {
		select {
		case <-w.stop:
			return
		case <-time.After(5 * time.Millisecond):
		}
		name := w.names[w.rng.IntN(len(w.names))]
		w.write(ctx, ri, name, strconv.Itoa(n))
	}
}

// write labels object name with val, repeating the read and the update after a conflict, and after any other failure
// (the server restarting): a repeat of a stored update writes the same label again, so the value the writer last
// confirmed is the one the server must hold. Stopped while the server fails, the object's last value is unknown, and
// it is left out of the check.
func (w *writer) write(ctx context.Context, ri dynamic.ResourceInterface, name, val string) {
	for {
		u, err := ri.Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return // not created yet
		}
		if err == nil {
			labels := u.GetLabels()
			if labels == nil {
				labels = map[string]string{}
			}
			labels["writer"] = val
			u.SetLabels(labels)
			_, err = ri.Update(ctx, u, metav1.UpdateOptions{FieldManager: "concurrent-writer"})
		}
		switch {
		case err == nil:
			w.mu.Lock()
			w.last[name] = val
			w.writes++
			w.mu.Unlock()
			return
		case apierrors.IsConflict(err):
			continue
		}
		select {
		case <-w.stop:
			w.mu.Lock()
			delete(w.last, name)
			w.mu.Unlock()
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// finish stops the writer and returns its writes and the labels it wrote
// last that the server no longer holds.
func (w *writer) finish() (writes int, lost []string) {
	GinkgoHelper()
	w.stopOnce.Do(func() { close(w.stop) })
	<-w.done
	ri := srv.Dynamic().Resource(configMaps).Namespace(w.ns)
	for name, val := range w.last {
		u, err := ri.Get(context.Background(), name, metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		if got := u.GetLabels()["writer"]; got != val {
			lost = append(lost, fmt.Sprintf("%s: writer=%s written, the server holds %q", name, val, got))
		}
	}
	return w.writes, lost
}

// figures accumulates the figures of a spec's runs and prints them.
type figures struct {
	runs, objects, reported, mismatches, failed, lost int
	requests, faults                                  int
	writerWrites, writerLost                          int
	byFault                                           map[string]int
	restarts                                          []string
}

// add adds one run.
func (f *figures) add(objects int, rep map[string]string, mism, lost []string, ex []harness.Exchange) {
	f.runs++
	f.objects += objects
	f.reported += len(rep)
	f.failed += objects - len(rep)
	f.mismatches += len(mism)
	f.lost += len(lost)
	n, by := faultCounts(ex)
	f.faults += n
	f.requests += len(ex)
	if f.byFault == nil {
		f.byFault = map[string]int{}
	}
	for k, v := range by {
		f.byFault[k] += v
	}
}

// String renders the figures as docs/cluster.md quotes them.
func (f *figures) String() string {
	var by []string
	for k, v := range f.byFault {
		by = append(by, k+" "+strconv.Itoa(v))
	}
	sort.Strings(by)
	share := 0.0
	if f.objects > 0 {
		share = 100 * float64(f.failed) / float64(f.objects)
	}
	s := fmt.Sprintf("runs %d, objects %d, reported %d, mismatches %d, lost %d, failed %d (%.1f %%), requests %d, faults injected %d",
		f.runs, f.objects, f.reported, f.mismatches, f.lost, f.failed, share, f.requests, f.faults)
	if len(by) > 0 {
		s += " (" + strings.Join(by, ", ") + ")"
	}
	if len(f.restarts) > 0 {
		s += ", restarts: " + strings.Join(f.restarts, ", ")
	}
	if f.writerWrites > 0 {
		s += fmt.Sprintf(", concurrent writer: %d writes, %d lost", f.writerWrites, f.writerLost)
	}
	return s
}

// print reports the figures with the spec, visibly.
func (f *figures) print(title string) {
	AddReportEntry(title, f.String(), ReportEntryVisibilityAlways)
	fmt.Fprintf(GinkgoWriter, "%s: %s\n", title, f)
}
