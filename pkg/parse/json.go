package parse

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/plyproject/ply/pkg/value"
)

// parseJSON reads data as a stream of JSON values with a scanner of its
// own: one pass, one allocation per map, list and string, keys interned.
// Its error is either one that reading data as YAML would repeat (a
// duplicate key, too deep a nesting), with fallback false, or one that
// means data is not JSON as kubectl reads JSON (a syntax error, a number
// beyond float64), with fallback true: kubectl reads such input as YAML
// instead. With owned, strings share data's memory instead of a copy;
// maps and lists take a's memory (nil: their own). The documents are
// appended to docs.
func (l Limits) parseJSON(data []byte, owned bool, a *Arena, docs []doc) (_ []doc, err *Error, fallback bool) {
	sc := scanners.Get().(*jsonScanner)
	defer sc.release()
	return l.scanJSON(sc, data, owned, a, docs)
}

// scanJSON is parseJSON with sc, a scanner from the pool that the caller releases.
func (l Limits) scanJSON(sc *jsonScanner, data []byte, owned bool, a *Arena, docs []doc) (_ []doc, err *Error, fallback bool) {
	sc.data, sc.limits = data, l
	if owned && len(data) > 0 {
		sc.text = unsafe.String(unsafe.SliceData(data), len(data))
	} else {
		sc.text = string(data)
	}
	sc.size(a)
	index := 0
	for {
		sc.skipSpace()
		if sc.pos >= len(data) {
			return docs, nil, false
		}
		index++
		start := sc.pos
		sc.dollar = false
		v, ok := sc.value(0)
		if !ok {
			if sc.err != nil {
				sc.err.Doc = index
				return nil, sc.err, sc.fallback
			}
			var cause error = errors.New("syntax")
			if sc.pos >= len(data) {
				cause = io.ErrUnexpectedEOF
			}
			return nil, jsonSyntaxError(data, start, sc.lines(), cause, index), true
		}
		if !v.IsNull() {
			docs = append(docs, doc{v: sc.marked(v), index: index, line: sc.lines().lineAt(start)})
		}
	}
}

// jsonScanner reads JSON values from data. fields and items are stacks
// shared by all maps and lists being read, so that building a container
// allocates only its final, exactly sized slice.
type jsonScanner struct {
	data   []byte
	pos    int
	limits Limits
	lc     lineCounter // valid once lc.data is set (lines)
	text   string      // the input as a string, which strings share
	fields []value.Field
	items  []value.Value
	buf    []byte // unescaped string being built
	// deepest is the most entries either stack held since the scanner
	// was taken from the pool: what release clears.
	deepest int
	// slab holds the documents' maps and lists: each container is carved
	// from it (carveItems), so a document costs one allocation, not one
	// per container. (Not kept across documents.)
	slab []value.Field
	// arena, when set, gave slab and is told how much of it was used
	// (release).
	arena *Arena
	// dollar reports a map key beginning with '$' read in the document
	// being read (marked).
	dollar bool
	// err is set for errors that are not plain syntax errors.
	err      *Error
	fallback bool
	// kin, when set, holds the values of the documents read before this one into the same Arena that later ones
	// share (JSONDocumentSharingIn), from kinBase on this document's own.
	kin     *Arena
	kinBase int
}

// marked returns v, a document just read, marked with the limit its depth
// was held to (value.Bounded) and, where none of its keys begins with '$',
// value.DollarFree: what the merge's checks for patch directives read.
func (sc *jsonScanner) marked(v value.Value) value.Value {
	v = value.Bounded(v, sc.limits.MaxDepth)
	if !sc.dollar {
		v = value.DollarFree(v)
	}
	return v
}

// carve returns a slice of n elements from slab, with capacity n, growing
// the slab in chunks.
func carve[T any](slab *[]T, n int) []T {
	if cap(*slab)-len(*slab) < n {
		*slab = make([]T, 0, max(n, min(max(2*cap(*slab), 32), 4096)))
	}
	start := len(*slab)
	*slab = (*slab)[:start+n]
	return (*slab)[start : start+n : start+n]
}

// carveItems returns n list items carved from slab, with capacity n: a
// Field is laid out as two Values are (a pointer word, then a scalar
// word, twice; a spec checks it), so the slab's memory holds lists as well
// as maps and the collector reads their pointers right.
func carveItems(slab *[]value.Field, n int) []value.Value {
	fields := carve(slab, (n+1)/2)
	return unsafe.Slice((*value.Value)(unsafe.Pointer(unsafe.SliceData(fields))), n)
}

