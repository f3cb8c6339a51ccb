// Package smp is kubectl's strategic merge patch wire format: its directive keys, how kubectl renders and sorts merge
// keys and scalars (KeyString, SortScalars), which classes of items a merged list merges (ListClass), and the read of
// a patch map's directive keys that collate's format and Phase 2's decisions of repeats share (ReadMapDirectives).
// internal/delta computes what a patch says.
//
// A message one part of ply builds and another reads back (the drop-in words strategicpatch's error from it) is a type
// with a Msg method and a Read function returning it from the text (MissingMergeKey, MergeKeyNotScalar,
// DeleteWithoutKey, NullKeyMerge, NullKeyDropped, KeyedScalars), or, holding no value, a constant compared whole
// (ScalarsByKey, EmptyListsMsg). The errors of a "$setElementOrder" beside a value it cannot order are read by their
// words (OrderOfPatchText, OrderOfLiveText).
package smp

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/plyproject/ply/pkg/value"
)

// Directive keys and values of the strategic merge patch format.
const (
	DirectiveKey   = "$patch"
	DeleteValue    = "delete"
	ReplaceValue   = "replace"
	MergeValue     = "merge"
	RetainKeysKey  = "$retainKeys"
	SetOrderPrefix = "$setElementOrder/"
	DeletePrefix   = "$deleteFromPrimitiveList/"
)

// KeyString renders a merge-key value as kubectl compares and sorts keys (Go's %v of the decoded JSON).
func KeyString(v value.Value) string {
	switch v.Kind() {
	case value.KindString:
		s, _ := v.AsString()
		return s
	case value.KindInt, value.KindFloat:
		f, _ := v.AsFloat()
		return strconv.FormatFloat(f, 'g', -1, 64)
	case value.KindBool:
		b, _ := v.AsBool()
		return strconv.FormatBool(b)
	case value.KindNull:
		return "<nil>"
	}
	return v.Short()
}

// SortScalars sorts vs stably as kubectl sorts scalars: by KeyString.
func SortScalars(vs []value.Value) { slices.SortStableFunc(vs, byKeyString) }

// DedupScalars returns vs without repeated values, in the order kubectl's deduplication leaves them, reusing vs: for
// each value in turn, every later equal value is overwritten by the list's last one and the list shortened (so a sorted
// list may come out unsorted).
func DedupScalars(vs []value.Value) []value.Value {
	for i := 0; i < len(vs)-1; i++ {
		for j := i + 1; j < len(vs); j++ {
			if value.Equal(vs[i], vs[j]) {
				vs[j] = vs[len(vs)-1]
				vs = vs[:len(vs)-1]
				j--
			}
		}
	}
	return vs
}

// Sorted reports whether vs are in SortScalars' order.
func Sorted(vs []value.Value) bool { return slices.IsSortedFunc(vs, byKeyString) }

func byKeyString(a, b value.Value) int { return strings.Compare(KeyString(a), KeyString(b)) }

// SortByKey returns the positions of list's maps in kubectl's order by merge key field key: by KeyString, with Go's
// sort.Sort and an equal key counting as less (sort.Slice runs the same algorithm), so one key's items come out
// reversed in a short list. rank holds each item's rank among its key's items in that order.
func SortByKey(list []value.Value, key string) (sorted, rank []int) {
	keys := make([]string, len(list))
	sorted, rank = make([]int, len(list)), make([]int, len(list))
	for i, it := range list {
		v, _ := it.Get(key)
		sorted[i], keys[i] = i, KeyString(v)
	}
	sort.Slice(sorted, func(a, b int) bool { return keys[sorted[a]] <= keys[sorted[b]] })
	for p := 1; p < len(sorted); p++ {
		if keys[sorted[p]] == keys[sorted[p-1]] {
			rank[sorted[p]] = rank[sorted[p-1]] + 1
		}
	}
	return sorted, rank
}

// PatchOrder returns the positions of list's items in the order kubectl's patch lists them, given
// SortByKey's result: each key where the list first names it, its items by rank.
func PatchOrder(sorted, rank []int) []int {
	at := make([]int, len(sorted)) // an item's position in sorted
	for p, i := range sorted {
		at[i] = p
	}
	out, done := make([]int, 0, len(sorted)), make([]bool, len(sorted))
	for i := range sorted {
		if start := at[i] - rank[i]; !done[start] { // start: the key's first item in sorted
			done[start] = true
			for p := start; p < len(sorted) && (p == start || rank[sorted[p]] > 0); p++ {
				out = append(out, sorted[p])
			}
		}
	}
	return out
}

