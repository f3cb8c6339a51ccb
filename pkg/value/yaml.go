package value

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxImplicitKey is the longest rendered map key written as an implicit
// key ("key: value"). YAML limits implicit keys to 1024 characters; longer
// ones are written as explicit keys ("? key" then ": value"). The limit is
// checked against the rendered length in bytes, which is never less than
// its length in characters.
const maxImplicitKey = 1000

// YAML returns v as a YAML document in block style, the way kubectl prints
// objects: two spaces of indentation per nested map, list items ("- ") at
// the indentation of the key that holds the list, map keys in v's (sorted)
// order, and a final newline.
//
// The output reads back, with ply's parser (YAML 1.1 as kubectl reads it)
// and with YAML 1.2 readers alike, to a Value Equal to v:
//
//   - a string is written plain only when no YAML reader could take it for
//     anything else; otherwise (a word such as yes, off, null or ~, text
//     that looks like a number, date or .inf, leading or trailing spaces,
//     a leading indicator character, ": " or " #" inside, the empty string,
//     a line break or any character that is not printable) it is written
//     double-quoted, with \n, \t, \" and \\ escapes and \u escapes for
//     other control and non-printable characters. Invalid UTF-8 bytes are
//     written as U+FFFD, as the JSON encoder does;
//   - integers are written in decimal; floats always carry a decimal point
//     or an exponent with a decimal point ("1.0", "1.5e+21") so that they
//     read back as floats; NaN and the infinities, which no JSON document
//     holds, are .nan, .inf and -.inf;
//   - empty maps and lists are {} and [];
//   - a key longer than 1000 bytes as written is an explicit key.
//
// YAML never fails and its output depends only on v.
func (v Value) YAML() []byte {
	var sb buffer
	switch {
	case v.kind() == KindMap && len(v.fields()) > 0:
		writeYAMLMap(&sb, v, 0, false)
	case v.kind() == KindList && len(v.items()) > 0:
		writeYAMLList(&sb, v, 0, false)
	default:
		writeYAMLScalar(&sb, v)
		sb.WriteByte('\n')
	}
	return sb.b
}

// writeIndent writes n spaces.
func writeIndent(sb *buffer, n int) {
	for range n {
		sb.WriteByte(' ')
	}
}

// isBlock reports whether v is written as a block of lines of its own (a
// non-empty map or list) rather than on the line of its key or dash.
func isBlock(v Value) bool {
	return (v.kind() == KindMap && len(v.fields()) > 0) || (v.kind() == KindList && len(v.items()) > 0)
}

// writeYAMLMap writes the fields of a non-empty map, each line indented by
// indent spaces; when inline is set, the first line's indentation has been
// written already (after a list item's "- ").
func writeYAMLMap(sb *buffer, v Value, indent int, inline bool) {
	for i, f := range v.fields() {
		if i > 0 || !inline {
			writeIndent(sb, indent)
		}
		key := yamlKey(f.Key)
		if len(key) > maxImplicitKey {
			sb.WriteString("? ")
			sb.WriteString(key)
			sb.WriteByte('\n')
			writeIndent(sb, indent)
			sb.WriteByte(':')
			// A list under an explicit key is indented like a map, so
			// that no reader has to apply the compact-sequence rule.
			writeYAMLValue(sb, f.Value, indent, indent+2)
			continue
		}
		sb.WriteString(key)
		sb.WriteByte(':')
		writeYAMLValue(sb, f.Value, indent, indent)
	}
}

// writeYAMLValue writes a map field's value after its "key:" (or "?" key's
// ":"): a scalar or an empty collection on the same line, a map on the
// following lines indented two more than indent, a list on the following
// lines at listIndent.
func writeYAMLValue(sb *buffer, v Value, indent, listIndent int) {
	switch {
	case v.kind() == KindMap && len(v.fields()) > 0:
		sb.WriteByte('\n')
		writeYAMLMap(sb, v, indent+2, false)
	case v.kind() == KindList && len(v.items()) > 0:
		sb.WriteByte('\n')
		writeYAMLList(sb, v, listIndent, false)
	default:
		sb.WriteByte(' ')
		writeYAMLScalar(sb, v)
		sb.WriteByte('\n')
	}
}

// writeYAMLList writes the items of a non-empty list as "- item" lines
// indented by indent spaces (the first one's indentation already written
// when inline is set). A map or list item starts on its dash's line and
// continues two spaces further in.
func writeYAMLList(sb *buffer, v Value, indent int, inline bool) {
	for i, it := range v.items() {
		if i > 0 || !inline {
			writeIndent(sb, indent)
		}
		sb.WriteString("- ")
		switch {
		case it.kind() == KindMap && isBlock(it):
			writeYAMLMap(sb, it, indent+2, true)
		case it.kind() == KindList && isBlock(it):
			writeYAMLList(sb, it, indent+2, true)
		default:
			writeYAMLScalar(sb, it)
			sb.WriteByte('\n')
		}
	}
}

// writeYAMLScalar writes a scalar or an empty collection in flow form.
func writeYAMLScalar(sb *buffer, v Value) {
	if writeNullBoolInt(sb, v) {
		return
	}
	switch v.kind() {
	case KindFloat:
		writeYAMLFloat(sb, math.Float64frombits(v.n))
	case KindString:
		writeYAMLString(sb, v.str())
	case KindMap:
		sb.WriteString("{}")
	case KindList:
		sb.WriteString("[]")
	}
}

