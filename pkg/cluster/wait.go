package cluster

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

// WaitFor is the state a wait waits for.
type WaitFor int

const (
	// ForCurrent waits until kstatus computes the status Current (the
	// object is reconciled: observedGeneration caught up, the kind's
	// readiness rules or its Ready condition met) or Failed.
	ForCurrent WaitFor = iota
	// ForDeletion waits until the object is gone (kstatus' NotFound):
	// deleted and, when it has finalizers, released by them.
	ForDeletion
)

// String names the state as the messages do: "Current", "deleted".
func (f WaitFor) String() string {
	if f == ForDeletion {
		return "deleted"
	}
	return string(status.CurrentStatus)
}

// WaitItem is one object to wait for.
type WaitItem struct {
	// Ref names the object: Group, Version, Kind, Name, and Namespace for
	// namespaced objects (as in Outcome.Ref). Resource may be empty; the
	// kind is then mapped through discovery.
	Ref Ref
	// UID, when set, is the object waited for: with ForDeletion another
	// object of the same name (a new one) counts as gone; with
	// ForCurrent, Generation applies to this object only.
	UID string
	// Generation, when set, is the metadata.generation the object had
	// after the apply: states read with an older generation of the same
	// object are ignored, so that a read served from a stale cache does
	// not report the object as it was before the apply.
	Generation int64
}

// WaitItemOf returns the item that waits for the object of o, identified
// by the UID and generation of Outcome.Result.
func WaitItemOf(o Outcome) WaitItem {
	it := WaitItem{Ref: o.Ref}
	md, _ := o.Result.Get("metadata")
	it.UID = stringAt(md, "uid")
	g, _ := md.Get("generation")
	it.Generation, _ = g.AsInt()
	return it
}

// WaitResult is where the wait for one object stands.
type WaitResult struct {
	// Item is the object waited for; For the state waited for.
	Item WaitItem
	For  WaitFor
	// Status is the last status seen: kstatus' Current, InProgress,
	// Failed, Terminating, NotFound, or Unknown before the object was
	// first read (or when its status cannot be computed).
	Status status.Status
	// Message is kstatus' message for Status (for Failed with the reason
	// and message of the condition that made it so).
	Message string
	// Done reports that the wait for this object has ended: Err is nil
	// when the state waited for was reached.
	Done bool
	// Err, once Done, is a *WaitError when the state was not reached.
	Err error
}

// WaitFailure is why a wait for an object ended without its state.
type WaitFailure int

const (
	// WaitFailed: kstatus computed Failed.
	WaitFailed WaitFailure = iota
	// WaitTimedOut: WaitOptions.Timeout passed first.
	WaitTimedOut
	// WaitUnwatchable: the object cannot be watched (its kind has no
	// resource, or listing it is forbidden).
	WaitUnwatchable
	// WaitCanceled: the context ended first.
	WaitCanceled
)

// WaitError says why a wait for one object ended without its state; its
// message names the object and gives the last status seen.
type WaitError struct {
	Ref     Ref
	For     WaitFor
	Failure WaitFailure
	// Status and Message are the last status seen.
	Status  status.Status
	Message string
	// Timeout is the wait's limit (WaitTimedOut).
	Timeout time.Duration
	// Err is the cause for WaitUnwatchable and WaitCanceled.
	Err error
}

func (e *WaitError) Error() string {
	last := string(e.Status)
	if e.Message != "" {
		last += ": " + e.Message
	}
	switch e.Failure {
	case WaitFailed:
		return e.Ref.String() + " is Failed: " + e.Message
	case WaitTimedOut:
		return "timed out after " + e.Timeout.String() + " waiting for " + e.Ref.String() + " to be " + e.For.String() + "; last status " + last
	case WaitUnwatchable:
		return "cannot watch " + e.Ref.String() + ": " + e.Err.Error()
	}
	return "stopped waiting for " + e.Ref.String() + " to be " + e.For.String() + " (" + e.Err.Error() + "); last status " + last
}

func (e *WaitError) Unwrap() error { return e.Err }

// WaitOptions configure Client.Wait.
type WaitOptions struct {
	// Timeout bounds the whole wait; zero or negative means none (only
	// the context's).
	Timeout time.Duration
	// Report, when not nil, hears of every change of an object's status
	// or message and of its end, with the object's index in the results;
	// it is called from one goroutine, never concurrently.
	Report func(i int, r WaitResult)
}

