package cluster

import (
	"context"

	"github.com/plyproject/ply/pkg/value"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
)

// A server dry run of the server-side lane shows what the real run would
// leave. The real run of an object last applied client-side sends the
// apply patch, moves the client-side managers' fields to the lane's
// manager (keeping kubectl's annotation for the manager kubectl) and sends
// the apply patch again, which removes the fields the manifest dropped;
// a dry run persists nothing, so the follow-ups cannot be sent after it.
// The dry run sends the first patch with dryRun=All and derives the rest
// from the server's answer (dryHandOver): under the manager kubectl,
// kubectl's annotation that no Apply manager owns is given to
// kubectl-last-applied, as handOver gives it (dryKeepLastApplied); the
// fields the client-side managers own there, that the lane's manager does
// not apply and that no other manager owns, are what the second patch would
// remove; they are removed from the answer, and the client-side managers'
// entries left out of its managedFields. A first patch that conflicts only with those
// client-side managers, which the real run moves out of the way first
// (migrateFirst), is sent with force: the fields it takes are the ones the
// move would give the lane's manager.

// dryHandOver returns the server's dry-run answer to the first apply patch
// of an object under manager as the real run would leave the object, and
// whether the run would move client-side managers' fields (see above).
func dryHandOver(answer value.Value, manager string) (value.Value, bool) {
	answer = dryKeepLastApplied(answer, manager)
	csa := sets.New(owners(answer, "Update", LastAppliedAnnotation)...)
	csa.Insert(owners(answer, "Update", CompressedLastAppliedAnnotation)...)
	if csa.Len() == 0 {
		return answer, false
	}
	md, _ := answer.Get("metadata")
	mf, _ := md.Get("managedFields")
	moved, kept := value.MustMap(), value.MustMap()
	var entries []value.Value
	for _, e := range mf.Items() {
		fields, _ := e.Get("fieldsV1")
		if stringAt(e, "operation") == "Update" && stringAt(e, "subresource") == "" && csa.Has(stringAt(e, "manager")) {
			moved = unionFields(moved, fields)
			continue
		}
		kept = unionFields(kept, fields)
		entries = append(entries, e)
	}
	removed := fieldsOutside(moved, kept)
	out := keepIdentity(answer, withoutOwned(answer, removed))
	omd, _ := out.Get("metadata")
	return out.With("metadata", omd.With("managedFields", value.List(entries))), true
}

// dryKeepLastApplied returns the server's dry-run answer to the first apply
// patch of an object under manager as handOver (keepLastApplied) would leave
// it: when manager is kubectl's and the answer holds kubectl's last-applied
// annotation that no Apply manager owns, its managedFields gain the Apply
// entry of the manager "kubectl-last-applied" that owns the annotation,
// timed as manager's entry (the patch's time) and placed where the server
// places it (lastAppliedEntry).
func dryKeepLastApplied(answer value.Value, manager string) value.Value {
	if manager != DefaultServerSideFieldManager || !lastAppliedUnowned(answer) {
		return answer
	}
	md, _ := answer.Get("metadata")
	mf, _ := md.Get("managedFields")
	entry := []value.Field{{Key: "manager", Value: value.String(lastAppliedManager)}, {Key: "operation", Value: value.String("Apply")}}
	if apiVersion, ok := answer.Get("apiVersion"); ok {
		entry = append(entry, value.Field{Key: "apiVersion", Value: apiVersion})
	}
	for _, e := range mf.Items() {
		if stringAt(e, "operation") == "Apply" && stringAt(e, "manager") == manager && stringAt(e, "subresource") == "" {
			if at, ok := e.Get("time"); ok {
				entry = append(entry, value.Field{Key: "time", Value: at})
			}
		}
	}
	entry = append(entry, value.Field{Key: "fieldsType", Value: value.String("FieldsV1")},
		value.Field{Key: "fieldsV1", Value: fieldsPath("metadata", "annotations", LastAppliedAnnotation)})
	return answer.With("metadata", md.With("managedFields", value.List(withEntry(mf.Items(), value.MustMap(entry...)))))
}

// withEntry returns the managedFields entries with entry added where the
// server orders it (by operation, then time, RFC 3339 in UTC, which sorts as
// text, then manager name): after the last entry that does not sort after
// it.
func withEntry(entries []value.Value, entry value.Value) []value.Value {
	key := func(e value.Value) [3]string {
		return [3]string{stringAt(e, "operation"), stringAt(e, "time"), stringAt(e, "manager")}
	}
	at, k := 0, key(entry)
	for i, e := range entries {
		if ke := key(e); ke[0] < k[0] || ke[0] == k[0] && (ke[1] < k[1] || ke[1] == k[1] && ke[2] <= k[2]) {
			at = i + 1
		}
	}
	out := make([]value.Value, 0, len(entries)+1)
	out = append(out, entries[:at]...)
	out = append(out, entry)
	return append(out, entries[at:]...)
}

// dryApply sends t's apply patch body under the lane's manager as a dry
// run and returns the server's answer as the real run would leave the
// object (dryForce, dryHandOver): what ply diff --server-side-apply diffs.
func (c *Client) dryApply(ctx context.Context, t target, body []byte) (value.Value, error) {
	manager := c.serverSideManager()
	answer, _, err := c.sendPatch(ctx, t, types.ApplyPatchType, body, manager, c.opts.ForceConflicts, true)
	err = fieldValidationError(err)
	if err != nil && managerConflict(err) {
		answer, _, err = c.dryForce(ctx, t, body, manager, err)
	}
	if err != nil {
		return value.Null, err
	}
	answer, _ = dryHandOver(answer, manager)
	return answer, nil
}

// dryForce sends, for a dry run, the first apply patch of t again with
// force when the server refused it only for fields of the object's
// client-side managers (clientSideConflict), which the real run moves to
// the lane's manager before it applies: the answer and whether it created
// the object; conflict itself when the conflict is any other.
func (c *Client) dryForce(ctx context.Context, t target, body []byte, manager string, conflict error) (value.Value, bool, error) {
	live, found, err := c.readLive(ctx, target{ref: t.ref, ri: t.ri, retries: t.retries})
	if err != nil || !found || !clientSideConflict(live, conflict) {
		return value.Null, false, conflict
	}
	return c.sendPatch(ctx, t, types.ApplyPatchType, body, manager, true, true)
}

// clientSideConflict reports whether every manager the apply conflict
// conflict names is a client-side manager of live (an Update manager that
// owns a last-applied annotation, kubectl's or ply's compressed one).
func clientSideConflict(live value.Value, conflict error) bool {
	csa := sets.New(owners(live, "Update", LastAppliedAnnotation)...)
	csa.Insert(owners(live, "Update", CompressedLastAppliedAnnotation)...)
	for _, name := range conflictManagerNames(conflict) {
		if !csa.Has(name) {
			return false
		}
	}
	return true
}
