package value

import (
	"math"
	"math/bits"
	"strconv"
	"sync"
	"unicode/utf8"
)

// JSON returns v as compact JSON with map keys in sorted order.
func (v Value) JSON() []byte {
	// Written into a pooled buffer, then copied into one allocation of
	// the exact size: a copy costs far less than measuring v first.
	sb, _ := scratch.Get().(*buffer)
	if sb == nil {
		sb = &buffer{b: make([]byte, 0, 4096)}
	}
	sb.b = appendCompact(sb.b, v)
	out := make([]byte, len(sb.b))
	copy(out, sb.b)
	if cap(sb.b) <= maxScratch {
		sb.b = sb.b[:0]
		scratch.Put(sb)
	}
	return out
}

// AppendJSON appends v to b as JSON writes it (compact, map keys in sorted order) and returns the extended slice.
func (v Value) AppendJSON(b []byte) []byte { return appendCompact(b, v) }

// scratch holds JSON's buffers; one grown past maxScratch is not kept.
var scratch sync.Pool

const maxScratch = 1 << 20

// IndentJSON returns v as JSON indented by indent per level, with a final
// newline, map keys in sorted order.
func (v Value) IndentJSON(indent string) []byte {
	return append(appendJSON(make([]byte, 0, 1024), v, "\n", indent), '\n')
}

// buffer is an append buffer with the methods of strings.Builder that the
// JSON and YAML encoders use, so the encoded bytes need no final copy.
type buffer struct{ b []byte }

func (j *buffer) WriteByte(c byte) error            { j.b = append(j.b, c); return nil }
func (j *buffer) WriteString(s string) (int, error) { j.b = append(j.b, s...); return len(s), nil }
func (j *buffer) Write(p []byte) (int, error)       { j.b = append(j.b, p...); return len(p), nil }

// writeNullBoolInt writes null, a boolean or an integer, which JSON and
// YAML spell alike, and reports whether v was one.
func writeNullBoolInt(sb *buffer, v Value) (ok bool) {
	sb.b, ok = appendNullBoolInt(sb.b, v)
	return ok
}

func appendNullBoolInt(b []byte, v Value) ([]byte, bool) {
	switch v.kind() {
	case KindNull:
		return append(b, "null"...), true
	case KindBool:
		if v.n == 1 {
			return append(b, "true"...), true
		}
		return append(b, "false"...), true
	case KindInt:
		return strconv.AppendInt(b, int64(v.n), 10), true
	}
	return b, false
}

// appendJSON appends v to b as JSON: compact when nl is empty
// (appendCompact), else each member on a line of its own starting with nl,
// indented by indent per level. (Appending to a slice held in registers,
// not to a buffer in memory, is what makes it fast.)
func appendJSON(b []byte, v Value, nl, indent string) []byte {
	if nl == "" {
		return appendCompact(b, v)
	}
	switch v.kind() {
	case KindMap:
		if len(v.fields()) == 0 {
			return append(b, "{}"...)
		}
		b = append(b, '{')
		inner := nl + indent
		for i, f := range v.fields() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(append(b, inner...), f.Key)
			b = appendJSON(append(b, ':', ' '), f.Value, inner, indent)
		}
		return append(append(b, nl...), '}')
	case KindList:
		if len(v.items()) == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		inner := nl + indent
		for i, it := range v.items() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(append(b, inner...), it, inner, indent)
		}
		return append(append(b, nl...), ']')
	}
	return appendCompact(b, v)
}

// appendCompact appends v to b as compact JSON, map keys in sorted order.
func appendCompact(b []byte, v Value) []byte {
	switch v.kind() {
	case KindFloat:
		return appendFloat(b, math.Float64frombits(v.n))
	case KindString:
		return appendString(b, v.str())
	case KindMap:
		fs := v.fields()
		if len(fs) == 0 {
			return append(b, "{}"...)
		}
		b = append(b, '{')
		for i := range fs {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendString(b, fs[i].Key), ':')
			// A string, the most common value, is written here rather than in a call.
			if v := fs[i].Value; v.kind() == KindString {
				b = appendString(b, v.str())
			} else {
				b = appendCompact(b, v)
			}
		}
		return append(b, '}')
	case KindList:
		items := v.items()
		if len(items) == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		for i := range items {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCompact(b, items[i])
		}
		return append(b, ']')
	}
	b, _ = appendNullBoolInt(b, v)
	return b
}

// appendFloat appends f to dst the way encoding/json writes it (shortest
// repr, exponent for very large or small magnitudes; formatted on the stack
// first, so dst grows only by what is written); NaN and infinities, which
// JSON cannot carry, are written as null.
func appendFloat(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	var buf [32]byte
	abs := math.Abs(f)
	fmtc := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		fmtc = 'e'
	}
	b := strconv.AppendFloat(buf[:0], f, fmtc, -1, 64)
	if fmtc == 'e' {
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return append(dst, b...)
}

const hexDigits = "0123456789abcdef"

// plain marks the bytes writeString copies as they are: ASCII from space
// up, but the quote, the backslash and the HTML characters encoding/json
// escapes.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// Byte patterns for plainPrefix: every byte of a word set to one value.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plainPrefix returns how many bytes at the start of s are plain. It tests
// eight bytes at a time (notPlain); the last few bytes of s, past its last
// whole word, are tested at once too, as the word that ends s (overlapping
// words tested already) or, in a string of four to seven bytes, its first
// and last four bytes: strings are mostly short keys and values, all plain.
// Only where that finds a byte that is not plain are the rest read one by
// one.
func plainPrefix(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if flags := notPlain(word(s[i:])); flags != 0 {
			return i + bits.TrailingZeros64(flags)/8
		}
	}
	switch {
	case i == len(s):
		return i
	case len(s) >= 8:
		if notPlain(word(s[len(s)-8:])) == 0 {
			return len(s)
		}
	case len(s) >= 4:
		if notPlain(halfWord(s)|halfWord(s[len(s)-4:])<<32) == 0 {
			return len(s)
		}
	}
	for i < len(s) && plain[s[i]] {
		i++
	}
	return i
}

// word returns the first eight bytes of s (at least eight), the first in
// the lowest bits.
func word(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// halfWord returns the first four bytes of s (at least four), the first in
// the lowest bits.
func halfWord(s string) uint64 {
	_ = s[3]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24
}

// notPlain flags the high bit of each byte of w that is below 0x20, one of
// the five characters plain excludes, or not ASCII: zero when all eight
// are plain. '"' and '&' differ in one bit only, as do '<' and '>', so each
// pair is one test. Borrows can flag bytes after the first flagged one,
// never before it, so the lowest flag is exact.
func notPlain(w uint64) uint64 {
	quoteAmp := (w | ones*0x04) ^ (ones * '&')
	angles := (w | ones*0x02) ^ (ones * '>')
	slash := w ^ (ones * '\\')
	return ((w-ones*0x20)&^w | (quoteAmp-ones)&^quoteAmp | (angles-ones)&^angles | (slash-ones)&^slash | w) & highs
}

// appendString appends s to b as a JSON string, escaped as encoding/json
// escapes it.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := plainPrefix(s); i < len(s); {
		if plain[s[i]] {
			i++
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			case '\b':
				b = append(b, `\b`...)
			case '\f':
				b = append(b, `\f`...)
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, `\u202`...)
			b = append(b, hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
