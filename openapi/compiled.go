package openapi

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"math"
	"sort"
	"strconv"
	"unsafe"

	"github.com/plyproject/ply/pkg/value"
)

// The compiled form of the embedded OpenAPI v3 documents
// (default/v3.compiled): each document already converted to ply's schema
// model and written compactly, so that a process reads the schema of a
// group-version without parsing JSON, resolving references or checking
// extensions. It is derived from default/v3/*.json by the package's tests
// (`go generate ./openapi/` writes it, through the spec "is what the
// documents compile to" run with -update; without
// -update the test fails when it is not what the documents compile to),
// and the tests check that every document reads back to the schema the JSON
// loaders build.
//
// Layout, every integer an unsigned varint, every string a length and its
// bytes:
//
//	blob    = magic, count, count × (file name, section length, section)
//	section = string table, types, names, GVKs
//	strings = count, total length, the bytes of all, count × length
//	type    = name, kind (byte), primitive, elem (index+1, 0 none),
//	          default, fields (0 none, else count+1), fields × field
//	field   = name, type index, meta, kubectl meta, default
//	meta    = strategy (byte), set (byte), merge key (0 none, else count+1 strings)
//	default = 0 none, else 1 and its value: a tag (null, false, true, int,
//	          float, string, list, map), then a zigzag int, 64 float bits,
//	          a string, or count × item / count × (key, value)
//	names   = count × (name, type index); GVKs = count × (group, version, kind, type index)
//
// Strings are indexes into the section's table. Types are numbered in the
// order of a walk from the names (sorted) through fields and elements, so
// that a type shared by several names or fields is written once and read
// back as one *Type.
//
//go:embed default/v3.compiled
var defaultCompiled []byte

// compiledMagic starts the compiled form; a new layout changes it.
const compiledMagic = "ply openapi compiled v1\n"

// compiledSections indexes defaultCompiled by embedded file name; nil when
// the blob is unreadable (the documents are then read from JSON).
func compiledSections(blob []byte) (map[string][]byte, error) {
	if len(blob) < len(compiledMagic) || string(blob[:len(compiledMagic)]) != compiledMagic {
		return nil, errors.New("not a compiled schema (bad magic)")
	}
	r := &compactReader{data: blob, pos: len(compiledMagic)}
	n := r.uint()
	out := make(map[string][]byte, n)
	for range n {
		name := string(r.bytes())
		out[name] = r.bytes()
	}
	if r.err != nil {
		return nil, r.err
	}
	return out, nil
}

// compactWriter appends the compiled form.
type compactWriter struct {
	buf     []byte
	strings map[string]int
	order   []string
}

func (w *compactWriter) uint(n int) { w.buf = binary.AppendUvarint(w.buf, uint64(n)) }

// Value tags of the compiled form.
const (
	tagNull byte = iota
	tagFalse
	tagTrue
	tagInt
	tagFloat
	tagString
	tagList
	tagMap
)

// value writes v: a tag, then an int (zigzag), a float (its 64 bits), a
// string, or the items or the fields (key and value, in v's order).
func (w *compactWriter) value(v value.Value) {
	switch v.Kind() {
	case value.KindBool:
		if b, _ := v.AsBool(); b {
			w.buf = append(w.buf, tagTrue)
		} else {
			w.buf = append(w.buf, tagFalse)
		}
	case value.KindInt:
		i, _ := v.AsInt()
		w.buf = append(w.buf, tagInt)
		w.buf = binary.AppendVarint(w.buf, i)
	case value.KindFloat:
		f, _ := v.AsFloat()
		w.buf = append(w.buf, tagFloat)
		w.buf = binary.LittleEndian.AppendUint64(w.buf, math.Float64bits(f))
	case value.KindString:
		s, _ := v.AsString()
		w.buf = append(w.buf, tagString)
		w.str(s)
	case value.KindList:
		w.buf = append(w.buf, tagList)
		w.uint(v.Len())
		for _, item := range v.Items() {
			w.value(item)
		}
	case value.KindMap:
		w.buf = append(w.buf, tagMap)
		w.uint(v.Len())
		for _, f := range v.Fields() {
			w.str(f.Key)
			w.value(f.Value)
		}
	default:
		w.buf = append(w.buf, tagNull)
	}
}

