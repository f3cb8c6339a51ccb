package cluster

import (
	"context"
	"strconv"
	"strings"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// Choosing the lane of an object, and going back from the server-side lane
// to the client-side one.
//
// An object is in the server-side lane when its managedFields hold an
// Apply entry of the server-side manager and no Update entry that owns a
// last-applied annotation (a client-side apply's) as recent (lastLane);
// in the client-side lane otherwise. An object whose configuration would push
// its annotations over AnnotationsLimit goes server-side unless
// Options.LargeObjects is LargeCompressed, in the client-side lane too.

// liveRead is a read of the live object.
type liveRead struct {
	live  value.Value
	found bool
}

// laneOf returns the lane t is applied in under Options.Lane, and the
// warning to report if t moves to the server-side lane for its size. With
// LaneAuto it reads the live object (kept in t.pre for the client-side
// lane's first merge).
func (c *Client) laneOf(ctx context.Context, t *target) (Lane, string, error) {
	warning := ""
	if c.largeGoesServerSide(*t) {
		size := len(LastAppliedConfiguration(t.config))
		warning = "the configuration (" + strconv.Itoa(size) + " bytes) is over the server's limit of " + strconv.Itoa(AnnotationsLimit) +
			" bytes of annotations: applied server-side under the field manager " + strconv.Quote(c.serverSideManager()) +
			" (--large-objects=compressed-annotation records it client-side in ply's compressed annotation instead)"
	}
	switch c.opts.Lane {
	case LaneServerSide:
		return LaneServerSide, "", nil
	case LaneClientSide:
		if warning != "" {
			return LaneServerSide, warning, nil
		}
		return LaneClientSide, "", nil
	}
	live, found, err := c.readLive(ctx, *t)
	if err != nil {
		return LaneClientSide, "", c.maskStatus(t.ref, err)
	}
	t.pre = &liveRead{live: live, found: found}
	switch {
	case found && lastLane(live, c.serverSideManager()) == LaneServerSide:
		return LaneServerSide, "", nil
	case warning != "":
		return LaneServerSide, warning, nil
	}
	return LaneClientSide, "", nil
}

// largeGoesServerSide reports whether t's configuration is over the
// annotation limit and Options.LargeObjects sends such objects
// server-side.
func (c *Client) largeGoesServerSide(t target) bool {
	return (t.recorded != "" || t.recordErr != nil) && c.opts.LargeObjects == LargeServerSide
}

// lastLane returns the lane live was last applied in: LaneServerSide when
// managedFields hold an Apply entry of manager and no Update entry owns a
// last-applied annotation (a server-side apply, kubectl's or ply's, moves
// those entries to its manager; a client-side apply that writes takes the
// annotation back as an Update), or when both exist and the Apply entry is
// the more recent; else LaneClientSide.
func lastLane(live value.Value, manager string) Lane {
	md, _ := live.Get("metadata")
	mf, _ := md.Get("managedFields")
	applied, clientSide := "", ""
	foundApply, foundUpdate := false, false
	for _, e := range mf.Items() {
		if stringAt(e, "subresource") != "" {
			continue
		}
		at := stringAt(e, "time")
		switch stringAt(e, "operation") {
		case "Apply":
			if stringAt(e, "manager") == manager {
				foundApply = true
				applied = max(applied, at)
			}
		case "Update":
			if ownsLastApplied(e) {
				foundUpdate = true
				clientSide = max(clientSide, at)
			}
		}
	}
	// RFC 3339 times in UTC, as the server writes them, sort as text; they
	// count seconds, so a tie says nothing.
	if foundApply && (!foundUpdate || applied > clientSide) {
		return LaneServerSide
	}
	return LaneClientSide
}

// ownsLastApplied reports whether the managedFields entry e owns a
// last-applied annotation (kubectl's or ply's compressed one).
func ownsLastApplied(e value.Value) bool {
	f, _ := e.Get("fieldsV1")
	f, _ = f.Get("f:metadata")
	f, _ = f.Get("f:annotations")
	_, a := f.Get("f:" + LastAppliedAnnotation)
	_, b := f.Get("f:" + CompressedLastAppliedAnnotation)
	return a || b
}

// applyOneServerSide applies t in the server-side lane and fills out.
// warning, when set, is reported if the object changes lane with this
// apply (it is created, or its client-side managers are moved).
func (c *Client) applyOneServerSide(ctx context.Context, t target, out Outcome, warning string) Outcome {
	out.Attempts = 1
	if c.holdServerSide(ctx, &t, &out) {
		return out
	}
	r, err := c.applyServerSide(ctx, t)
	if err != nil {
		out.Err = heldError(t, err)
		return out
	}
	out.Action, out.Result = ServerSideApplied, r.answer
	wouldMove := c.opts.DryRun == DryRunServer && len(owners(r.answer, "Update", LastAppliedAnnotation))+len(owners(r.answer, "Update", CompressedLastAppliedAnnotation)) > 0
	if warning != "" && (r.created || r.migrated || wouldMove) {
		out.Warnings = append(out.Warnings, warning)
	}
	return out
}

// recordedFromManager returns what the Apply entry of manager in live's
// managedFields records as applied: live restricted to that entry's
// fields, with live's apiVersion, kind, name and namespace; value.Null
// when there is no such entry. The client-side lane merges with it when
// live has no last-applied annotation, so that fields a server-side apply
// set and the manifest no longer sets are removed when going back to
// client-side apply.
func recordedFromManager(live value.Value, manager string) value.Value {
	md, _ := live.Get("metadata")
	mf, _ := md.Get("managedFields")
	for _, e := range mf.Items() {
		if stringAt(e, "operation") != "Apply" || stringAt(e, "manager") != manager || stringAt(e, "subresource") != "" {
			continue
		}
		fields, _ := e.Get("fieldsV1")
		rec := ownedPart(live, fields)
		if !rec.IsMap() {
			return value.Null
		}
		rmd, _ := rec.Get("metadata")
		for _, k := range [...]string{"name", "namespace"} {
			if v, ok := md.Get(k); ok {
				rmd = rmd.With(k, v)
			}
		}
		for _, k := range [...]string{"apiVersion", "kind"} {
			if v, ok := live.Get(k); ok {
				rec = rec.With(k, v)
			}
		}
		return rec.With("metadata", rmd)
	}
	return value.Null
}

// ownedPart returns the part of v that the FieldsV1 set fields names: the
// members of a map named "f:KEY", the items of a list named "k:{...}" (by
// their key fields), "v:..." (by value) or "i:N" (by index); a member
// whose set names nothing below it is kept whole.
func ownedPart(v, fields value.Value) value.Value {
	switch {
	case v.IsMap():
		out := make([]value.Field, 0, v.Len())
		for _, f := range v.Fields() {
			if sub, ok := fields.Get("f:" + f.Key); ok {
				out = append(out, value.Field{Key: f.Key, Value: ownedChild(f.Value, sub)})
			}
		}
		return value.MapFromSorted(out)
	case v.IsList():
		var out []value.Value
		for i, it := range v.Items() {
			if sub, ok := listItemFields(fields, it, i); ok {
				out = append(out, ownedChild(it, sub))
			}
		}
		return value.List(out)
	}
	return v
}

// ownedChild is ownedPart of a member whose set is sub: v whole when sub
// names nothing below v (empty, or only ".").
func ownedChild(v, sub value.Value) value.Value {
	for _, f := range sub.Fields() {
		if f.Key != "." {
			return ownedPart(v, sub)
		}
	}
	return v
}

// listItemFields returns the set of fields that names the list item it
// at index i, if any.
func listItemFields(fields, it value.Value, i int) (value.Value, bool) {
	for _, f := range fields.Fields() {
		kind, text, ok := strings.Cut(f.Key, ":")
		if !ok {
			continue
		}
		switch kind {
		case "i":
			if text == strconv.Itoa(i) {
				return f.Value, true
			}
		case "v", "k":
			want, err := parse.Document([]byte(text))
			if err != nil {
				continue
			}
			if kind == "v" && value.Equal(want, it) || kind == "k" && keyMatches(want, it) {
				return f.Value, true
			}
		}
	}
	return value.Null, false
}

// keyMatches reports whether the map item has every key field of key with
// its value.
func keyMatches(key, item value.Value) bool {
	if !key.IsMap() || !item.IsMap() {
		return false
	}
	for _, f := range key.Fields() {
		got, ok := item.Get(f.Key)
		if !ok || !value.Equal(got, f.Value) {
			return false
		}
	}
	return true
}
