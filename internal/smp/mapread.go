package smp

import (
	"slices"
	"strings"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// Directive reports whether key is a directive key of a patch map of type t: a "$" key t does not declare (a few
// types, JSONSchemaProps among them, have "$ref" and "$schema" data fields).
func Directive(t *openapi.Type, key string) bool {
	return strings.HasPrefix(key, "$") && t.Field(key) == nil
}

// MapRead is what a read of the directive keys of a patch map holding no "$patch" finds (ReadMapDirectives).
type MapRead struct {
	// RetainKeys are the field names the map's "$retainKeys" lists, sorted, each once; Retains says it holds one.
	RetainKeys []string
	Retains    bool
	// ReadsLive says the map holds a "$deleteFromPrimitiveList/<f>" not a list read as strategicpatch's merge reads it
	// (with kubectl): as the field f, where live's map holds f, which then joins the map's data fields.
	ReadsLive bool
}

// ReadMapDirectives reads the directive keys (Directive) of fields, a patch map's of type t holding no "$patch", sorted
// by name, in that order, and returns what they say and the message of the first malformed one ("" for none):
// "$retainKeys" not a list (RetainKeysNotList) or holding an entry not a string (RetainKeysEntry);
// "$setElementOrder/<f>" not a list (OrderNotList); "$deleteFromPrimitiveList/<f>" not a list (DeletionNotList), but
// with kubectl (gate MultiFieldMergeKeys off), which reads it as strategicpatch does (MapRead.ReadsLive). Other
// directive keys (newer clients') are ignored. With compose (a patch merged into another: directive keys are data)
// only "$setElementOrder/<f>" keys are read. A read of the map then checks its data fields against "$retainKeys"
// (MapRead.Unlisted); collate's format.ReadMap and Phase 2's decisions of repeats both read a map so.
func ReadMapDirectives(fields []value.Field, t *openapi.Type, compose, kubectl bool) (MapRead, string) {
	var r MapRead
	for _, fl := range fields {
		if !Directive(t, fl.Key) || (compose && !strings.HasPrefix(fl.Key, SetOrderPrefix)) {
			continue
		}
		switch {
		case fl.Key == RetainKeysKey:
			if !fl.Value.IsList() {
				return MapRead{}, RetainKeysNotList(fl.Value.Kind())
			}
			keys := make([]string, 0, fl.Value.Len())
			for i, it := range fl.Value.Items() {
				name, ok := it.AsString()
				if !ok {
					return MapRead{}, RetainKeysEntry(i, it.Kind())
				}
				keys = append(keys, name)
			}
			slices.Sort(keys)
			r.RetainKeys, r.Retains = slices.Compact(keys), true
		case strings.HasPrefix(fl.Key, SetOrderPrefix) && !fl.Value.IsList():
			return MapRead{}, OrderNotList(fl.Key, fl.Value.Kind())
		case strings.HasPrefix(fl.Key, DeletePrefix) && !fl.Value.IsList() && kubectl:
			r.ReadsLive = true
		case strings.HasPrefix(fl.Key, DeletePrefix) && !fl.Value.IsList():
			return MapRead{}, DeletionNotList(fl.Key, fl.Value.Kind())
		}
	}
	return r, ""
}

// Unlisted returns the message of the first of data, a patch map's data fields sorted by name (those its deletions
// read as fields add among them), set to other than null that its "$retainKeys" does not name (RetainKeysUnlisted);
// "" for none, and where the map holds no "$retainKeys".
func (r MapRead) Unlisted(data []value.Field) string {
	if !r.Retains {
		return ""
	}
	for _, fl := range data {
		if _, found := slices.BinarySearch(r.RetainKeys, fl.Key); !found && !fl.Value.IsNull() {
			return RetainKeysUnlisted(fl.Key)
		}
	}
	return ""
}

// MalformedMap returns the message of the error a read of patch map p (of type t) gives for its directive keys whatever
// live holds there, "" where it gives none so: none where p is not a map or holds a "$patch" directive (read alone);
// else ReadMapDirectives' (with kubectl; compose off), then, where p holds no "$deleteFromPrimitiveList/<f>" read as
// a field (whose f live may add to the fields "$retainKeys" must name), MapRead.Unlisted's of p's data fields.
func MalformedMap(p value.Value, t *openapi.Type, kubectl bool) string {
	if _, directed := p.Get(DirectiveKey); !p.IsMap() || (directed && Directive(t, DirectiveKey)) {
		return ""
	}
	r, msg := ReadMapDirectives(p.Fields(), t, false, kubectl)
	if msg != "" || !r.Retains || r.ReadsLive {
		return msg
	}
	data := make([]value.Field, 0, p.Len())
	for _, fl := range p.Fields() {
		if !Directive(t, fl.Key) {
			data = append(data, fl)
		}
	}
	return r.Unlisted(data)
}

// DeletionBesideSet returns the message of the error a read of patch map p (of type t) gives, with kubectl, onto live's
// map whatever live holds there: the first (by name) of p's "$deleteFromPrimitiveList/<f>" directive keys not a list
// (MapRead.ReadsLive: read as strategicpatch's merge reads it, as the field f) where p sets f too
// (DeletionBesideField). "" for none. The read meets it after ReadMapDirectives' checks and before MapRead.Unlisted's.
func DeletionBesideSet(p value.Value, t *openapi.Type) string {
	for _, fl := range p.Fields() {
		name, deletes := strings.CutPrefix(fl.Key, DeletePrefix)
		if !deletes || fl.Value.IsList() || !Directive(t, fl.Key) {
			continue
		}
		if _, set := p.Get(name); set {
			return DeletionBesideField(fl.Key, name)
		}
	}
	return ""
}