// slabLimit bounds the slab that size makes up front; larger inputs grow
// it in chunks (carve).
const slabLimit = 8192

// size makes the slab as large as data can need, counted from its bytes
// from sc.pos on (a pass that costs a fraction of the scan), so that a document's maps
// and lists cost one allocation: a map has at most one field per
// ':', a list at most one item per ',' that no map field accounts for,
// plus one per list. Characters inside strings skew the estimates either
// way; a short one is still correct (carve grows), a long one wastes only
// capacity.
func (sc *jsonScanner) size(a *Arena) {
	d := sc.data[sc.pos:]
	colons, lists := bytes.Count(d, []byte{':'}), bytes.Count(d, []byte{'['})
	items := bytes.Count(d, []byte{','}) + lists + bytes.Count(d, []byte{'{'}) - colons
	// Two items take one field's room, and a list of an odd number wastes
	// half a field. A colon inside a string (images "nginx:1.25",
	// timestamps) counts as a field and takes an item off: room for one
	// item more than it takes.
	if n := colons + (max(items, 0)+lists+1)/2; n > 0 && n <= slabLimit {
		sc.slab, sc.arena = a.slab(n), a
	}
}

// scanners keeps jsonScanners, whose stacks grow to the size of the
// documents read, for reuse.
var scanners = sync.Pool{New: func() any { return new(jsonScanner) }}

// release clears sc of everything that refers to a document and returns
// it to the pool.
func (sc *jsonScanner) release() {
	if sc.arena != nil {
		sc.arena.filled(sc.slab)
	}
	// An error leaves the stacks as they were, deeper than recorded.
	clear(sc.fields[:min(max(sc.deepest, len(sc.fields)), cap(sc.fields))])
	clear(sc.items[:min(max(sc.deepest, len(sc.items)), cap(sc.items))])
	*sc = jsonScanner{fields: sc.fields[:0], items: sc.items[:0], buf: sc.buf[:0]}
	scanners.Put(sc)
}

func (sc *jsonScanner) lines() *lineCounter {
	if sc.lc.data == nil {
		sc.lc = lineCounter{data: sc.data, line: 1}
	}
	return &sc.lc
}

func (sc *jsonScanner) fail(off int, msg string, fallback bool) {
	lc := sc.lines()
	sc.err = &Error{Line: lc.lineAt(off), Column: lc.columnAt(off), Msg: msg}
	sc.fallback = fallback
}

func (sc *jsonScanner) skipSpace() { sc.pos = skip(sc.data, sc.pos) }

// skip returns the offset of the first byte of d from i on that is not
// JSON white space, or len(d).
func skip(d []byte, i int) int {
	for i < len(d) && space(d[i]) {
		i++
	}
	return i
}

// space reports whether b is JSON white space. Bytes above the space are
// never white space: one test for most bytes.
func space(b byte) bool { return b <= ' ' && (b == ' ' || b == '\n' || b == '\t' || b == '\r') }

// next returns skip(d, i) and whether the byte there is c (false at the
// end of d), without reading that byte twice.
func next(d []byte, i int, c byte) (int, bool) {
	for ; i < len(d); i++ {
		if b := d[i]; !space(b) {
			return i, b == c
		}
	}
	return i, false
}

// value reads one value at depth (the number of maps and lists around it).
func (sc *jsonScanner) value(depth int) (value.Value, bool) {
	sc.skipSpace()
	if sc.pos >= len(sc.data) {
		return value.Value{}, false
	}
	switch c := sc.data[sc.pos]; c {
	case '{', '[':
		if depth >= sc.limits.MaxDepth {
			sc.fail(sc.pos, "nesting is deeper than the limit of "+strconv.Itoa(sc.limits.MaxDepth)+" levels of maps and lists", false)
			return value.Value{}, false
		}
		if c == '{' {
			return sc.object(depth + 1)
		}
		return sc.array(depth + 1)
	case '"':
		s, next, ok := sc.str(sc.pos)
		sc.pos = next
		return value.String(s), ok
	case 't':
		return value.Bool(true), sc.literal("true")
	case 'f':
		return value.Bool(false), sc.literal("false")
	case 'n':
		return value.Null, sc.literal("null")
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return sc.number()
		}
		return value.Value{}, false
	}
}

