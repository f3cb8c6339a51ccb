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
	// lineStarts[i] is the offset of line i+1 (yamlLineStarts); built on
	// first use.
	lineStarts []int
	// ascii is set when data is all ASCII, where a column is a byte count.
	ascii bool
	// The last position found, from which the next one on the same line
	// is searched, so that a pass over a line costs O(its length).
	curLine, curCol, curOff int
	// doc is the node tree of the document being converted; starts holds
	// the offsets at which its nodes start, built on first use.
	doc    *yaml.Node
	starts map[int]struct{}
}

// setDocument makes doc the document whose nodes bareTag asks about.
func (s *source) setDocument(doc *yaml.Node) {
	s.doc, s.starts = doc, nil
}

// startsNode reports whether a node of the current document starts at
// offset off.
func (s *source) startsNode(off int) bool {
	if s.starts == nil {
		s.starts = map[int]struct{}{}
		var add func(n *yaml.Node)
		add = func(n *yaml.Node) {
			s.starts[s.offset(n.Line, n.Column)] = struct{}{}
			for _, c := range n.Content {
				add(c)
			}
		}
		if s.doc != nil {
			add(s.doc)
		}
	}
	_, ok := s.starts[off]
	return ok
}

func newSource(data []byte) *source {
	// The YAML library takes a leading byte order mark as the encoding's
	// and counts no column for it: positions are counted after it.
	data = bytes.TrimPrefix(data, []byte(utf8BOM))
	s := &source{data: data}
	for i := bytes.IndexByte(data, '!'); i >= 0; {
		if i+1 == len(data) || spaceWidth(data, i+1) > 0 {
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

// spaceWidth returns the length of the white space at data[i:]: a space, a
// tab or a line break; 0 when there is none.
func spaceWidth(data []byte, i int) int {
	if data[i] == ' ' || data[i] == '\t' {
		return 1
	}
	return breakWidth(data, i)
}

// breakWidth returns the length of the YAML line break at data[i:] (LF, CR,
// NEL, LS or PS; CR LF counts as two breaks); 0 when there is none.
func breakWidth(data []byte, i int) int {
	switch c := data[i]; {
	case c == '\r' || c == '\n':
		return 1
	case c == 0xc2 && i+1 < len(data) && data[i+1] == 0x85:
		return 2
	case c == 0xe2 && i+2 < len(data) && data[i+1] == 0x80 && (data[i+2] == 0xa8 || data[i+2] == 0xa9):
		return 3
	}
	return 0
}

// offset returns the byte offset of the 1-based line and column (in
// characters) that the YAML library reports, or -1.
func (s *source) offset(line, col int) int {
	if s.lineStarts == nil {
		s.lineStarts = yamlLineStarts(s.data)
		s.ascii = true
		for _, c := range s.data {
			if c >= utf8.RuneSelf {
				s.ascii = false
				break
			}
		}
	}
	if line < 1 || line > len(s.lineStarts) || col < 1 {
		return -1
	}
	end := len(s.data)
	if line < len(s.lineStarts) {
		end = s.lineStarts[line]
	}
	if s.ascii {
		if off := s.lineStarts[line-1] + col - 1; off < end {
			return off
		}
		return -1
	}
	off, c := s.lineStarts[line-1], 1
	if line == s.curLine && col >= s.curCol {
		off, c = s.curOff, s.curCol
	}
	for ; c < col; c++ {
		if off >= end {
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
// order, separated by white space, line breaks and comments. A "!" after
// the anchor belongs to n only if no other node starts there: after
// "a: &x" and a line break, "! b: 1" at the map's indentation is the next
// key, tagged, and a's value is empty (null).
func (s *source) bareTag(n *yaml.Node) bool {
	if !s.bareTags || n.Style != 0 {
		return false
	}
	off := s.offset(n.Line, n.Column)
	if off < 0 {
		return false
	}
	d := s.data
	for i := range 2 {
		if off >= len(d) {
			return false
		}
		switch d[off] {
		case '!':
			return (off+1 == len(d) || spaceWidth(d, off+1) > 0) && (i == 0 || !s.startsNode(off))
		case '&':
			for off < len(d) && spaceWidth(d, off) == 0 {
				off++
			}
			off = skipSeparation(d, off)
		default:
			return false
		}
	}
	return false
}

// skipSeparation returns the offset of the first character at or after off
// that is not white space, a line break or part of a comment.
func skipSeparation(d []byte, off int) int {
	for off < len(d) {
		if w := spaceWidth(d, off); w > 0 {
			off += w
			continue
		}
		if d[off] != '#' {
			return off
		}
		for off < len(d) && breakWidth(d, off) == 0 {
			off++
		}
	}
	return off
}
