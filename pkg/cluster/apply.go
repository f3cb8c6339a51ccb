package cluster

import (
	"context"
	"errors"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// Action is what Apply did with an object.
type Action int

const (
	// Created: the object did not exist and was created.
	Created Action = iota
	// Configured: the object existed and was updated.
	Configured
	// Unchanged: the merged result equals the live object; nothing was
	// written.
	Unchanged
	// Failed: the object could not be applied; nothing was written for
	// it, unless Err is a *LostWriteError (a write was sent and its
	// answer lost, and the server could not be read again).
	Failed
	// Recreated: the server refused the update for immutable fields and
	// the object was deleted and created again (Options.Force).
	Recreated
	// Pruned: the object was deleted because the run no longer holds it
	// (Client.ApplyPrune).
	Pruned
	// ServerSideApplied: the object was sent as a server-side apply patch
	// (created or updated by the server, or left as it was).
	ServerSideApplied
	// Ignored: a per-object control (controls.go) left the object as it
	// is: nothing was written or deleted; Outcome.IgnoredReason says why.
	Ignored
)

// String returns the word kubectl prints: "created", "configured",
// "unchanged", "failed", "recreated", "pruned", "serverside-applied";
// "ignored" for an object a per-object control left as it is.
func (a Action) String() string {
	switch a {
	case Created:
		return "created"
	case Configured:
		return "configured"
	case Unchanged:
		return "unchanged"
	case Failed:
		return "failed"
	case Recreated:
		return "recreated"
	case Pruned:
		return "pruned"
	case ServerSideApplied:
		return "serverside-applied"
	case Ignored:
		return "ignored"
	}
	return "invalid"
}

// Outcome is the result of applying one object.
type Outcome struct {
	// Object is the object as read.
	Object Object
	// Ref identifies it; Namespace and Resource are set once it is mapped.
	Ref Ref
	// Action is what was done (with a dry run: what would be done).
	Action Action
	// IgnoredReason says why the object was left as it is when Action is
	// Ignored (IgnoredReconcileDisabled, IgnoredExists,
	// IgnoredPruneDisabled).
	IgnoredReason string
	// Lane is the lane the object was applied in (LaneClientSide or
	// LaneServerSide); with LaneAuto, the one chosen for it.
	Lane Lane
	// Attempts is the number of read-merge-write rounds made: more than 1
	// when writes conflicted with concurrent writers or failed
	// transiently; 0 when the object failed before reading it.
	Attempts int
	// Changes are the differences between the live object and what was
	// written (all additions for a created object).
	Changes []apply.Change
	// Warnings are messages of the merge that did not stop it, such as a
	// kind without schema.
	Warnings []string
	// Result is the object as the server holds it after the apply: the
	// server's answer to the write (with DryRunServer, what it would
	// hold), the live object when nothing was written, the merged object
	// with DryRunClient; value.Null when the object failed.
	Result value.Value
	// Err is the failure when Action is Failed, else nil: a server error,
	// a bad object (*elements.Error from the merge) or an
	// *apply.ConflictError when Options.Overwrite is false.
	Err error
}

// crdResource is the resource of CustomResourceDefinitions.
var crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// Apply applies objs and returns one Outcome per object, in input order.
// The objects are applied in stages (see Stages: sync waves, kapp change
// rules, then kinds: Namespaces, CustomResourceDefinitions, what others
// refer to, workloads, admission webhooks last), each stage through a
// pool of Options.Workers once the stage before it has finished. After a
// stage holding CRDs, Apply waits until each CRD applied is established,
// its kinds are served by discovery and its schema is published (each
// wait bounded). Options.StageDone, when set, is called between stages
// (with --wait: the stage's wait); its error fails the objects of the
// stages left, writing nothing for them. An object that fails does not
// stop the others, and nothing is written for it. Declared order that
// cannot be read (a bad wave or rule, a cycle) fails every object.
//
// Each object is read, merged (recorded from its last-applied annotation,
// local, live) under the server's schema, and written with the
// resourceVersion read, so a concurrent write makes the server answer 409;
// the object is then read with a GET and merged again, up to
// Options.MaxAttempts times, waiting by DefaultBackoff in between. A write
// that fails transiently is followed by the same read and merge (within
// Options.RetryTimeout), and the object is reported by what the server
// then holds (see applyOne). Nothing is written when the result equals
// the live object. The first read of the
// objects of a resource in a namespace that the run applies at least
// Options.ListThreshold of is one paged LIST (see newBulk), else a GET per
// object; either way the write carries the resourceVersion read, so the
// outcomes are those of GETs made at the time of the LIST.
func (c *Client) Apply(ctx context.Context, objs []Object) []Outcome {
	outs := make([]Outcome, len(objs))
	refs := make([]Ref, len(objs))
	for i, o := range objs {
		refs[i] = refOf(o)
		outs[i] = Outcome{Object: o, Ref: refs[i], Action: Failed}
	}
	sch, err := c.schema(ctx)
	if err != nil {
		err = errors.New("cannot read the server's OpenAPI schema: " + err.Error())
		for i := range outs {
			outs[i].Err = err
			if c.opts.Report != nil {
				c.opts.Report(i, outs[i])
			}
		}
		return outs
	}
	stages, err := Stages(objs)
	if err != nil {
		for i := range outs {
			outs[i].Err = err
			if c.opts.Report != nil {
				c.opts.Report(i, outs[i])
			}
		}
		return outs
	}
	prog := newProgress(c.opts.Progress, len(objs))
	st := stageRun{c: c, objs: objs, refs: refs, outs: outs, sch: sch, prog: prog, notReady: map[string]error{}}
	for n, s := range stages {
		if st.stopped != nil {
			st.fail(s, st.stopped)
			continue
		}
		st.apply(ctx, s)
		if c.opts.StageDone != nil && n < len(stages)-1 {
			if err := c.opts.StageDone(ctx, s, outs); err != nil {
				st.stopped = errors.New("not applied: " + s.String() + " did not finish: " + err.Error())
			}
		}
	}
	prog.finish()
	return outs
}

// stageRun is the state of Apply across its stages.
type stageRun struct {
	c    *Client
	objs []Object
	refs []Ref
	outs []Outcome
	sch  *openapi.Schema
	prog *progress
	// notReady holds, by group/kind, why the kinds of a CRD applied in an
	// earlier stage are not served: their objects fail with it.
	notReady map[string]error
	// stopped, when set, fails the objects of the stages left.
	stopped error
}

// done reports the outcome of the object at index i.
func (st *stageRun) done(i int) {
	if st.c.opts.Report != nil {
		st.c.opts.Report(i, st.outs[i])
	}
	st.prog.done()
}

// fail fails the objects of s with err, writing nothing.
func (st *stageRun) fail(s Stage, err error) {
	for _, i := range s.Indices {
		st.outs[i].Err = err
		st.done(i)
	}
}

// apply applies the objects of s through the worker pool; when s holds
// CRDs (and the run writes), it then waits until they are established,
// their kinds served and their schemas published (each wait bounded).
func (st *stageRun) apply(ctx context.Context, s Stage) {
	c := st.c
	// Grouped after the CRDs of earlier stages are served, so that their
	// kinds are listed.
	bulk := c.newBulk(st.objs, s.Indices)
	bulk.prefetch(ctx)
	c.pool(ctx, s.Indices, func(i int) {
		if err, ok := st.notReady[st.refs[i].GroupKind().String()]; ok {
			st.outs[i].Err = err
		} else {
			octx, heard := withWarnings(ctx)
			st.outs[i] = c.applyOne(octx, st.objs[i], st.sch, bulk)
			st.outs[i].Warnings = heard.appendTo(st.outs[i].Warnings)
		}
		st.done(i)
	})
	bulk.wait()
	var crds []int
	for _, i := range s.Indices {
		if isCRD(st.refs[i]) && st.outs[i].Action != Failed {
			crds = append(crds, i)
		}
	}
	if len(crds) == 0 || c.opts.DryRun != DryRunNone {
		return
	}
	kinds, notReady := c.waitCRDs(ctx, st.objs, crds)
	for gk, err := range notReady {
		st.notReady[gk] = err
	}
	c.mapper.Reset()
	st.sch = c.waitSchema(ctx, st.sch, kinds)
}

// pool runs f for each index of idx on at most Options.Workers goroutines
// and returns when all are done.
func (c *Client) pool(ctx context.Context, idx []int, f func(int)) {
	if len(idx) == 0 {
		return
	}
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(c.opts.Workers, len(idx)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				f(i)
			}
		}()
	}
	for _, i := range idx {
		work <- i
	}
	close(work)
	wg.Wait()
}

