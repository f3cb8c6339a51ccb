package cluster

import (
	"context"
	"errors"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/pkg/apply"
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
	// Unified is the unified diff of Live against Merged, both as YAML
	// without metadata.managedFields, named live/<file> and merged/<file>
	// for the Ref's FileName; empty when they are equal.
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

// Diff computes, without writing, what Apply would change: one DiffResult
// per object in input order, merged under the server's schema on Options'
// Workers. Custom resources whose CRD is applied in the same run but not
// yet on the server cannot be mapped and get an Err. The error is for
// problems with the run as a whole (the schema cannot be read).
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
		d := DiffResult{Object: objs[i], Ref: refOf(objs[i]), Live: value.Null, Merged: value.Null}
		t, err := c.resolve(objs[i])
		d.Ref = t.ref
		if err != nil {
			d.Err = err
			outs[i] = d
			return
		}
		p, err := c.plan(ctx, t, sch)
		if err != nil {
			d.Err = err
			outs[i] = d
			return
		}
		d.Exists, d.Live, d.Merged, d.Warnings = p.exists, p.live, p.res.Object, p.res.Warnings
		if p.exists && value.Equal(p.live, p.res.Object) {
			outs[i] = d
			return
		}
		for _, ch := range p.res.Changes {
			d.Fields = append(d.Fields, FieldChange{Path: ch.Path().String(), Op: ch.Op, Reason: reason(ch)})
		}
		name := d.Ref.FileName()
		d.Unified = unifiedDiff("live/"+name, "merged/"+name, diffText(d.Live), diffText(d.Merged))
		outs[i] = d
	})
	return outs, nil
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
