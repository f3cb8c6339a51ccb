package parse

import (
	"github.com/plyproject/ply/pkg/value"
)

// JSONDocumentSharingIn reads data as JSONDocumentSharedIn does, and shares with the documents read so into a before
// it (since a's last Reset): a field of data's top-level object whose value, an object or an array, is written byte
// for byte as the same field of such a document, under the same Limits, is that document's value, not read again; so
// is a field of an object below whose value is an array written as a field of the same key at the same depth of such
// a document, of at least kinNestedMin bytes. The text of a map or a list is its whole value (what follows it cannot
// change how it reads, and at the same depth the same limits hold), so the result is the one JSONDocumentSharedIn
// gives, and a failure the same failure. Documents an object, a patch and the object patched often hold such fields
// (a spec no one changed, or a list in it, as a container's env, where the server added fields around it): the text
// is compared, not scanned. The result is valid until a.Reset
// and while data and the data of those documents are unchanged; values are never modified in place, so sharing them
// is safe. A nil a is JSONDocumentSharedIn without an arena, sharing nothing.
func (l Limits) JSONDocumentSharingIn(a *Arena, data []byte) (value.Value, error) {
	if a == nil {
		return l.jsonDocument(data, true, nil)
	}
	sc := scanners.Get().(*jsonScanner)
	defer sc.release()
	base := len(a.kin)
	sc.kin, sc.kinBase = a, base
	v, err := l.jsonDocumentWith(sc, data, true, a)
	if err != nil {
		clear(a.kin[base:]) // (values of a document that failed: shared with none)
		a.kin = a.kin[:base]
	}
	return v, err
}

// SharedLen returns the length of the text that a document read next into a with JSONDocumentSharingIn, under the
// default Limits, would share where the value of field key of an object at depth (the top-level object's depth is 1)
// begins text: the text of the value of the same field at the same depth of a document read so before, when text
// begins with it, else 0. A caller writing a document for reading can so copy the text of such a value as it is
// without reading it.
func (a *Arena) SharedLen(key string, depth int, text []byte) int {
	if a == nil {
		return 0
	}
	for _, f := range a.kin {
		if f.key == key && f.depth == depth && len(f.text) <= len(text) && f.limits == (Limits{}).withDefaults() &&
			string(text[:len(f.text)]) == string(f.text) {
			return len(f.text)
		}
	}
	return 0
}

// kinField is a field of a document read with JSONDocumentSharingIn whose value is a map or a list, of its top-level
// object (depth 1) or, a list of at least kinNestedMin bytes, of an object below: its key, the depth of the object
// holding it, its value, the text that value was read from and the limits it was read under. dollar reports a map key
// beginning with '$' in the value: a document sharing it holds one too (jsonScanner.dollar, value.DollarFree).
type kinField struct {
	key    string
	depth  int
	text   []byte
	v      value.Value
	limits Limits
	dollar bool
}

// kinNestedMin is the least text of a list below the top-level object that JSONDocumentSharingIn shares: a shorter one
// costs little more to read than to compare.
const kinNestedMin = 512

// shares reports whether the value of a field of the object at depth, whose text begins with c, is shared
// (kinValue): a map or a list of the top-level object, a list below.
func (sc *jsonScanner) shares(depth int, c byte) bool {
	return sc.kin != nil && (depth == 1 || c == '[')
}

// kinValue reads the value of field key of the object at depth whose text starts at offset i (a map or a list, see
// shares), and returns it and the offset after it: the value of the same field of an earlier document when its text
// is the same, else the value read, recorded for the documents after. ok is false where reading fails.
func (sc *jsonScanner) kinValue(key string, depth, i int) (v value.Value, next int, ok bool) {
	rest := sc.data[i:]
	for _, f := range sc.kin.kin[:sc.kinBase] {
		if f.key == key && f.depth == depth && len(f.text) <= len(rest) && f.limits == sc.limits &&
			string(rest[:len(f.text)]) == string(f.text) {
			sc.dollar = sc.dollar || f.dollar
			return f.v, i + len(f.text), true
		}
	}
	sc.pos = i
	before := sc.dollar
	sc.dollar = false
	if v, ok = sc.value(depth); ok && (v.IsMap() || v.IsList()) && (depth == 1 || sc.pos-i >= kinNestedMin) {
		sc.kin.kin = append(sc.kin.kin, kinField{key: key, depth: depth, text: sc.data[i:sc.pos:sc.pos], v: v,
			limits: sc.limits, dollar: sc.dollar})
	}
	sc.dollar = sc.dollar || before
	return v, sc.pos, ok
}