// target is an object resolved against the server: its ref, the resource
// client, and local as sent (namespace set, last-applied annotation set).
type target struct {
	ref   Ref
	ri    dynamic.ResourceInterface
	local value.Value
	// bulk, when not nil, is the LIST plan reads the live object from;
	// nil means a GET.
	bulk *bulkGroup
	// recorded says how local's configuration is recorded when that is
	// worth a warning (compressed: Record); recordErr is Record's error
	// when the configuration cannot be recorded at all.
	recorded  string
	recordErr error
	// config is local before the last-applied annotation is added: what
	// the server-side lane sends.
	config value.Value
	// pre, when not nil, is the live object already read (to choose the
	// lane, or for the server-side lane's controls) that the first plan
	// uses instead of reading it again.
	pre *liveRead
	// held, when set, is the resourceVersion the server-side lane's first
	// apply patch carries as its precondition (Options.Expect).
	held string
	// retries bounds the retries of the object's requests that fail
	// transiently, all of them together.
	retries *retries
}

// resolve maps o to its resource and namespace.
func (c *Client) resolve(o Object) (target, error) {
	ref := refOf(o)
	mapping, err := c.mapper.RESTMapping(ref.GroupKind(), ref.Version)
	if err != nil {
		return target{ref: ref}, errors.New("cannot find the resource of " + ref.Kind + " in " + ref.GroupVersion().String() + ": " + err.Error())
	}
	ref.Resource = mapping.Resource.Resource
	local := o.Value
	md, _ := local.Get("metadata")
	var ri dynamic.ResourceInterface
	if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		nsv, _ := md.Get("namespace")
		ns, _ := nsv.AsString()
		switch {
		case ns == "":
			ns = c.namespace
			local = local.With("metadata", md.With("namespace", value.String(ns)))
		case c.enforce && ns != c.namespace:
			return target{ref: ref}, errors.New(`the namespace from the provided object "` + ns + `" does not match the namespace "` +
				c.namespace + `". You must pass '--namespace=` + ns + `' to perform this operation.`)
		}
		ref.Namespace = ns
		ri = c.dyn.Resource(mapping.Resource).Namespace(ns)
	} else {
		// The server drops the namespace of cluster-scoped objects; keeping
		// it would make every apply a change.
		if _, ok := md.Get("namespace"); ok {
			local = local.With("metadata", md.Without("namespace"))
		}
		ri = c.dyn.Resource(mapping.Resource)
	}
	t := target{ref: ref, ri: ri, config: local, retries: c.retrier()}
	if c.opts.Lane != LaneServerSide {
		// The server-side lane records nothing: it sends config.
		t.local, t.recorded, t.recordErr = Record(local)
	}
	return t, nil
}

