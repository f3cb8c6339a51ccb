package parse

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Error is a problem found while reading the input: a syntax error, a
// duplicate key, a value JSON cannot hold or a limit that was exceeded.
//
// Line and Column are 1-based and count characters (not bytes) from the
// start of the whole input, across documents; either is 0 when unknown (the
// YAML library reports syntax errors by line only). Doc is the 1-based index
// of the document the error is in, counting every document of the stream
// (empty ones too); it is 0 for problems with the input as a whole, such as
// its size.
type Error struct {
	Doc    int
	Line   int
	Column int
	// Msg says what is wrong.
	Msg string
	// multi records that the stream is known to hold more than one
	// document, so that Error names the document even when it is the first.
	multi bool
	// syntax marks an error of the YAML or JSON syntax, as opposed to one
	// found in a document that was read.
	syntax bool
	// none marks Document's error for input that holds no document.
	none bool
}

// NoDocument reports whether e is Document's error for input that holds no
// document (empty, only comments, only null documents), which callers
// reading an optional object take as none.
func (e *Error) NoDocument() bool { return e.none }

// Error renders "document 2: line 7, column 3: msg". The document is named
// only in a stream of several documents; the line and column only when
// known.
func (e *Error) Error() string {
	var sb strings.Builder
	if e.Doc > 1 || (e.Doc == 1 && e.multi) {
		sb.WriteString("document ")
		sb.WriteString(strconv.Itoa(e.Doc))
		sb.WriteString(": ")
	}
	if e.Line > 0 {
		sb.WriteString("line ")
		sb.WriteString(strconv.Itoa(e.Line))
		if e.Column > 0 {
			sb.WriteString(", column ")
			sb.WriteString(strconv.Itoa(e.Column))
		}
		sb.WriteString(": ")
	}
	sb.WriteString(e.Msg)
	return sb.String()
}

// yamlParserProblems are the problems libyaml's parser (as opposed to its
// scanner) reports. go.yaml.in/yaml/v3 prints the 0-based line for these and
// the 1-based line for scanner problems, so the parser ones need one added.
var yamlParserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

// yamlReaderProblems are the problems libyaml's reader reports: bad
// encoding or characters YAML does not allow. They carry no position, so
// yamlSyntaxError looks for the offending character itself.
var yamlReaderProblems = map[string]bool{
	"control characters are not allowed": true,
	"incomplete UTF-8 octet sequence":    true,
	"invalid Unicode character":          true,
	"invalid leading UTF-8 octet":        true,
	"invalid length of a UTF-8 sequence": true,
	"invalid trailing UTF-8 octet":       true,
}

// yamlSyntaxError turns an error of go.yaml.in/yaml/v3 ("yaml: line 3: did
// not find expected key") into an *Error with the line corrected to 1-based
// counting.
func yamlSyntaxError(data []byte, err error, doc int) *Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ": "); i > 0 {
			if n, convErr := strconv.Atoi(rest[:i]); convErr == nil && n > 0 {
				line, msg = n, rest[i+2:]
			}
		}
	}
	out := &Error{Doc: doc, Msg: "invalid YAML: " + msg, syntax: true}
	switch {
	case yamlReaderProblems[msg]:
		out.Line, out.Column = badCharPosition(data)
	case strings.HasPrefix(msg, "unknown anchor "):
		// Raised by the node builder, which keeps no position.
		out.Line = firstFailingLine(data, msg, 1)
	case strings.HasPrefix(msg, "attempted to go past"), strings.HasPrefix(msg, "the YAML library failed"):
	case msg == "did not find expected key" || msg == "did not find expected '-' indicator":
		// The library reports where the enclosing block map or list
		// starts; the offending line is further down.
		out.Line = firstFailingLine(data, msg, line+1)
	case line == 0:
		// libyaml left both of its marks at the first line, where the
		// library prints no line at all.
		out.Line = 1
	case yamlParserProblems[msg] || strings.HasPrefix(msg, "expected "):
		out.Line = line + 1
	default:
		out.Line = line
	}
	// At the end of the input libyaml counts one more line than there is
	// when the input ends with a line break (or lacks a final one).
	if last := lastLine(data); out.Line > last {
		out.Line = last
	}
	return out
}

