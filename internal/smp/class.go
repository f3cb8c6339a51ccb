package smp

import (
	"strconv"
	"strings"

	"github.com/plyproject/ply/pkg/value"
)

// An item's class is its JSON type as strategicpatch compares them (value.Kind, numbers KindInt); ClassNone: no items.
const ClassNone = value.KindList + 1

var (
	classNames  = [...]string{"null", "a boolean", "a number", "", "a string", "an object", "a list", "nothing"}
	classPlural = [...]string{"nulls", "booleans", "numbers", "", "strings", "objects", "lists", "nothing"}
)

// ClassName names class c as one item ("a number"), ClassPlural as items ("numbers").
func ClassName(c value.Kind) string { return classNames[c] }

// ClassPlural names class c as items ("numbers").
func ClassPlural(c value.Kind) string { return classPlural[c] }

// ItemClass returns the items' class (ClassNone: none), or a message naming the first item unlike item 0.
func ItemClass(items []value.Value) (value.Kind, string) {
	c, i := classUpTo(items)
	if i == len(items) {
		return c, ""
	}
	return c, "list items must all be of one kind: item 0 is " + classNames[c] + ", item " + strconv.Itoa(i) + " is " +
		classNames[classOf(items[i])]
}

// OneClass returns the items' class (ClassNone: none) and whether they are all of it: ItemClass without its message.
func OneClass(items []value.Value) (value.Kind, bool) {
	c, i := classUpTo(items)
	return c, i == len(items)
}

// classUpTo returns the class of items' first item (ClassNone: none) and the index of the first item of another
// class (len(items): none).
func classUpTo(items []value.Value) (value.Kind, int) {
	if len(items) == 0 {
		return ClassNone, 0
	}
	c := classOf(items[0])
	for i := 1; i < len(items); i++ {
		if classOf(items[i]) != c {
			return c, i
		}
	}
	return c, len(items)
}

// classOf returns v's class: its Kind, numbers KindInt.
func classOf(v value.Value) value.Kind {
	if k := v.Kind(); k != value.KindFloat {
		return k
	}
	return value.KindInt
}

// DeletesFromClass returns why directive dir ("$deleteFromPrimitiveList/<field>"), deleting values of class deleted
// (ClassNone: none), cannot delete from a list holding base (objects: a set of maps, whose items may be objects):
// base's items of mixed classes or null (fromBase), objects where a list of scalars is wanted, or a class other than
// the values'. "" where it can.
func DeletesFromClass(dir string, deleted value.Kind, base []value.Value, objects bool) (msg string, fromBase bool) {
	held, baseMsg := ItemClass(base)
	switch {
	case baseMsg != "":
		return baseMsg, true
	case held == value.KindMap && !objects:
		return dir + " applies to lists of scalars; this list holds objects (delete them with \"" + DirectiveKey + ": " + DeleteValue + "\" items)", false
	case held != ClassNone && deleted != ClassNone && held != deleted:
		return dir + ": the values to delete are " + classPlural[deleted] + " but the list holds " + classPlural[held], false
	}
	return "", false
}

// ListClass returns the class of a merged list's items, live's and the patch's (ClassNone: none; objects or scalars),
// or why they cannot merge (msg; fromLive: live's items tell it, else the patch's): items of mixed classes in either
// list, classes the lists differ in, null items, lists.
func ListClass(live, patch []value.Value) (class value.Kind, msg string, fromLive bool) {
	lc, liveMsg := ItemClass(live)
	pc, patchMsg := ItemClass(patch)
	class, fromLive = lc, true
	if class == ClassNone {
		class, fromLive = pc, false
	}
	switch {
	case liveMsg != "":
		return 0, liveMsg, true
	case patchMsg != "":
		return 0, patchMsg, false
	case lc != ClassNone && pc != ClassNone && lc != pc:
		return 0, "the patch's items are " + classPlural[pc] + " but live's are " + classPlural[lc], false
	case class == value.KindNull:
		return 0, "a merged list cannot hold null items", fromLive
	case class == value.KindList:
		return 0, "lists of lists cannot be merged", fromLive
	}
	return class, "", false
}

// ScalarsOfOneClass reports whether live's and the patch's items merge as a list of scalars (ListClass): items of one
// class, neither objects, nulls nor lists, and at least one item between them.
func ScalarsOfOneClass(live, patch []value.Value) bool {
	class, msg, _ := ListClass(live, patch)
	return msg == "" && class != value.KindMap && class != ClassNone
}

// ScalarsOfKind reports whether items are all scalars (not null) of kind k (value.Kind: an integer and a decimal are
// of two kinds).
func ScalarsOfKind(items []value.Value, k value.Kind) bool {
	for _, it := range items {
		if it.Kind() != k || !it.IsScalar() || it.IsNull() {
			return false
		}
	}
	return true
}

// KeyedListClass is ListClass for a list the schema merges by merge key, where live holds a list: strategicpatch
// reads each merged item's key, so scalar items there, live's or the patch's, cannot merge either (an empty list
// of one side takes the other's class).
func KeyedListClass(live, patch []value.Value) (class value.Kind, msg string, fromLive bool) {
	class, msg, fromLive = ListClass(live, patch)
	if msg != "" || class == ClassNone || class == value.KindMap {
		return class, msg, fromLive
	}
	return 0, KeyedScalars{Got: classPlural[class]}.Msg(), len(live) > 0
}

// KeyedScalars describes KeyedListClass's error for a list merged by key holding scalars: Got names their class as
// items (ClassPlural). The collation builds its message (Msg) and the drop-in reads it back (ReadKeyedScalars).
type KeyedScalars struct {
	Got string
}

// keyedScalarsText opens KeyedScalars.Msg.
const keyedScalarsText = "a list merged by key holds objects, got "

// Msg is the error's message.
func (e KeyedScalars) Msg() string { return keyedScalarsText + e.Got }

// ReadKeyedScalars returns the KeyedScalars whose Msg is msg; ok is false where msg is another message.
func ReadKeyedScalars(msg string) (e KeyedScalars, ok bool) {
	e.Got, ok = strings.CutPrefix(msg, keyedScalarsText)
	return e, ok
}
