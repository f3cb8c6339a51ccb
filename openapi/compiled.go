package openapi

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
//	blob    = magic, count, count × (file name, section length), the sections
//	section = string table, type count, names, GVKs, offsets, records length,
//	          records
//	strings = count, total length, the bytes of all, count × 4 bytes
//	          (little-endian): where each ends
//	names   = count × (name, root); GVKs = count × (group, version, kind, root)
//	root    = type index, then how many types and fields it reaches (itself
//	          included)
//	offsets = type count × 4 bytes (little-endian): where each type's record
//	          starts in records
//	record  = name, kind (byte), primitive, elem (index+1, 0 none),
//	          default, fields (0 none, else count+1), fields × field
//	field   = name, type index, meta, kubectl meta, default
//	meta    = strategy (byte), set (byte), merge key (0 none, else count+1 strings)
//	default = 0 none, else 1 and its value: a tag (null, false, true, int,
//	          float, string, list, map), then a zigzag int, 64 float bits,
//	          a string, or count × item / count × (key, value)
//
// Strings are indexes into the section's table. Types are numbered in the
// order of a walk from the names (sorted) through fields and elements, so
// that a type shared by several names or fields is written once and read
// back as one *Type. The file names and lengths come first, so that
// indexing the blob reads its first page only; the offsets let a reader decode only the types a
// lookup reaches (readEmbedded): ForKind of Deployment needs about three
// quarters of the apps/v1 section.
//
//go:embed default/v3.compiled
var defaultCompiled []byte

// compiledMagic starts the compiled form; a new layout changes it.
const compiledMagic = "ply openapi compiled v2\n"