// planned is one read-and-merge of a target.
type planned struct {
	live   value.Value // value.Null when the object does not exist
	exists bool
	rv     string // live's resourceVersion
	res    apply.Result
}

// plan reads the live object of t (from t.bulk's LIST, else with a GET)
// and merges.
func (c *Client) plan(ctx context.Context, t target, sch *openapi.Schema) (planned, error) {
	var p planned
	live, found, err := c.readLive(ctx, t)
	err = c.maskStatus(t.ref, err)
	switch {
	case err != nil:
		return p, err
	case !found:
		p.live = value.Null
	default:
		p.exists, p.live = true, live
		p.rv = stringAt(live, "metadata", "resourceVersion")
	}
	recorded, err := c.recordOf(p.live)
	if err != nil {
		return p, err
	}
	recorded = withLiveAnnotation(recorded, p.live)
	sch, ignoreWarnings := c.withIgnored(sch, t.ref, t.local, p.live)
	p.res, err = apply.Merge(recorded, t.local, p.live, apply.Options{Schema: sch, Overwrite: c.opts.Overwrite, Ordering: c.opts.Ordering, Gates: c.opts.Gates})
	p.res.Warnings = append(ignoreWarnings, p.res.Warnings...)
	if t.recorded != "" {
		p.res.Warnings = append([]string{t.recorded}, p.res.Warnings...)
	}
	return p, err
}