// writeYAMLFloat writes f so that YAML 1.1 and 1.2 readers both read a float
// of the same value: the shortest decimal that round-trips, in exponent form
// for magnitudes below 1e-6 or from 1e21 on (as JSON), always with a decimal
// point and, in exponent form, a signed exponent.
func writeYAMLFloat(sb *buffer, f float64) {
	switch {
	case math.IsNaN(f):
		sb.WriteString(".nan")
		return
	case math.IsInf(f, 1):
		sb.WriteString(".inf")
		return
	case math.IsInf(f, -1):
		sb.WriteString("-.inf")
		return
	}
	var buf [40]byte
	abs := math.Abs(f)
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		b := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
		e := strings.IndexByte(string(b), 'e')
		mantissa, exp := b[:e], b[e:]
		sb.Write(mantissa)
		if strings.IndexByte(string(mantissa), '.') < 0 {
			sb.WriteString(".0")
		}
		sb.Write(exp)
		return
	}
	b := strconv.AppendFloat(buf[:0], f, 'f', -1, 64)
	sb.Write(b)
	if strings.IndexByte(string(b), '.') < 0 {
		sb.WriteString(".0")
	}
}

// yamlKey renders a map key: plain when that reads back as the same string,
// else double-quoted.
func yamlKey(k string) string {
	if plainSafe(k) {
		return k
	}
	var sb buffer
	writeQuoted(&sb, k)
	return string(sb.b)
}

// writeYAMLString writes s plain when that reads back as the same string,
// else double-quoted.
func writeYAMLString(sb *buffer, s string) {
	if plainSafe(s) {
		sb.WriteString(s)
		return
	}
	writeQuoted(sb, s)
}

// plainWords are the texts that some YAML reader (1.1 or 1.2) resolves to
// a boolean or null, compared case-insensitively; "<<" is the merge key and
// "=" the YAML 1.1 value key.
var plainWords = map[string]bool{
	"y": true, "yes": true, "n": true, "no": true,
	"true": true, "false": true, "on": true, "off": true,
	"null": true, "~": true, "<<": true, "=": true,
}

// plainSafe reports whether s can be written as a plain scalar, in block
// context, and read back as the string s by YAML 1.1 and 1.2 readers. It
// errs on the side of quoting.
func plainSafe(s string) bool {
	if s == "" || (len(s) <= 5 && plainWords[strings.ToLower(s)]) {
		return false
	}
	// Text that could be a number, a date, a sexagesimal, .inf or .nan.
	c := s[0]
	if c >= '0' && c <= '9' {
		return false
	}
	// A sign or a point before a point or a digit, with any "_"s between:
	// YAML 1.1 readers drop every "_" of a would-be number ("+_1" is 1).
	if c == '+' || c == '-' || c == '.' {
		if r := strings.TrimLeft(s[1:], "_"); r != "" && (r[0] == '.' || (r[0] >= '0' && r[0] <= '9')) {
			return false
		}
	}
	if c == '.' || c == '+' {
		lower := strings.ToLower(strings.TrimPrefix(s, "+"))
		if lower == ".inf" || lower == ".nan" {
			return false
		}
	}
	switch c {
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ':
		return false
	case '-':
		// "-x" and "--flag" are plain; "-", "- x", "---" (a document
		// marker) and "-.inf" are not.
		if len(s) == 1 || strings.HasPrefix(s, "---") || !(s[1] == '-' || isASCIILetter(s[1])) {
			return false
		}
	case '.':
		if strings.HasPrefix(s, "...") {
			return false
		}
	}
	last := s[len(s)-1]
	if last == ' ' || last == ':' {
		return false
	}
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if b < 0x20 || b == 0x7f {
				return false
			}
			// The last byte is neither ':' nor ' ' (checked above), so
			// s[i+1] exists for them.
			if (b == ':' && s[i+1] == ' ') || (b == ' ' && s[i+1] == '#') {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || !unicode.IsPrint(r) {
			return false
		}
		i += size
	}
	return true
}

func isASCIILetter(b byte) bool { return (b|0x20) >= 'a' && (b|0x20) <= 'z' }

// writeQuoted writes s as a YAML double-quoted scalar on one line: \" \\
// \n \t \r escaped by name, other ASCII control characters and every
// character that is not printable (line and paragraph separators, the byte
// order mark, unassigned code points) as \u or \U escapes, and invalid
// UTF-8 bytes as U+FFFD.
func writeQuoted(sb *buffer, s string) {
	sb.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != 0x7f && c != '"' && c != '\\' {
				i++
				continue
			}
			sb.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				sb.WriteByte('\\')
				sb.WriteByte(c)
			case '\n':
				sb.WriteString(`\n`)
			case '\t':
				sb.WriteString(`\t`)
			case '\r':
				sb.WriteString(`\r`)
			default:
				writeUnicodeEscape(sb, rune(c))
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			sb.WriteString(s[start:i])
			sb.WriteString("\uFFFD")
		case !unicode.IsPrint(r):
			sb.WriteString(s[start:i])
			writeUnicodeEscape(sb, r)
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	sb.WriteString(s[start:])
	sb.WriteByte('"')
}

// writeUnicodeEscape writes r as \uXXXX, or \UXXXXXXXX beyond the BMP.
func writeUnicodeEscape(sb *buffer, r rune) {
	digits := 4
	if r > 0xffff {
		sb.WriteString(`\U`)
		digits = 8
	} else {
		sb.WriteString(`\u`)
	}
	for shift := 4 * (digits - 1); shift >= 0; shift -= 4 {
		sb.WriteByte(hexDigits[(r>>shift)&0xf])
	}
}
