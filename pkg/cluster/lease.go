package cluster

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"strconv"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// One run at a time per ApplySet. A run that prunes an ApplySet holds a
// coordination.k8s.io/v1 Lease on it from before it reads the parent
// until after its last write of the parent, so that the prune of one run
// never sees the set half-way through another run. What holds:
//
//   - the Lease lives beside the parent: in its namespace, or in
//     LeaseNamespaceClusterScoped for a cluster-scoped parent; its name is
//     LeaseName(id). It carries none of the ApplySet labels (it is never a
//     member);
//   - its holder (spec.holderIdentity, see Lock.Identity) renews it every
//     third of its duration; another run takes it when it has no holder,
//     or when it has not changed for its spec.leaseDurationSeconds since
//     that run first saw it (a holder that was killed), so a dead holder
//     blocks others for at most that long (the waiting run reads the
//     Lease again when the record it saw expires);
//   - every write of the Lease carries the resourceVersion read, so two
//     runs never both take it;
//   - a run that cannot renew it for its whole duration (or finds another
//     holder) has lost it and prunes nothing.
//
// The Lease is written with the dynamic client: client-go's leader
// election (tools/leaderelection/resourcelock) links the typed clientset,
// whose initialisation every ply command would pay for (cmd/ply's
// start-up spec refuses it). The algorithm is the same: optimistic
// updates of holderIdentity and renewTime, expiry judged by the local
// time at which the record was last seen to change, so clocks need not
// agree.

// Defaults of Lock.
const (
	DefaultLeaseDuration = 15 * time.Second
	DefaultLockTimeout   = 5 * time.Minute
)

// LeaseNamespaceClusterScoped is the namespace of the Lease of an ApplySet
// whose parent is cluster-scoped: kube-system, where the cluster's own
// components keep their leases.
const LeaseNamespaceClusterScoped = "kube-system"

// LeaseApplySetAnnotation, on an ApplySet's Lease, names its parent
// (`secret "app" in namespace "ns"`), for people reading the Lease.
const LeaseApplySetAnnotation = "ply.dev/applyset-parent"

var leaseResource = schema.GroupVersionResource{Group: "coordination.k8s.io", Version: "v1", Resource: "leases"}

// Lock configures the Lease a pruning run holds on its ApplySet.
type Lock struct {
	// Duration is how long the Lease lasts without renewal (a killed run
	// blocks the next one at most that long); zero means
	// DefaultLeaseDuration. Whole seconds, at least one.
	Duration time.Duration
	// Timeout is how long to wait while another run holds the Lease;
	// zero means DefaultLockTimeout, a negative value not to wait.
	Timeout time.Duration
	// Identity is the holder identity written; empty means
	// DefaultIdentity().
	Identity string
}

// DefaultIdentity returns a holder identity unique to this process and
// call: "<hostname>_<pid>_<8 random hex digits>".
func DefaultIdentity() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown-host"
	}
	var b [4]byte
	rand.Read(b[:])
	return host + "_" + strconv.Itoa(os.Getpid()) + "_" + hex.EncodeToString(b[:])
}

// LeaseName returns the name of the Lease of the ApplySet whose id is id:
// "ply-applyset-" and 32 hex digits of the SHA-256 of the id (the id's
// base64 is not a valid object name).
func LeaseName(id string) string {
	sum := sha256.Sum256([]byte(id))
	return "ply-applyset-" + hex.EncodeToString(sum[:16])
}

// LockTimeoutError is the error of a run that waited Lock.Timeout for the
// Lease another run held: nothing was written.
type LockTimeoutError struct {
	Set, Holder, Lease string
	Timeout            time.Duration
}

func (e *LockTimeoutError) Error() string {
	return "timed out after " + e.Timeout.String() + " waiting for the lease on the " + e.Set + ", held by " + strconv.Quote(e.Holder) +
		" (Lease " + e.Lease + "): another run is applying this set; nothing was written (retry, or wait longer with --lock-timeout)"
}

// setLease is a Lease this run holds; release gives it up.
type setLease struct {
	ri dynamic.ResourceInterface
	// retry repeats a request while it fails transiently, each call with
	// retries of its own (Client.retrier: the retry time runs from that
	// operation's first failure, and the renewals and the run's reads call
	// it concurrently): a repeated create meets AlreadyExists and a repeated
	// update 409, after which acquire reads the Lease again, so a lost
	// answer is safe.
	retry    func(context.Context, func(context.Context) error) error
	name     string
	identity string
	duration time.Duration

	mu        sync.Mutex
	validTill time.Time // the local time until which the Lease is ours
	lost      string    // why it was lost ("" while held)
	stop      chan struct{}
	done      chan struct{}
}

// leaseRecord is what a waiting run watches of another run's Lease.
type leaseRecord struct {
	holder, renewed, resourceVersion string
	seconds                          int64
}

