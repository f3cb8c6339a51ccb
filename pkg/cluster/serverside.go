package cluster

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/plyproject/ply/pkg/value"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/util/csaupgrade"
)

// The server-side lane: each object is sent as one server-side apply
// patch (types.ApplyPatchType) under the server-side field manager, after
// a read for the per-object controls (controls.go); the server merges
// it with what it holds and records the fields in managedFields. What
// kubectl apply --server-side does after that patch, ply does too, from
// the server's answer alone:
//
//   - with the field manager "kubectl", an object that carries kubectl's
//     last-applied annotation that no Apply manager owns gets it owned by
//     the manager "kubectl-last-applied" (one more apply patch), so that
//     the annotation is kept: the server then keeps it up to date on every
//     apply of the manager "kubectl";
//   - an object whose last-applied annotation (kubectl's or ply's
//     compressed one) an Update manager owns was applied client-side: the
//     fields of those managers move to the server-side manager
//     (csaupgrade, a JSON patch carrying the resourceVersion of the
//     answer), and the apply patch is sent again, so that fields the
//     manifest no longer sets are removed.
//
// A dry run sends the first patch (with dryRun=All) and derives from the
// server's answer what the follow-ups would leave (ssadry.go).

// Lane selects how Apply writes each object.
type Lane int

const (
	// LaneClientSide reads, merges with the last-applied record and
	// writes with the resourceVersion read (ply's three-way merge).
	LaneClientSide Lane = iota
	// LaneServerSide sends each object as a server-side apply patch.
	LaneServerSide
	// LaneAuto applies each object in the lane it was last applied in (see
	// Client.laneOf); a new object client-side unless its configuration
	// is over the annotation limit.
	LaneAuto
)

// String names the lane as --server-side takes it: "false", "true", "auto".
func (l Lane) String() string {
	switch l {
	case LaneClientSide:
		return "false"
	case LaneServerSide:
		return "true"
	case LaneAuto:
		return "auto"
	}
	return "invalid"
}

// Word names the lane in output lines: "client-side", "server-side".
func (l Lane) Word() string {
	if l == LaneServerSide {
		return "server-side"
	}
	return "client-side"
}

// ParseLane parses the value of --server-side: true, false or auto.
func ParseLane(s string) (Lane, error) {
	switch s {
	case "false":
		return LaneClientSide, nil
	case "true":
		return LaneServerSide, nil
	case "auto":
		return LaneAuto, nil
	}
	return LaneClientSide, errors.New(`invalid --server-side value "` + s + `", want true, false or auto`)
}

// LargeObjects selects the lane of an object whose configuration would push
// its annotations over AnnotationsLimit, in the client-side and auto lanes.
type LargeObjects int

const (
	// LargeServerSide applies such an object server-side (the default), so
	// that kubectl can still apply it.
	LargeServerSide LargeObjects = iota
	// LargeCompressed records its configuration client-side in ply's
	// compressed annotation (CompressedLastAppliedAnnotation), which only
	// ply reads.
	LargeCompressed
)

// ParseLargeObjects parses the value of --large-objects: server-side or
// compressed-annotation.
func ParseLargeObjects(s string) (LargeObjects, error) {
	switch s {
	case "server-side":
		return LargeServerSide, nil
	case "compressed-annotation":
		return LargeCompressed, nil
	}
	return LargeServerSide, errors.New(`invalid --large-objects value "` + s + `", want server-side or compressed-annotation`)
}

// DefaultServerSideFieldManager is the manager name of the server-side
// lane unless Options.FieldManager names another: kubectl apply
// --server-side's, so that kubectl and ply take turns on an object.
const DefaultServerSideFieldManager = "kubectl"

// lastAppliedManager is the Apply manager kubectl gives its last-applied
// annotation so that server-side applies of the manager "kubectl" keep it.
const lastAppliedManager = "kubectl-last-applied"

// serverSideManager is the manager name of the server-side lane.
func (c *Client) serverSideManager() string {
	if c.opts.FieldManager == "" {
		return DefaultServerSideFieldManager
	}
	return c.opts.FieldManager
}

