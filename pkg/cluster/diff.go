package cluster

import (
	"context"
	"errors"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
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
	// Warnings are messages of the merge that did not stop it.
	Warnings []string
	// Err is why the object could not be diffed (Unified and Fields are
	// then empty).
	Err error
}

// Changed reports whether applying the object would write anything.
func (d DiffResult) Changed() bool { return d.Err == nil && d.Unified != "" }

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
	c.pool(ctx, idx, func(i int) {
		outs[i] = c.diffOne(ctx, objs[i], sch)
		outs[i].Err = c.redact(objs[i], outs[i].Err, outs[i].Live)
	})
	return outs, nil
}

// diffOne diffs one object (see Diff).
func (c *Client) diffOne(ctx context.Context, o Object, sch *openapi.Schema) DiffResult {
	d := DiffResult{Object: o, Ref: refOf(o), Live: value.Null, Merged: value.Null}
	t, err := c.resolve(o)
	d.Ref = t.ref
	if err != nil {
		d.Err = err
		return d
	}
	p, err := c.plan(ctx, t, sch)
	if err != nil {
		d.Err = err
		return d
	}
	d.Exists, d.Live, d.Merged, d.Warnings = p.exists, p.live, p.res.Object, p.res.Warnings
	if p.exists && value.Equal(p.live, p.res.Object) {
		return d
	}
	reasons := make(map[string]FieldChange, len(p.res.Changes))
	for _, ch := range p.res.Changes {
		fc := FieldChange{Path: ch.Path().String(), Op: ch.Op, Reason: reason(ch)}
		d.Fields = append(d.Fields, fc)
		reasons[fc.Path] = fc
	}
	if c.opts.DryRun == DryRunServer {
		_, result, err := c.write(ctx, t, p, true)
		if err != nil {
			d.Err, d.Fields = err, nil
			return d
		}
		d.Merged, d.Fields = result, nil
		if diffText(d.Live) == diffText(d.Merged) {
			return d
		}
		d.Fields = serverFields(d.Live, d.Merged, reasons)
	}
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

// serverFields lists the fields that differ between live and the server's
// answer (maps member by member, other values whole; managedFields left
// out, as in the diff), each with the merge's provenance when the merge
// changed that field, else ReasonSetByServer.
func serverFields(live, answer value.Value, reasons map[string]FieldChange) []FieldChange {
	var out []FieldChange
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
		fc := FieldChange{Path: path.String(), Op: apply.OpReplace, Reason: ReasonSetByServer}
		switch {
		case a.IsNull():
			fc.Op = apply.OpAdd
		case b.IsNull():
			fc.Op = apply.OpRemove
		}
		if r, ok := reasons[fc.Path]; ok {
			fc.Reason = r.Reason
		}
		out = append(out, fc)
	}
	walk(nil, live, answer)
	return out
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
// metadata.managedFields; empty for null (an absent object).
func diffText(v value.Value) string {
	if v.IsNull() {
		return ""
	}
	if md, ok := v.Get("metadata"); ok && md.IsMap() {
		v = v.With("metadata", md.Without("managedFields"))
	}
	return string(v.YAML())
}