// watchPerObjectMax is the number of objects of one resource in one
// namespace up to which each gets a watch of its own (a field selector on
// metadata.name); above it, one list and watch of the resource in that
// namespace serves them all.
const watchPerObjectMax = 8

// Wait watches the objects of current until each is Current and those of
// gone until each is gone, as computed by kstatus
// (sigs.k8s.io/cli-utils/pkg/kstatus/status), and returns one result per
// item: those of current, then those of gone. An object of current that
// turns Failed ends its wait with a *WaitError, as does every object not
// done when opts.Timeout passes or ctx ends. Objects are watched, not
// polled: a list and watch per resource and namespace (per object when
// there are few, see watchPerObjectMax), re-listed by client-go's
// reflector when a watch expires. A watch error that is not a permission
// problem is retried until the timeout, and its message is part of the
// timeout's; a forbidden list ends the wait of the objects it serves.
func (c *Client) Wait(ctx context.Context, current, gone []WaitItem, opts WaitOptions) []WaitResult {
	w := &waiter{opts: opts, notify: make(chan struct{}, 1), dirty: map[int]bool{}}
	for _, it := range current {
		w.results = append(w.results, WaitResult{Item: it, For: ForCurrent, Status: status.UnknownStatus, Message: "not read yet"})
	}
	for _, it := range gone {
		w.results = append(w.results, WaitResult{Item: it, For: ForDeletion, Status: status.UnknownStatus, Message: "not read yet"})
	}
	w.watchOf = make([]*objectWatch, len(w.results))
	wctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		stop()
		wg.Wait()
	}()
	for _, ow := range c.watches(w) {
		ow.start(wctx, &wg, w)
	}
	var timeout <-chan time.Time
	if opts.Timeout > 0 {
		t := time.NewTimer(opts.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	for !w.allDone() {
		select {
		case <-w.notify:
			w.evaluate()
		case <-timeout:
			w.endAll(func(r WaitResult) *WaitError {
				return &WaitError{Failure: WaitTimedOut, Timeout: opts.Timeout}
			})
		case <-ctx.Done():
			w.endAll(func(r WaitResult) *WaitError {
				return &WaitError{Failure: WaitCanceled, Err: ctx.Err()}
			})
		}
	}
	return w.results
}

// waiter is the state of one Wait. results and watchOf belong to Wait's
// goroutine; dirty, guarded by mu, collects the indexes the watches
// marked, and notify (one slot) wakes Wait's goroutine.
type waiter struct {
	opts    WaitOptions
	results []WaitResult
	watchOf []*objectWatch
	mu      sync.Mutex
	dirty   map[int]bool
	notify  chan struct{}
}

// mark asks for the items idx to be evaluated again.
func (w *waiter) mark(idx ...int) {
	w.mu.Lock()
	for _, i := range idx {
		w.dirty[i] = true
	}
	w.mu.Unlock()
	select {
	case w.notify <- struct{}{}:
	default:
	}
}

func (w *waiter) allDone() bool {
	for _, r := range w.results {
		if !r.Done {
			return false
		}
	}
	return true
}

// endAll ends the wait of every item not done with the error mk returns
// (its Ref, For and last status filled in).
func (w *waiter) endAll(mk func(WaitResult) *WaitError) {
	for i, r := range w.results {
		if r.Done {
			continue
		}
		e := mk(r)
		e.Ref, e.For, e.Status, e.Message = r.Item.Ref, r.For, r.Status, r.Message
		w.set(i, r.Status, r.Message, true, e)
	}
}

// set records a state of item i and reports it when it changed.
func (w *waiter) set(i int, st status.Status, msg string, done bool, err error) {
	r := &w.results[i]
	if r.Done || (r.Status == st && r.Message == msg && !done) {
		return
	}
	r.Status, r.Message, r.Done = st, msg, done
	if err != nil {
		r.Err = err
	}
	if w.opts.Report != nil {
		w.opts.Report(i, *r)
	}
}

// evaluate computes the state of the marked items from their watches'
// caches.
func (w *waiter) evaluate() {
	w.mu.Lock()
	dirty := w.dirty
	w.dirty = map[int]bool{}
	w.mu.Unlock()
	for i := range dirty {
		r := w.results[i]
		if r.Done {
			continue
		}
		ow := w.watchOf[i]
		if ow == nil {
			continue
		}
		if err := ow.fatal(); err != nil {
			w.set(i, r.Status, r.Message, true, &WaitError{Ref: r.Item.Ref, For: r.For, Failure: WaitUnwatchable,
				Status: r.Status, Message: r.Message, Err: err})
			continue
		}
		if !ow.synced() {
			continue
		}
		obj := ow.get(r.Item.Ref.Name)
		st, msg, done, failed, ok := evalState(r.Item, r.For, obj)
		if !ok {
			continue
		}
		var err error
		if failed {
			err = &WaitError{Ref: r.Item.Ref, For: r.For, Failure: WaitFailed, Status: st, Message: msg}
		}
		w.set(i, st, msg, done, err)
	}
}

// evalState computes the state of it from obj, the object as watched (nil
// when there is none). ok is false when obj is a stale read of it (an
// older generation of the same object), which says nothing.
func evalState(it WaitItem, f WaitFor, obj *unstructured.Unstructured) (st status.Status, msg string, done, failed, ok bool) {
	other := obj != nil && it.UID != "" && string(obj.GetUID()) != it.UID
	if obj == nil || (f == ForDeletion && other) {
		if f == ForDeletion {
			return status.NotFoundStatus, "deleted", true, false, true
		}
		return status.NotFoundStatus, "the object does not exist", false, false, true
	}
	if f == ForCurrent && !other && obj.GetGeneration() < it.Generation {
		return "", "", false, false, false
	}
	res, err := status.Compute(obj)
	if err != nil {
		return status.UnknownStatus, "cannot compute the status: " + err.Error(), false, false, true
	}
	msg = res.Message
	if res.Status == status.FailedStatus {
		for _, c := range res.Conditions {
			if c.Message != "" && c.Message != res.Message {
				msg += " (" + c.Reason + ": " + c.Message + ")"
				break
			}
		}
	}
	if f == ForDeletion {
		return res.Status, msg, false, false, true
	}
	switch res.Status {
	case status.CurrentStatus:
		return res.Status, msg, true, false, true
	case status.FailedStatus:
		return res.Status, msg, true, true, true
	}
	return res.Status, msg, false, false, true
}

// objectWatch is one list and watch (a shared informer) of a resource in
// a namespace, of one object when name is set, and the items it serves
// by object name.
type objectWatch struct {
	gvr       schema.GroupVersionResource
	namespace string
	name      string
	items     map[string][]int
	inf       cache.SharedIndexInformer

	mu       sync.Mutex
	isSynced bool
	fatalErr error
}

// watches groups the items of w by resource and namespace into watches;
// items whose kind cannot be mapped end at once.
func (c *Client) watches(w *waiter) []*objectWatch {
	type group struct {
		gvr schema.GroupVersionResource
		ns  string
	}
	byGroup := map[group][]int{}
	var order []group
	for i, r := range w.results {
		ref := r.Item.Ref
		gvr := schema.GroupVersionResource{Group: ref.Group, Version: ref.Version, Resource: ref.Resource}
		if gvr.Resource == "" {
			m, err := c.mapper.RESTMapping(ref.GroupKind(), ref.Version)
			if err != nil {
				w.set(i, r.Status, r.Message, true, &WaitError{Ref: ref, For: r.For, Failure: WaitUnwatchable,
					Status: r.Status, Message: r.Message, Err: err})
				continue
			}
			gvr = m.Resource
		}
		g := group{gvr, ref.Namespace}
		if _, ok := byGroup[g]; !ok {
			order = append(order, g)
		}
		byGroup[g] = append(byGroup[g], i)
	}
	var out []*objectWatch
	for _, g := range order {
		idx := byGroup[g]
		if len(idx) > watchPerObjectMax {
			ow := &objectWatch{gvr: g.gvr, namespace: g.ns, items: map[string][]int{}}
			for _, i := range idx {
				name := w.results[i].Item.Ref.Name
				ow.items[name] = append(ow.items[name], i)
				w.watchOf[i] = ow
			}
			out = append(out, ow)
			continue
		}
		byName := map[string]*objectWatch{}
		for _, i := range idx {
			name := w.results[i].Item.Ref.Name
			ow := byName[name]
			if ow == nil {
				ow = &objectWatch{gvr: g.gvr, namespace: g.ns, name: name, items: map[string][]int{}}
				byName[name] = ow
				out = append(out, ow)
			}
			ow.items[name] = append(ow.items[name], i)
			w.watchOf[i] = ow
		}
	}
	for _, ow := range out {
		ow.inf = c.informer(ow)
	}
	return out
}

// informer returns the shared informer of ow (not started): a list+watch
// of the dynamic client, narrowed to ow's name when it has one. (Built on
// client-go's tools/cache directly: its dynamicinformer package links the
// typed informers of every built-in API group, and their initialisation.)
func (c *Client) informer(ow *objectWatch) cache.SharedIndexInformer {
	ri := c.dyn.Resource(ow.gvr).Namespace(ow.namespace)
	narrow := func(o *metav1.ListOptions) {
		if ow.name != "" {
			o.FieldSelector = fields.OneTermEqualSelector("metadata.name", ow.name).String()
		}
	}
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			narrow(&o)
			return ri.List(ctx, o)
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			narrow(&o)
			return ri.Watch(ctx, o)
		},
	}
	return cache.NewSharedIndexInformer(lw, &unstructured.Unstructured{}, 0, cache.Indexers{})
}