// ssaResult is what a server-side apply of one object did.
type ssaResult struct {
	// answer is the server's last answer: the object as it holds it.
	answer value.Value
	// created is true when the first patch created the object; migrated
	// when the object's client-side managers were moved to the lane's.
	created, migrated bool
}

// applyServerSide applies t server-side (see the lane's description
// above). The patches are repeated while they fail transiently: an apply
// patch is idempotent, and the migration patch carries the
// resourceVersion it was computed from.
func (c *Client) applyServerSide(ctx context.Context, t target) (ssaResult, error) {
	var r ssaResult
	config, err := c.serverSideConfig(ctx, t)
	if err != nil {
		return r, c.maskStatus(t.ref, err)
	}
	dry := c.opts.DryRun == DryRunServer
	manager := c.serverSideManager()
	if t.pre != nil && t.pre.found && alreadyApplied(t.pre.live, config, manager) {
		r.answer = t.pre.live
		return r, nil
	}
	body := applyBody(config)
	answer, created, err := c.sendFirst(ctx, t, config, manager, dry)
	err = fieldValidationError(err)
	switch {
	case err != nil && dry && managerConflict(err):
		answer, created, err = c.dryForce(ctx, t, body, manager, err)
	case err != nil && managerConflict(err):
		var moved bool
		if answer, moved, err = c.migrateFirst(ctx, t, body, manager, err); moved {
			r.migrated = true
		}
	}
	if err != nil {
		return r, c.ssaError(t.ref, err)
	}
	r.answer, r.created = answer, created
	if dry {
		r.answer, r.migrated = dryHandOver(answer, manager)
		return r, nil
	}
	if r.migrated {
		return r, nil
	}
	if r.answer, err = c.handOver(ctx, t, r.answer, manager); err != nil {
		return r, c.maskStatus(t.ref, err)
	}
	migrated, err := c.migrate(ctx, t, r.answer, manager)
	if err != nil || migrated.IsNull() {
		return r, c.maskStatus(t.ref, err)
	}
	r.migrated = true
	r.answer, _, err = c.sendPatch(ctx, t, types.ApplyPatchType, body, manager, c.opts.ForceConflicts, false)
	if err != nil {
		// The object holds the first patch, its fields moved to manager:
		// the next apply removes what this one could not.
		return r, &prefixedError{prefix: "applied, and the client-side managers' fields moved to " + strconv.Quote(manager) +
			", but the apply sent again to remove the fields the manifest dropped failed: ", err: c.ssaError(t.ref, err)}
	}
	return r, nil
}

// serverSideConfig is the configuration the lane applies: t's, less the fields ply leaves to other writers (ignore
// rules, see ignore.go): the paths the flags and the object's annotation name and, when managers are named
// (Options.IgnoreManagers), the fields live's managedFields give them; live is read for that alone, once. Left out of
// an apply configuration, a field keeps its owner's value and raises no conflict, as the client-side lane keeps live's.
func (c *Client) serverSideConfig(ctx context.Context, t target) (value.Value, error) {
	live := value.Null
	if len(c.opts.IgnoreManagers) > 0 {
		v, found, err := c.readLive(ctx, t)
		if err != nil {
			return value.Null, err
		}
		if found {
			live = v
		}
	}
	given, owned := c.ignored(t.ref, t.local, live)
	if len(given)+len(owned) == 0 {
		return t.config, nil
	}
	return StripIgnored(t.config, append(given, owned...)), nil
}

// handOver returns answer after keepLastApplied when manager is kubectl's.
func (c *Client) handOver(ctx context.Context, t target, answer value.Value, manager string) (value.Value, error) {
	if manager != DefaultServerSideFieldManager {
		return answer, nil
	}
	return c.keepLastApplied(ctx, t, answer)
}

