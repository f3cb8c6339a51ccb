package parse

import (
	"encoding/base64"
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/plyproject/ply/pkg/value"
)

// The YAML tags scalar resolution deals in, in the short form
// go.yaml.in/yaml/v3 gives them.
const (
	tagStr       = "!!str"
	tagBool      = "!!bool"
	tagInt       = "!!int"
	tagFloat     = "!!float"
	tagNull      = "!!null"
	tagTimestamp = "!!timestamp"
	tagBinary    = "!!binary"
	tagMerge     = "!!merge"
)

// scalar is a resolved YAML scalar.
type scalar struct {
	tag string // tagStr, tagBool, tagInt, tagFloat, tagNull or tagTimestamp
	val value.Value
	// big marks an integer literal beyond the int64 range that still fits
	// uint64; val holds it as the nearest float64.
	big bool
}

// words are the plain scalars resolved by table, as YAML 1.1 (and so
// kubectl) reads them.
var words = map[string]value.Value{
	"y": value.Bool(true), "Y": value.Bool(true), "yes": value.Bool(true), "Yes": value.Bool(true), "YES": value.Bool(true),
	"true": value.Bool(true), "True": value.Bool(true), "TRUE": value.Bool(true),
	"on": value.Bool(true), "On": value.Bool(true), "ON": value.Bool(true),
	"n": value.Bool(false), "N": value.Bool(false), "no": value.Bool(false), "No": value.Bool(false), "NO": value.Bool(false),
	"false": value.Bool(false), "False": value.Bool(false), "FALSE": value.Bool(false),
	"off": value.Bool(false), "Off": value.Bool(false), "OFF": value.Bool(false),
	"~": value.Null, "null": value.Null, "Null": value.Null, "NULL": value.Null,
	".nan": value.Float(math.NaN()), ".NaN": value.Float(math.NaN()), ".NAN": value.Float(math.NaN()),
	".inf": value.Float(math.Inf(1)), ".Inf": value.Float(math.Inf(1)), ".INF": value.Float(math.Inf(1)),
	"+.inf": value.Float(math.Inf(1)), "+.Inf": value.Float(math.Inf(1)), "+.INF": value.Float(math.Inf(1)),
	"-.inf": value.Float(math.Inf(-1)), "-.Inf": value.Float(math.Inf(-1)), "-.INF": value.Float(math.Inf(-1)),
}

func tagOf(v value.Value) string {
	switch v.Kind() {
	case value.KindBool:
		return tagBool
	case value.KindNull:
		return tagNull
	case value.KindFloat:
		return tagFloat
	}
	return tagStr
}

// resolvePlain resolves the text of an untagged plain scalar (or of a scalar
// tagged with one of the resolvable tags) the way kubectl does, that is the
// way go.yaml.in/yaml/v2 resolves YAML 1.1 scalars:
//
//   - "", ~, null, Null, NULL are null;
//   - y, yes, on, true and n, no, off, false (in lower, Title and UPPER case)
//     are booleans;
//   - a text that starts with a digit, + or - is, after removing every "_",
//     an integer when Go's strconv.ParseInt with base 0 reads it (so 0x1F,
//     0o17, 017, 0b101 are integers), an integer beyond int64 when
//     strconv.ParseUint does, and a float when it is a decimal float that
//     does not overflow; anything else (12:30, 1e400, 1,000) stays a
//     string;
//   - a text starting with "." is a float when strconv.ParseFloat reads it,
//     and .inf/.nan in their three spellings are the non-finite floats;
//   - with timestamps set, a date or date-time (2001-12-14,
//     2001-12-14T21:59:43Z) is a timestamp, which kubectl keeps as the
//     string it was written as.
func resolvePlain(s string, timestamps bool) scalar {
	if s == "" {
		return scalar{tag: tagNull, val: value.Null}
	}
	switch c := s[0]; {
	case strings.IndexByte("yYnNtTfFoO~", c) >= 0:
		if v, ok := words[s]; ok {
			return scalar{tag: tagOf(v), val: v}
		}
	case c == '.':
		if v, ok := words[s]; ok {
			return scalar{tag: tagFloat, val: v}
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return scalar{tag: tagFloat, val: value.Float(f)}
		}
	case c == '+' || c == '-' || (c >= '0' && c <= '9'):
		if v, ok := words[s]; ok {
			return scalar{tag: tagFloat, val: v}
		}
		if timestamps && isTimestamp(s) {
			return scalar{tag: tagTimestamp, val: value.String(s)}
		}
		plain := s
		if strings.IndexByte(s, '_') >= 0 {
			plain = strings.ReplaceAll(s, "_", "")
		}
		if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return scalar{tag: tagInt, val: value.Int(i)}
		}
		if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return scalar{tag: tagInt, val: value.Float(float64(u)), big: true}
		}
		if isDecimalFloat(plain) {
			if f, err := strconv.ParseFloat(plain, 64); err == nil {
				return scalar{tag: tagFloat, val: value.Float(f)}
			}
		}
	}
	return scalar{tag: tagStr, val: value.String(s)}
}

