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
	writeJSON(sb, v, "", "")
	out := make([]byte, len(sb.b))
	copy(out, sb.b)
	if cap(sb.b) <= maxScratch {
		sb.b = sb.b[:0]
		scratch.Put(sb)
	}
	return out
}

// scratch holds JSON's buffers; one grown past maxScratch is not kept.
var scratch sync.Pool

const maxScratch = 1 << 20

// IndentJSON returns v as JSON indented by indent per level, with a final
// newline, map keys in sorted order.
func (v Value) IndentJSON(indent string) []byte {
	sb := buffer{b: make([]byte, 0, 1024)}
	writeJSON(&sb, v, "\n", indent)
	sb.WriteByte('\n')
	return sb.b
}

// buffer is an append buffer with the methods of strings.Builder that the
// JSON and YAML encoders use, so the encoded bytes need no final copy.
type buffer struct{ b []byte }

func (j *buffer) WriteByte(c byte) error            { j.b = append(j.b, c); return nil }
func (j *buffer) WriteString(s string) (int, error) { j.b = append(j.b, s...); return len(s), nil }
func (j *buffer) Write(p []byte) (int, error)       { j.b = append(j.b, p...); return len(p), nil }

// writeNullBoolInt writes null, a boolean or an integer, which JSON and
// YAML spell alike, and reports whether v was one.
func writeNullBoolInt(sb *buffer, v Value) bool {
	switch v.kind() {
	case KindNull:
		sb.WriteString("null")
	case KindBool:
		if v.n == 1 {
			sb.WriteString("true")
		} else {
			sb.WriteString("false")
		}
	case KindInt:
		sb.b = strconv.AppendInt(sb.b, int64(v.n), 10)
	default:
		return false
	}
	return true
}

func writeJSON(sb *buffer, v Value, nl, indent string) {
	if writeNullBoolInt(sb, v) {
		return
	}
	switch v.kind() {
	case KindFloat:
		writeFloat(sb, math.Float64frombits(v.n))
	case KindString:
		writeString(sb, v.str())
	case KindMap:
		if len(v.fields()) == 0 {
			sb.WriteString("{}")
			return
		}
		sb.WriteByte('{')
		inner := nl
		if nl != "" {
			inner = nl + indent
		}
		for i, f := range v.fields() {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(inner)
			writeString(sb, f.Key)
			sb.WriteByte(':')
			if nl != "" {
				sb.WriteByte(' ')
			}
			writeJSON(sb, f.Value, inner, indent)
		}
		sb.WriteString(nl)
		sb.WriteByte('}')
	case KindList:
		if len(v.items()) == 0 {
			sb.WriteString("[]")
			return
		}
		sb.WriteByte('[')
		inner := nl
		if nl != "" {
			inner = nl + indent
		}
		for i, it := range v.items() {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(inner)
			writeJSON(sb, it, inner, indent)
		}
		sb.WriteString(nl)
		sb.WriteByte(']')
	}
}

// writeFloat writes f the way encoding/json does (shortest repr, exponent for
// very large or small magnitudes); NaN and infinities, which JSON cannot
// carry, are written as null.
func writeFloat(sb *buffer, f float64) {
	sb.b = appendFloat(sb.b, f)
}

// appendFloat appends f to dst as writeFloat writes it (formatted on the
// stack first, so dst grows only by what is written).
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
// eight bytes at a time: a byte is flagged when it is below 0x20, one of
// the five characters plain excludes, or not ASCII. Borrows can flag bytes
// after the first flagged one, never before it, so the lowest flag is
// exact.
func plainPrefix(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		flags := (w-ones*0x20)&^w | w
		for _, c := range [...]uint64{'"', '\\', '<', '>', '&'} {
			x := w ^ (ones * c)
			flags |= (x - ones) &^ x
		}
		if flags &= highs; flags != 0 {
			return i + bits.TrailingZeros64(flags)/8
		}
	}
	for i < len(s) && plain[s[i]] {
		i++
	}
	return i
}

func writeString(sb *buffer, s string) {
	sb.WriteByte('"')
	start := 0
	for i := plainPrefix(s); i < len(s); {
		if plain[s[i]] {
			i++
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			sb.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				sb.WriteByte('\\')
				sb.WriteByte(c)
			case '\n':
				sb.WriteString(`\n`)
			case '\r':
				sb.WriteString(`\r`)
			case '\t':
				sb.WriteString(`\t`)
			case '\b':
				sb.WriteString(`\b`)
			case '\f':
				sb.WriteString(`\f`)
			default:
				sb.WriteString(`\u00`)
				sb.WriteByte(hexDigits[c>>4])
				sb.WriteByte(hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			sb.WriteString(s[start:i])
			sb.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			sb.WriteString(s[start:i])
			sb.WriteString(`\u202`)
			sb.WriteByte(hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	sb.WriteString(s[start:])
	sb.WriteByte('"')
}