// withLiveAnnotation returns recorded with live's last-applied annotations
// (kubectl's and the compressed one, when they exist), so that the
// annotation, which every apply rewrites,
// is not a change live made since recorded: kubectl's strategic merge
// patch reports it as a conflict with --overwrite=false whenever the
// configuration changed, which makes that flag unusable. The merged result
// is the same (local sets the annotation).
func withLiveAnnotation(recorded, live value.Value) value.Value {
	if recorded.IsNull() {
		return recorded
	}
	lmd, _ := live.Get("metadata")
	lann, _ := lmd.Get("annotations")
	md, _ := recorded.Get("metadata")
	if !md.IsMap() {
		return recorded
	}
	ann, _ := md.Get("annotations")
	if !ann.IsMap() {
		ann = value.MustMap()
	}
	found := false
	for _, key := range [...]string{LastAppliedAnnotation, CompressedLastAppliedAnnotation} {
		if a, ok := lann.Get(key); ok {
			ann, found = ann.With(key, a), true
		}
	}
	if !found {
		return recorded
	}
	return recorded.With("metadata", md.With("annotations", ann))
}

// applyOne applies one object (see Apply). Its first read comes from
// bulk's LIST when bulk holds its group; every read after a conflict or a
// lost answer is a GET.
//
// A write that fails transiently may have been stored (its answer was
// lost): it is not repeated as it was, the object is read and merged
// again, as after a conflict, and written only if it still differs; the
// outcome is then what the server holds (lostWrite.settle), so that an
// object this run wrote is never reported unchanged.
func (c *Client) applyOne(ctx context.Context, o Object, sch *openapi.Schema, bulk *bulkReader) Outcome {
	out := Outcome{Object: o, Ref: refOf(o), Action: Failed, Result: value.Null}
	t, err := c.resolve(o)
	out.Ref = t.ref
	if err != nil {
		out.Err = err
		return out
	}
	t.bulk = bulk.group(t)
	lane, warning, err := c.laneOf(ctx, &t)
	out.Lane = lane
	switch {
	case err != nil:
		out.Err = err
		return out
	case lane == LaneServerSide:
		return c.applyOneServerSide(ctx, t, out, warning)
	case t.recordErr != nil:
		out.Err = t.recordErr
		return out
	}
	var lost *lostWrite
	conflicts := 0
	for attempt := 1; ; attempt, t.bulk, t.pre = attempt+1, nil, nil { // reads after the first: GETs
		out.Attempts = attempt
		p, err := c.plan(ctx, t, sch)
		if leftAlone(t, p, lost, &out) {
			return out
		}
		if err == nil {
			err = c.expect(t, p, lost)
		}
		if err != nil {
			out.Err = lost.failure(err)
			return out
		}
		out.Changes, out.Warnings = p.res.Changes, p.res.Warnings
		if p.exists && value.Equal(p.res.Object, p.live) {
			out.Action, out.Result = lost.settle(Unchanged, p), p.live
			return out
		}
		action := Created
		if p.exists {
			action = Configured
		}
		if c.opts.DryRun == DryRunClient {
			out.Action, out.Result = action, p.res.Object
			return out
		}
		written, result, err := c.write(ctx, t, p, c.opts.DryRun == DryRunServer)
		if ie := immutable(err); p.exists && ie != nil {
			out.Action, out.Result, out.Err = c.refused(ctx, t, p, ie, sch)
			return out
		}
		switch {
		case err == nil:
			if !written {
				action = Unchanged
			}
			out.Action, out.Result = lost.settle(action, p), result
			return out
		case transient(err):
			if lost == nil && c.opts.DryRun == DryRunNone {
				lost = sent(p)
			}
			err = t.retries.wait(ctx, err)
		case (p.exists && apierrors.IsConflict(err)) || (!p.exists && apierrors.IsAlreadyExists(err)):
			if conflicts++; conflicts >= c.opts.MaxAttempts {
				err = errors.New("gave up after " + strconv.Itoa(attempt) + " attempts conflicting with concurrent writers: " + err.Error())
			} else {
				err = c.sleep(ctx, c.backoff.Delay(conflicts, c.random()))
			}
		}
		if err != nil {
			out.Err = lost.failure(err)
			return out
		}
	}
}

