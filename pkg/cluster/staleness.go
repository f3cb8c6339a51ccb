package cluster

import (
	"errors"

	"github.com/plyproject/ply/pkg/value"
)

// The record of the client-side lane: what the three-way merge takes as
// applied last time. The last-applied annotation is that record only while
// the managed fields say it is current; a server-side apply by another
// manager leaves it behind (the server rewrites it only on the applies of
// the manager "kubectl"), and a merge with such a record removes fields
// that now belong to that manager and never removes those it set since
// (kubernetes issue 99003). From live's managedFields (the lane's manager
// is Options.FieldManager, else "kubectl"):
//
//   - the annotation is current when an Update entry owns it (a
//     client-side apply wrote it; a server-side apply that takes that
//     manager's fields over, as csaupgrade does, takes the annotation with
//     them), when the lane's manager is "kubectl" and has an Apply entry
//     (the server rewrites the annotation on each of its applies), or when
//     no entry owns it at all (managedFields say nothing against it). A
//     current annotation is the record;
//   - otherwise the annotation is stale: only the Apply entries of other
//     managers own it. The record is then what the lane's manager applied
//     (recordedFromManager): nothing when it has no Apply entry, so that
//     a field leaves live only when ply or kubectl applied it last;
//   - without an annotation the record is what the lane's manager applied.
//
// In each case the record is less the fields that the Apply entries of
// other managers own: another applier declared them, so a manifest that
// drops them leaves them to it (as a server-side apply that drops a field
// another manager shares leaves it).

// recordOf returns the record the client-side lane merges with for live
// (value.Null when the object does not exist).
func (c *Client) recordOf(live value.Value) (value.Value, error) {
	fromAnnotation, err := RecordedFrom(live)
	if err != nil {
		return value.Null, errors.New("live object: " + err.Error())
	}
	manager := c.serverSideManager()
	record := fromAnnotation
	switch {
	case live.IsNull():
		return value.Null, nil
	case fromAnnotation.IsNull() || !annotationCurrent(live, manager):
		// Applied server-side last, without the annotation or after it:
		// what the server-side manager applied is the record.
		record = recordedFromManager(live, manager)
	}
	if record.IsNull() {
		return record, nil
	}
	return withoutOthersApplied(record, live, manager), nil
}

// annotationCurrent reports whether live's last-applied annotation is
// current by its managedFields (see above) for the server-side manager
// manager.
func annotationCurrent(live value.Value, manager string) bool {
	md, _ := live.Get("metadata")
	mf, _ := md.Get("managedFields")
	owned, upkept := false, false
	for _, e := range mf.Items() {
		if stringAt(e, "subresource") != "" {
			continue
		}
		op := stringAt(e, "operation")
		if op == "Apply" && manager == DefaultServerSideFieldManager && stringAt(e, "manager") == manager {
			upkept = true
		}
		if !ownsLastApplied(e) {
			continue
		}
		if op == "Update" {
			return true
		}
		owned = true
	}
	return upkept || !owned
}

// withoutOthersApplied returns record less the fields that the Apply
// entries of live's managedFields of managers other than manager (and
// kubectl's keeper of its annotation, lastAppliedManager) own. The object's
// apiVersion, kind, name and namespace are kept.
func withoutOthersApplied(record, live value.Value, manager string) value.Value {
	md, _ := live.Get("metadata")
	mf, _ := md.Get("managedFields")
	for _, e := range mf.Items() {
		name := stringAt(e, "manager")
		if stringAt(e, "operation") != "Apply" || stringAt(e, "subresource") != "" || name == manager || name == lastAppliedManager {
			continue
		}
		fields, _ := e.Get("fieldsV1")
		record = keepIdentity(record, withoutOwned(record, fields))
	}
	return record
}

// keepIdentity returns pruned with the apiVersion, kind, name and
// namespace of whole.
func keepIdentity(whole, pruned value.Value) value.Value {
	if !pruned.IsMap() {
		pruned = value.MustMap()
	}
	for _, k := range [...]string{"apiVersion", "kind"} {
		if v, ok := whole.Get(k); ok {
			pruned = pruned.With(k, v)
		}
	}
	wmd, _ := whole.Get("metadata")
	pmd, ok := pruned.Get("metadata")
	if !ok || !pmd.IsMap() {
		pmd = value.MustMap()
	}
	for _, k := range [...]string{"name", "namespace"} {
		if v, ok := wmd.Get(k); ok {
			pmd = pmd.With(k, v)
		}
	}
	return pruned.With("metadata", pmd)
}

// withoutOwned returns v less the parts the FieldsV1 set fields names as
// owned: a map member or list item whose set is empty or holds "." goes
// whole; one whose set names members below it loses those, and goes too
// when nothing is left of it. The counterpart of ownedPart.
func withoutOwned(v, fields value.Value) value.Value {
	switch {
	case v.IsMap():
		out := make([]value.Field, 0, v.Len())
		for _, f := range v.Fields() {
			sub, ok := fields.Get("f:" + f.Key)
			if !ok {
				out = append(out, f)
				continue
			}
			if rest, keep := withoutOwnedChild(f.Value, sub); keep {
				out = append(out, value.Field{Key: f.Key, Value: rest})
			}
		}
		return value.MapFromSorted(out)
	case v.IsList():
		var out []value.Value
		for i, it := range v.Items() {
			sub, ok := listItemFields(fields, it, i)
			if !ok {
				out = append(out, it)
				continue
			}
			if rest, keep := withoutOwnedChild(it, sub); keep {
				out = append(out, rest)
			}
		}
		return value.List(out)
	}
	return v
}

// withoutOwnedChild is withoutOwned of a member whose set is sub, and
// whether anything of it is left.
func withoutOwnedChild(v, sub value.Value) (value.Value, bool) {
	if _, whole := sub.Get("."); whole || sub.Len() == 0 {
		return value.Null, false
	}
	rest := withoutOwned(v, sub)
	if (rest.IsMap() || rest.IsList()) && rest.Len() == 0 && v.Len() > 0 {
		return value.Null, false
	}
	return rest, true
}
