package parse

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/plyproject/ply/pkg/value"
)

// The limits that apply when a Limits field is zero (or negative).
const (
	// DefaultMaxBytes is the default input size limit: 32 MiB, ten times
	// the largest request the Kubernetes API server accepts.
	DefaultMaxBytes = 32 << 20
	// DefaultMaxDepth is the default nesting limit: 1000 levels of maps
	// and lists. Kubernetes objects nest a few dozen levels at most.
	DefaultMaxDepth = 1000
	// DefaultMaxAliasExpansion is the default bound on what aliases add to
	// one input, all its documents together: 16 Mi units (see
	// Limits.MaxAliasExpansion).
	DefaultMaxAliasExpansion = 16 << 20
	// DefaultMaxListItems is the default bound on the items of one list:
	// 1,000,000. No object the Kubernetes API server stores can come near
	// it: etcd accepts objects of at most 1.5 MiB (its default request
	// limit), and every JSON list item takes at least 2 bytes ("0,"), so a
	// stored object holds at most about 786,000 items in all its lists.
	// Within DefaultMaxBytes, a single list of small items could otherwise
	// hold 16 million.
	DefaultMaxListItems = 1_000_000
	// DefaultMaxYAMLSeparators is the default bound on the line breaks and
	// flow separators of one YAML document: 500,000 (see
	// Limits.MaxYAMLSeparators). A stored object (at most 1.5 MiB) with
	// more would average under 3 bytes a line.
	DefaultMaxYAMLSeparators = 500_000
	// DefaultMaxYAMLStreamSeparators is the default bound on the line
	// breaks and flow separators of a whole YAML stream: 2,000,000 (see
	// Limits.MaxYAMLStreamSeparators). Real YAML takes 24 to 55 bytes per
	// separator (the Gateway API CRDs, the SMD library's Kubernetes schema
	// fixtures, Kubernetes conformance data), so a stream within
	// DefaultMaxBytes has at most about 1.4 million; the bound allows 16.
	DefaultMaxYAMLStreamSeparators = 2_000_000
)

// Limits bound the work and memory one parse may take, so that hostile
// input (a huge file, a deeply nested document, a "billion laughs" alias
// bomb) fails fast with an *Error instead of exhausting memory or stack.
// The zero Limits is the defaults; a zero or negative field takes its
// default.
type Limits struct {
	// MaxBytes is the largest input accepted, in bytes.
	MaxBytes int
	// MaxDepth is the deepest nesting of maps and lists accepted, counted
	// after aliases are expanded: {"a": [1]} nests 2 levels. (The YAML
	// library itself stops at 10000 levels whatever the limit.)
	MaxDepth int
	// MaxAliasExpansion bounds the total size that aliases (*name, also
	// when merged with <<) add to one input, all its documents together,
	// where the size of a value counts 1 per node plus the length in bytes
	// of every string and map key in it, roughly the bytes it takes as
	// JSON. Each use of an alias adds the full size of the value it refers
	// to. Everything done with the documents (encoding, recording,
	// merging) works on them expanded, so a bound per document would let
	// an input of many small documents cost that bound many times over.
	MaxAliasExpansion int
	// MaxListItems is the largest number of items one list may hold, counted
	// after aliases are expanded (an alias of a list counts the items of the
	// list once, where it is used). Maps are not bounded by it: their size
	// is bounded by MaxBytes, as every key is written out.
	MaxListItems int
	// MaxYAMLSeparators bounds, per YAML document, the count of line breaks
	// and flow separators (',', '[', '{'). Each can start a value, and the
	// YAML library builds a document's whole node tree (a few hundred bytes
	// a node) before ply can check MaxDepth or MaxListItems; this check runs
	// first, over the bytes, so a document of millions of tiny items is
	// refused in milliseconds instead of costing gigabytes. JSON input, read
	// by ply's own scanner, is not bounded by it.
	MaxYAMLSeparators int
	// MaxYAMLStreamSeparators bounds the same count over the whole YAML
	// stream, all documents together: documents are built one at a time,
	// but a stream of many documents each just under MaxYAMLSeparators
	// would still cost the YAML library's time for every one of them.
	MaxYAMLStreamSeparators int
}

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxAliasExpansion <= 0 {
		l.MaxAliasExpansion = DefaultMaxAliasExpansion
	}
	if l.MaxListItems <= 0 {
		l.MaxListItems = DefaultMaxListItems
	}
	if l.MaxYAMLSeparators <= 0 {
		l.MaxYAMLSeparators = DefaultMaxYAMLSeparators
	}
	if l.MaxYAMLStreamSeparators <= 0 {
		l.MaxYAMLStreamSeparators = DefaultMaxYAMLStreamSeparators
	}
	return l
}

// Documents reads every document of data, a YAML stream or JSON text, under
// the default Limits. See Limits.Documents.
func Documents(data []byte) ([]value.Value, error) { return Limits{}.Documents(data) }

// Document reads data, which must hold exactly one document, under the
// default Limits. See Limits.Document.
func Document(data []byte) (value.Value, error) { return Limits{}.Document(data) }

// OwnedDocument is Document for data the caller hands over: see
// Limits.OwnedDocument.
func OwnedDocument(data []byte) (value.Value, error) { return Limits{}.OwnedDocument(data) }

// OwnedDocumentIn is OwnedDocument into a's memory: see
// Limits.OwnedDocumentIn.
func OwnedDocumentIn(a *Arena, data []byte) (value.Value, error) {
	return Limits{}.OwnedDocumentIn(a, data)
}