// refused handles the server's refusal of an update for immutable fields:
// the object is re-created when that is asked for (Options.Force,
// ForceAnnotation), else it fails with ie.
func (c *Client) refused(ctx context.Context, t target, p planned, ie *ImmutableError, sch *openapi.Schema) (Action, value.Value, error) {
	if !c.forced(t.local) {
		return Failed, value.Null, ie
	}
	res, err := c.recreate(ctx, t, p, ie, sch)
	if err != nil {
		return Failed, value.Null, err
	}
	return Recreated, res, nil
}

// expect is Options.Expect's verdict on p, the live object read for t's
// write: nil without Expect, and after a lost answer (lost not nil: the
// write may have moved the object itself).
func (c *Client) expect(t target, p planned, lost *lostWrite) error {
	if c.opts.Expect == nil || lost != nil {
		return nil
	}
	return c.opts.Expect(t.ref, p.rv, p.exists)
}

// lostWrite is a write of this run that failed transiently after it may
// have reached the server: its answer was lost, so it may or may not have
// been stored. A nil *lostWrite is no such write.
type lostWrite struct {
	// create is true for a create (the object did not exist when read);
	// recorded is then the configuration it recorded (its last-applied
	// annotations).
	create   bool
	recorded string
	// rv is the resourceVersion an update carried (the one read).
	rv string
}

// sent returns the lostWrite of the write p planned.
func sent(p planned) *lostWrite {
	return &lostWrite{create: !p.exists, recorded: recordedAnnotations(p.res.Object), rv: p.rv}
}

// settle returns the action to report for an object that now needs no
// write (Unchanged) or was just written (action), given what p read after
// the lost write l: an object whose lost create was stored (it exists and
// records the configuration that create sent) was Created by this run; an
// object that needs no write any more and whose resourceVersion moved
// since the lost update was read holds what that update sent: Configured.
func (l *lostWrite) settle(action Action, p planned) Action {
	switch {
	case l == nil:
		return action
	case l.create:
		if p.exists && recordedAnnotations(p.live) == l.recorded {
			return Created
		}
	case action == Unchanged && p.exists && p.rv != l.rv:
		return Configured
	}
	return action
}

// failure returns err, the object's failure, saying when a write of it was
// lost, so that the failure is not read as "nothing was written".
func (l *lostWrite) failure(err error) error {
	if l == nil {
		return err
	}
	return &LostWriteError{Err: err}
}

// LostWriteError is the failure of an object a write of which was sent
// and its answer lost (a transient failure after the request may have
// reached the server), when the server could not be read again to learn
// whether it was stored.
type LostWriteError struct{ Err error }

func (e *LostWriteError) Error() string {
	return e.Err.Error() + " (an earlier write of this object was sent and its answer lost: the server may hold it)"
}

func (e *LostWriteError) Unwrap() error { return e.Err }

// recordedAnnotations returns the configuration v records: its
// last-applied annotations (kubectl's and the compressed one), joined.
func recordedAnnotations(v value.Value) string {
	return stringAt(v, "metadata", "annotations", LastAppliedAnnotation) + "\x00" +
		stringAt(v, "metadata", "annotations", CompressedLastAppliedAnnotation)
}