func (sc *jsonScanner) literal(word string) bool {
	if len(sc.data)-sc.pos < len(word) || string(sc.data[sc.pos:sc.pos+len(word)]) != word {
		return false
	}
	sc.pos += len(word)
	return true
}

// object reads the map whose opening brace is at sc.pos, at depth. Its
// fields go straight into the slab, after what the slab holds (from
// start), while the slab has room and no value is a map or a list, which
// takes slab memory of its own: such a map, the most common, costs no
// copy. Otherwise they go on the stack (from base; unflat moves those in
// the slab there) and mapOf copies them into the slab at the end. A map
// read so is marked as holding no map or list (value.FlatMapFromSorted).
// The top-level map's maps and lists, and lists below, are shared where
// documents share them (shares, kinValue). The offset is kept in i and stored in sc.pos only
// around calls that read it, and on errors. The stack is cut back to base
// on success only: an error ends the whole scan (release empties it).
func (sc *jsonScanner) object(depth int) (value.Value, bool) {
	d, open := sc.data, sc.pos
	base, start, flat := len(sc.fields), len(sc.slab), true
	i, empty := next(d, open+1, '}')
	if empty {
		sc.pos = i + 1
		return value.MapFromSorted(nil), true
	}
	sorted, prev, n := true, "", 0
	for ; ; n++ {
		key, ok := "", false
		// Short keys and string values, the most common, are read here
		// (shortLen), and string values not through value.
		if i < len(d) && d[i] == '"' {
			if m := shortLen(d, i+1); m >= 0 {
				key, i, ok = sc.text[i+1:i+1+m], i+2+m, true
			} else {
				key, i, ok = sc.strFrom(i+1, i+1+^m)
			}
		}
		if !ok {
			sc.pos = i
			return value.Value{}, false
		}
		if i, ok = next(d, i, ':'); !ok {
			sc.pos = i
			return value.Value{}, false
		}
		var v value.Value
		if i, ok = next(d, i+1, '"'); ok {
			var s string
			if m := shortLen(d, i+1); m >= 0 {
				s, i = sc.text[i+1:i+1+m], i+2+m
			} else {
				s, i, ok = sc.strFrom(i+1, i+1+^m)
			}
			v = value.String(s)
		} else {
			if i < len(d) && (d[i] == '{' || d[i] == '[') {
				flat = flat && sc.unflat(start)
			}
			if sc.pos = i; i < len(d) && sc.shares(depth, d[i]) {
				v, i, ok = sc.kinValue(key, depth, i)
			} else {
				v, ok = sc.value(depth)
				i = sc.pos
			}
		}
		if !ok {
			sc.pos = i
			return value.Value{}, false
		}
		if n > 0 && !before(prev, key) {
			sorted = false
		}
		if f, l := (value.Field{Key: key, Value: v}), len(sc.slab); flat && l < cap(sc.slab) {
			sc.slab, prev = sc.slab[:l+1], key // room checked: not append
			sc.slab[l] = f
		} else {
			flat = flat && sc.unflat(start)
			sc.fields, prev = append(sc.fields, f), key
		}
		if i, ok = next(d, i, ','); ok {
			i = skip(d, i+1)
			continue
		}
		if i < len(d) && d[i] == '}' {
			sc.pos = i + 1
			if end := len(sc.slab); flat && sorted {
				sc.noteDollar(sc.slab[start:end:end])
				return value.FlatMapFromSorted(sc.slab[start:end:end]), true
			}
			return sc.mapOf(open, base, start, flat, sorted)
		}
		sc.pos = i
		return value.Value{}, false
	}
}

// unflat moves the fields that object wrote into the slab from start
// onto the stack and returns false (flat no more). The slab is cleared
// behind them, as it is beyond its length (see Arena).
func (sc *jsonScanner) unflat(start int) bool {
	sc.fields = append(sc.fields, sc.slab[start:]...)
	clear(sc.slab[start:])
	sc.slab = sc.slab[:start]
	return false
}

