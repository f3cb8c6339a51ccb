package smp

import (
	"strconv"
	"strings"
)

// NullKeyMerge describes the error of a patch's item whose merge-key field is null and names another item too (live's,
// or an earlier item of the patch), into which it would merge: merged, the null deletes the key field. The collation
// builds its message (Msg) and the drop-in reads it back (ReadNullKeyMerge) to word strategicpatch's error, so that the
// two share one text.
type NullKeyMerge struct {
	// Item is the index of the patch's item whose key field is null.
	Item int
	// Field is the merge-key field that is null.
	Field string
	// InLive tells whether the item it names is live's (else an earlier item of the patch).
	InLive bool
	// Other is the index of the item it names, in live's list or the patch's.
	Other int
}

// The words of NullKeyMerge.Msg around its fields.
const (
	nullKeyItem   = "item "
	nullKeyField  = ": its merge key field \""
	nullKeyNaming = "\" is null, naming "
	nullKeyLive   = "live's item "
	nullKeyPatch  = "the patch's item "
	nullKeyRest   = " too; merged into it, the null deletes the field, leaving an item without its merge key"
)

// Msg is the error's message.
func (e NullKeyMerge) Msg() string {
	whose := nullKeyPatch
	if e.InLive {
		whose = nullKeyLive
	}
	return nullKeyItem + strconv.Itoa(e.Item) + nullKeyField + e.Field + nullKeyNaming + whose + strconv.Itoa(e.Other) + nullKeyRest
}

// ReadNullKeyMerge returns the NullKeyMerge whose Msg is msg; ok is false where msg is another message.
func ReadNullKeyMerge(msg string) (e NullKeyMerge, ok bool) {
	item, rest, ok := readItemField(msg)
	if !ok {
		return e, false
	}
	at := strings.LastIndex(rest, nullKeyNaming) // (the field's name may hold the words; what follows them never does)
	if at < 0 {
		return e, false
	}
	field, rest := rest[:at], rest[at+len(nullKeyNaming):]
	if rest, e.InLive = strings.CutPrefix(rest, nullKeyLive); !e.InLive {
		if rest, ok = strings.CutPrefix(rest, nullKeyPatch); !ok {
			return e, false
		}
	}
	other, ok := strings.CutSuffix(rest, nullKeyRest)
	if !ok {
		return e, false
	}
	var err1, err2 error
	e.Item, err1 = strconv.Atoi(item)
	e.Other, err2 = strconv.Atoi(other)
	e.Field = field
	return e, err1 == nil && err2 == nil
}

// NullKeyDropped describes the error of a patch's item whose merge-key field is null, merged into live's item of its
// key where live lacks the list holding it: strategicpatch copies the list without its nulls, the key among them, and
// a later item of the patch that merges the list fails on the copy. The collation builds its message (Msg) and the
// drop-in reads it back (ReadNullKeyDropped).
type NullKeyDropped struct {
	// Item is the index of the item whose key field is null, in the list live lacks.
	Item int
	// Field is the merge-key field that is null.
	Field string
}

// The words of NullKeyDropped.Msg after its field.
const nullKeyDroppedRest = "\" is null where live lacks the list, copied without it, and a later item of the patch " +
	"merges the list: the copy has no merge key"

// Msg is the error's message.
func (e NullKeyDropped) Msg() string {
	return nullKeyItem + strconv.Itoa(e.Item) + nullKeyField + e.Field + nullKeyDroppedRest
}

// ReadNullKeyDropped returns the NullKeyDropped whose Msg is msg; ok is false where msg is another message.
func ReadNullKeyDropped(msg string) (e NullKeyDropped, ok bool) {
	item, rest, ok := readItemField(msg)
	if !ok {
		return e, false
	}
	if e.Field, ok = strings.CutSuffix(rest, nullKeyDroppedRest); !ok {
		return e, false
	}
	var err error
	e.Item, err = strconv.Atoi(item)
	return e, err == nil
}

// readItemField splits msg, a message both errors begin alike, after its item's index and the words that open the
// field's name: item is the index's text, rest what follows the words. ok is false where msg begins otherwise.
func readItemField(msg string) (item, rest string, ok bool) {
	rest, ok = strings.CutPrefix(msg, nullKeyItem)
	if !ok {
		return "", "", false
	}
	return strings.Cut(rest, nullKeyField)
}
