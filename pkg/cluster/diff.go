package cluster

import (
	"bytes"
	"context"
	"errors"
	"strings"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// DiffResult is what applying one object would change.
type DiffResult struct {
	// Object is the object as read.
	Object Object
	// Ref identifies it; Namespace and Resource are set once it is mapped.
	Ref Ref
	// Exists reports whether the object exists on the server.
	Exists bool
	// Live is the object on the server (value.Null when it does not
	// exist); Merged is what applying would write (equal to Live when
	// nothing would change).
	Live, Merged value.Value
	// LiveText and MergedText are what the diff compares: Live and
	// Merged as YAML without metadata.managedFields, Secrets masked
	// (MaskSecrets) unless Options.ShowSecrets; set when they differ.
	LiveText, MergedText string
	// Unified is the unified diff of LiveText against MergedText, named
	// live/<file> and merged/<file> for the Ref's FileName; empty when
	// they are equal.
	Unified string
	// Fields lists the changed fields and what decided each, in the order
	// of apply.Result.Changes.
	Fields []FieldChange
	// Ignored lists the paths of the fields local sets that the merge left
	// as live holds them: fields ply leaves to other writers (ignore.go),
	// and fields of any other registered rule that kept live's value
	// (apply.OpKept). They are not changes.
	Ignored []string
	// Warnings are messages of the merge that did not stop it.
	Warnings []string
	// IgnoredReason, when set, says why apply would leave the object as
	// it is (a per-object control, controls.go): Merged is then Live and
	// there is no diff.
	IgnoredReason string
	// Err is why the object could not be diffed (Unified and Fields are
	// then empty); with DryRunServer, an update refused for immutable
	// fields when re-creating is not asked for is an error wrapping the
	// *ImmutableError ("apply would fail: ..."), and a re-creation whose
	// create the server would refuse a *RecreateRefusedError.
	Err error
	// Recreate, with DryRunServer, is set when the server refuses the
	// update for immutable fields and the object would be deleted and
	// created again (Options.Force or ForceAnnotation): Merged is then
	// the object that would be created (see Client.recreation; the
	// server validated it with a dry-run create), as the server's
	// dry-run create under a generated name answers it (the name put
	// back: defaults show, and a new uid), else as sent.
	Recreate *ImmutableError
	// Note, when not empty, says how Merged was obtained where it is not
	// the server's answer to a dry run (DryRunServer): the object's
	// namespace does not exist yet and is created by a Namespace of the
	// same run (NewNamespaceNote).
	Note string
	// Lane is the lane the object was diffed in (see Client.diffLane).
	Lane Lane
	// paths holds the path of each of Fields.
	paths []fieldpath.Path
}

// Changed reports whether applying the object would write anything.
func (d DiffResult) Changed() bool { return d.Err == nil && (d.Unified != "" || d.Recreate != nil) }

// ReasonNotCarriedOver is the provenance of a FieldChange of a re-created
// object (DiffResult.Recreate) that the merge did not make: a field of the
// old object (set by the server or another writer) that the new one does
// not start with.
const ReasonNotCarriedOver = "not carried over to the re-created object"

// diffRecreation completes d for an update the server refused for the
// immutable fields of ie: an error saying the apply would fail, unless
// re-creating the object is asked for and allowed; then d.Recreate is
// set and d.Merged is the object the re-creation would create, validated
// by a dry-run create.
func (c *Client) diffRecreation(ctx context.Context, d *DiffResult, t target, ie *ImmutableError, sch *openapi.Schema) error {
	if !c.forced(t.local) {
		return &prefixedError{prefix: "apply would fail: ", err: ie}
	}
	if why := notRecreated(t, ie); why != "" {
		ie.Refused = why
		return &prefixedError{prefix: "apply would fail: ", err: ie}
	}
	obj, u, err := c.recreation(t, sch)
	if err != nil {
		return err
	}
	if err := c.validateRecreation(ctx, t, u, true); err != nil {
		return err
	}
	d.Recreate, d.Merged = ie, obj
	if answer, ok := c.dryRunRenamed(ctx, t, u); ok {
		d.Merged = answer
	}
	return nil
}

// dryRunRenamed returns what the server would make of u, the object a
// re-creation of t creates, with its defaults: u sent as a dry-run create
// under a name the server generates from u's (the old object holds u's
// name), the generated name then replaced by u's everywhere in the answer
// (a Job's labels repeat it). ok is false when the server refuses that
// create (a port the old object holds, a name too long to extend): the
// caller keeps u as sent.
func (c *Client) dryRunRenamed(ctx context.Context, t target, u *unstructured.Unstructured) (value.Value, bool) {
	r := u.DeepCopy()
	r.SetName("")
	r.SetGenerateName(u.GetName() + "-")
	got, err := t.ri.Create(ctx, r, c.createOptions(true))
	if err != nil || got == nil || got.GetName() == "" {
		return value.Null, false
	}
	generated := got.GetName()
	data, err := got.MarshalJSON()
	if err != nil {
		return value.Null, false
	}
	data = bytes.ReplaceAll(data, []byte(`"`+generated+`"`), []byte(`"`+u.GetName()+`"`))
	data = bytes.ReplaceAll(data, []byte(generated), []byte(u.GetName()))
	v, err := parse.OwnedDocument(data)
	if err != nil {
		return value.Null, false
	}
	md, _ := v.Get("metadata")
	return v.With("metadata", md.Without("generateName")), true
}

// prefixedError is err with a prefix to its message; errors.As finds err.
type prefixedError struct {
	prefix string
	err    error
}

func (e *prefixedError) Error() string { return e.prefix + e.err.Error() }
func (e *prefixedError) Unwrap() error { return e.err }

// FieldChange is one changed field of a diff and its provenance.
type FieldChange struct {
	// Path is the field path ("spec.containers[name=web].image").
	Path string
	// Op is the change made to live.
	Op apply.Op
	// Reason says which source decided the change: ReasonSetByLocal,
	// ReasonRemovedByLocal, ReasonRemovedSinceApplied or ReasonKeptFromLive.
	Reason string
}

// The provenance of a FieldChange.
const (
	// ReasonSetByLocal: local sets the field to a value live lacks or
	// holds differently.
	ReasonSetByLocal = "set by local"
	// ReasonRemovedByLocal: local removes the field (sets it to null, or
	// leaves out a member of a union it sets another member of).
	ReasonRemovedByLocal = "removed by local"
	// ReasonRemovedSinceApplied: the last apply set the field and local no
	// longer does.
	ReasonRemovedSinceApplied = "removed from local since last apply"
	// ReasonKeptFromLive: the value comes from live (a field neither
	// recorded nor local has).
	ReasonKeptFromLive = "kept from live"
	// ReasonKeptByRule: local sets the field, and the merge rule that
	// decides it (a field another writer owns) kept another value.
	ReasonKeptByRule = "kept by its merge rule"
)

// reason returns the provenance of a change.
func reason(ch apply.Change) string {
	switch {
	case ch.Source == elements.Recorded:
		return ReasonRemovedSinceApplied
	case ch.Source == elements.Live:
		return ReasonKeptFromLive
	case ch.Op == apply.OpRemove:
		return ReasonRemovedByLocal
	case ch.Op == apply.OpKept:
		return ReasonKeptByRule
	}
	return ReasonSetByLocal
}

// ReasonSetByServer is the provenance of a FieldChange of a server-side
// diff that the merge did not make: the server's defaulting, admission or
// conversion (stringData into data) changed the field.
const ReasonSetByServer = "set by the server"

// Diff computes, without writing, what Apply would change: one DiffResult
// per object in input order, merged under the server's schema on Options'
// Workers. With Options.DryRun DryRunServer, the merged object is sent as
// Apply would send it, with dryRun=All, and Merged is the server's answer
// (so defaulting, admission and validation show; a refusal is the
// object's Err); otherwise Merged is the merged object. Custom resources
// whose CRD is applied in the same run but not yet on the server cannot be
// mapped and get an Err. The error is for problems with the run as a whole
// (the schema cannot be read).
func (c *Client) Diff(ctx context.Context, objs []Object) ([]DiffResult, error) {
	sch, err := c.schema(ctx)
	if err != nil {
		return nil, errors.New("cannot read the server's OpenAPI schema: " + err.Error())
	}
	outs := make([]DiffResult, len(objs))
	idx := make([]int, len(objs))
	for i := range idx {
		idx[i] = i
	}
	declared := declaredNamespaces(objs)
	c.pool(ctx, idx, func(i int) {
		octx, heard := withWarnings(ctx)
		outs[i] = c.diffOne(octx, objs[i], sch, declared)
		outs[i].Warnings = heard.appendTo(outs[i].Warnings)
	})
	return outs, nil
}

// dryWrite sends the write of p as a server dry run, repeated while it
// fails transiently (a dry run stores nothing, so a repeat is safe), and
// returns the server's answer.
func (c *Client) dryWrite(ctx context.Context, t target, p planned) (value.Value, error) {
	for {
		_, result, err := c.write(ctx, t, p, true)
		if !transient(err) {
			return result, err
		}
		if err := t.retries.wait(ctx, err); err != nil {
			return value.Null, err
		}
	}
}

// diffOne diffs one object (see Diff); declared are the namespaces the
// run's Namespace objects create.
func (c *Client) diffOne(ctx context.Context, o Object, sch *openapi.Schema, declared map[string]bool) DiffResult {
	d := DiffResult{Object: o, Ref: refOf(o), Live: value.Null, Merged: value.Null}
	t, err := c.resolve(o)
	d.Ref = t.ref
	if err != nil {
		d.Err = err
		return d
	}
	if sd, done := c.diffIfServerSide(ctx, d, &t); done {
		return sd
	}
	if t.recordErr != nil {
		d.Err = t.recordErr
		return d
	}
	p, err := c.plan(ctx, t, sch)
	if why := ignoredWrite(t.local, p.live, p.exists); why != "" {
		d.Exists, d.Live, d.Merged, d.IgnoredReason = true, p.live, p.live, why
		return d
	}
	if err != nil {
		d.Err = err
		return d
	}
	d.Exists, d.Live, d.Merged, d.Warnings = p.exists, p.live, p.res.Object, p.res.Warnings
	for _, ch := range p.res.Changes {
		if ch.Op == apply.OpKept {
			d.Ignored = append(d.Ignored, ch.Path().String())
		}
	}
	if p.exists && value.Equal(p.live, p.res.Object) {
		return d
	}
	reasons := make(map[string]FieldChange, len(p.res.Changes))
	for _, ch := range p.res.Changes {
		fc := FieldChange{Path: ch.Path().String(), Op: ch.Op, Reason: reason(ch)}
		d.Fields = append(d.Fields, fc)
		d.paths = append(d.paths, ch.Path())
		reasons[fc.Path] = fc
	}
	if c.opts.DryRun == DryRunServer {
		result, err := c.dryWrite(ctx, t, p)
		if ie := immutable(err); p.exists && ie != nil {
			d.Fields, d.paths = nil, nil
			if d.Err = c.diffRecreation(ctx, &d, t, ie, sch); d.Err != nil {
				return d
			}
			d.Fields, d.paths = serverFields(d.Live, d.Merged, reasons, ReasonNotCarriedOver, true)
		} else {
			switch {
			case err != nil && !p.exists && declared[t.ref.Namespace] && namespaceNotFound(err, t.ref.Namespace):
				// The dry run cannot succeed before the Namespace exists;
				// the apply creates it first: show the local merge.
				d.Note = NewNamespaceNote(t.ref.Namespace)
				result = p.res.Object
			case err != nil:
				d.Err, d.Fields, d.paths = err, nil, nil
				return d
			}
			d.Merged, d.Fields, d.paths = result, nil, nil
			if diffText(d.Live) == diffText(d.Merged) {
				return d
			}
			d.Fields, d.paths = serverFields(d.Live, d.Merged, reasons, ReasonSetByServer, false)
		}
	}
	return c.rendered(d)
}

// rendered returns d with the texts of d.Live and d.Merged (Secrets
// masked unless Options.ShowSecrets) and their unified diff, named
// live/<file> and merged/<file>; the texts stay empty when equal.
func (c *Client) rendered(d DiffResult) DiffResult {
	live, merged := d.Live, d.Merged
	if !c.opts.ShowSecrets {
		live, merged = MaskSecrets(live, merged)
	}
	d.LiveText, d.MergedText = diffText(live), diffText(merged)
	name := d.Ref.FileName()
	d.Unified = unifiedDiff("live/"+name, "merged/"+name, d.LiveText, d.MergedText)
	if d.Unified == "" {
		d.LiveText, d.MergedText = "", ""
	}
	return d
}

// serverFields lists the fields (and their paths) that differ between live and the server's
// answer (maps member by member, other values whole; managedFields left
// out, as in the diff), each with the merge's provenance when the merge
// changed that field (with nested, also when it changed a field inside a
// value compared whole, such as one item of a list), else other.
func serverFields(live, answer value.Value, reasons map[string]FieldChange, other string, nested bool) ([]FieldChange, []fieldpath.Path) {
	var out []FieldChange
	var paths []fieldpath.Path
	var walk func(path fieldpath.Path, a, b value.Value)
	walk = func(path fieldpath.Path, a, b value.Value) {
		if len(path) == 2 && path[0].Field == "metadata" && path[1].Field == "managedFields" {
			return
		}
		if a.IsMap() && b.IsMap() {
			for _, k := range unionKeys(a, b) {
				av, aok := a.Get(k)
				bv, bok := b.Get(k)
				if !aok {
					av = value.Null
				}
				if !bok {
					bv = value.Null
				}
				walk(append(path[:len(path):len(path)], fieldpath.Field(k)), av, bv)
			}
			return
		}
		if value.Equal(a, b) {
			return
		}
		fc := FieldChange{Path: path.String(), Op: apply.OpReplace, Reason: other}
		switch {
		case a.IsNull():
			fc.Op = apply.OpAdd
		case b.IsNull():
			fc.Op = apply.OpRemove
		}
		if r, ok := reasons[fc.Path]; ok {
			fc.Reason = r.Reason
		} else if r, ok := reasonWithin(reasons, fc.Path); ok && nested {
			fc.Reason = r.Reason
		}
		out = append(out, fc)
		paths = append(paths, path)
	}
	walk(nil, live, answer)
	return out, paths
}

// reasonWithin returns the change of reasons inside the value at path (a
// list compared whole holds the merge's change of one of its items), the
// first in path order when there are several.
func reasonWithin(reasons map[string]FieldChange, path string) (FieldChange, bool) {
	var found FieldChange
	ok := false
	for p, r := range reasons {
		if len(p) > len(path) && strings.HasPrefix(p, path) && (p[len(path)] == '.' || p[len(path)] == '[') && (!ok || p < found.Path) {
			found, ok = r, true
		}
	}
	return found, ok
}

// unionKeys returns the keys of the maps a and b, sorted.
func unionKeys(a, b value.Value) []string {
	var keys []string
	fa, fb := a.Fields(), b.Fields()
	i, j := 0, 0
	for i < len(fa) || j < len(fb) {
		switch {
		case j == len(fb) || (i < len(fa) && fa[i].Key < fb[j].Key):
			keys = append(keys, fa[i].Key)
			i++
		case i == len(fa) || fb[j].Key < fa[i].Key:
			keys = append(keys, fb[j].Key)
			j++
		default:
			keys = append(keys, fa[i].Key)
			i++
			j++
		}
	}
	return keys
}

// diffText renders an object for a diff: YAML without
// metadata.managedFields, the configurations of the last-applied
// annotations decoded at the end (readableLastApplied); empty for null (an
// absent object).
func diffText(v value.Value) string {
	if v.IsNull() {
		return ""
	}
	if md, ok := v.Get("metadata"); ok && md.IsMap() {
		v = v.With("metadata", md.Without("managedFields"))
	}
	v, decoded := readableLastApplied(v)
	return string(v.YAML()) + decoded
}