// mapOf makes the map that object read, opening at open, of its fields:
// in the slab from start when flat, on the stack from base otherwise (they
// are carved out of the slab, and the stack cut back to base). Unless
// sorted already, they are sorted in place and checked for a duplicate key.
func (sc *jsonScanner) mapOf(open, base, start int, flat, sorted bool) (value.Value, bool) {
	var fields []value.Field
	if flat {
		fields = sc.slab[start:len(sc.slab):len(sc.slab)]
	} else {
		src := sc.fields[base:]
		fields = carve(&sc.slab, len(src))
		copy(fields, src)
		sc.deepest = max(sc.deepest, len(sc.fields))
		sc.fields = sc.fields[:base]
	}
	if sorted {
		sc.noteDollar(fields)
		return value.MapFromSorted(fields), true
	}
	// In place and without allocating (objects in Kubernetes' own order,
	// not sorted, are common).
	slices.SortStableFunc(fields, func(a, b value.Field) int { return strings.Compare(a.Key, b.Key) })
	for i := 1; i < len(fields); i++ {
		if fields[i].Key == fields[i-1].Key {
			sc.duplicate(open, fields[i].Key)
			return value.Value{}, false
		}
	}
	sc.noteDollar(fields)
	return value.MapFromSorted(fields), true
}

// noteDollar sets sc.dollar where a key of fields, a map's sorted by key, begins with '$'. Only the keys sorting
// before any that begins with '$' need be read: in most maps, the first.
func (sc *jsonScanner) noteDollar(fields []value.Field) {
	for _, f := range fields {
		switch {
		case f.Key == "":
		case f.Key[0] == '$':
			sc.dollar = true
			return
		case f.Key[0] > '$':
			return
		}
	}
}

// before reports whether a sorts before b, deciding by the first bytes
// when they differ (as consecutive keys mostly do) without a call.
func before(a, b string) bool {
	if a != "" && b != "" && a[0] != b[0] {
		return a[0] < b[0]
	}
	return a < b
}

// duplicate fails at the second field named key of the map that opens at
// open, naming the line of the first: it reads the map's keys again for
// their offsets (only errors need them).
func (sc *jsonScanner) duplicate(open int, key string) {
	again := jsonScanner{data: sc.data, pos: open + 1, limits: sc.limits, text: sc.text}
	first := -1
	// The map was read to its end once, so the second key is found before
	// the end of the data; the bound only keeps a mistake from looping.
	for again.pos < len(again.data) {
		again.skipSpace()
		off := again.pos
		k, next, _ := again.str(off)
		again.pos = next
		if k == key && first >= 0 {
			sc.fail(off, duplicateMsg(key, sc.lines().lineAt(first)), false)
			return
		}
		if k == key {
			first = off
		}
		again.skipSpace()
		again.pos++ // :
		again.value(1)
		again.separator('}')
	}
}

// separator reads what follows a member of a map or list: a comma (more
// is true) or the closing byte (more is false); ok is false for anything
// else.
func (sc *jsonScanner) separator(closing byte) (more, ok bool) {
	sc.skipSpace()
	if sc.pos >= len(sc.data) {
		return false, false
	}
	switch sc.data[sc.pos] {
	case ',':
		sc.pos++
		return true, true
	case closing:
		sc.pos++
		return false, true
	}
	return false, false
}

func (sc *jsonScanner) array(depth int) (value.Value, bool) {
	d := sc.data
	base := len(sc.items) // cut back as in object
	sc.pos = skip(d, sc.pos+1)
	if sc.pos < len(d) && d[sc.pos] == ']' {
		sc.pos++
		return value.List(nil), true
	}
	for {
		if len(sc.items)-base == sc.limits.MaxListItems {
			sc.fail(sc.pos, tooManyItemsMsg(sc.limits.MaxListItems), false)
			return value.Value{}, false
		}
		var v value.Value
		var ok bool
		// A map, the most common item, is read here rather than through
		// value (which fails at the depth limit).
		if sc.pos < len(d) && d[sc.pos] == '{' && depth < sc.limits.MaxDepth {
			v, ok = sc.object(depth + 1)
		} else {
			v, ok = sc.value(depth)
		}
		if !ok {
			return value.Value{}, false
		}
		sc.items = append(sc.items, v)
		// The separator, as separator reads it, without its call (a tenth
		// of a list's cost); the next item starts at sc.pos after a comma.
		sc.skipSpace()
		if sc.pos < len(d) && d[sc.pos] == ',' {
			sc.pos = skip(d, sc.pos+1)
			continue
		}
		if sc.pos < len(d) && d[sc.pos] == ']' {
			sc.pos++
			break
		}
		return value.Value{}, false
	}
	items, src := carveItems(&sc.slab, len(sc.items)-base), sc.items[base:]
	// A loop, not copy: lists are mostly too short for its call to pay.
	for j := range items {
		items[j] = src[j]
	}
	sc.deepest = max(sc.deepest, len(sc.items))
	sc.items = sc.items[:base]
	return value.List(items), true
}