// lock takes the Lease of set, waiting while another run holds it (each
// new holder is told to notify), and renews it until release.
func (c *Client) lock(ctx context.Context, set *applySet, opts Lock, notify func(string)) (*setLease, error) {
	if opts.Duration <= 0 {
		opts.Duration = DefaultLeaseDuration
	}
	opts.Duration = max(opts.Duration.Truncate(time.Second), time.Second)
	if opts.Timeout == 0 {
		opts.Timeout = DefaultLockTimeout
	}
	if opts.Identity == "" {
		opts.Identity = DefaultIdentity()
	}
	ns := set.parent.Namespace
	if ns == "" {
		ns = LeaseNamespaceClusterScoped
	}
	l := c.newSetLease(ns, LeaseName(set.id), opts.Identity, opts.Duration)
	if err := l.acquire(ctx, set.String(), ns, opts.Timeout, notify); err != nil {
		return nil, err
	}
	l.stop, l.done = make(chan struct{}), make(chan struct{})
	go l.renewLoop()
	return l, nil
}

// newSetLease is the Lease name in namespace ns, for identity, not yet
// taken. Each of its requests is retried with retries of its own.
func (c *Client) newSetLease(ns, name, identity string, duration time.Duration) *setLease {
	retry := func(ctx context.Context, op func(context.Context) error) error { return c.retrier().do(ctx, op) }
	return &setLease{ri: c.dyn.Resource(leaseResource).Namespace(ns), retry: retry, name: name, identity: identity, duration: duration}
}

// retryPeriod is how often a waiting run reads the Lease again.
func (l *setLease) retryPeriod() time.Duration {
	return min(2*time.Second, l.duration/4)
}

// acquire takes the Lease (see lock); timeout < 0 means not to wait.
func (l *setLease) acquire(ctx context.Context, set, ns string, timeout time.Duration, notify func(string)) error {
	start := time.Now()
	var seen leaseRecord
	var seenAt time.Time
	told := ""
	for {
		sent := time.Now()
		cur, err := l.get(ctx)
		switch {
		case apierrors.IsNotFound(err):
			err = l.create(ctx, set, sent)
			if err == nil || !apierrors.IsAlreadyExists(err) {
				return l.failed(err, set)
			}
			continue
		case err != nil:
			return errors.New("cannot read the lease of the " + set + ": " + err.Error())
		}
		rec := recordOf(cur)
		if rec != seen {
			seen, seenAt = rec, time.Now()
		}
		if rec.holder == "" || rec.holder == l.identity || time.Since(seenAt) > time.Duration(rec.seconds)*time.Second {
			err := l.take(ctx, cur, sent)
			if err == nil || !apierrors.IsConflict(err) {
				return l.failed(err, set)
			}
			continue
		}
		if rec.holder != told && notify != nil {
			notify("waiting for the lease on the " + set + " held by " + strconv.Quote(rec.holder) + " (Lease " + ns + "/" + l.name +
				"; it expires " + strconv.FormatInt(rec.seconds, 10) + "s after its holder's last renewal)")
			told = rec.holder
		}
		if timeout < 0 || time.Since(start) >= timeout {
			return &LockTimeoutError{Set: set, Holder: rec.holder, Lease: ns + "/" + l.name, Timeout: max(timeout, 0)}
		}
		// Read again after a retry period, or just after the record
		// expires or the timeout passes, whichever comes first.
		expires := time.Until(seenAt.Add(time.Duration(rec.seconds)*time.Second)) + 10*time.Millisecond
		if err := sleepCtx(ctx, min(l.retryPeriod(), expires, time.Until(start.Add(timeout))+time.Millisecond)); err != nil {
			return errors.New("waiting for the lease on the " + set + ": " + err.Error())
		}
	}
}

// failed returns nil for a nil err, else err worded as a failure to take
// the Lease of set.
func (l *setLease) failed(err error, set string) error {
	if err == nil {
		return nil
	}
	return errors.New("cannot take the lease on the " + set + ": " + err.Error())
}

// recordOf reads the fields of a Lease a waiting run watches.
func recordOf(u *unstructured.Unstructured) leaseRecord {
	holder, _, _ := unstructured.NestedString(u.Object, "spec", "holderIdentity")
	renewed, _, _ := unstructured.NestedString(u.Object, "spec", "renewTime")
	seconds, _, _ := unstructured.NestedInt64(u.Object, "spec", "leaseDurationSeconds")
	return leaseRecord{holder: holder, renewed: renewed, resourceVersion: u.GetResourceVersion(), seconds: seconds}
}

// create creates the Lease held by l; sent is when the request left.
func (l *setLease) create(ctx context.Context, set string, sent time.Time) error {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
		"metadata": map[string]any{"name": l.name, "annotations": map[string]any{LeaseApplySetAnnotation: set}},
		"spec":     l.spec(0),
	}}
	if err := l.retry(ctx, func(ctx context.Context) error {
		_, err := l.ri.Create(ctx, u, metav1.CreateOptions{})
		return err
	}); err != nil {
		return err
	}
	l.held(sent)
	return nil
}