// start runs the informer of ow until ctx ends, marking in w the items of
// each object the watch reports, and all of them once the first list is
// in (objects absent from it are NotFound) or listing is forbidden.
func (ow *objectWatch) start(ctx context.Context, wg *sync.WaitGroup, w *waiter) {
	all := func() []int {
		var idx []int
		for _, is := range ow.items {
			idx = append(idx, is...)
		}
		return idx
	}
	changed := func(obj any) {
		key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
		if err != nil {
			return
		}
		_, name, _ := cache.SplitMetaNamespaceKey(key)
		if idx := ow.items[name]; len(idx) > 0 {
			w.mark(idx...)
		}
	}
	_, _ = ow.inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    changed,
		UpdateFunc: func(_, obj any) { changed(obj) },
		DeleteFunc: changed,
	})
	_ = ow.inf.SetWatchErrorHandlerWithContext(func(_ context.Context, _ *cache.Reflector, err error) {
		if apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err) || apierrors.IsNotFound(err) || apierrors.IsMethodNotSupported(err) {
			ow.mu.Lock()
			if ow.fatalErr == nil {
				ow.fatalErr = err
			}
			ow.mu.Unlock()
			w.mark(all()...)
		}
	})
	wg.Add(2)
	go func() {
		defer wg.Done()
		ow.inf.RunWithContext(ctx)
	}()
	go func() {
		defer wg.Done()
		if cache.WaitForCacheSync(ctx.Done(), ow.inf.HasSynced) {
			ow.mu.Lock()
			ow.isSynced = true
			ow.mu.Unlock()
			w.mark(all()...)
		}
	}()
}