// str reads the string whose opening quote is at offset i and returns it
// and the offset after its closing quote (or where reading failed). Strings
// without escapes are substrings of text: no allocation.
func (sc *jsonScanner) str(i int) (string, int, bool) { return sc.strFrom(i+1, i+1) }

// strFrom is str for the string whose content starts at start, the bytes
// before i known to be plain (shortLen). The common string, plain ASCII up
// to its closing quote, is read here eight bytes at a time; any other goes
// on in special.
func (sc *jsonScanner) strFrom(start, i int) (string, int, bool) {
	d := sc.data
	for ; i+8 <= len(d); i += 8 {
		w := binary.LittleEndian.Uint64(d[i:])
		if flags := notPlain(w); flags != 0 {
			// The lowest flag is the high bit of the first byte that is
			// not plain: the string ends there when that byte is the quote.
			end := i + bits.TrailingZeros64(flags)/8
			if byte(w>>(uint(bits.TrailingZeros64(flags))&^7)) == '"' {
				return sc.text[start:end], end + 1, true
			}
			return sc.special(start, end)
		}
	}
	return sc.special(start, PlainRun(d, i))
}

// shortLen returns the length of the string whose content starts at
// start (after its opening quote) when that string is plain ASCII and its
// closing quote among the eight bytes from start, the common case: small
// enough to be inlined where strings are read most. Otherwise it returns
// ^k, k the number of bytes from start known to be plain, for strFrom.
func shortLen(d []byte, start int) int {
	if start+8 > len(d) {
		return ^0
	}
	w := binary.LittleEndian.Uint64(d[start:])
	// The lowest flag is the high bit of the first byte that is not plain:
	// the string ends there when that byte is the quote. (Without a flag,
	// n is 64 and the shift leaves no quote.)
	n := bits.TrailingZeros64(notPlain(w))
	if byte(w>>(uint(n)&^7)) == '"' {
		return n / 8
	}
	return ^(n / 8)
}

// special is str for the string whose content starts at start, from i,
// the first byte that str did not find plain (or len(data)).
func (sc *jsonScanner) special(start, i int) (string, int, bool) {
	end, escaped, ok := sc.rawString(start, i)
	if !ok {
		return "", sc.pos, false
	}
	if escaped {
		s, ok := sc.unescape(sc.data[start:end])
		return s, sc.pos, ok
	}
	return sc.text[start:end], sc.pos, true
}

// plainInString marks the bytes a JSON string holds as they are: ASCII
// from space up, but the quote and the backslash.
var plainInString = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// rawString goes on scanning the string that starts at start from i, the
// first byte that PlainRun stopped at, and returns where its closing
// quote is; escaped is true when the string holds escapes or bytes that
// are not valid UTF-8 (which JSON decoding replaces).
func (sc *jsonScanner) rawString(start, i int) (end int, escaped, ok bool) {
	d := sc.data
	for ; i < len(d); i = PlainRun(d, i+1) {
		c := d[i]
		switch {
		case c == '"':
			sc.pos = i + 1
			return i, escaped, true
		case c == '\\':
			escaped = true
			i++
		case c < 0x20:
			sc.pos = i
			return 0, false, false
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size == 1 {
				escaped = true
			}
			i += size - 1
		}
	}
	sc.pos = len(d)
	return 0, false, false
}

// Byte patterns for PlainRun: every byte of a word set to one value.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// notPlain flags the high bit of each byte of w (eight bytes of a string,
// the first in the lowest bits) that is below 0x20, a quote, a backslash or
// not ASCII. Borrows can flag bytes after the first flagged one, never
// before it, so the lowest flag is exact.
func notPlain(w uint64) uint64 {
	// w flags the bytes that are not ASCII. Of an ASCII byte without a
	// borrow, w-ones*0x20 flags it when it is below 0x20, and
	// (w^ones*'"')-ones when it is the quote (the backslash likewise). A
	// borrow starts only at a byte flagged so.
	below, quote, slash := w-ones*0x20, (w^(ones*'"'))-ones, (w^(ones*'\\'))-ones
	return (below | quote | slash | w) & highs
}

