package engine

import (
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// A trimmer reads the JSON text of the object a patch applies to less the fields the patch does not reach, and writes
// them back, as the text they are, into the merge's result: strategicpatch's merge of a map keeps such a field as it
// is, so that merging without them and adding them to the result gives the bytes merging the whole object gives, for
// no work on the fields a small patch leaves alone but checking their text (ApplyJSON, every feature gate off).
//
// A field is reached when the patch's map at its place names it, as a key or in a list directive
// ("$setElementOrder/<key>", "$deleteFromPrimitiveList/<key>"). Fields are left out of the root object and of the
// objects below it where the original and the patch both hold a map under a key the schema gives no patch strategy
// (a plain merge of two maps keeps what the patch does not name), the schema a TypeCacher (cachesTypes), and in the
// item of a list merged by key whose merge key holds the string an item of the patch's list (of at most trimMaxItems)
// holds there (see list); not where the patch's map holds "$patch", "$retainKeys" or another "$" key than the list
// directives.
// A field left out is one whose key and value are written as strategicpatch writes them (canonical: compact, keys in
// order, integers of at most 15 digits, strings of printable characters encoding/json writes unescaped); any other is
// read and merged. The type built from the trimmed object is the one built from the whole, as the builder reads the
// original only at the patch's keys (a witness, see placed). Writing back checks what held when leaving out: each place
// fields were left out at is a map in the result, which holds none of their keys; where it does not, or the text is
// not what the trimmer reads (JSON it reads otherwise than package parse, duplicated keys, escaped keys, deep nesting),
// the caller merges the whole object instead.
type trimmer struct {
	data   []byte // the original's text
	places []trimmed
	raws   scratch[rawField]
	fields scratch[value.Field]
	items  scratch[value.Value]
	keys   scratch[string] // (the keys of the lists fieldwiseValues merges)
	names  []string
	out    []byte
	// skeleton is the buffer scopedSchemaOf writes the documents' skeletons in (nil: made on first use).
	skeleton []byte
}

// trimmed is one place fields were left out at: the map at key of place parent (the root: parent -1), or (inList) the
// item of the list at key whose merge key mergeKey holds item, and the fields left out there, in key order.
type trimmed struct {
	parent   int
	key      string
	inList   bool
	mergeKey string
	item     string
	out      []rawField
}

// rawField is a field left out: its key and its whole text, key and value, as strategicpatch writes them.
type rawField struct {
	key  string
	text []byte
}

// trimmers keeps the memory of finished calls' trimmers for the next ones.
var trimmers = sync.Pool{New: func() any { return new(trimmer) }}

// Bounds of a trimmer: the places it records (a patch reaching further keeps the rest of the object whole), the items
// of a patch's list whose items it trims in the original's list (a longer list is read whole), the nesting it reads (deeper text is read by package parse, whose limits apply), the output buffer it keeps.
const (
	trimMaxPlaces = 64
	trimMaxItems  = 4
	trimMaxDepth  = 100
	trimMaxOut    = 1 << 20
)

// release clears t, which holds values and text of the call's documents, and returns it to trimmers.
func (t *trimmer) release() {
	t.data = nil
	clear(t.places)
	t.places = t.places[:0]
	clear(t.names)
	t.names = t.names[:0]
	t.raws.reset()
	t.fields.reset()
	t.items.reset()
	t.keys.reset()
	if cap(t.out) > trimMaxOut {
		t.out = nil
	}
	t.out = t.out[:0]
	trimmers.Put(t)
}

// root reads original, JSON text holding an object, less the fields patch p (a map) does not reach, its maps and lists
// in r's arena; false where it leaves none out or cannot read it so (the caller reads it whole).
func (t *trimmer) root(original []byte, p value.Value, l Lookup, r jsonReader) (value.Value, bool) {
	if len(original) > parse.DefaultMaxBytes {
		return value.Value{}, false
	}
	t.data = original
	i := skipSpace(original, 0)
	if i >= len(original) || original[i] != '{' {
		return value.Value{}, false
	}
	v, end, ok := t.object(i, p, l, r, -1, "", 1)
	if !ok || skipSpace(original, end) != len(original) {
		return value.Value{}, false
	}
	for _, pl := range t.places {
		if len(pl.out) > 0 {
			return v, true
		}
	}
	return value.Value{}, false
}

// object reads the object whose brace is at offset i, at key of place parent and at depth, less the fields map p does
// not reach, and returns it and the offset after it. Where p holds other "$" keys than list directives it reads it
// whole.
func (t *trimmer) object(i int, p value.Value, l Lookup, r jsonReader, parent int, key string, depth int) (value.Value, int, bool) {
	names, ok := t.directiveNames(p)
	if !ok || len(t.places) >= trimMaxPlaces {
		return t.whole(i, r, depth)
	}
	at := len(t.places)
	t.places = append(t.places, trimmed{parent: parent, key: key})
	d := t.data
	var kept []value.Field
	var out []rawField
	i = skipSpace(d, i+1)
	for more := i < len(d) && d[i] != '}'; more; {
		f, next, ok := t.member(i, p, names, l, r, at, depth)
		if !ok {
			return value.Value{}, 0, false
		}
		if f.text != nil {
			out = appendRaw(&t.raws, out, f.rawField)
		} else {
			kept = appendField(&t.fields, kept, f.Field)
		}
		if i, more, ok = separator(d, next, '}'); !ok {
			return value.Value{}, 0, false
		}
	}
	if i >= len(d) {
		return value.Value{}, 0, false
	}
	slices.SortFunc(out, func(a, b rawField) int { return strings.Compare(a.key, b.key) })
	for j := 1; j < len(out); j++ {
		if out[j].key == out[j-1].key {
			return value.Value{}, 0, false
		}
	}
	t.places[at].out = out
	m, _, ok := value.NewMap(kept)
	return m, i + 1, ok
}

// member is a field read by object at place at: kept (Field) or left out (rawField, text set).
type member struct {
	value.Field
	rawField
}

// member reads the field whose key starts at offset i, of an object at place at whose patch map is p (naming names in
// its list directives), at depth, and returns it and the offset after its value.
func (t *trimmer) member(i int, p value.Value, names []string, l Lookup, r jsonReader, at, depth int) (member, int, bool) {
	d := t.data
	keyEnd, canonical := canonicalString(d, i)
	if !canonical {
		return member{}, 0, false // (a key escaped, or written otherwise than canonical: the object is read whole)
	}
	key := sharedString(d[i+1 : keyEnd-1])
	j := skipSpace(d, keyEnd)
	if j >= len(d) || d[j] != ':' {
		return member{}, 0, false
	}
	j = skipSpace(d, j+1)
	pv, named := p.Get(key)
	if !named && !slices.Contains(names, key) && j == keyEnd+1 {
		if end, ok := canonicalValue(d, j, depth); ok {
			return member{rawField: rawField{key: key, text: d[i:end]}}, end, true
		}
	}
	if named && pv.IsMap() && j < len(d) && d[j] == '{' && cachesTypes(l) {
		if sub, meta, err := l.Struct(key); err == nil && noStrategy(meta) && sub != nil {
			v, end, ok := t.object(j, pv, sub, r, at, key, depth+1)
			return member{Field: value.Field{Key: key, Value: v}}, end, ok
		}
	}
	if named && pv.IsList() && j < len(d) && d[j] == '[' && cachesTypes(l) {
		if sub, meta, err := l.Slice(key); err == nil && slices.Contains(meta.Strategies, "merge") && meta.MergeKey != "" && sub != nil {
			v, end, ok := t.list(j, pv, sub, meta.MergeKey, r, at, key, depth+1)
			return member{Field: value.Field{Key: key, Value: v}}, end, ok
		}
	}
	v, end, ok := t.whole(j, r, depth)
	return member{Field: value.Field{Key: key, Value: v}}, end, ok
}

// list reads the list whose bracket is at offset i, at key of place parent and at depth, merged by mergeKey, patch p's
// list there: each item read whole, but an item of the original whose merge key holds the string the merge key of
// one item of p holds, read less the fields that item does not reach (object). It is read whole where p holds more
// than trimMaxItems items (each item of the original is looked for among them), an item holding a map or a list (the
// original item's text is read up to its merge key to find it, twice where the patch reaches it: see mergeKeyText), an item
// that is no map, holds "$patch", or lacks a string merge key, or two items with one merge key, or the original two
// items with a merge key p names.
func (t *trimmer) list(i int, p value.Value, l Lookup, mergeKey string, r jsonReader, parent int, key string, depth int) (value.Value, int, bool) {
	if p.Len() > trimMaxItems {
		return t.whole(i, r, depth-1)
	}
	for k, it := range p.Items() {
		mk, ok := it.Get(mergeKey)
		name, isString := mk.AsString()
		_, directive := it.Get("$patch")
		if !it.IsMap() || !ok || !isString || directive || !scalarsOnly(it) || slices.ContainsFunc(p.Items()[:k], func(o value.Value) bool {
			other, _ := o.Get(mergeKey)
			s, _ := other.AsString()
			return s == name
		}) {
			return t.whole(i, r, depth-1)
		}
	}
	d := t.data
	items := t.items.take(0)
	i = skipSpace(d, i+1)
	for more := i < len(d) && d[i] != ']'; more; {
		var v value.Value
		var end int
		var ok bool
		if pv, name, named := itemNamed(d, i, p, mergeKey); named {
			if t.itemChild(parent, key, name) > 0 {
				return value.Value{}, 0, false // (two items with one merge key)
			}
			at := len(t.places)
			if v, end, ok = t.object(i, pv, l, r, parent, key, depth+1); !ok {
				return value.Value{}, 0, false
			}
			if at < len(t.places) {
				t.places[at].inList, t.places[at].mergeKey, t.places[at].item = true, mergeKey, name
			}
		} else if v, end, ok = t.whole(i, r, depth); !ok {
			return value.Value{}, 0, false
		}
		items = appendItem(&t.items, items, v)
		if i, more, ok = separator(d, end, ']'); !ok {
			return value.Value{}, 0, false
		}
	}
	if i >= len(d) {
		return value.Value{}, 0, false
	}
	return value.List(items), i + 1, true
}

// scalarsOnly reports whether map m holds no map or list.
func scalarsOnly(m value.Value) bool {
	for _, f := range m.Fields() {
		if f.Value.IsMap() || f.Value.IsList() {
			return false
		}
	}
	return true
}

// itemNamed returns the item of patch list p whose merge key holds the string the merge key of the item at offset i
// holds, if the item is an object written as strategicpatch writes it up to its merge key (canonicalValue, which
// reads no further) and there is one, and that string.
func itemNamed(d []byte, i int, p value.Value, mergeKey string) (value.Value, string, bool) {
	name, ok := mergeKeyText(d, i, mergeKey)
	if !ok {
		return value.Value{}, "", false
	}
	for _, it := range p.Items() {
		if other, _ := it.Get(mergeKey); other.Kind() == value.KindString {
			if s, _ := other.AsString(); s == name {
				return it, name, true
			}
		}
	}
	return value.Value{}, "", false
}

// mergeKeyText returns the string the object at offset i holds at mergeKey, if its members up to that one are written
// as strategicpatch writes them and it is a string without escapes.
func mergeKeyText(d []byte, i int, mergeKey string) (string, bool) {
	if i >= len(d) || d[i] != '{' {
		return "", false
	}
	for i++; i < len(d); i++ {
		end, canonical := canonicalString(d, i)
		if !canonical || end >= len(d) || d[end] != ':' {
			return "", false
		}
		if string(d[i+1:end-1]) == mergeKey {
			vend, canonical := canonicalString(d, end+1)
			if !canonical {
				return "", false
			}
			return sharedString(d[end+2 : vend-1]), true
		}
		var ok bool
		if i, ok = canonicalValue(d, end+1, 0); !ok || i >= len(d) || d[i] != ',' {
			return "", false
		}
	}
	return "", false
}

// whole reads the value at offset i, at depth, whole, and returns it and the offset after it: a string without
// escapes or a literal here, anything else by package parse.
func (t *trimmer) whole(i int, r jsonReader, depth int) (value.Value, int, bool) {
	if i < len(t.data) {
		switch t.data[i] {
		case '"':
			if end, canonical := canonicalString(t.data, i); canonical {
				return value.String(sharedString(t.data[i+1 : end-1])), end, true
			}
		case 't':
			end, ok := literalEnd(t.data, i, "true")
			return value.Bool(true), end, ok
		case 'f':
			end, ok := literalEnd(t.data, i, "false")
			return value.Bool(false), end, ok
		case 'n':
			end, ok := literalEnd(t.data, i, "null")
			return value.Null, end, ok
		}
	}
	if depth >= trimMaxDepth {
		return value.Value{}, 0, false
	}
	// (A value at depth nests as deep as package parse reads the whole object.)
	v, end, err := parse.Limits{MaxDepth: parse.DefaultMaxDepth - depth}.JSONValueSharedIn(r.arena, t.data, i)
	return v, end, err == nil
}

// directiveNames returns the keys p's list directives name, in t's memory (valid until the next call), and whether p
// holds no other "$" key.
func (t *trimmer) directiveNames(p value.Value) ([]string, bool) {
	t.names = t.names[:0]
	for _, f := range p.Fields() {
		if !strings.HasPrefix(f.Key, "$") {
			continue
		}
		name, ok := listDirective(f.Key)
		if !ok {
			return nil, false
		}
		t.names = append(t.names, name)
	}
	return t.names, true
}

// noStrategy reports whether meta gives no patch strategy (a Go struct's field without the tag has one empty one).
func noStrategy(meta Meta) bool {
	for _, s := range meta.Strategies {
		if s != "" {
			return false
		}
	}
	return true
}

// cachesTypes reports whether l keeps what it is asked (a TypeCacher, package strategicpatch's look-ups of a Go type):
// the trimmer asks it for the keys it descends into, which the schema builder asks again; another Lookup is asked each
// key once, the builder's look-ups alone, and only the root is trimmed.
func cachesTypes(l Lookup) bool {
	_, ok := l.(TypeCacher)
	return ok
}

// sharedString is b as a string sharing its memory: b is the text of a JSON argument, which the call leaves unchanged
// and whose strings nothing refers to once the call returns (see jsonReader).
func sharedString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// appendField appends f to fields, a slice of s's (a new one if nil or full, holding what fields did).
func appendField(s *scratch[value.Field], fields []value.Field, f value.Field) []value.Field {
	if len(fields) == cap(fields) {
		fields = append(s.take(max(8, 2*len(fields))), fields...)
	}
	return append(fields, f)
}

// appendRaw is appendField for left-out fields.
func appendRaw(s *scratch[rawField], fields []rawField, f rawField) []rawField {
	if len(fields) == cap(fields) {
		fields = append(s.take(max(8, 2*len(fields))), fields...)
	}
	return append(fields, f)
}

// appendItem is appendField for list items.
func appendItem(s *scratch[value.Value], items []value.Value, v value.Value) []value.Value {
	if len(items) == cap(items) {
		items = append(s.take(max(8, 2*len(items))), items...)
	}
	return append(items, v)
}