// migrateFirst handles the conflict conflict of t's first apply patch:
// when every manager it names is a client-side manager of the object (an
// Update manager that owns a last-applied annotation: ply's or kubectl's
// earlier client-side apply, whose fields the migration would move
// anyway), the object is read, handed over as after a patch (handOver,
// migrate) and the patch sent again; moved reports that the fields were
// moved. kubectl migrates only after a patch that succeeded, so its first
// server-side apply of an object whose manifest changed a value its
// client-side apply set fails; ply's goes through. Any other conflict is
// returned as it is.
func (c *Client) migrateFirst(ctx context.Context, t target, body []byte, manager string, conflict error) (answer value.Value, moved bool, err error) {
	live, found, err := c.readLive(ctx, target{ref: t.ref, ri: t.ri, retries: t.retries})
	if err != nil || !found {
		return value.Null, false, conflict
	}
	if t.held != "" && stringAt(live, "metadata", "resourceVersion") != t.held {
		return value.Null, false, movedSincePlan(t)
	}
	if !clientSideConflict(live, conflict) {
		return value.Null, false, conflict
	}
	if live, err = c.handOver(ctx, t, live, manager); err != nil {
		return value.Null, false, err
	}
	switch migrated, err := c.migrate(ctx, t, live, manager); {
	case err != nil:
		return value.Null, false, err
	case migrated.IsNull():
		return value.Null, false, conflict
	}
	answer, _, err = c.sendPatch(ctx, t, types.ApplyPatchType, body, manager, c.opts.ForceConflicts, false)
	return answer, true, err
}

// conflictManagerNames returns the names of the managers the causes of a
// server-side apply conflict name (empty when one cannot be read).
func conflictManagerNames(err error) []string {
	var status apierrors.APIStatus
	if !errors.As(err, &status) || status.Status().Details == nil {
		return []string{""}
	}
	var out []string
	for _, cause := range status.Status().Details.Causes {
		if cause.Type != metav1.CauseTypeFieldManagerConflict {
			continue
		}
		rest, _ := strings.CutPrefix(cause.Message, "conflict with ")
		quoted, qerr := strconv.QuotedPrefix(rest)
		name, uerr := strconv.Unquote(quoted)
		if qerr != nil || uerr != nil {
			name = ""
		}
		out = append(out, name)
	}
	return out
}

// keepLastApplied gives kubectl's last-applied annotation of answer, when
// it has one that no Apply manager owns, to the manager
// "kubectl-last-applied", as kubectl does, and returns the server's answer.
func (c *Client) keepLastApplied(ctx context.Context, t target, answer value.Value) (value.Value, error) {
	if !lastAppliedUnowned(answer) {
		return answer, nil
	}
	text := stringAt(answer, "metadata", "annotations", LastAppliedAnnotation)
	md := value.MustMap(value.Field{Key: "name", Value: value.String(t.ref.Name)},
		value.Field{Key: "annotations", Value: value.MustMap(value.Field{Key: LastAppliedAnnotation, Value: value.String(text)})})
	if t.ref.Namespace != "" {
		md = md.With("namespace", value.String(t.ref.Namespace))
	}
	patch := value.MustMap(value.Field{Key: "apiVersion", Value: value.String(t.ref.GroupVersion().String())},
		value.Field{Key: "kind", Value: value.String(t.ref.Kind)}, value.Field{Key: "metadata", Value: md})
	got, _, err := c.sendPatch(ctx, t, types.ApplyPatchType, applyBody(patch), lastAppliedManager, false, false)
	return got, err
}

// lastAppliedUnowned reports whether answer holds kubectl's last-applied annotation and no Apply manager owns it: the
// annotation kubectl's server-side apply gives to the manager "kubectl-last-applied".
func lastAppliedUnowned(answer value.Value) bool {
	return stringAt(answer, "metadata", "annotations", LastAppliedAnnotation) != "" &&
		len(owners(answer, "Apply", LastAppliedAnnotation)) == 0
}

