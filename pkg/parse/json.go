package parse

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/plyproject/ply/pkg/value"
)

// jsonFrame is a map or list being read.
type jsonFrame struct {
	isMap   bool
	items   []value.Value
	entries []entry
	// key is the key read for the next value of a map, when haveKey.
	key        string
	keyLine    int
	keyOff     int
	haveKey    bool
	openedLine int
}

// parseJSON reads data as a stream of JSON values, without recursion. Its
// error is either one that reading data as YAML would repeat (a duplicate
// key, too deep a nesting), with fallback false, or one that means data is
// not JSON as kubectl reads JSON (a syntax error, a number beyond float64),
// with fallback true: kubectl reads such input as YAML instead.
func (l Limits) parseJSON(data []byte) (docs []doc, err *Error, fallback bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	lc := newLineCounter(data)
	var stack []jsonFrame
	index := 0
	topStart := 0 // offset of the top-level value being read
	at := func(off int, msg string) *Error {
		return &Error{Doc: index, Line: lc.lineAt(off), Column: lc.columnAt(off), Msg: msg}
	}
	for {
		before := int(dec.InputOffset())
		tok, terr := dec.Token()
		if terr == io.EOF && len(stack) == 0 {
			return docs, nil, false
		}
		start := tokenStart(data, before)
		if len(stack) == 0 {
			topStart = start
		}
		if terr != nil {
			return nil, jsonSyntaxError(data, topStart, lc, terr, index+1-min(len(stack), 1)), true
		}
		if len(stack) == 0 {
			index++
		}
		var v value.Value
		line := 0 // of the value, when known before it ends
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if len(stack) >= l.MaxDepth {
					return nil, at(start, "nesting is deeper than the limit of "+strconv.Itoa(l.MaxDepth)+" levels of maps and lists"), false
				}
				stack = append(stack, jsonFrame{isMap: t == '{', openedLine: lc.lineAt(start)})
				continue
			}
			f := &stack[len(stack)-1]
			if f.isMap {
				if first, second, dup := sortEntries(f.entries); dup {
					e := f.entries[second]
					return nil, at(e.off, duplicateMsg(e.key, f.entries[first].line)), false
				}
				fields := make([]value.Field, len(f.entries))
				for i, e := range f.entries {
					fields[i] = value.Field{Key: e.key, Value: e.val}
				}
				v = value.MapFromSorted(fields)
			} else {
				v = value.List(f.items)
			}
			line = f.openedLine
			stack = stack[:len(stack)-1]
		case string:
			if n := len(stack); n > 0 && stack[n-1].isMap && !stack[n-1].haveKey {
				f := &stack[n-1]
				f.key, f.keyOff, f.keyLine, f.haveKey = t, start, lc.lineAt(start), true
				continue
			}
			v = value.String(t)
		case json.Number:
			nv, ok := jsonNumber(string(t))
			if !ok {
				return nil, at(start, "number "+string(t)+" is beyond the range of a 64-bit float"), true
			}
			v = nv
		case bool:
			v = value.Bool(t)
		case nil:
			v = value.Null
		}
		if len(stack) == 0 {
			if line == 0 {
				line = lc.lineAt(start)
			}
			if !v.IsNull() {
				docs = append(docs, doc{v: v, index: index, line: line})
			}
			continue
		}
		f := &stack[len(stack)-1]
		if f.isMap {
			f.entries = append(f.entries, entry{key: f.key, val: v, pos: len(f.entries), line: f.keyLine, off: f.keyOff})
			f.haveKey = false
		} else {
			f.items = append(f.items, v)
		}
	}
}

// tokenStart returns the offset of the token that follows off: the first
// byte that is neither JSON white space nor a separator (, or :).
func tokenStart(data []byte, off int) int {
	for off < len(data) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
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