// Documents reads every document of data: a YAML stream of documents
// separated by "---", or JSON text (one value or several in a row). The
// result holds one Value per document in input order, leaving out the
// documents that are empty (only comments, or a bare "---") or null, which
// kubectl skips too; it is empty, not an error, when no document remains.
// Any problem, in any document, is an *Error and no Values are returned.
func (l Limits) Documents(data []byte) ([]value.Value, error) {
	docs, err := l.parse(data, false, nil, nil)
	if err != nil {
		return nil, err
	}
	out := make([]value.Value, len(docs))
	for i, d := range docs {
		out[i] = d.v
	}
	return out, nil
}

// Document reads data as Documents does and returns its one document. It is
// an *Error when no document remains after leaving out empty and null ones,
// or when more than one does (the error names the second).
func (l Limits) Document(data []byte) (value.Value, error) { return l.document(data, false, nil) }

// OwnedDocument reads data as Document does, taking data over: the strings
// of the result may share data's memory instead of a copy of it, so the
// caller must not modify data afterwards (a file read for the purpose, a
// response body). It saves a copy of the input, the largest allocation of
// parsing JSON.
func (l Limits) OwnedDocument(data []byte) (value.Value, error) { return l.document(data, true, nil) }

// OwnedDocumentIn reads data as OwnedDocument does, with the result's maps
// and lists in a's memory instead of an allocation of their own: the
// result is valid until a.Reset (see Arena). A nil a is OwnedDocument.
func (l Limits) OwnedDocumentIn(a *Arena, data []byte) (value.Value, error) {
	return l.document(data, true, a)
}

// document is Document, with data taken over when owned.
func (l Limits) document(data []byte, owned bool, a *Arena) (value.Value, error) {
	var one [1]doc // room for the one document expected, without allocating
	docs, err := l.parse(data, owned, a, one[:0])
	if err != nil {
		return value.Null, err
	}
	switch len(docs) {
	case 0:
		return value.Null, &Error{Msg: "no document: the input is empty or holds only comments and null documents", none: true}
	case 1:
		return docs[0].v, nil
	}
	return value.Null, &Error{Doc: docs[1].index, Line: docs[1].line, multi: true,
		Msg: "expected exactly one document, found a second one here"}
}

// doc is one parsed document: its value, its 1-based index in the stream
// and the line it starts on.
type doc struct {
	v     value.Value
	index int
	line  int
}

// parse reads data as JSON when it starts with { or [ and is valid JSON,
// and as YAML otherwise, the way kubectl decides. With owned, strings read
// as JSON may share data's memory, and a (nil: none) holds their maps and
// lists; documents read as JSON are appended to docs.
func (l Limits) parse(data []byte, owned bool, a *Arena, docs []doc) ([]doc, *Error) {
	l = l.withDefaults()
	if len(data) > l.MaxBytes {
		return nil, &Error{Msg: "input is " + strconv.Itoa(len(data)) + " bytes, more than the limit of " + strconv.Itoa(l.MaxBytes)}
	}
	data, uerr := toUTF8(data)
	if uerr != nil {
		return nil, uerr
	}
	if !looksLikeJSON(data) {
		return l.parseYAML(data)
	}
	docs, jerr, fallback := l.parseJSON(data, owned, a, docs)
	if jerr == nil || !fallback {
		return docs, jerr
	}
	docs, yerr := l.parseYAML(data)
	if yerr == nil {
		return docs, nil
	}
	// When the input is valid YAML, the YAML error is about its content.
	// When it is neither valid YAML nor JSON, report the error of the
	// reader that got further, and the JSON one (as kubectl does) on a tie.
	if !yerr.syntax || yerr.Line > jerr.Line {
		return nil, yerr
	}
	return nil, jerr
}

// looksLikeJSON reports whether the first character of data that is not
// white space opens a JSON object or array.
func looksLikeJSON(data []byte) bool {
	rest := bytes.TrimLeftFunc(data, unicode.IsSpace)
	return len(rest) > 0 && (rest[0] == '{' || rest[0] == '[')
}

// utf8BOM is the byte order mark in UTF-8.
const utf8BOM = "\xef\xbb\xbf"

// toUTF8 converts UTF-16 text (which YAML recognises by its byte order
// mark) to UTF-8 behind a UTF-8 byte order mark, so that every later
// position counts characters of UTF-8 text. UTF-8 text is returned as it
// is, a byte order mark included. Either way the YAML library takes the
// leading mark as the encoding's, and a further one at the start of a line
// as content, as kubectl's does (and input that starts with a mark is not
// JSON to kubectl either); positions are counted after it.
func toUTF8(data []byte) ([]byte, *Error) {
	var order binary.ByteOrder
	switch {
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}):
		order = binary.LittleEndian
	case bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		order = binary.BigEndian
	default:
		return data, nil
	}
	body := data[2:]
	out := append(make([]byte, 0, len(utf8BOM)+len(body)+len(body)/2), utf8BOM...)
	bad := func(msg string) *Error {
		text := out[len(utf8BOM):]
		starts := yamlLineStarts(text)
		last := starts[len(starts)-1]
		return &Error{Line: len(starts), Column: utf8.RuneCount(text[last:]) + 1, Msg: "invalid UTF-16: " + msg, syntax: true}
	}
	for i := 0; i < len(body); i += 2 {
		if i+1 == len(body) {
			return nil, bad("incomplete character at the end")
		}
		r := rune(order.Uint16(body[i:]))
		if utf16.IsSurrogate(r) {
			if r >= 0xdc00 || i+3 >= len(body) {
				return nil, bad("unpaired surrogate")
			}
			r = utf16.DecodeRune(r, rune(order.Uint16(body[i+2:])))
			if r == utf8.RuneError {
				return nil, bad("unpaired surrogate")
			}
			i += 2
		}
		out = utf8.AppendRune(out, r)
	}
	return out, nil
}