// lastLine returns the number of the last line of data that holds a
// character (1 for empty input).
func lastLine(data []byte) int {
	starts := yamlLineStarts(data)
	n := len(starts)
	if n > 1 && starts[n-1] == len(data) {
		n--
	}
	return n
}

// yamlLineStarts returns the offsets where the lines of data start, the
// first being 0, with line breaks as YAML has them: LF, CR, CR LF, and the
// characters NEL, LS and PS.
func yamlLineStarts(data []byte) []int {
	starts := []int{0}
	for i := 0; i < len(data); i++ {
		w := breakWidth(data, i)
		if w == 0 {
			continue
		}
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			w = 2
		}
		i += w - 1
		starts = append(starts, i+1)
	}
	return starts
}

// maxRefine is the largest input for which firstFailingLine searches.
const maxRefine = 4 << 20

// firstFailingLine returns the first line L (from line from on) such that
// the input cut after line L fails to parse as YAML with problem msg: the
// line where the parser meets the problem. It bisects, parsing O(log n)
// prefixes; for inputs above maxRefine bytes it returns from.
func firstFailingLine(data []byte, msg string, from int) int {
	if len(data) > maxRefine {
		return from
	}
	ends := yamlLineStarts(data)[1:] // ends[i] is the offset after line i+1
	if len(ends) == 0 || ends[len(ends)-1] != len(data) {
		ends = append(ends, len(data))
	}
	fails := func(line int) bool {
		dec := yaml.NewDecoder(bytes.NewReader(data[:ends[line-1]]))
		for {
			_, err := decodeNode(dec)
			if err == nil {
				continue
			}
			got := strings.TrimPrefix(err.Error(), "yaml: ")
			if rest, ok := strings.CutPrefix(got, "line "); ok {
				if i := strings.Index(rest, ": "); i > 0 {
					got = rest[i+2:]
				}
			}
			return got == msg
		}
	}
	lo, hi := max(from, 1), len(ends)
	if lo > hi || !fails(hi) {
		return from
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// badCharPosition returns the line and column of the first character that
// YAML does not accept in a UTF-8 stream: an invalid UTF-8 sequence or a
// character outside YAML's printable set. It returns 0, 0 when there is
// none.
func badCharPosition(data []byte) (line, col int) {
	// Counted after a leading byte order mark, as the YAML library counts.
	data = bytes.TrimPrefix(data, []byte(utf8BOM))
	starts := yamlLineStarts(data)
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if (r == utf8.RuneError && size == 1) || !yamlPrintable(r) {
			line = sort.SearchInts(starts, i+1) // starts[line-1] <= i
			return line, utf8.RuneCount(data[starts[line-1]:i]) + 1
		}
		i += size
	}
	return 0, 0
}

// yamlPrintable reports whether YAML allows r in a stream (the c-printable
// production, as libyaml's reader checks it, plus the byte order mark).
func yamlPrintable(r rune) bool {
	switch {
	case r == '\t', r == '\n', r == '\r', r == 0x85:
		return true
	case r >= 0x20 && r <= 0x7e:
		return true
	case r >= 0xa0 && r <= 0xd7ff:
		return true
	case r >= 0xe000 && r <= 0xfffd:
		return true
	case r >= 0x10000 && r <= 0x10ffff:
		return true
	}
	return false
}

// lineCounter maps byte offsets of one input to 1-based lines and columns.
// Lines are computed incrementally for offsets that do not decrease, so a
// pass over the input costs O(len(input)) in total.
type lineCounter struct {
	data []byte
	off  int // offsets before off have been counted
	line int // line of off
}

// lineAt returns the line of byte offset off.
func (lc *lineCounter) lineAt(off int) int {
	off = min(max(off, 0), len(lc.data))
	if off < lc.off {
		return 1 + bytes.Count(lc.data[:off], []byte{'\n'})
	}
	lc.line += bytes.Count(lc.data[lc.off:off], []byte{'\n'})
	lc.off = off
	return lc.line
}

// columnAt returns the 1-based column (in characters) of byte offset off.
func (lc *lineCounter) columnAt(off int) int {
	off = min(max(off, 0), len(lc.data))
	start := bytes.LastIndexByte(lc.data[:off], '\n') + 1
	return utf8.RuneCount(lc.data[start:off]) + 1
}