func (w *compactWriter) str(s string) {
	i, ok := w.strings[s]
	if !ok {
		i = len(w.order)
		w.strings[s] = i
		w.order = append(w.order, s)
	}
	w.uint(i)
}

// compileSchema writes the compiled section of s, a schema loaded from one
// document (names and GVKs, no lazy or union sources).
func compileSchema(s *Schema) ([]byte, error) {
	if s.lazy != nil || s.sources != nil || s.kubectlOf != nil {
		return nil, errors.New("openapi: only a schema loaded from a document compiles")
	}
	index := map[*Type]int{}
	var types []*Type
	var walk func(t *Type)
	walk = func(t *Type) {
		if t == nil {
			return
		}
		if _, ok := index[t]; ok {
			return
		}
		index[t] = len(types)
		types = append(types, t)
		for _, n := range t.FieldNames {
			walk(t.Fields[n].Type)
		}
		walk(t.Elem)
	}
	names := make([]string, 0, len(s.byName))
	for n := range s.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		walk(s.byName[n])
	}
	gvks := make([]GVK, 0, len(s.byGVK))
	for g := range s.byGVK {
		gvks = append(gvks, g)
		walk(s.byGVK[g])
	}
	sort.Slice(gvks, func(i, j int) bool {
		a, b := gvks[i], gvks[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Kind < b.Kind
	})

	body := &compactWriter{strings: map[string]int{}}
	writeMeta := func(m Meta) {
		body.buf = append(body.buf, byte(m.Strategy))
		if m.Set {
			body.buf = append(body.buf, 1)
		} else {
			body.buf = append(body.buf, 0)
		}
		if m.MergeKey == nil {
			body.uint(0)
			return
		}
		body.uint(len(m.MergeKey) + 1)
		for _, k := range m.MergeKey {
			body.str(k)
		}
	}
	writeDefault := func(v value.Value, has bool) {
		if !has {
			body.uint(0)
			return
		}
		body.uint(1)
		body.value(v)
	}
	body.uint(len(types))
	for _, t := range types {
		if len(t.FieldNames) != len(t.Fields) {
			return nil, errors.New("openapi: type " + t.Name + " has fields its FieldNames do not list")
		}
		body.str(t.Name)
		body.buf = append(body.buf, byte(t.Kind))
		body.str(t.Primitive)
		if t.Elem == nil {
			body.uint(0)
		} else {
			body.uint(index[t.Elem] + 1)
		}
		writeDefault(t.Default, t.HasDefault)
		if t.Fields == nil {
			body.uint(0)
			continue
		}
		body.uint(len(t.FieldNames) + 1)
		for _, n := range t.FieldNames {
			f := t.Fields[n]
			body.str(f.Name)
			body.uint(index[f.Type])
			writeMeta(f.Meta)
			writeMeta(f.KubectlMeta)
			writeDefault(f.Default, f.HasDefault)
		}
	}
	body.uint(len(names))
	for _, n := range names {
		body.str(n)
		body.uint(index[s.byName[n]])
	}
	body.uint(len(gvks))
	for _, g := range gvks {
		body.str(g.Group)
		body.str(g.Version)
		body.str(g.Kind)
		body.uint(index[s.byGVK[g]])
	}

	out := &compactWriter{}
	out.uint(len(body.order))
	total := 0
	for _, s := range body.order {
		total += len(s)
	}
	out.uint(total)
	for _, s := range body.order {
		out.buf = append(out.buf, s...)
	}
	for _, s := range body.order {
		out.uint(len(s))
	}
	return append(out.buf, body.buf...), nil
}

