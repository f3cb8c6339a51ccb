package parse

import (
	"bytes"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// source finds the non-specific tag "!" in front of plain scalars, which
// go.yaml.in/yaml/v3 drops from its nodes (it resolves "! 12" as the
// integer 12 where YAML, and kubectl, read the string "12").
type source struct {
	data []byte
	// bareTags is set when data holds a "!" followed by a blank or by its
	// end, the only way to write the non-specific tag; else bareTag is
	// false without looking.
	bareTags bool
	// lineStarts[i] is the offset of line i+1; built on first use.
	lineStarts []int
	// The last position found, from which the next one on the same line
	// is searched, so that a pass over a line costs O(its length).
	curLine, curCol, curOff int
}

func newSource(data []byte) *source {
	s := &source{data: data}
	for i := bytes.IndexByte(data, '!'); i >= 0; {
		if i+1 == len(data) || isBlank(data[i+1]) {
			s.bareTags = true
			break
		}
		next := bytes.IndexByte(data[i+1:], '!')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return s
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// offset returns the byte offset of the 1-based line and column (in
// characters) that the YAML library reports, or -1.
func (s *source) offset(line, col int) int {
	if s.lineStarts == nil {
		s.lineStarts = append(s.lineStarts, 0)
		for i, c := range s.data {
			if c == '\n' {
				s.lineStarts = append(s.lineStarts, i+1)
			}
		}
	}
	if line < 1 || line > len(s.lineStarts) || col < 1 {
		return -1
	}
	off, c := s.lineStarts[line-1], 1
	if line == s.curLine && col >= s.curCol {
		off, c = s.curOff, s.curCol
	}
	for ; c < col; c++ {
		if off >= len(s.data) || s.data[off] == '\n' {
			return -1
		}
		_, size := utf8.DecodeRune(s.data[off:])
		off += size
	}
	s.curLine, s.curCol, s.curOff = line, col, off
	return off
}

// bareTag reports whether plain scalar n carries the non-specific tag "!".
// A node starts at its properties: an anchor (&name) and a tag in either
// order.
func (s *source) bareTag(n *yaml.Node) bool {
	if !s.bareTags || n.Style != 0 {
		return false
	}
	off := s.offset(n.Line, n.Column)
	if off < 0 {
		return false
	}
	d := s.data
	for range 2 {
		if off >= len(d) {
			return false
		}
		switch d[off] {
		case '!':
			return off+1 == len(d) || isBlank(d[off+1])
		case '&':
			for off < len(d) && !isBlank(d[off]) {
				off++
			}
			for off < len(d) && (d[off] == ' ' || d[off] == '\t') {
				off++
			}
		default:
			return false
		}
	}
	return false
}