// PlainRun returns the offset of the first byte from i on that a JSON
// string does not hold as it is (a quote, a backslash, a control byte or a
// byte that is not ASCII), or len(d), testing eight bytes at a time.
func PlainRun(d []byte, i int) int {
	for ; i+8 <= len(d); i += 8 {
		if flags := notPlain(binary.LittleEndian.Uint64(d[i:])); flags != 0 {
			return i + bits.TrailingZeros64(flags)/8
		}
	}
	for i < len(d) && plainInString[d[i]] {
		i++
	}
	return i
}

// unescape decodes the escapes of a raw string as encoding/json does
// (invalid UTF-8 and lone surrogates become U+FFFD).
func (sc *jsonScanner) unescape(raw []byte) (string, bool) {
	b := sc.buf[:0]
	for i := 0; i < len(raw); {
		c := raw[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(raw[i:])
			b = utf8.AppendRune(b, r)
			i += size
			continue
		}
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		if i+1 >= len(raw) {
			return "", false
		}
		switch raw[i+1] {
		case '"', '\\', '/':
			b = append(b, raw[i+1])
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := hex4(raw[i+2:])
			if !ok {
				return "", false
			}
			i += 6
			if utf16.IsSurrogate(r) {
				if i+1 < len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					r2, ok := hex4(raw[i+2:])
					if !ok {
						return "", false
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						b = utf8.AppendRune(b, dec)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			b = utf8.AppendRune(b, r)
			continue
		default:
			return "", false
		}
		i += 2
	}
	sc.buf = b
	return string(b), true
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// number reads a number with JSON's grammar: an integer literal that fits
// int64 is an integer, any other number a float64.
func (sc *jsonScanner) number() (value.Value, bool) {
	d := sc.data
	start, i := sc.pos, sc.pos
	if d[i] == '-' {
		i++
	}
	if i >= len(d) {
		return value.Value{}, false
	}
	switch {
	case d[i] == '0':
		i++
	case d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		return value.Value{}, false
	}
	integer := true
	if i < len(d) && d[i] == '.' {
		integer = false
		i++
		j := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if i == j {
			return value.Value{}, false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		integer = false
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if i == j {
			return value.Value{}, false
		}
	}
	sc.pos = i
	lit := d[start:i]
	if integer && len(lit) <= 18 {
		// At most 18 digits always fits int64.
		var n int64
		neg := lit[0] == '-'
		if neg {
			lit = lit[1:]
		}
		for _, c := range lit {
			n = n*10 + int64(c-'0')
		}
		if neg {
			n = -n
		}
		return value.Int(n), true
	}
	v, ok := jsonNumber(string(d[start:i]))
	if !ok {
		sc.fail(start, "number "+string(d[start:i])+" is beyond the range of a 64-bit float", true)
		return value.Value{}, false
	}
	return v, true
}

// jsonNumber converts a JSON number as kubectl does: an integer literal
// that fits int64 is an integer, any other number a float64; ok is false
// when it overflows float64.
func jsonNumber(s string) (value.Value, bool) {
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return value.Int(i), true
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return value.Null, false
	}
	return value.Float(f), true
}

// jsonSyntaxError locates the error err that encoding/json's Decoder met
// in the top-level value starting at offset start. The offsets the Decoder
// gives are not reliable, so the value is checked again by json.Unmarshal,
// whose syntax check scans the bytes in one pass and reports the offset
// just after the offending byte.
func jsonSyntaxError(data []byte, start int, lc *lineCounter, err error, doc int) *Error {
	off, msg := len(data), err.Error()
	var sink struct{}
	var se *json.SyntaxError
	if errors.As(json.Unmarshal(data[start:], &sink), &se) {
		off, msg = start+int(se.Offset)-1, se.Error()
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || msg == "unexpected end of JSON input" {
		off, msg = len(data)-1, "unexpected end of input"
	}
	off = min(max(off, 0), len(data))
	return &Error{Doc: doc, Line: lc.lineAt(off), Column: lc.columnAt(off), Msg: "invalid JSON: " + msg, syntax: true}
}