// MergeDirected reports whether v is a map holding "$patch: merge": merged onto a map it fails (maps merge without that
// directive); onto another value or none, strategicpatch drops it, the field with it.
func MergeDirected(v value.Value) bool {
	d, _ := v.Get(DirectiveKey)
	s, ok := d.AsString()
	return ok && s == MergeValue
}

// MapDirective returns the "$patch" value of v ("" for one not a string), and whether v is a map holding "$patch".
func MapDirective(v value.Value) (string, bool) {
	d, ok := v.Get(DirectiveKey)
	s, _ := d.AsString()
	return s, ok && v.IsMap()
}

// UnknownDirective is the error of a map's "$patch" value d other than "replace", "delete" or "merge".
func UnknownDirective(d value.Value) string {
	return unknownDirectiveText + d.Short() + unknownDirectiveEnd
}

// The text of UnknownDirective before and after the value it quotes.
const (
	unknownDirectiveText = "unknown " + DirectiveKey + " value "
	unknownDirectiveEnd  = "; expected " + ReplaceValue + " or " + DeleteValue
)

// IsUnknownDirective reports whether msg is an UnknownDirective message (its form, whatever value it quotes).
func IsUnknownDirective(msg string) bool {
	return strings.HasPrefix(msg, unknownDirectiveText) && strings.HasSuffix(msg, unknownDirectiveEnd)
}

// UnmergeableKey returns the key of map p, a patch's map holding no "$patch", at which strategicpatch's merge of p into
// map held fails where the schema types the two as a list or a scalar, and whether there is one: it merges them as
// maps under that type, which declares no fields, so its look-up of a key fails ("unable to find api field") for the
// list each "$setElementOrder/<key>" of p orders and for every key both hold as maps, or both as lists. The first such
// key in p's order.
func UnmergeableKey(p, held value.Value) (string, bool) {
	if _, directed := MapDirective(p); directed || !p.IsMap() || !held.IsMap() {
		return "", false
	}
	for _, f := range p.Fields() {
		if strings.HasPrefix(f.Key, SetOrderPrefix) {
			return f.Key, true
		}
		h, ok := held.Get(f.Key)
		if !strings.HasPrefix(f.Key, "$") && ok && (h.IsMap() && f.Value.IsMap() || h.IsList() && f.Value.IsList()) {
			return f.Key, true
		}
	}
	return "", false
}

// Unmergeable is the error of UnmergeableKey's key in p, where the schema types the field holding p as what ("a list",
// "a scalar"), of type name typeName (none: ""): the first patch and p hold maps there, which strategicpatch merges
// under a type that declares no fields.
func Unmergeable(p value.Value, key, what, typeName string) string {
	where := " in a map the first patch and this one hold where the schema has " + what
	if typeName != "" {
		where += " (" + typeName + ")"
	}
	if strings.HasPrefix(key, SetOrderPrefix) {
		return key + " orders a list" + where + ", which declares no fields"
	}
	v, _ := p.Get(key)
	return "both patches hold " + v.Kind().String() + " at " + key + where + ", which declares no fields to merge them by"
}

// HoldsDirectives reports whether v is, or holds at any depth (in its maps' fields and its lists' items), a map holding
// "$patch": whether WithoutDirectives changes v.
func HoldsDirectives(v value.Value) bool { return holdsKeys(v, false) }

// HoldsDirectiveKeys reports whether v is, or holds at any depth, a map with a key the strategic merge patch format
// reads: "$patch", "$retainKeys", "$setElementOrder/<f>" or "$deleteFromPrimitiveList/<f>".
func HoldsDirectiveKeys(v value.Value) bool { return holdsKeys(v, true) }

