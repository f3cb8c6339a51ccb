package engine

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// write returns result, the merge of the object the trimmer read, with the fields left out written back at their
// places, as JSON text of its own, and whether each place holding some is a map in result without their keys (else
// the caller merges the whole object).
func (t *trimmer) write(result value.Value) ([]byte, bool) {
	holding, written := 0, 0
	for _, pl := range t.places {
		if len(pl.out) > 0 {
			holding++
		}
	}
	b, ok := t.writeAt(t.out[:0], 0, result, &written)
	t.out = b
	if !ok || written != holding {
		return nil, false
	}
	return bytes.Clone(b), true
}

// writeAt appends result, the merge's value at place at, with the fields left out there (and below) to b; it counts
// the places it wrote fields back at.
func (t *trimmer) writeAt(b []byte, at int, result value.Value, written *int) ([]byte, bool) {
	if !result.IsMap() {
		return b, false
	}
	out := t.places[at].out
	if len(out) > 0 {
		*written++
	}
	b = append(b, '{')
	n := 0
	comma := func() {
		if n > 0 {
			b = append(b, ',')
		}
		n++
	}
	for _, f := range result.Fields() {
		for len(out) > 0 && out[0].key < f.Key {
			comma()
			b, out = append(b, out[0].text...), out[1:]
		}
		if len(out) > 0 && out[0].key == f.Key {
			return b, false
		}
		comma()
		b = append(value.String(f.Key).AppendJSON(b), ':')
		var ok bool
		if b, ok = t.writeField(b, at, f, written); !ok {
			return b, false
		}
	}
	for _, f := range out {
		comma()
		b = append(b, f.text...)
	}
	return append(b, '}'), true
}

// writeField appends the value of field f of the result's map at place at to b: with the fields left out at the
// places below it written back (writeAt), the items of a list among them.
func (t *trimmer) writeField(b []byte, at int, f value.Field, written *int) ([]byte, bool) {
	if child := t.child(at, f.Key); child > 0 {
		return t.writeAt(b, child, f.Value, written)
	}
	first := t.firstItem(at, f.Key)
	if first == 0 || !f.Value.IsList() {
		return f.Value.AppendJSON(b), true
	}
	b = append(b, '[')
	mergeKey := t.places[first].mergeKey
	for i, it := range f.Value.Items() {
		if i > 0 {
			b = append(b, ',')
		}
		mk, _ := it.Get(mergeKey)
		name, isString := mk.AsString()
		child := 0
		if it.IsMap() && isString {
			child = t.itemChild(at, f.Key, name)
		}
		if child == 0 {
			b = it.AppendJSON(b)
			continue
		}
		var ok bool
		if b, ok = t.writeAt(b, child, it, written); !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}

// child returns the place of the map at key of place at, or 0 if none.
func (t *trimmer) child(at int, key string) int {
	for i := at + 1; i < len(t.places); i++ {
		if pl := &t.places[i]; pl.parent == at && pl.key == key && !pl.inList {
			return i
		}
	}
	return 0
}

// itemChild returns the place of the item whose merge key holds item of the list at key of place at, or 0 if none.
func (t *trimmer) itemChild(at int, key, item string) int {
	for i := at + 1; i < len(t.places); i++ {
		if pl := &t.places[i]; pl.parent == at && pl.key == key && pl.inList && pl.item == item {
			return i
		}
	}
	return 0
}

// firstItem returns the first place of an item of the list at key of place at, or 0 if none.
func (t *trimmer) firstItem(at int, key string) int {
	for i := at + 1; i < len(t.places); i++ {
		if pl := &t.places[i]; pl.parent == at && pl.key == key && pl.inList {
			return i
		}
	}
	return 0
}

// skipSpace returns the offset of the first byte from i on that is not JSON white space, or len(d).
func skipSpace(d []byte, i int) int {
	for i < len(d) && d[i] <= ' ' && (d[i] == ' ' || d[i] == '\n' || d[i] == '\t' || d[i] == '\r') {
		i++
	}
	return i
}

// separator reads what follows a member of an object or list from offset i: a comma (more: next is the offset of what
// follows it) or the closing byte (next is its offset); ok is false for anything else.
func separator(d []byte, i int, closing byte) (next int, more, ok bool) {
	i = skipSpace(d, i)
	switch {
	case i < len(d) && d[i] == ',':
		return skipSpace(d, i+1), true, true
	case i < len(d) && d[i] == closing:
		return i, false, true
	}
	return i, false, false
}

// stringByte classes the bytes of a JSON string's text: plainByte those encoding/json writes as they are (printable
// ASCII but '"', '\\', '<', '>', '&' and DEL), quoteByte, escapeByte, otherByte (other ASCII), wideByte (not ASCII).
var stringByte = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c == '"':
			t[c] = quoteByte
		case c == '\\':
			t[c] = escapeByte
		case c >= utf8.RuneSelf:
			t[c] = wideByte
		case c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x7f:
			t[c] = otherByte
		}
	}
	return t
}()

const (
	plainByte = iota
	quoteByte
	escapeByte
	otherByte
	wideByte
)

// canonicalString returns the offset after the string whose quote is at offset i (-1 if it has none), and whether its
// text is as encoding/json writes it: plain bytes (stringByte), or valid UTF-8 but U+2028 and U+2029. A string holding
// an escape is not (its end is found all the same).
func canonicalString(d []byte, i int) (end int, canonical bool) {
	if i >= len(d) || d[i] != '"' {
		return -1, false
	}
	canonical = true
	for j := i + 1; j < len(d); {
		j = plainEnd(d, j)
		if j >= len(d) {
			break
		}
		switch stringByte[d[j]] {
		case quoteByte:
			return j + 1, canonical
		case escapeByte:
			canonical = false
			j += 2
		case wideByte:
			r, size := utf8.DecodeRune(d[j:])
			if (r == utf8.RuneError && size == 1) || r == '\u2028' || r == '\u2029' {
				canonical = false
			}
			j += size
		default:
			canonical = false
			j++
		}
	}
	return -1, false
}