// migrate moves the fields of the client-side managers of live (the
// Update managers that own a last-applied annotation) to manager, with
// csaupgrade, and returns the server's answer; value.Null when there was
// nothing to move. A conflict (live changed since) reads it again, up to
// Options.MaxAttempts times.
func (c *Client) migrate(ctx context.Context, t target, live value.Value, manager string) (value.Value, error) {
	for attempt := 1; ; attempt++ {
		names := sets.New(owners(live, "Update", LastAppliedAnnotation)...)
		names.Insert(owners(live, "Update", CompressedLastAppliedAnnotation)...)
		if names.Len() == 0 {
			return value.Null, nil
		}
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(live.JSON()); err != nil {
			return value.Null, errors.New("cannot read the managed fields: " + err.Error())
		}
		patch, err := csaupgrade.UpgradeManagedFieldsPatch(u, names, manager)
		if err != nil || patch == nil {
			return value.Null, err
		}
		got, _, err := c.sendPatch(ctx, t, types.JSONPatchType, patch, manager, false, false)
		if err == nil {
			return got, nil
		}
		if !apierrors.IsConflict(err) || attempt >= c.opts.MaxAttempts {
			return value.Null, errors.New("cannot move the client-side managers' fields to " + strconv.Quote(manager) + ": " + c.maskStatus(t.ref, err).Error())
		}
		found := false
		if live, found, err = c.readLive(ctx, target{ref: t.ref, ri: t.ri, retries: t.retries}); err != nil || !found {
			return value.Null, err
		}
	}
}

// owners returns the managers of v's managedFields entries of operation op
// that own the annotation key.
func owners(v value.Value, op, key string) []string {
	mf, _ := v.Get("metadata")
	mf, _ = mf.Get("managedFields")
	var out []string
	for _, e := range mf.Items() {
		if stringAt(e, "operation") != op || stringAt(e, "subresource") != "" {
			continue
		}
		f, _ := e.Get("fieldsV1")
		f, _ = f.Get("f:metadata")
		f, _ = f.Get("f:annotations")
		if _, ok := f.Get("f:" + key); ok {
			out = append(out, stringAt(e, "manager"))
		}
	}
	return out
}

// sendPatch sends one patch of type pt for t's object under manager,
// repeated while it fails transiently, and returns the server's answer and
// whether it created the object (201).
func (c *Client) sendPatch(ctx context.Context, t target, pt types.PatchType, body []byte, manager string, force, dry bool) (answer value.Value, created bool, err error) {
	err = t.retries.do(ctx, func(ctx context.Context) error {
		var err error
		answer, created, err = c.patchOnce(ctx, t, pt, body, manager, force, dry)
		return err
	})
	return answer, created, err
}