// compileBlob writes the compiled form of the sections (file name to
// compiled section), in file name order.
func compileBlob(sections map[string][]byte) []byte {
	files := make([]string, 0, len(sections))
	for f := range sections {
		files = append(files, f)
	}
	sort.Strings(files)
	w := &compactWriter{buf: []byte(compiledMagic)}
	w.uint(len(files))
	for _, f := range files {
		w.uint(len(f))
		w.buf = append(w.buf, f...)
		w.uint(len(sections[f]))
		w.buf = append(w.buf, sections[f]...)
	}
	return w.buf
}

// compactReader reads the compiled form; the first fault sticks in err
// and every later read returns zero values.
type compactReader struct {
	data []byte
	pos  int
	err  error
	strs []string
}

func (r *compactReader) fail(msg string) {
	if r.err == nil {
		r.err = errors.New(msg + " at byte " + strconv.Itoa(r.pos))
	}
}

func (r *compactReader) uint() int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.data[r.pos:])
	if n <= 0 || v > uint64(len(r.data)) {
		r.fail("bad number")
		return 0
	}
	r.pos += n
	return int(v)
}

func (r *compactReader) byte() byte {
	if r.err != nil || r.pos >= len(r.data) {
		r.fail("truncated")
		return 0
	}
	r.pos++
	return r.data[r.pos-1]
}

func (r *compactReader) bytes() []byte {
	n := r.uint()
	if r.err != nil || n > len(r.data)-r.pos {
		r.fail("truncated")
		return nil
	}
	r.pos += n
	return r.data[r.pos-n : r.pos]
}

func (r *compactReader) str() string {
	i := r.uint()
	if r.err != nil || i >= len(r.strs) {
		r.fail("bad string index")
		return ""
	}
	return r.strs[i]
}

// value reads a value compactWriter.value wrote, nesting at most
// maxValueDepth levels.
func (r *compactReader) value(depth int) value.Value {
	if depth > maxValueDepth {
		r.fail("value nests too deep")
		return value.Null
	}
	switch tag := r.byte(); tag {
	case tagNull:
		return value.Null
	case tagFalse, tagTrue:
		return value.Bool(tag == tagTrue)
	case tagInt:
		if r.err != nil {
			return value.Null
		}
		i, n := binary.Varint(r.data[r.pos:])
		if n <= 0 {
			r.fail("bad integer")
			return value.Null
		}
		r.pos += n
		return value.Int(i)
	case tagFloat:
		if r.err != nil || len(r.data)-r.pos < 8 {
			r.fail("truncated")
			return value.Null
		}
		r.pos += 8
		return value.Float(math.Float64frombits(binary.LittleEndian.Uint64(r.data[r.pos-8:])))
	case tagString:
		return value.String(r.str())
	case tagList:
		n := r.uint()
		if n > len(r.data) {
			r.fail("bad list length")
			return value.Null
		}
		items := make([]value.Value, 0, n)
		for range n {
			items = append(items, r.value(depth+1))
		}
		return value.List(items)
	case tagMap:
		n := r.uint()
		if n > len(r.data) {
			r.fail("bad map length")
			return value.Null
		}
		fields := make([]value.Field, 0, n)
		for range n {
			k := r.str()
			fields = append(fields, value.Field{Key: k, Value: r.value(depth + 1)})
		}
		m, _, ok := value.NewMap(fields)
		if !ok {
			r.fail("a map key appears twice")
		}
		return m
	default:
		r.fail("bad value tag")
		return value.Null
	}
}

// readCompiled reads one compiled section back into a Schema. name is the
// document's name in errors, which mean the section is corrupt.
func readCompiled(name string, section []byte) (*Schema, error) {
	return readSection(name, section, false)
}

// readEmbedded is readCompiled of a section of the embedded compiled form
// (defaultCompiled), which nothing writes: the schema's strings are read
// in place instead of copied.
func readEmbedded(name string, section []byte) (*Schema, error) {
	return readSection(name, section, true)
}

// fieldSlab is how many fields (and field names) readSection allocates at
// once: the types of a section share a few allocations, carved in turn,
// instead of two per struct type (apps/v1 has 739 fields in about 160
// structs).
const fieldSlab = 256

