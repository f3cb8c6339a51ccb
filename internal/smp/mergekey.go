package smp

import (
	"strconv"
	"strings"
)

// MissingMergeKey describes the error of an item of a list merged by key that is a map lacking a merge-key field. The
// collation builds its message (Msg) and the drop-in reads it back (ReadMissingMergeKey) to word strategicpatch's
// error (mergepatch.ErrNoMergeKey), so that the two share one text.
type MissingMergeKey struct {
	// What names the item: "item" for an item of the list, or an entry of its order (OrderEntries), which
	// ReadMissingMergeKey does not read: strategicpatch words no error for an order's entry so.
	What string
	// Item is the item's index in its list.
	Item int
	// Field is the merge-key field the item lacks.
	Field string
	// MergeKey is the list's merge key, its fields in order.
	MergeKey []string
}

// The words of MissingMergeKey.Msg around its fields.
const (
	missingKeyField = " has no merge key field \""
	missingKeyIs    = "\" (the merge key is "
	missingKeyEnd   = ")"
)

// Msg is the error's message.
func (e MissingMergeKey) Msg() string {
	return e.What + " " + strconv.Itoa(e.Item) + missingKeyField + e.Field + missingKeyIs + strings.Join(e.MergeKey, ",") +
		missingKeyEnd
}

// ReadMissingMergeKey returns the MissingMergeKey whose Msg is msg; ok is false where msg is another message.
func ReadMissingMergeKey(msg string) (e MissingMergeKey, ok bool) {
	head, rest, ok := strings.Cut(msg, missingKeyField)
	if !ok {
		return e, false
	}
	at := strings.LastIndexByte(head, ' ')
	if at < 0 {
		return e, false
	}
	if e.What = head[:at]; e.What != "item" {
		return e, false
	}
	var err error
	if e.Item, err = strconv.Atoi(head[at+1:]); err != nil {
		return e, false
	}
	// (The field is one of the merge key's, read from the last opening of the merge key's words.)
	at = strings.LastIndex(rest, missingKeyIs)
	if at < 0 {
		return e, false
	}
	keys, ok := strings.CutSuffix(rest[at+len(missingKeyIs):], missingKeyEnd)
	if !ok {
		return e, false
	}
	e.Field, e.MergeKey = rest[:at], strings.Split(keys, ",")
	return e, true
}

// MergeKeyNotScalar describes the error, creating a patch, of an item of recorded's or live's list merged by key that
// does not hold every merge-key field as a scalar: Got tells what it is instead (GotWithoutKey for a map lacking a
// field). The patch producer builds its message (Msg) and the drop-in reads it back (ReadMergeKeyNotScalar).
type MergeKeyNotScalar struct {
	// Item is the item's index in its list.
	Item int
	// MergeKey is the list's merge key, its fields in order.
	MergeKey []string
	// Got is what the item is: the name of its kind, or GotWithoutKey.
	Got string
}

// GotWithoutKey is MergeKeyNotScalar.Got for a map lacking a merge-key field.
const GotWithoutKey = "an object without it"

// The words of MergeKeyNotScalar.Msg around its fields.
const (
	notScalarItem = "item "
	notScalarKeys = ": expected an object with every merge key field ("
	notScalarGot  = ") set to a scalar, got "
)

// Msg is the error's message.
func (e MergeKeyNotScalar) Msg() string {
	return notScalarItem + strconv.Itoa(e.Item) + notScalarKeys + strings.Join(e.MergeKey, ",") + notScalarGot + e.Got
}

// ReadMergeKeyNotScalar returns the MergeKeyNotScalar whose Msg is msg; ok is false where msg is another message.
func ReadMergeKeyNotScalar(msg string) (e MergeKeyNotScalar, ok bool) {
	rest, ok := strings.CutPrefix(msg, notScalarItem)
	if !ok {
		return e, false
	}
	item, rest, ok := strings.Cut(rest, notScalarKeys)
	if !ok {
		return e, false
	}
	at := strings.LastIndex(rest, notScalarGot) // (what Got says never holds the words)
	if at < 0 {
		return e, false
	}
	var err error
	if e.Item, err = strconv.Atoi(item); err != nil {
		return e, false
	}
	e.MergeKey, e.Got = strings.Split(rest[:at], ","), rest[at+len(notScalarGot):]
	return e, true
}

// DeleteWithoutKey describes the error of a "$patch: delete" item of a patch's list merged by key that lacks a
// merge-key field: the item names nothing to delete. The collation builds its message (Msg) and the differential
// suite reads it back (ReadDeleteWithoutKey).
type DeleteWithoutKey struct {
	// What names the item: "item", or an entry of an order (OrderEntries).
	What string
	// Item is the item's index in its list.
	Item int
	// Field is the merge-key field the item lacks.
	Field string
	// MergeKey is the list's merge key, its fields in order.
	MergeKey []string
}

// The words of DeleteWithoutKey.Msg around its fields.
const (
	deleteKeyOpen  = ": a \"" + DirectiveKey + ": " + DeleteValue + "\" item must give the merge key ("
	deleteKeyLacks = "); it lacks \""
	deleteKeyEnd   = "\""
)

// Msg is the error's message.
func (e DeleteWithoutKey) Msg() string {
	return e.What + " " + strconv.Itoa(e.Item) + deleteKeyOpen + strings.Join(e.MergeKey, ",") + deleteKeyLacks + e.Field +
		deleteKeyEnd
}

// ReadDeleteWithoutKey returns the DeleteWithoutKey of an item ("item") whose Msg is msg; ok is false where msg is
// another message.
func ReadDeleteWithoutKey(msg string) (e DeleteWithoutKey, ok bool) {
	head, rest, ok := strings.Cut(msg, deleteKeyOpen)
	if !ok {
		return e, false
	}
	item, isItem := strings.CutPrefix(head, "item ")
	var err error
	if e.Item, err = strconv.Atoi(item); !isItem || err != nil {
		return e, false
	}
	keys, field, ok := strings.Cut(rest, deleteKeyLacks)
	if !ok {
		return e, false
	}
	if e.Field, ok = strings.CutSuffix(field, deleteKeyEnd); !ok {
		return e, false
	}
	e.What, e.MergeKey = "item", strings.Split(keys, ",")
	return e, true
}

// ScalarsByKey is the error of kubectl's three-way patch for a list the schema merges by key that holds scalars where
// the patch's delta half adds values to live's: merging the patch's halves where both hold the map of the list, kubectl
// checks the delta's list against its "$setElementOrder" reading its items as objects, and fails on the first. The
// patch producer words it and the drop-in reads it (strategicpatch's mergepatch.ErrBadArgType, of the list's first
// added value).
const ScalarsByKey = "kubectl's three-way patch for this list cannot be made: the schema merges it by key but it holds scalars, and merging the patch's halves kubectl reads the values it adds as objects"

// EmptyListsMsg is the message of the error of kubectl apply --overwrite=false's conflict check where the three-way
// patch and current's changes hold an empty list at one field (the patch's list emptied of local's maps holding
// "$patch"): kubectl's check needs an item to type the lists by. The patch producer's check returns it, blaming
// local; the drop-in answers with strategicpatch's own check's verdict or error.
const EmptyListsMsg = "no elements in any of the given slices"

// MarkerNotString is the error of a map's field "$patch" that modified and the document it is compared with both hold
// (data of a map the schema declares no such field in, which strategicpatch's diffs compare as a directive) where
// either value is not a string: strategicpatch's diffs fail there ("invalid value for special key: $patch").
const MarkerNotString = DirectiveKey + " is not a string where both documents compared hold it"
