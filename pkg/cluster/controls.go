package cluster

import (
	"context"
	"errors"
	"strings"

	"github.com/plyproject/ply/pkg/value"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Per-object controls: annotations, ply's own and those of the tools users
// already run (Flux, Argo CD, kapp), that make a run leave an object as it
// is. An object left so is Ignored (Outcome.IgnoredReason, DiffResult's,
// the plan's action "ignored" with its reason): nothing is written or
// deleted for it.
//
//   - On the live object, ReconcileAnnotation "disabled" (or Flux's
//     kustomize.toolkit.fluxcd.io/reconcile: disabled): the run neither
//     writes nor re-creates it, and prune does not delete it.
//   - On the manifest, CreateAnnotation "if-absent" (or Flux's
//     kustomize.toolkit.fluxcd.io/ssa: IfNotPresent): the object is created
//     when absent and left as it is when it exists.
//   - On a live object prune would delete, PruneAnnotation "disabled" (or
//     Flux's kustomize.toolkit.fluxcd.io/prune: disabled, Argo CD's
//     argocd.argoproj.io/sync-options holding Prune=false, kapp's
//     kapp.k14s.io/delete-strategy: orphan): prune does not delete it.
//
// Values are compared without regard to case, as Flux compares them; only
// annotations are read (Flux reads labels of the same keys too).

// The annotations of ply's per-object controls.
const (
	// ReconcileAnnotation "disabled" on a live object leaves it as it is:
	// not written, not re-created, not pruned.
	ReconcileAnnotation = "ply.dev/reconcile"
	// CreateAnnotation "if-absent" on a manifest creates the object only
	// when it does not exist.
	CreateAnnotation = "ply.dev/create"
	// PruneAnnotation "disabled" on a live object keeps prune from
	// deleting it.
	PruneAnnotation = "ply.dev/prune"
)

// The peers' annotations ply reads as its controls.
const (
	fluxReconcileAnnotation = "kustomize.toolkit.fluxcd.io/reconcile"
	fluxSSAAnnotation       = "kustomize.toolkit.fluxcd.io/ssa"
	fluxPruneAnnotation     = "kustomize.toolkit.fluxcd.io/prune"
	argoSyncOptions         = "argocd.argoproj.io/sync-options"
	kappDeleteStrategy      = "kapp.k14s.io/delete-strategy"
)

// The reasons of an Ignored object.
const (
	// IgnoredReconcileDisabled: the live object disables reconciling.
	IgnoredReconcileDisabled = "reconcile disabled"
	// IgnoredExists: the manifest asks for a create only, and the object
	// exists.
	IgnoredExists = "exists, created only if absent"
	// IgnoredPruneDisabled: the live object disables its pruning.
	IgnoredPruneDisabled = "prune disabled"
)

// annotationIs reports whether ann holds key with the value want, case
// aside.
func annotationIs(ann map[string]string, key, want string) bool {
	v, ok := ann[key]
	return ok && strings.EqualFold(strings.TrimSpace(v), want)
}

// reconcileDisabled reports whether the live object's annotations
// disable reconciling it.
func reconcileDisabled(ann map[string]string) bool {
	return annotationIs(ann, ReconcileAnnotation, "disabled") || annotationIs(ann, fluxReconcileAnnotation, "disabled")
}

// createOnly reports whether the manifest's annotations ask for the
// object to be created only when absent.
func createOnly(ann map[string]string) bool {
	return annotationIs(ann, CreateAnnotation, "if-absent") || annotationIs(ann, fluxSSAAnnotation, "IfNotPresent")
}

// pruneDisabled reports whether the live object's annotations keep prune
// from deleting it: one of the prune controls, Argo CD's sync options a
// comma-separated list of which holds Prune=false.
func pruneDisabled(ann map[string]string) bool {
	if annotationIs(ann, PruneAnnotation, "disabled") || annotationIs(ann, fluxPruneAnnotation, "disabled") ||
		annotationIs(ann, kappDeleteStrategy, "orphan") {
		return true
	}
	for _, opt := range strings.Split(ann[argoSyncOptions], ",") {
		if strings.EqualFold(strings.TrimSpace(opt), "Prune=false") {
			return true
		}
	}
	return false
}

// ignoredWrite returns why a run leaves the object of the manifest local
// as it is, given live (exists: whether it exists), "" when it writes it:
// IgnoredReconcileDisabled, IgnoredExists.
func ignoredWrite(local, live value.Value, exists bool) string {
	switch {
	case !exists:
		return ""
	case reconcileDisabled(annotationsOf(live)):
		return IgnoredReconcileDisabled
	case createOnly(annotationsOf(local)):
		return IgnoredExists
	}
	return ""
}

// ignoredPrune returns why prune leaves the live object whose annotations
// are ann, "" when it deletes it: IgnoredReconcileDisabled,
// IgnoredPruneDisabled.
func ignoredPrune(ann map[string]string) string {
	switch {
	case reconcileDisabled(ann):
		return IgnoredReconcileDisabled
	case pruneDisabled(ann):
		return IgnoredPruneDisabled
	}
	return ""
}

// leftAlone reports whether a per-object control leaves the object of t
// as it is, given p, the read for its write (see ignoredWrite), and then
// fills out: Ignored with the reason; after an update of this run whose
// answer was lost (which the server may hold), Failed with a
// *LostWriteError, so that the outcome does not read as nothing written.
// After a create of this run whose answer was lost, the object found may
// be this run's: it is settled as before (lostWrite), not ignored.
func leftAlone(t target, p planned, lost *lostWrite, out *Outcome) bool {
	if lost != nil && lost.create {
		return false
	}
	why := ignoredWrite(t.local, p.live, p.exists)
	switch {
	case why == "":
		return false
	case lost != nil:
		out.Err = lost.failure(errors.New("left as it is (" + why + ")"))
	default:
		out.Action, out.IgnoredReason, out.Result = Ignored, why, p.live
	}
	return true
}

// kept returns the outcomes of the objects a run keeps in its ApplySet:
// those of the n objects applied, and the objects prune left alone
// (Ignored), so that the parent goes on listing their kinds and
// namespaces.
func kept(outs []Outcome, n int) []Outcome {
	out := outs[:n:n]
	for _, o := range outs[n:] {
		if o.Action == Ignored {
			out = append(out, o)
		}
	}
	return out
}

// plannedDelete sets in opts the resourceVersion precondition that
// Options.ExpectPrune gives for the deletion of ref, and returns it; ""
// without ExpectPrune. An object the plan does not delete is an error:
// it is not deleted.
func (c *Client) plannedDelete(ref Ref, opts *metav1.DeleteOptions) (string, error) {
	if c.opts.ExpectPrune == nil {
		return "", nil
	}
	rv, ok := c.opts.ExpectPrune(ref)
	if !ok {
		return "", errors.New("not among the plan's deletions; not deleted")
	}
	opts.Preconditions.ResourceVersion = &rv
	return rv, nil
}

// holdServerSide reads the live object of t for the server-side lane's
// controls before its patch (from t.pre or t.bulk when read already):
// it fills out and returns true when the object is left as it is
// (Ignored) or fails (the read, Options.Expect's verdict). Under
// Options.Expect, t.held is set to the resourceVersion read, which the
// first apply patch then carries as its precondition.
func (c *Client) holdServerSide(ctx context.Context, t *target, out *Outcome) bool {
	live, found, err := c.readLive(ctx, *t)
	if err != nil {
		out.Err = c.maskStatus(t.ref, err)
		return true
	}
	t.pre = &liveRead{live: live, found: found}
	if why := ignoredWrite(t.config, live, found); why != "" {
		out.Action, out.IgnoredReason, out.Result = Ignored, why, live
		return true
	}
	if c.opts.Expect == nil {
		return false
	}
	rv := stringAt(live, "metadata", "resourceVersion")
	if err := c.opts.Expect(t.ref, rv, found); err != nil {
		out.Err = err
		return true
	}
	t.held = rv
	return false
}

// sendFirst sends the first apply patch of t, config, as sendPatch does.
// When the writes are held to a plan (t.held), the patch carries
// metadata.resourceVersion t.held, which the server refuses with a
// conflict once live moved; a repeat after a transient failure that the
// server refuses so may have been refused for the repeated patch's own
// stored write: it is then a *LostWriteError, not a move since the plan.
func (c *Client) sendFirst(ctx context.Context, t target, config value.Value, manager string, dry bool) (value.Value, bool, error) {
	if t.held == "" {
		return c.sendPatch(ctx, t, types.ApplyPatchType, applyBody(config), manager, c.opts.ForceConflicts, dry)
	}
	md, _ := config.Get("metadata")
	body := applyBody(config.With("metadata", md.With("resourceVersion", value.String(t.held))))
	var answer value.Value
	created, lost := false, false
	err := t.retries.do(ctx, func(ctx context.Context) error {
		var err error
		answer, created, err = c.patchOnce(ctx, t, types.ApplyPatchType, body, manager, c.opts.ForceConflicts, dry)
		lost = lost || (transient(err) && !dry)
		return err
	})
	if lost && apierrors.IsConflict(err) && !managerConflict(err) {
		return value.Null, false, &LostWriteError{Err: c.maskStatus(t.ref, err)}
	}
	return answer, created, err
}

// heldError is err, the failure of t's server-side apply, saying that the
// live object moved since the plan when the patch held to t.held was
// refused for it (a conflict that is not another manager's fields, nor
// the repeat of a patch whose answer was lost).
func heldError(t target, err error) error {
	var mce *ManagerConflictError
	var lost *LostWriteError
	if t.held == "" || !apierrors.IsConflict(err) || errors.As(err, &mce) || errors.As(err, &lost) {
		return err
	}
	return movedSincePlan(t)
}

// movedSincePlan is the failure of t when its live object is no longer
// at t.held, the resourceVersion of the plan.
func movedSincePlan(t target) error {
	return errors.New("the live object changed since the plan (resourceVersion \"" + t.held + "\" in the plan); nothing was written")
}