// holdsKeys reports whether v is, or holds at any depth (in its maps' fields and its lists' items), a map holding
// "$patch" or, with all, another key the format reads (directiveKey). A document pkg/parse marked value.DollarFree
// holds none, and is not walked.
func holdsKeys(v value.Value, all bool) bool {
	if value.IsDollarFree(v) {
		return false
	}
	switch v.Kind() {
	case value.KindMap:
		// (One pass over the fields: a field named "$patch" is compared by its length first, and only maps and lists
		// are looked into, so that a patch of many small maps is walked at a few instructions a field.)
		for _, f := range v.Fields() {
			if f.Key == DirectiveKey || (all && directiveKey(f.Key)) || (isCollection(f.Value) && holdsKeys(f.Value, all)) {
				return true
			}
		}
	case value.KindList:
		for _, it := range v.Items() {
			if isCollection(it) && holdsKeys(it, all) {
				return true
			}
		}
	}
	return false
}

// directiveKey reports whether map key key is one the strategic merge patch format reads.
func directiveKey(key string) bool {
	if len(key) == 0 || key[0] != '$' { // (most keys: one comparison)
		return false
	}
	return key == DirectiveKey || key == RetainKeysKey || strings.HasPrefix(key, SetOrderPrefix) || strings.HasPrefix(key, DeletePrefix)
}

// isCollection reports whether v is a map or a list.
func isCollection(v value.Value) bool {
	k := v.Kind()
	return k == value.KindMap || k == value.KindList
}

// WithoutDirectives returns v without its maps holding "$patch" (keep false: v is one), as strategicpatch takes a
// patch's value where the other side lacks the field or holds another kind.
func WithoutDirectives(v value.Value) (value.Value, bool) {
	switch v.Kind() {
	case value.KindMap:
		if _, ok := v.Get(DirectiveKey); ok {
			return value.Value{}, false
		}
		out := make([]value.Field, 0, v.Len())
		for _, f := range v.Fields() {
			if fv, keep := WithoutDirectives(f.Value); keep {
				out = append(out, value.Field{Key: f.Key, Value: fv})
			}
		}
		return value.MapFromSorted(out), true
	case value.KindList:
		out := make([]value.Value, 0, v.Len())
		for _, it := range v.Items() {
			if iv, keep := WithoutDirectives(it); keep {
				out = append(out, iv)
			}
		}
		return value.List(out), true
	}
	return v, true
}

// The errors of a "$setElementOrder/<field>" beside a value it cannot order, which the collation (format.CheckDirs),
// Phase 2's decisions of repeats and the drop-in's translation to strategicpatch's error (which matches them by
// OrderOfPatchText and OrderOfLiveText) share.
const (
	// OrderOfPatchText is what OrderOfPatch says between the directive and the field.
	OrderOfPatchText = " orders a list, but the patch sets "
	// OrderOfLiveText is what OrderOfLive says between the directive and the kind.
	OrderOfLiveText = " orders a list, but live's value is "
)

// OrderOfPatch is the error of "$setElementOrder/<field>" where the patch sets field to a value of kind k, not a list.
func OrderOfPatch(field string, k value.Kind) string {
	return SetOrderPrefix + field + OrderOfPatchText + field + " to " + k.String()
}

// OrderOfLive is the error of "$setElementOrder/<field>" where live holds field as a value of kind k, not a list.
func OrderOfLive(field string, k value.Kind) string {
	return SetOrderPrefix + field + OrderOfLiveText + k.String()
}

// OrderOfOtherKind is the error of "$setElementOrder/<field>" for a list at a field the schema types as another kind,
// kind its phrase ("a scalar", "an object").
func OrderOfOtherKind(field, kind string) string {
	return SetOrderPrefix + field + " orders a list, but the schema says this field is " + kind
}

// OrderOfNoField is the error of "$setElementOrder/<field>" in a map of type typeName that strategicpatch's look-up of
// field as a list fails for: in a map of values (values), whose keys are data; at a field the type declares whose
// look-up fails with notAList; else at a field the type does not declare.
func OrderOfNoField(field, typeName string, values bool, notAList string) string {
	switch {
	case values:
		return SetOrderPrefix + field + " orders a field, but this is a map of values (" + typeName + "), which declares no fields"
	case notAList != "":
		return SetOrderPrefix + field + " orders a list, but the schema's look-up of " + field + " in " + typeName +
			" as a list fails: " + notAList
	}
	return SetOrderPrefix + field + " orders a field that " + typeName + " does not declare"
}

