package engine

import (
	"bytes"
	"sync"
	"unicode/utf8"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// A currentTrimmer writes the text of a three-way patch's current object with the values of the fields modified does
// not hold stood in for, so that reading it costs nothing for what the server adds (managedFields, annotations,
// status, defaults): with overwrite, strategicpatch's CreateThreeWayMergePatch reads of current only the fields
// modified holds (the delta from current to modified ignores deletions; the deletions are original's against
// modified) and, in a map with the retainKeys strategy, whether current holds another field that is not null. The text
// keeps every field of current, each map modified holds a map at read down the same way, and writes a field modified
// lacks with a value of its kind standing in: {} for an object, [] for a list, "" for a string, a number, true, false
// or null as it is. The patch computed from it is thus the patch computed from current.
//
// A value stood in for is checked to be one package parse reads (and encoding/json too): valid JSON, strings of valid
// UTF-8 whose escapes are not of surrogates, integers of at most 15 digits, keys not beginning with '$', each key once
// in its object (escaped only as \" or \\), within parse's default limits. Where current is written otherwise (or its
// root is no object, or a key read down is escaped or repeated), the text is current's as it is, so that reading it
// gives every error reading current gives.
type currentTrimmer struct {
	d    []byte
	docs *parse.Arena // the arena the earlier documents were read into
	out  []byte
	keys []string // the keys of the objects being checked, innermost last
}

// currentTrimmers keeps the memory of finished calls' trimmers.
var currentTrimmers = sync.Pool{New: func() any { return new(currentTrimmer) }}

// Bounds of a currentTrimmer: the output it keeps, the keys of one object it compares pairwise when they are not in
// order (more are read whole: parse's reading of them costs no more than sorting them here), the nesting it checks.
const (
	currentMaxOut      = 1 << 20
	currentMaxUnsorted = 32
	currentMaxDepth    = 100
)

// trimmedCurrent returns the text to read for current (see currentTrimmer) into docs, modified read into it, and the
// function that releases the text once what was read from it is no longer used. A value of a field modified holds
// that reading shares with an earlier document (parse.Arena.SharedLen) is copied without reading it here.
func trimmedCurrent(current []byte, modified value.Value, docs *parse.Arena) ([]byte, func()) {
	if len(current) > parse.DefaultMaxBytes || !modified.IsMap() {
		return current, func() {}
	}
	t := currentTrimmers.Get().(*currentTrimmer)
	t.d, t.docs = current, docs
	i := skipSpace(current, 0)
	out, end, ok := t.object(t.out[:0], i, modified, 1)
	t.out = out
	if !ok || skipSpace(current, end) != len(current) {
		t.release()
		return current, func() {}
	}
	return out, t.release
}

// release clears t and returns it to currentTrimmers.
func (t *currentTrimmer) release() {
	t.d, t.docs = nil, nil
	clear(t.keys)
	t.keys = t.keys[:0]
	if cap(t.out) > currentMaxOut {
		t.out = nil
	}
	currentTrimmers.Put(t)
}

// object appends the text of current's object at offset i, where modified holds the map m, to out: the fields m holds
// as they are (read down where both are maps), the others stood in for. It returns the offset after the object.
func (t *currentTrimmer) object(out []byte, i int, m value.Value, depth int) ([]byte, int, bool) {
	d := t.d
	if i >= len(d) || d[i] != '{' || depth > currentMaxDepth {
		return out, 0, false
	}
	base := len(t.keys)
	defer func() { t.keys = t.keys[:base] }()
	out = append(out, '{')
	i = skipSpace(d, i+1)
	if i < len(d) && d[i] == '}' {
		return append(out, '}'), i + 1, true
	}
	for i < len(d) {
		key, vs, ok := t.plainKey(i)
		if !ok {
			return out, 0, false
		}
		t.keys = append(t.keys, key)
		out = append(append(out, d[i:i+len(key)+2]...), ':')
		mv, held := m.Get(key)
		shared := 0
		if held && (d[vs] == '[' || (depth == 1 && d[vs] == '{')) {
			shared = t.docs.SharedLen(key, depth, d[vs:])
		}
		switch {
		case shared > 0:
			out, i = append(out, d[vs:vs+shared]...), vs+shared
		case held && mv.IsMap() && d[vs] == '{':
			out, i, ok = t.object(out, vs, mv, depth+1)
		case held:
			var end int
			if end, ok = t.valueEnd(vs, depth); ok {
				out, i = append(out, d[vs:end]...), end
			}
		default:
			out, i, ok = t.standIn(out, vs, depth)
		}
		if !ok {
			return out, 0, false
		}
		next, more, ok := separator(d, i, '}')
		if !ok || !more {
			return append(out, '}'), next + 1, ok && distinct(t.keys[base:])
		}
		out, i = append(out, ','), skipSpace(d, next)
	}
	return out, 0, false
}

// plainKey reads the key at offset i of an object read down: a string without escapes, not beginning with '$'. It
// returns the key and the offset of the value after the colon.
func (t *currentTrimmer) plainKey(i int) (string, int, bool) {
	d := t.d
	if d[i] != '"' {
		return "", 0, false
	}
	end := i + 1
	for end < len(d) && d[end] != '"' && d[end] != '\\' && d[end] >= 0x20 {
		end++
	}
	if end >= len(d) || d[end] != '"' || (end > i+1 && d[i+1] == '$') || !utf8.Valid(d[i+1:end]) {
		return "", 0, false
	}
	colon := skipSpace(d, end+1)
	if colon >= len(d) || d[colon] != ':' {
		return "", 0, false
	}
	vs := skipSpace(d, colon+1)
	if vs >= len(d) {
		return "", 0, false
	}
	return sharedString(d[i+1 : end]), vs, true
}

// standIn appends the value standing in for the value at offset i, checked (see currentTrimmer), to out.
func (t *currentTrimmer) standIn(out []byte, i, depth int) ([]byte, int, bool) {
	end, ok := t.check(i, depth)
	if !ok {
		return out, 0, false
	}
	switch t.d[i] {
	case '{':
		return append(out, "{}"...), end, true
	case '[':
		return append(out, "[]"...), end, true
	case '"':
		return append(out, `""`...), end, true
	}
	return append(out, t.d[i:end]...), end, true
}

// check returns the offset after the value at offset i, at depth, and whether it is one package parse reads (see
// currentTrimmer).
func (t *currentTrimmer) check(i, depth int) (int, bool) {
	d := t.d
	if i >= len(d) || depth > currentMaxDepth {
		return 0, false
	}
	switch d[i] {
	case '"':
		return checkedText(d, i, false)
	case '{':
		if i+1 < len(d) && d[i+1] == '}' {
			return i + 2, true // (managedFields' leaves)
		}
		return t.checkObject(i, depth+1)
	case '[':
		return t.checkList(i, depth+1)
	case 't':
		return literalEnd(d, i, "true")
	case 'f':
		return literalEnd(d, i, "false")
	case 'n':
		return literalEnd(d, i, "null")
	}
	return canonicalInteger(d, i)
}

// checkObject is check for the object whose brace is at offset i: its keys escaped only as \" or \\, not beginning
// with '$', each once (see distinct; keys in increasing order, as encoding/json writes a map, are compared to the one
// before only).
func (t *currentTrimmer) checkObject(i, depth int) (int, bool) {
	d := t.d
	start := i
	i = skipSpace(d, i+1)
	if i < len(d) && d[i] == '}' {
		return i + 1, true
	}
	prev, n, sorted := "", 0, true
	for i < len(d) {
		end, ok := checkedText(d, i, true)
		if !ok {
			return 0, false
		}
		key := sharedString(d[i+1 : end-1])
		sorted = sorted && (n == 0 || prev < key)
		prev, n = key, n+1
		colon := skipSpace(d, end)
		if colon >= len(d) || d[colon] != ':' {
			return 0, false
		}
		if i = skipSpace(d, colon+1); i+1 < len(d) && d[i] == '{' && d[i+1] == '}' {
			i += 2 // (managedFields' leaves)
		} else if i, ok = t.check(i, depth); !ok {
			return 0, false
		}
		if i+1 < len(d) && d[i] == ',' && d[i+1] == '"' {
			i++ // (compact text)
			continue
		}
		next, more, ok := separator(d, i, '}')
		if !ok || !more {
			return next + 1, ok && (sorted || t.unsortedDistinct(start, n))
		}
		i = next
	}
	return 0, false
}

// unsortedDistinct is distinct for the n keys of the object whose brace is at offset i, checked by checkObject and not
// in increasing order.
func (t *currentTrimmer) unsortedDistinct(i, n int) bool {
	if n > currentMaxUnsorted {
		return false
	}
	d, base := t.d, len(t.keys)
	defer func() { t.keys = t.keys[:base] }()
	i = skipSpace(d, i+1)
	for range n {
		end, _ := stringEnd(d, i)
		t.keys = append(t.keys, sharedString(d[i+1:end-1]))
		i, _ = t.skipValue(skipSpace(d, skipSpace(d, end)+1))
		i, _, _ = separator(d, i, '}')
	}
	return distinct(t.keys[base:])
}

// skipValue returns the offset after the value at offset i, which check admits.
func (t *currentTrimmer) skipValue(i int) (int, bool) {
	d := t.d
	switch d[i] {
	case '"':
		return stringEnd(d, i)
	case '{', '[':
	default:
		for i < len(d) && d[i] != ',' && d[i] != '}' && d[i] != ']' && d[i] > ' ' {
			i++
		}
		return i, true
	}
	open := 0
	for i < len(d) {
		switch d[i] {
		case '"':
			end, ok := stringEnd(d, i)
			if !ok {
				return 0, false
			}
			i = end
			continue
		case '{', '[':
			open++
		case '}', ']':
			if open--; open == 0 {
				return i + 1, true
			}
		}
		i++
	}
	return 0, false
}

// checkList is check for the list whose bracket is at offset i: no more items than package parse reads into one list.
func (t *currentTrimmer) checkList(i, depth int) (int, bool) {
	d := t.d
	i = skipSpace(d, i+1)
	if i < len(d) && d[i] == ']' {
		return i + 1, true
	}
	for n := 1; i < len(d) && n <= parse.DefaultMaxListItems; n++ {
		var ok bool
		if i, ok = t.check(i, depth); !ok {
			return 0, false
		}
		next, more, ok := separator(d, i, ']')
		if !ok || !more {
			return next + 1, ok
		}
		i = next
	}
	return 0, false
}

// checkedText returns the offset after the string whose quote is at offset i, and whether it is one check admits: valid
// UTF-8, no control byte, and escapes JSON's but of surrogates in a value; in a key (key), escapes \" and \\ only, so
// that keys written differently are different keys, and no '$' first.
func checkedText(d []byte, i int, key bool) (int, bool) {
	if key && (i >= len(d) || d[i] != '"' || (i+1 < len(d) && d[i+1] == '$')) {
		return 0, false
	}
	wide := false
	for j := i + 1; ; {
		if j = parse.PlainRun(d, j); j >= len(d) {
			return 0, false
		}
		switch c := d[j]; {
		case c == '"':
			return j + 1, !wide || utf8.Valid(d[i+1:j])
		case c == '\\' && j+1 < len(d) && (d[j+1] == '"' || d[j+1] == '\\'):
			j += 2
		case c == '\\':
			n, ok := escapeLen(d, j)
			if key || !ok {
				return 0, false
			}
			j += n
		case c < 0x20:
			return 0, false
		default:
			wide = wide || c >= utf8.RuneSelf
			j++
		}
	}
}

// escapeLen returns the length of the escape at offset j (its backslash) and whether it is one of JSON's, but \u of a
// surrogate.
func escapeLen(d []byte, j int) (int, bool) {
	if j+1 >= len(d) {
		return 0, false
	}
	switch d[j+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, true
	case 'u':
		if j+6 > len(d) {
			return 0, false
		}
		r := rune(0)
		for _, c := range d[j+2 : j+6] {
			switch {
			case c >= '0' && c <= '9':
				r = r<<4 | rune(c-'0')
			case c >= 'a' && c <= 'f':
				r = r<<4 | rune(c-'a'+10)
			case c >= 'A' && c <= 'F':
				r = r<<4 | rune(c-'A'+10)
			default:
				return 0, false
			}
		}
		return 6, r < 0xd800 || r > 0xdfff
	}
	return 0, false
}

// valueEnd returns the offset after the value at offset i of a field of the object at depth, a field modified holds,
// read by package parse afterwards: only its extent is found here (strings' ends, brackets' nesting), and a list below
// it that reading shares with an earlier document (parse.Arena.SharedLen) is passed over as its text.
func (t *currentTrimmer) valueEnd(i, depth int) (int, bool) {
	d := t.d
	switch d[i] {
	case '"':
		return stringEnd(d, i)
	case '{', '[':
	default:
		for i < len(d) && d[i] != ',' && d[i] != '}' && d[i] != ']' && d[i] != ' ' && d[i] != '\n' && d[i] != '\t' && d[i] != '\r' {
			i++
		}
		return i, true
	}
	open := 0
	for i < len(d) {
		switch d[i] {
		case '"':
			end, ok := stringEnd(d, i)
			if !ok {
				return 0, false
			}
			i = t.sharedAfter(i, end, depth+open)
			continue
		case '{', '[':
			if open++; depth+open > parse.DefaultMaxDepth {
				return 0, false
			}
		case '}', ']':
			if open--; open == 0 {
				return i + 1, true
			}
		}
		i++
	}
	return 0, false
}

// sharedAfter returns, for the string from offset i to end, where it is the key of a field of an object at depth whose
// value is a list reading shares with an earlier document, the offset after that list, else end.
func (t *currentTrimmer) sharedAfter(i, end, depth int) int {
	d := t.d
	colon := skipSpace(d, end)
	if colon >= len(d) || d[colon] != ':' {
		return end
	}
	vs := skipSpace(d, colon+1)
	if vs >= len(d) || d[vs] != '[' || bytes.IndexByte(d[i+1:end-1], '\\') >= 0 {
		return end
	}
	if n := t.docs.SharedLen(sharedString(d[i+1:end-1]), depth, d[vs:]); n > 0 {
		return vs + n
	}
	return end
}

// stringEnd returns the offset after the string whose quote is at offset i.
func stringEnd(d []byte, i int) (int, bool) {
	for j := i + 1; j < len(d); {
		switch j = parse.PlainRun(d, j); {
		case j >= len(d):
			return 0, false
		case d[j] == '"':
			return j + 1, true
		case d[j] == '\\':
			j += 2
		default:
			j++
		}
	}
	return 0, false
}

// distinct reports whether keys (escaped only as \" or \\, so that keys written differently differ) are each once:
// in strictly increasing order, as encoding/json writes a map, or, a few, compared pairwise.
func distinct(keys []string) bool {
	sorted := true
	for i := 1; i < len(keys) && sorted; i++ {
		sorted = keys[i-1] < keys[i]
	}
	if sorted {
		return true
	}
	if len(keys) > currentMaxUnsorted {
		return false
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if keys[i] == keys[j] {
				return false
			}
		}
	}
	return true
}