// isDecimalFloat reports whether s is [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
func isDecimalFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// timestampLayouts are the date and date-time forms YAML 1.1 timestamps
// take as kubectl recognises them.
var timestampLayouts = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// isTimestamp reports whether s is a YAML timestamp: four digits, a dash,
// and then a date or date-time of one of timestampLayouts.
func isTimestamp(s string) bool {
	if len(s) < 5 || s[4] != '-' {
		return false
	}
	for i := range 4 {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	for _, layout := range timestampLayouts {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// errNotTag is returned (wrapped in a message) when a tagged scalar's text
// does not resolve to its tag.
var errNotTag = errors.New("does not match its tag")

// resolveTagged resolves the text of a scalar that carries an explicit tag,
// as kubectl does: !!str keeps the text; !!binary decodes base64 into a
// string; !!bool, !!int, !!float, !!null and !!timestamp resolve the text
// as a plain scalar and require the result to have that tag (an integer is
// accepted as a !!float, unless it is beyond int64); any other tag (a
// custom !tag, !!merge, !!seq, ...) leaves the text as a string.
func resolveTagged(tag, text string) (scalar, error) {
	switch tag {
	case tagStr:
		return scalar{tag: tagStr, val: value.String(text)}, nil
	case tagBinary:
		b, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			return scalar{}, errors.New("!!binary value is not valid base64")
		}
		return scalar{tag: tagStr, val: value.String(validUTF8(b))}, nil
	case tagBool, tagInt, tagFloat, tagNull, tagTimestamp:
		r := resolvePlain(text, tag == tagTimestamp)
		switch {
		case r.tag == tag:
			return r, nil
		case tag == tagFloat && r.tag == tagInt && !r.big:
			f, _ := r.val.AsFloat()
			return scalar{tag: tagFloat, val: value.Float(f)}, nil
		}
		return scalar{}, errNotTag
	}
	return scalar{tag: tagStr, val: value.String(text)}, nil
}

// validUTF8 returns b as a string with every byte that is not part of a
// valid UTF-8 sequence replaced by U+FFFD, which is what JSON encoding does
// to such bytes (and so what kubectl ends up with).
func validUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) + 8)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			sb.WriteString("\uFFFD")
		} else {
			sb.Write(b[i : i+size])
		}
		i += size
	}
	return sb.String()
}

// keyString renders a resolved scalar map key as the JSON object key
// kubectl makes of it: strings as they are, booleans as true/false,
// integers in decimal, floats in the shortest form that round-trips a
// float32 (1.5, 1e+10, 3.1415927) with .inf, -.inf and .nan for the
// non-finite ones (and for floats beyond the float32 range). Null keys and integers beyond int64 have no key form.
func keyString(r scalar) (string, bool) {
	v := r.val
	switch v.Kind() {
	case value.KindString:
		s, _ := v.AsString()
		return s, true
	case value.KindBool:
		b, _ := v.AsBool()
		return strconv.FormatBool(b), true
	case value.KindInt:
		i, _ := v.AsInt()
		return strconv.FormatInt(i, 10), true
	case value.KindFloat:
		if r.big {
			return "", false
		}
		f, _ := v.AsFloat()
		switch s := strconv.FormatFloat(f, 'g', -1, 32); s {
		case "NaN":
			return ".nan", true
		case "+Inf":
			return ".inf", true
		case "-Inf":
			return "-.inf", true
		default:
			return s, true
		}
	}
	return "", false
}