// RetainKeysNotList is the error of a map's "$retainKeys" of kind kind, not a list.
func RetainKeysNotList(kind value.Kind) string {
	return RetainKeysKey + " must be a list of field names, got " + kind.String()
}

// RetainKeysEntry is the error of entry i, of kind kind, of a map's "$retainKeys": not a string.
func RetainKeysEntry(i int, kind value.Kind) string {
	return RetainKeysKey + " item " + strconv.Itoa(i) + ": expected a field name (string), got " + kind.String()
}

// RetainKeysUnlisted is the error of a map setting field to other than null where its "$retainKeys" does not name it.
func RetainKeysUnlisted(field string) string {
	return "the patch sets field " + strconv.Quote(field) + " but " + RetainKeysKey + " does not list it; " +
		RetainKeysKey + " must name every field the patch sets"
}

// OrderNotList is the error of a map's "$setElementOrder/<f>" key, of kind kind, not a list.
func OrderNotList(key string, kind value.Kind) string {
	return key + " must be a list, got " + kind.String()
}

// DeletionNotList is the error of a map's "$deleteFromPrimitiveList/<f>" key, of kind kind, not a list.
func DeletionNotList(key string, kind value.Kind) string {
	return key + " must be a list of the values to delete, got " + kind.String()
}

// DeletionBesideField is the error of a map's "$deleteFromPrimitiveList/<f>" key, not a list, read as strategicpatch's
// merge reads it (as the field name), where the map sets name too.
func DeletionBesideField(key, name string) string {
	return key + " is not a list and the patch sets " + strconv.Quote(name) + " too: strategicpatch reads both as " +
		strconv.Quote(name) + ", in the random order Go's map iteration meets them; give one of the two"
}

// OrderOfUnmerged is the error of "$setElementOrder/<field>" for a list the schema merges by no strategy that it does
// not order as strategicpatch does (a list of no items, of mixed classes or of maps, or an order naming a map or list).
func OrderOfUnmerged(field string) string {
	return SetOrderPrefix + field + " orders lists merged by key or value; the schema does not merge this list"
}

// ItemKeyMsg is the error of item i of a list merged by key mk (what: "item", or OrderEntries for an entry of its
// order) that names no item: not an object (for an order's entry, OrderEntryKind), lacking mk's field
// missing, or holding it as other than a scalar (bad).
func ItemKeyMsg(what string, i int, it value.Value, mk []string, missing string, bad bool) string {
	at := what + " " + strconv.Itoa(i)
	switch {
	case !it.IsMap():
		return at + ": expected an object with merge key " + strings.Join(mk, ",") + ", got " + it.Kind().String()
	case bad:
		return at + ": merge key field \"" + missing + "\" must be a string, number or boolean"
	}
	return MissingMergeKey{What: what, Item: i, Field: missing, MergeKey: mk}.Msg()
}

// OrderEntries names the entries of "$setElementOrder/<field>" in an error (ItemKeyMsg's what, for one of them).
func OrderEntries(field string) string { return SetOrderPrefix + field + " item" }

// OrderEntryKind is the error of entry i of "$setElementOrder/<field>" for a list merged by key mk, a value of kind k,
// not an object.
func OrderEntryKind(field string, i int, mk []string, k value.Kind) string {
	return OrderEntries(field) + " " + strconv.Itoa(i) + ": expected an object holding the merge key (" +
		strings.Join(mk, ",") + "), got " + k.String()
}

// OrderEntryScalar is the error of entry i of "$setElementOrder/<field>" for a set of scalars, a value of kind k (an
// object or a list) that names no value.
func OrderEntryScalar(field string, i int, k value.Kind) string {
	return OrderEntries(field) + " " + strconv.Itoa(i) + ": expected a scalar (the list holds scalars), got " + k.String()
}

// NoMergeKey is the error of a merged list of objects the schema gives no merge key (not a set of maps).
const NoMergeKey = "the schema gives this merged list of objects no merge key, so its items cannot be matched"

// OrderWithoutItems is the error of "$setElementOrder/<field>" for a merged list that has no items in live or in the
// patch.
func OrderWithoutItems(field string) string {
	return SetOrderPrefix + field + " orders a list that has no items in live or in the patch"
}