// compiledSections indexes defaultCompiled by embedded file name; nil when
// the blob is unreadable (the documents are then read from JSON). The names
// and sections point into blob, which must never change.
func compiledSections(blob []byte) (map[string][]byte, error) {
	if len(blob) < len(compiledMagic) || string(blob[:len(compiledMagic)]) != compiledMagic {
		return nil, errors.New("not a compiled schema (bad magic)")
	}
	r := &compactReader{data: blob, pos: len(compiledMagic)}
	n := r.uint()
	if r.err == nil && n > len(blob) {
		r.fail("bad section count")
	}
	if r.err != nil {
		return nil, r.err
	}
	names := make([]string, n)
	sizes := make([]int, n)
	total := 0
	for i := range names {
		name := r.bytes()
		names[i] = unsafe.String(unsafe.SliceData(name), len(name))
		sizes[i] = r.uint()
		total += sizes[i]
		if r.err == nil && total > len(blob)-r.pos {
			r.fail("truncated")
		}
	}
	if r.err == nil && total != len(blob)-r.pos {
		r.fail("trailing bytes")
	}
	if r.err != nil {
		return nil, r.err
	}
	out := make(map[string][]byte, n)
	for i, name := range names {
		out[name] = blob[r.pos : r.pos+sizes[i] : r.pos+sizes[i]]
		r.pos += sizes[i]
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
// document (names and GVKs, no lazy or union sources): the string table,
// then the body numberTypes and writeBody lay out.
func compileSchema(s *Schema) ([]byte, error) {
	if s.lazy != nil || s.sources != nil || s.kubectlOf != nil || s.compiled != nil {
		return nil, errors.New("openapi: only a schema loaded from a document compiles")
	}
	n := numberTypes(s)
	if n.ruled != "" {
		return nil, errors.New("openapi: field " + n.ruled + " names a merge rule (" + ExtMergeRule + "), which the compiled form does not hold")
	}
	body := &compactWriter{strings: map[string]int{}}
	if err := n.writeBody(body, s); err != nil {
		return nil, err
	}
	return append(stringTable(body.order), body.buf...), nil
}

// typeNumbering numbers the types of a schema for its compiled section:
// types[i] is the type of index i and index[types[i]] is i, in the order
// of a walk from the names (sorted) and then the GVKs, through fields
// before elements, so that every type reachable from a root has exactly
// one index.
type typeNumbering struct {
	names []string // the schema's definition names, sorted
	gvks  []GVK    // the schema's GVKs, sorted by group, version and kind
	types []*Type
	index map[*Type]int
	// ruled is a field ("Type.field") naming a merge rule, which the
	// compiled form does not hold; empty when no field does.
	ruled string
}

// numberTypes numbers every type reachable from the names and GVKs of s.
func numberTypes(s *Schema) *typeNumbering {
	n := &typeNumbering{index: map[*Type]int{}}
	n.names = make([]string, 0, len(s.byName))
	for name := range s.byName {
		n.names = append(n.names, name)
	}
	sort.Strings(n.names)
	for _, name := range n.names {
		n.walk(s.byName[name])
	}
	n.gvks = make([]GVK, 0, len(s.byGVK))
	for g := range s.byGVK {
		n.gvks = append(n.gvks, g)
		n.walk(s.byGVK[g])
	}
	sort.Slice(n.gvks, func(i, j int) bool {
		a, b := n.gvks[i], n.gvks[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Kind < b.Kind
	})
	return n
}

// walk numbers t and every type it reaches that has no number yet,
// fields (in FieldNames order) before the element.
func (n *typeNumbering) walk(t *Type) {
	if t == nil {
		return
	}
	if _, ok := n.index[t]; ok {
		return
	}
	n.index[t] = len(n.types)
	n.types = append(n.types, t)
	for _, name := range t.FieldNames {
		if t.Fields[name].Meta.Rule != nil || t.Fields[name].KubectlMeta.Rule != nil {
			n.ruled = t.Name + "." + name
		}
		n.walk(t.Fields[name].Type)
	}
	n.walk(t.Elem)
}

// writeBody writes the section after its string table: the type count,
// the names and GVKs with their roots, the offsets of the records, the
// records' length and the records; the strings they use go to body's
// table.
func (n *typeNumbering) writeBody(body *compactWriter, s *Schema) error {
	body.uint(len(n.types))
	body.uint(len(n.names))
	for _, name := range n.names {
		body.str(name)
		n.writeRoot(body, s.byName[name])
	}
	body.uint(len(n.gvks))
	for _, g := range n.gvks {
		body.str(g.Group)
		body.str(g.Version)
		body.str(g.Kind)
		n.writeRoot(body, s.byGVK[g])
	}
	// The records go to a buffer of their own (the string table is shared),
	// each offset noted, then after the offsets.
	head := body.buf
	body.buf = nil
	offsets := make([]int, len(n.types))
	for i, t := range n.types {
		offsets[i] = len(body.buf)
		if err := n.writeRecord(body, t); err != nil {
			return err
		}
	}
	records := body.buf
	body.buf = head
	for _, o := range offsets {
		body.buf = binary.LittleEndian.AppendUint32(body.buf, uint32(o))
	}
	body.uint(len(records))
	body.buf = append(body.buf, records...)
	return nil
}

// writeRoot writes the root t: its index, then how many types and fields
// it reaches, itself included.
func (n *typeNumbering) writeRoot(body *compactWriter, t *Type) {
	ntypes, nfields := reachCounts(t)
	body.uint(n.index[t])
	body.uint(ntypes)
	body.uint(nfields)
}

// reachCounts returns how many types t reaches through fields and
// elements, itself included, and how many fields those types have.
func reachCounts(t *Type) (ntypes, nfields int) {
	seen := map[*Type]bool{}
	var reach func(t *Type)
	reach = func(t *Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		ntypes++
		nfields += len(t.FieldNames)
		for _, name := range t.FieldNames {
			reach(t.Fields[name].Type)
		}
		reach(t.Elem)
	}
	reach(t)
	return ntypes, nfields
}

// writeRecord writes the record of t: name, kind, primitive, element,
// default and fields. It fails when t has fields its FieldNames do not
// list.
func (n *typeNumbering) writeRecord(body *compactWriter, t *Type) error {
	if len(t.FieldNames) != len(t.Fields) {
		return errors.New("openapi: type " + t.Name + " has fields its FieldNames do not list")
	}
	body.str(t.Name)
	body.buf = append(body.buf, byte(t.Kind))
	body.str(t.Primitive)
	if t.Elem == nil {
		body.uint(0)
	} else {
		body.uint(n.index[t.Elem] + 1)
	}
	body.defaultValue(t.Default, t.HasDefault)
	if t.Fields == nil {
		body.uint(0)
		return nil
	}
	body.uint(len(t.FieldNames) + 1)
	for _, name := range t.FieldNames {
		f := t.Fields[name]
		body.str(f.Name)
		body.uint(n.index[f.Type])
		body.meta(f.Meta)
		body.meta(f.KubectlMeta)
		body.defaultValue(f.Default, f.HasDefault)
	}
	return nil
}

// meta writes m: strategy, set, and the merge key (0 for none, else its
// length+1 and its strings).
func (w *compactWriter) meta(m Meta) {
	w.buf = append(w.buf, byte(m.Strategy))
	if m.Set {
		w.buf = append(w.buf, 1)
	} else {
		w.buf = append(w.buf, 0)
	}
	if m.MergeKey == nil {
		w.uint(0)
		return
	}
	w.uint(len(m.MergeKey) + 1)
	for _, k := range m.MergeKey {
		w.str(k)
	}
}

// defaultValue writes a default: 0 when there is none (has false), else 1
// and v.
func (w *compactWriter) defaultValue(v value.Value, has bool) {
	if !has {
		w.uint(0)
		return
	}
	w.uint(1)
	w.value(v)
}

// stringTable writes the string table of strs: the count, the total
// length, the bytes of all, then where each ends (4 bytes, little-endian).
func stringTable(strs []string) []byte {
	out := &compactWriter{}
	out.uint(len(strs))
	total := 0
	for _, s := range strs {
		total += len(s)
	}
	out.uint(total)
	for _, s := range strs {
		out.buf = append(out.buf, s...)
	}
	end := 0
	for _, s := range strs {
		end += len(s)
		out.buf = binary.LittleEndian.AppendUint32(out.buf, uint32(end))
	}
	return out.buf
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
	}
	for _, f := range files {
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
	// strs holds the bytes of the section's strings and ends, 4 bytes
	// each, where each string ends in strs: str slices them, so reading a
	// section allocates nothing per string.
	strs string
	ends []byte
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
	if r.err != nil || i >= len(r.ends)/4 {
		r.fail("bad string index")
		return ""
	}
	start := 0
	if i > 0 {
		start = int(binary.LittleEndian.Uint32(r.ends[4*i-4:]))
	}
	end := int(binary.LittleEndian.Uint32(r.ends[4*i:]))
	if start > end || end > len(r.strs) {
		r.fail("bad string length")
		return ""
	}
	return r.strs[start:end]
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

// readCompiled reads one compiled section back into a Schema, every type
// of it decoded. name is the document's name in errors, which mean the
// section is corrupt.
func readCompiled(name string, section []byte) (*Schema, error) {
	c, err := readSection(name, section, false)
	if err != nil {
		return nil, err
	}
	return c.eager()
}

// readEmbedded reads a section of the embedded compiled form
// (defaultCompiled), which nothing writes, lazily: the schema's strings are
// read in place instead of copied, and a type is decoded when a lookup
// first reaches it (compiledTypes).
func readEmbedded(name string, section []byte) (*Schema, error) {
	c, err := readSection(name, section, true)
	if err != nil {
		return nil, err
	}
	return &Schema{compiled: c}, nil
}

// Slabs: the types of a section share a few allocations, carved in turn,
// instead of one per type and two per struct type (apps/v1 has 762 types
// and 739 fields in 157 structs).
const (
	typeSlab  = 64  // types allocated at once
	fieldSlab = 128 // fields (and field names) allocated at once
)

// compiledTypes is a compiled section whose types are decoded on first
// use: a lookup (ByName, ForKind) decodes its root type and every type the
// root reaches through fields and elements, so a caller never meets a type
// that is not whole, and a type reached from several roots is decoded once
// (the same *Type, as the eager reader gives). It is safe for concurrent
// use: decoding holds mu; a root found once is read without it.
type compiledTypes struct {
	doc     string
	names   []compiledName // sorted by name, as written
	gvks    []compiledGVK
	offsets []byte // 4 bytes per type: where its record starts in records
	records int    // where the records start in r.data

	mu      sync.Mutex
	r       compactReader // reads records, under mu
	types   []*Type       // by index, the types decoded so far (each whole once mu is released)
	decoded int           // how many
	spare   []Type        // the rest of the current slab of types
	fields  []Field       // and of fields
	fnames  []string      // and of field names
	err     error         // the first corrupt record: every later lookup fails
}

// compiledRoot is a type a lookup starts from: its index, how many types
// and fields it reaches, and the type once decoded with everything it
// reaches.
type compiledRoot struct {
	index           int
	ntypes, nfields int
	t               atomic.Pointer[Type]
}

type compiledName struct {
	name string
	compiledRoot
}

type compiledGVK struct {
	gvk GVK
	compiledRoot
}

// readSection reads the string table, the names, the GVKs and the offsets
// of one compiled section, and checks their bounds; the records are left
// to compiledTypes.root. With aliased, the strings point into section,
// which must never change. An error means the section is corrupt and
// names the document and the byte at fault.
func readSection(name string, section []byte, aliased bool) (*compiledTypes, error) {
	c := &compiledTypes{doc: name, r: compactReader{data: section}}
	r := &c.r
	r.readStringTable(aliased)
	ntypes := 0
	if r.err == nil {
		ntypes = r.count("type", len(section)/4)
		c.readRoots(ntypes)
	}
	if r.err == nil {
		c.readOffsets(ntypes)
	}
	if r.err != nil {
		return nil, &Error{Document: name, Msg: "corrupt compiled schema: " + r.err.Error()}
	}
	c.types = make([]*Type, ntypes)
	return c, nil
}

// readStringTable reads the section's string table into r.strs and
// r.ends, leaving r at what follows it; with aliased, r.strs points into
// r.data. A table that does not fit in r.data fails r.
func (r *compactReader) readStringTable(aliased bool) {
	nstr, total := r.uint(), r.uint()
	if r.err == nil && (total > len(r.data)-r.pos || nstr > (len(r.data)-r.pos-total)/4) {
		r.fail("truncated string table")
	}
	if r.err != nil {
		return
	}
	if aliased {
		r.strs = unsafe.String(unsafe.SliceData(r.data[r.pos:]), total)
	} else {
		r.strs = string(r.data[r.pos : r.pos+total])
	}
	r.pos += total
	r.ends = r.data[r.pos : r.pos+4*nstr]
	r.pos += 4 * nstr
}

// count reads a count of what; one over limit (which the section's size
// gives) fails r.
func (r *compactReader) count(what string, limit int) int {
	n := r.uint()
	if r.err == nil && n > limit {
		r.fail("bad " + what + " count")
	}
	return n
}

// readRoots reads the names (which must be in strictly increasing order)
// and the GVKs of the section, with their roots, into c; it stops at the
// first fault, which fails c.r.
func (c *compiledTypes) readRoots(ntypes int) {
	r := &c.r
	nnames := r.count("name", len(r.data))
	if r.err != nil {
		return
	}
	c.names = make([]compiledName, nnames)
	for i := range c.names {
		c.names[i].name = r.str()
		r.readRoot(&c.names[i].compiledRoot, ntypes)
		if i > 0 && r.err == nil && c.names[i-1].name >= c.names[i].name {
			r.fail("names out of order")
		}
	}
	ngvks := r.count("GVK", len(r.data))
	if r.err != nil {
		return
	}
	c.gvks = make([]compiledGVK, ngvks)
	for i := range c.gvks {
		c.gvks[i].gvk = GVK{Group: r.str(), Version: r.str(), Kind: r.str()}
		r.readRoot(&c.gvks[i].compiledRoot, ntypes)
	}
}

// readRoot reads a root into root; an index or type count not under
// ntypes, or a field count over the section's size, fails r.
func (r *compactReader) readRoot(root *compiledRoot, ntypes int) {
	root.index, root.ntypes, root.nfields = r.uint(), r.uint(), r.uint()
	if r.err == nil && (root.index >= ntypes || root.ntypes > ntypes || root.nfields > len(r.data)) {
		r.fail("bad root")
	}
}

// readOffsets reads the offsets of the ntypes records and the records'
// length into c, checking that the records end the section and that every
// offset falls inside them; c.records is where they start.
func (c *compiledTypes) readOffsets(ntypes int) {
	r := &c.r
	if ntypes*4 > len(r.data)-r.pos {
		r.fail("truncated offsets")
		return
	}
	c.offsets = r.data[r.pos : r.pos+ntypes*4]
	r.pos += ntypes * 4
	size := r.uint()
	switch {
	case r.err != nil:
	case size > len(r.data)-r.pos:
		r.fail("truncated records")
	case size < len(r.data)-r.pos:
		r.pos += size
		r.fail("trailing bytes")
	}
	for i := 0; i < ntypes && r.err == nil; i++ {
		if int(binary.LittleEndian.Uint32(c.offsets[4*i:])) >= size {
			r.fail("bad type offset")
		}
	}
	c.records = r.pos
}

// byName returns the type of the definition called name.
func (c *compiledTypes) byName(name string) (*Type, bool) {
	i, ok := sort.Find(len(c.names), func(i int) int { return strings.Compare(name, c.names[i].name) })
	if !ok {
		return nil, false
	}
	return c.root(&c.names[i].compiledRoot)
}

// forKind returns the root type of the kind g.
func (c *compiledTypes) forKind(g GVK) (*Type, bool) {
	for i := range c.gvks {
		if c.gvks[i].gvk == g {
			return c.root(&c.gvks[i].compiledRoot)
		}
	}
	return nil, false
}

// root returns the type of e, decoding it and every type it reaches on
// first use; false when a record is corrupt.
func (c *compiledTypes) root(e *compiledRoot) (*Type, bool) {
	if t := e.t.Load(); t != nil {
		return t, true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return nil, false
	}
	if c.decoded == 0 {
		// The first lookup of the section, often the only one: slabs of
		// the size it needs.
		c.spare = make([]Type, e.ntypes)
		c.fields = make([]Field, e.nfields)
		c.fnames = make([]string, e.nfields)
	}
	var work []int // types allocated, not yet decoded
	typeAt := func(i int) *Type {
		if i < 0 || i >= len(c.types) {
			c.r.fail("bad type index")
			return nil
		}
		if t := c.types[i]; t != nil {
			return t
		}
		if len(c.spare) == 0 {
			c.spare = make([]Type, typeSlab)
		}
		t := &c.spare[0]
		c.spare = c.spare[1:]
		c.types[i] = t
		c.decoded++
		work = append(work, i)
		return t
	}
	t := typeAt(e.index)
	for len(work) > 0 && c.r.err == nil {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		c.r.pos = c.records + int(binary.LittleEndian.Uint32(c.offsets[4*i:]))
		c.readType(c.types[i], typeAt)
	}
	if c.r.err != nil {
		c.err = &Error{Document: c.doc, Msg: "corrupt compiled schema: " + c.r.err.Error()}
		return nil, false
	}
	e.t.Store(t)
	return t, true
}

// readType decodes the record at c.r into t; typeAt gives the type of an
// index.
func (c *compiledTypes) readType(t *Type, typeAt func(int) *Type) {
	r := &c.r
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
	t.Name = r.str()
	t.Kind = Kind(r.byte())
	t.Primitive = r.str()
	if e := r.uint(); e > 0 {
		t.Elem = typeAt(e - 1)
	}
	t.Default, t.HasDefault = readDefault()
	nf := r.uint()
	if nf == 0 || r.err != nil {
		return
	}
	nf--
	if nf > len(r.data) {
		r.fail("bad field count")
		return
	}
	if nf > len(c.fields) {
		c.fields = make([]Field, max(nf, fieldSlab))
		c.fnames = make([]string, max(nf, fieldSlab))
	}
	fields := c.fields[:nf:nf]
	c.fields = c.fields[nf:]
	t.Fields = make(map[string]*Field, nf)
	t.FieldNames = c.fnames[:nf:nf]
	c.fnames = c.fnames[nf:]
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

// eager decodes every type of c and returns the Schema of its names and
// GVKs, or the error of the first corrupt record.
func (c *compiledTypes) eager() (*Schema, error) {
	byName := make(map[string]*Type, len(c.names))
	for i := range c.names {
		t, ok := c.root(&c.names[i].compiledRoot)
		if !ok {
			return nil, c.err
		}
		byName[c.names[i].name] = t
	}
	byGVK := make(map[GVK]*Type, len(c.gvks))
	for i := range c.gvks {
		t, ok := c.root(&c.gvks[i].compiledRoot)
		if !ok {
			return nil, c.err
		}
		byGVK[c.gvks[i].gvk] = t
	}
	for i := range c.types {
		if c.types[i] == nil {
			// Unreachable from names and GVKs: the compiler writes none.
			c.root(&compiledRoot{index: i})
			if c.err != nil {
				return nil, c.err
			}
		}
	}
	return &Schema{byName: byName, byGVK: byGVK}, nil
}