// readSection reads one compiled section; with aliased, the strings of the
// Schema point into section, which must never change.
func readSection(name string, section []byte, aliased bool) (*Schema, error) {
	r := &compactReader{data: section}
	nstr, total := r.uint(), r.uint()
	if r.err == nil && total > len(section)-r.pos {
		r.fail("truncated string table")
	}
	if r.err != nil {
		return nil, &Error{Document: name, Msg: "corrupt compiled schema: " + r.err.Error()}
	}
	var all string
	if aliased {
		all = unsafe.String(unsafe.SliceData(section[r.pos:]), total)
	} else {
		all = string(section[r.pos : r.pos+total])
	}
	r.pos += total
	r.strs = make([]string, nstr)
	at := 0
	for i := range r.strs {
		n := r.uint()
		if r.err != nil || n > len(all)-at {
			r.fail("bad string length")
			break
		}
		r.strs[i] = all[at : at+n]
		at += n
	}

	ntypes := r.uint()
	if r.err == nil && ntypes > len(section) {
		r.fail("bad type count")
	}
	if r.err != nil {
		return nil, &Error{Document: name, Msg: "corrupt compiled schema: " + r.err.Error()}
	}
	types := make([]Type, ntypes)
	typeAt := func(i int) *Type {
		if i < 0 || i >= len(types) {
			r.fail("bad type index")
			return nil
		}
		return &types[i]
	}
	readMeta := func() Meta {
		m := Meta{Strategy: Strategy(r.byte()), Set: r.byte() == 1}
		if n := r.uint(); n > 0 {
			m.MergeKey = make([]string, n-1)
			for i := range m.MergeKey {
				m.MergeKey[i] = r.str()
			}
		}
		return m
	}
	readDefault := func() (value.Value, bool) {
		if r.uint() == 0 {
			return value.Value{}, false
		}
		return r.value(0), true
	}
	var (
		fieldSpare []Field  // the rest of the current slab of fields
		nameSpare  []string // and of field names
	)
	for i := range types {
		t := &types[i]
		t.Name = r.str()
		t.Kind = Kind(r.byte())
		t.Primitive = r.str()
		if e := r.uint(); e > 0 {
			t.Elem = typeAt(e - 1)
		}
		t.Default, t.HasDefault = readDefault()
		nf := r.uint()
		if nf == 0 || r.err != nil {
			continue
		}
		nf--
		if nf > len(section) {
			r.fail("bad field count")
			break
		}
		if nf > len(fieldSpare) {
			fieldSpare = make([]Field, max(nf, fieldSlab))
			nameSpare = make([]string, max(nf, fieldSlab))
		}
		fields := fieldSpare[:nf:nf]
		fieldSpare = fieldSpare[nf:]
		t.Fields = make(map[string]*Field, nf)
		t.FieldNames = nameSpare[:nf:nf]
		nameSpare = nameSpare[nf:]
		for j := range fields {
			f := &fields[j]
			f.Name = r.str()
			f.Type = typeAt(r.uint())
			f.Meta = readMeta()
			f.KubectlMeta = readMeta()
			f.Default, f.HasDefault = readDefault()
			t.FieldNames[j] = f.Name
			t.Fields[f.Name] = f
		}
	}
	nnames := r.uint()
	byName := make(map[string]*Type, min(nnames, len(section)))
	for range nnames {
		if r.err != nil {
			break
		}
		n := r.str()
		byName[n] = typeAt(r.uint())
	}
	ngvks := r.uint()
	byGVK := make(map[GVK]*Type, min(ngvks, len(section)))
	for range ngvks {
		if r.err != nil {
			break
		}
		g := GVK{Group: r.str(), Version: r.str(), Kind: r.str()}
		byGVK[g] = typeAt(r.uint())
	}
	if r.err == nil && r.pos != len(section) {
		r.fail("trailing bytes")
	}
	if r.err != nil {
		return nil, &Error{Document: name, Msg: "corrupt compiled schema: " + r.err.Error()}
	}
	return &Schema{byName: byName, byGVK: byGVK}, nil
}