func (ow *objectWatch) synced() bool {
	ow.mu.Lock()
	defer ow.mu.Unlock()
	return ow.isSynced
}

func (ow *objectWatch) fatal() error {
	ow.mu.Lock()
	defer ow.mu.Unlock()
	return ow.fatalErr
}

// get returns the cached object of name, nil when there is none.
func (ow *objectWatch) get(name string) *unstructured.Unstructured {
	key := name
	if ow.namespace != "" {
		key = ow.namespace + "/" + name
	}
	obj, ok, err := ow.inf.GetStore().GetByKey(key)
	if err != nil || !ok {
		return nil
	}
	u, _ := obj.(*unstructured.Unstructured)
	return u
}

// WaitLine renders the state of r as one line: the object, the status
// and its message ("deployment.apps/web Current: Deployment is
// available. Replicas: 1"); a wait that timed out ends with "(timed out
// after 5m0s)", one that failed to watch with the reason.
func WaitLine(r WaitResult) string {
	var sb strings.Builder
	sb.WriteString(r.Item.Ref.String())
	sb.WriteByte(' ')
	sb.WriteString(string(r.Status))
	if r.Message != "" {
		sb.WriteString(": ")
		sb.WriteString(oneLineMessage(r.Message))
	}
	var we *WaitError
	if errors.As(r.Err, &we) {
		switch we.Failure {
		case WaitTimedOut:
			sb.WriteString(" (timed out after " + we.Timeout.String() + ")")
		case WaitUnwatchable:
			sb.WriteString(" (cannot watch: " + oneLineMessage(we.Err.Error()) + ")")
		case WaitCanceled:
			sb.WriteString(" (stopped: " + we.Err.Error() + ")")
		}
	}
	return sb.String()
}

// oneLineMessage joins the lines of a message with "; ".
func oneLineMessage(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }), "; ")
}