// write creates or updates the object of p, once (one attempt of
// t.retries: within the request timeout, unless the server is
// unreachable). written is false when the
// server stored nothing: an update whose object, after the server's
// defaulting, equals what it held (the response keeps the resourceVersion
// sent), as when retainKeys clears a field the server defaults again. Dry
// runs (dry: dryRun=All) count as written: they report what a real run
// would do. result is the server's answer.
func (c *Client) write(ctx context.Context, t target, p planned, dry bool) (written bool, result value.Value, err error) {
	defer func() { err = c.maskStatus(t.ref, fieldValidationError(err)) }()
	obj := p.res.Object
	if p.exists && p.rv != "" {
		md, _ := obj.Get("metadata")
		obj = obj.With("metadata", md.With("resourceVersion", value.String(p.rv)))
	}
	if c.raw != nil {
		err := t.retries.attempt(ctx, func(ctx context.Context) error {
			var err error
			if p.exists {
				result, err = c.updateRaw(ctx, t, p, obj, dry)
			} else {
				result, err = c.writeRaw(ctx, c.raw, t.ref, true, obj.JSON(), dry)
			}
			return err
		})
		if err != nil {
			return false, value.Null, err
		}
		return !p.exists || dry || p.rv == "" || stringAt(result, "metadata", "resourceVersion") != p.rv, result, nil
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(obj.JSON()); err != nil {
		return false, value.Null, errors.New("cannot encode the merged object: " + err.Error())
	}
	var got *unstructured.Unstructured
	err = t.retries.attempt(ctx, func(ctx context.Context) error {
		var err error
		if !p.exists {
			got, err = t.ri.Create(ctx, u, c.createOptions(dry))
		} else {
			got, err = c.updateDynamic(ctx, t, p, u, obj, dry)
		}
		return err
	})
	if err != nil {
		return false, value.Null, err
	}
	result = obj
	if got != nil {
		if result, err = toValue(got); err != nil {
			return false, value.Null, err
		}
	}
	return !p.exists || dry || p.rv == "" || got.GetResourceVersion() != p.rv, result, nil
}

// fieldManager is the manager name ply's writes record.
func (c *Client) fieldManager() string {
	if c.opts.FieldManager == "" {
		return DefaultFieldManager
	}
	return c.opts.FieldManager
}

// DefaultFieldManager is the manager name ply's writes record in
// managedFields unless Options.FieldManager names another: the one kubectl
// apply's client-side writes use, so that switching between the two keeps
// one manager (and kubectl apply --server-side's hand-over from
// client-side apply finds ply's fields).
const DefaultFieldManager = "kubectl-client-side-apply"

// toValue converts a live object to a value.
func toValue(u *unstructured.Unstructured) (value.Value, error) {
	data, err := u.MarshalJSON()
	if err != nil {
		return value.Null, errors.New("cannot encode the live object: " + err.Error())
	}
	v, err := parse.OwnedDocument(data)
	if err != nil {
		return value.Null, errors.New("cannot read the live object: " + err.Error())
	}
	return v, nil
}

// crdKind is a kind a CRD serves, in one version.
type crdKind struct {
	apiVersion, kind string
}

// waitCRDs waits until the CRDs of objs at crds are established and their
// kinds are served by discovery. It returns the kinds they serve and, by
// GroupKind string ("Widget.example.com"), the errors of CRDs that did not
// become ready, for the custom resources of those kinds.
func (c *Client) waitCRDs(ctx context.Context, objs []Object, crds []int) ([]crdKind, map[string]error) {
	var kinds []crdKind
	notReady := map[string]error{}
	ri := c.dyn.Resource(crdResource)
	for _, i := range crds {
		name := refOf(objs[i]).Name
		var live *unstructured.Unstructured
		err := c.waitFor(ctx, func() (bool, error) {
			u, err := ri.Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			live = u
			return crdEstablished(u), nil
		})
		group := stringAt(objs[i].Value, "spec", "group")
		kind := stringAt(objs[i].Value, "spec", "names", "kind")
		if live != nil {
			group, _, _ = unstructured.NestedString(live.Object, "spec", "group")
			kind, _, _ = unstructured.NestedString(live.Object, "spec", "names", "kind")
		}
		gk := kind + "." + group
		if err != nil {
			notReady[gk] = errors.New("the CustomResourceDefinition " + name + " did not become established: " + err.Error())
			continue
		}
		versions := servedVersions(live)
		err = c.waitFor(ctx, func() (bool, error) {
			for _, v := range versions {
				if _, err := c.mapper.RESTMapping(schema.GroupKind{Group: group, Kind: kind}, v); err != nil {
					c.mapper.Reset()
					return false, nil
				}
			}
			return true, nil
		})
		if err != nil {
			notReady[gk] = errors.New("the kinds of the CustomResourceDefinition " + name + " are not served by discovery: " + err.Error())
			continue
		}
		for _, v := range versions {
			kinds = append(kinds, crdKind{apiVersion: group + "/" + v, kind: kind})
		}
	}
	return kinds, notReady
}

// waitSchema re-reads the server's schema until every kind of kinds
// resolves in it (the server publishes a CRD's OpenAPI documents shortly
// after establishing it). When that does not happen within the wait, the
// last schema read is returned: those kinds then merge by the fallback
// rules, with a warning in their outcomes.
func (c *Client) waitSchema(ctx context.Context, sch *openapi.Schema, kinds []crdKind) *openapi.Schema {
	if len(kinds) == 0 {
		return sch
	}
	_ = c.waitFor(ctx, func() (bool, error) {
		s, err := c.schema(ctx)
		if err != nil {
			return false, nil
		}
		sch = s
		for _, k := range kinds {
			if _, ok := s.ForKind(k.apiVersion, k.kind); !ok {
				return false, nil
			}
		}
		return true, nil
	})
	return sch
}

// waitFor calls cond every poll interval until it returns true, an error,
// or the wait times out.
func (c *Client) waitFor(ctx context.Context, cond func() (bool, error)) error {
	ctx, cancel := context.WithTimeout(ctx, c.waitTimeout)
	defer cancel()
	for {
		ok, err := cond()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		if err := c.sleep(ctx, c.poll); err != nil {
			return errors.New("timed out after " + c.waitTimeout.String())
		}
	}
}

// stringAt returns the string at path in v, "" when there is none.
func stringAt(v value.Value, path ...string) string {
	for _, p := range path {
		v, _ = v.Get(p)
	}
	s, _ := v.AsString()
	return s
}

// crdEstablished reports whether the CRD u has the condition Established
// with status True.
func crdEstablished(u *unstructured.Unstructured) bool {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m, ok := c.(map[string]any)
		if ok && m["type"] == "Established" && m["status"] == "True" {
			return true
		}
	}
	return false
}

// servedVersions lists the names of the served versions of the CRD u.
func servedVersions(u *unstructured.Unstructured) []string {
	vs, _, _ := unstructured.NestedSlice(u.Object, "spec", "versions")
	var out []string
	for _, v := range vs {
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		name, _ := m["name"].(string)
		if served, _ := m["served"].(bool); served && name != "" {
			out = append(out, name)
		}
	}
	return out
}

// progress writes "applied N/M objects" lines to w, at most one a second
// and a last one when finished.
type progress struct {
	w     io.Writer
	total int
	n     atomic.Int64
	mu    sync.Mutex
	last  time.Time
}

func newProgress(w io.Writer, total int) *progress {
	return &progress{w: w, total: total, last: time.Now()}
}

func (p *progress) done() {
	n := p.n.Add(1)
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if now := time.Now(); now.Sub(p.last) >= time.Second {
		p.last = now
		p.write(n)
	}
}

func (p *progress) finish() {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.write(p.n.Load())
}

func (p *progress) write(n int64) {
	io.WriteString(p.w, "ply: applied "+strconv.FormatInt(n, 10)+"/"+strconv.Itoa(p.total)+" objects\n")
}