// patchOnce sends one patch of type pt for t's object under manager and
// returns the server's answer and whether it created the object (201,
// known on the wire path only).
func (c *Client) patchOnce(ctx context.Context, t target, pt types.PatchType, body []byte, manager string, force, dry bool) (value.Value, bool, error) {
	if c.raw != nil {
		return c.patchRaw(ctx, t.ref, pt, body, manager, force, dry)
	}
	opts := metav1.PatchOptions{FieldManager: manager}
	if pt == types.ApplyPatchType {
		opts.Force = &force
	}
	if dry {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	got, err := t.ri.Patch(ctx, t.ref.Name, pt, body, opts)
	if err != nil {
		return value.Null, false, err
	}
	answer, err := toValue(got)
	return answer, false, err
}

// patchRaw sends one patch through the wire path (wire.go).
func (c *Client) patchRaw(ctx context.Context, ref Ref, pt types.PatchType, body []byte, manager string, force, dry bool) (value.Value, bool, error) {
	req := c.writeParams(c.raw.Patch(pt).AbsPath(refPath(ref)...).Body(body), manager, dry)
	if force && pt == types.ApplyPatchType {
		req = req.Param("force", "true")
	}
	res := req.MaxRetries(0).Do(ctx)
	if err := res.Error(); err != nil {
		return value.Null, false, err
	}
	code := 0
	res.StatusCode(&code)
	data, err := res.Raw()
	if err != nil {
		return value.Null, false, err
	}
	v, err := decodeAnswer(data, "server's answer")
	return v, code == 201, err
}

// FieldConflict is one field of a server-side apply that another manager
// owns with another value.
type FieldConflict struct {
	// Path is the field's path as the server writes it (".data.a",
	// `.spec.containers[name="web"].image`).
	Path string
	// Manager names the manager that owns it, as the server does:
	// `"kubectl"`, or `"kubectl-client-side-apply" using v1 at ...` for a
	// manager of Update operations.
	Manager string
}

// ManagerConflictError is the server's refusal of a server-side apply
// because fields it sets are owned by other managers with other values
// (409, causes of type FieldManagerConflict). It is built from the
// Status's causes (field paths and manager names), never from the
// server's message, so that it holds no value of a Secret.
type ManagerConflictError struct {
	Conflicts []FieldConflict
	err       error
}

func (e *ManagerConflictError) Error() string {
	var sb strings.Builder
	n := len(e.Conflicts)
	if n == 1 {
		sb.WriteString("server-side apply conflicts with another field manager: ")
	} else {
		sb.WriteString("server-side apply conflicts with other field managers on " + strconv.Itoa(n) + " fields: ")
	}
	for i, fc := range e.Conflicts {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(fc.Path + " (owned by " + fc.Manager + ")")
	}
	sb.WriteString("; to take them over, apply again with --force-conflicts; to leave them to their managers, " +
		"remove them from the manifest, or set them to the live values to share them")
	return sb.String()
}

// Unwrap returns the server's error.
func (e *ManagerConflictError) Unwrap() error { return e.err }

// ssaError returns err, an error of a server-side apply patch of ref, as a
// *ManagerConflictError when the server refused it for other managers'
// fields, else masked (maskStatus).
func (c *Client) ssaError(ref Ref, err error) error {
	var status apierrors.APIStatus
	if err == nil || !managerConflict(err) || !errors.As(err, &status) {
		return c.maskStatus(ref, err)
	}
	e := &ManagerConflictError{err: err}
	for _, cause := range status.Status().Details.Causes {
		if cause.Type != metav1.CauseTypeFieldManagerConflict {
			continue
		}
		e.Conflicts = append(e.Conflicts, FieldConflict{Path: cause.Field, Manager: conflictManager(cause.Message)})
	}
	return e
}

// conflictManager returns the manager of a FieldManagerConflict cause's
// message (`conflict with "kubectl"`, `conflict with "x" using v1 at T`):
// what follows "conflict with ", when it starts with a quoted name.
func conflictManager(msg string) string {
	rest, ok := strings.CutPrefix(msg, "conflict with ")
	if !ok {
		return "another manager"
	}
	name, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return "another manager"
	}
	if using, ok := strings.CutPrefix(rest[len(name):], " using "); ok {
		// An Update manager: its API version and time, which the server
		// writes (no value of the object).
		return name + " (client-side, " + using + ")"
	}
	return name
}

// ReasonServerSideApply is the provenance of the FieldChanges of a
// server-side diff (Options.Lane LaneServerSide): the field differs in the
// server's dry-run answer to the server-side apply.
const ReasonServerSideApply = "set by the server-side apply"

// diffServerSide fills d, for the resolved t, with the diff of the live
// object against the server's answer to t's server-side apply patch sent
// with dryRun=All, as the real run would leave the object (dryApply): for
// an object last applied client-side, the fields the migration would then
// remove (see applyServerSide) are shown removed.
func (c *Client) diffServerSide(ctx context.Context, d DiffResult, t target) DiffResult {
	live, found, err := c.readLive(ctx, t)
	if err != nil {
		d.Err = c.maskStatus(t.ref, err)
		return d
	}
	if why := ignoredWrite(t.config, live, found); why != "" {
		d.Exists, d.Live, d.Merged, d.IgnoredReason = true, live, live, why
		return d
	}
	// Live is kept when the patch fails: a plan names the version the
	// failure was computed against.
	d.Exists, d.Live = found, live
	answer, err := c.dryApply(ctx, t, applyBody(t.config))
	if err != nil {
		d.Err = c.ssaError(t.ref, err)
		return d
	}
	d.Merged = answer
	if found && diffText(live) == diffText(answer) {
		d.Merged = live
		return d
	}
	d.Fields, d.paths = serverFields(d.Live, d.Merged, nil, ReasonServerSideApply, false)
	return c.rendered(d)
}