// plainEnd returns the offset of the first byte from i on that is not plain (stringByte), or len(d), testing eight
// bytes at a time.
func plainEnd(d []byte, i int) int {
	for ; i+8 <= len(d); i += 8 {
		if flags := notCanonical(binary.LittleEndian.Uint64(d[i:])); flags != 0 {
			return i + bits.TrailingZeros64(flags)/8
		}
	}
	for i < len(d) && stringByte[d[i]] == plainByte {
		i++
	}
	return i
}

// Byte patterns for notCanonical: every byte of a word set to one value.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// notCanonical flags the high bit of each byte of w (eight bytes of a string, the first in the lowest bits) that is
// not plain (stringByte). Borrows can flag bytes after the first flagged one, never before it, so the lowest flag is
// exact: of an ASCII byte without a borrow, w-ones*0x20 flags it when below 0x20, (w^ones*c)-ones when it is c; w
// flags the bytes that are not ASCII.
func notCanonical(w uint64) uint64 {
	below := w - ones*0x20
	quote, escape := (w^(ones*'"'))-ones, (w^(ones*'\\'))-ones
	lt, gt, amp, del := (w^(ones*'<'))-ones, (w^(ones*'>'))-ones, (w^(ones*'&'))-ones, (w^(ones*0x7f))-ones
	return (below | quote | escape | lt | gt | amp | del | w) & highs
}

// canonicalValue returns the offset after the value at offset i, at depth, and whether it is written as
// strategicpatch writes it (see trimmer): no white space, keys in order, integers of at most 15 digits (which every
// decoding gives back as they are), canonical strings. Other values, or values deeper than trimMaxDepth, are not.
func canonicalValue(d []byte, i, depth int) (int, bool) {
	if i >= len(d) || depth > trimMaxDepth {
		return 0, false
	}
	switch c := d[i]; {
	case c == '"':
		end, ok := canonicalString(d, i)
		return end, ok
	case c == '{':
		return canonicalObject(d, i, depth+1)
	case c == '[':
		return canonicalList(d, i, depth+1)
	case c == 't':
		return literalEnd(d, i, "true")
	case c == 'f':
		return literalEnd(d, i, "false")
	case c == 'n':
		return literalEnd(d, i, "null")
	}
	return canonicalInteger(d, i)
}

func literalEnd(d []byte, i int, word string) (int, bool) {
	if len(d)-i < len(word) || string(d[i:i+len(word)]) != word {
		return 0, false
	}
	return i + len(word), true
}

// canonicalInteger is canonicalValue for a number: an integer without leading zeros, not -0, of at most 15 digits.
func canonicalInteger(d []byte, i int) (int, bool) {
	j := i
	if j < len(d) && d[j] == '-' {
		j++
	}
	start := j
	for j < len(d) && d[j] >= '0' && d[j] <= '9' {
		j++
	}
	digits := j - start
	switch {
	case digits == 0 || digits > 15 || (digits > 1 && d[start] == '0') || (start > i && digits == 1 && d[start] == '0'):
		return 0, false
	case j < len(d) && (d[j] == '.' || d[j] == 'e' || d[j] == 'E'):
		return 0, false
	}
	return j, true
}

// canonicalObject is canonicalValue for the object whose brace is at offset i: its keys canonical and in strictly
// increasing order, each directly followed by ':' and its value, members by ','.
func canonicalObject(d []byte, i, depth int) (int, bool) {
	i++
	if i < len(d) && d[i] == '}' {
		return i + 1, true
	}
	var prev []byte
	for i < len(d) {
		end, ok := canonicalString(d, i)
		if !ok || end >= len(d) || d[end] != ':' {
			return 0, false
		}
		key := d[i+1 : end-1]
		if prev != nil && bytes.Compare(prev, key) >= 0 {
			return 0, false
		}
		prev = key
		if i, ok = canonicalValue(d, end+1, depth); !ok {
			return 0, false
		}
		next, more, ok := canonicalSeparator(d, i, '}')
		if !ok || !more {
			return next, ok
		}
		i = next
	}
	return 0, false
}

// canonicalSeparator reads what follows a member of a canonical object or list at offset i, with no white space: a
// comma (more) or the closing byte, next the offset after it; ok is false for anything else.
func canonicalSeparator(d []byte, i int, closing byte) (next int, more, ok bool) {
	switch {
	case i < len(d) && d[i] == ',':
		return i + 1, true, true
	case i < len(d) && d[i] == closing:
		return i + 1, false, true
	}
	return 0, false, false
}

// canonicalList is canonicalValue for the list whose bracket is at offset i: items separated by ',', no more than
// package parse reads into one list.
func canonicalList(d []byte, i, depth int) (int, bool) {
	i++
	if i < len(d) && d[i] == ']' {
		return i + 1, true
	}
	for n := 1; i < len(d) && n <= parse.DefaultMaxListItems; n++ {
		var ok bool
		if i, ok = canonicalValue(d, i, depth); !ok {
			return 0, false
		}
		next, more, ok := canonicalSeparator(d, i, ']')
		if !ok || !more {
			return next, ok
		}
		i = next
	}
	return 0, false
}