// take writes l as the holder of cur (with cur's resourceVersion).
func (l *setLease) take(ctx context.Context, cur *unstructured.Unstructured, sent time.Time) error {
	transitions, _, _ := unstructured.NestedInt64(cur.Object, "spec", "leaseTransitions")
	if holder, _, _ := unstructured.NestedString(cur.Object, "spec", "holderIdentity"); holder != l.identity {
		transitions++
	}
	cur.Object["spec"] = l.spec(transitions)
	if err := l.retry(ctx, func(ctx context.Context) error {
		_, err := l.ri.Update(ctx, cur, metav1.UpdateOptions{})
		return err
	}); err != nil {
		return err
	}
	l.held(sent)
	return nil
}

// spec is the Lease's spec with l as holder, acquired and renewed now.
func (l *setLease) spec(transitions int64) map[string]any {
	now := metav1.NewMicroTime(time.Now()).UTC().Format(metav1.RFC3339Micro)
	return map[string]any{
		"holderIdentity":       l.identity,
		"leaseDurationSeconds": int64(l.duration / time.Second),
		"acquireTime":          now,
		"renewTime":            now,
		"leaseTransitions":     transitions,
	}
}

// held records a successful write sent at sent: the Lease is ours for its
// duration from then.
func (l *setLease) held(sent time.Time) {
	l.mu.Lock()
	l.validTill = sent.Add(l.duration)
	l.mu.Unlock()
}

// renewLoop renews the Lease every third of its duration until release,
// or until it is lost.
func (l *setLease) renewLoop() {
	defer close(l.done)
	// Renewed every retry period (a few a lease's duration), so that the
	// requests of one renewal failing transiently leave others before the
	// Lease runs out, as client-go's leader election retries.
	t := time.NewTicker(l.retryPeriod())
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		if l.renew() {
			return
		}
	}
}

// renew renews the Lease once and reports whether it is lost for good:
// another holder took it, or it expired while unreachable.
func (l *setLease) renew() bool {
	ctx, cancel := context.WithTimeout(context.Background(), l.duration/3)
	defer cancel()
	sent := time.Now()
	cur, err := l.get(ctx)
	if err == nil {
		if holder := recordOf(cur).holder; holder != l.identity {
			l.lose("another run took it (" + strconv.Quote(holder) + ")")
			return true
		}
		renewed := metav1.NewMicroTime(time.Now()).UTC().Format(metav1.RFC3339Micro)
		unstructured.SetNestedField(cur.Object, renewed, "spec", "renewTime")
		// A repeat after a lost answer meets 409: the next renewal reads again.
		if err = l.retry(ctx, func(ctx context.Context) error {
			_, err := l.ri.Update(ctx, cur, metav1.UpdateOptions{})
			return err
		}); err == nil {
			l.held(sent)
			return false
		}
	}
	l.mu.Lock()
	expired := time.Now().After(l.validTill)
	l.mu.Unlock()
	if expired {
		l.lose("it could not be renewed for " + l.duration.String() + ": " + err.Error())
		return true
	}
	return false
}

// lose records why the Lease is lost.
func (l *setLease) lose(why string) {
	l.mu.Lock()
	if l.lost == "" {
		l.lost = why
	}
	l.mu.Unlock()
}

// check returns an error unless the Lease is still ours, with at least a
// third of its duration to go: its record, read again, names this run.
func (l *setLease) check(ctx context.Context) error {
	l.mu.Lock()
	lost, left := l.lost, time.Until(l.validTill)
	l.mu.Unlock()
	if lost == "" && left < l.duration/3 { // one renewal more before giving up on it
		l.renew()
		l.mu.Lock()
		lost, left = l.lost, time.Until(l.validTill)
		l.mu.Unlock()
	}
	switch {
	case lost != "":
		return errors.New("this run lost the lease on its ApplySet: " + lost)
	case left < l.duration/3:
		return errors.New("this run lost the lease on its ApplySet: it could not be renewed in time")
	}
	cur, err := l.get(ctx)
	if err != nil {
		return errors.New("cannot confirm that this run holds the lease on its ApplySet: " + err.Error())
	}
	if holder := recordOf(cur).holder; holder != l.identity {
		l.lose("another run took it (" + strconv.Quote(holder) + ")")
		return errors.New("this run lost the lease on its ApplySet: another run took it (" + strconv.Quote(holder) + ")")
	}
	return nil
}

// get reads the Lease, repeating the read while it fails transiently.
func (l *setLease) get(ctx context.Context) (cur *unstructured.Unstructured, err error) {
	err = l.retry(ctx, func(ctx context.Context) error {
		cur, err = l.ri.Get(ctx, l.name, metav1.GetOptions{})
		return err
	})
	return cur, err
}

// release stops the renewal and gives the Lease up (no holder), so that a
// waiting run takes it at once. It runs even when ctx is done.
func (l *setLease) release(ctx context.Context) {
	close(l.stop)
	<-l.done
	l.mu.Lock()
	lost := l.lost != ""
	l.mu.Unlock()
	if lost {
		return
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	cur, err := l.ri.Get(rctx, l.name, metav1.GetOptions{})
	if err != nil || recordOf(cur).holder != l.identity {
		return
	}
	unstructured.RemoveNestedField(cur.Object, "spec", "holderIdentity")
	l.ri.Update(rctx, cur, metav1.UpdateOptions{})
}
