package parse

import (
	"github.com/plyproject/ply/pkg/value"
)

// JSONDocumentSharingIn reads data as JSONDocumentSharedIn does, and shares with the documents read so into a before
// it (since a's last Reset): a field of data's top-level object whose value, an object or an array, is written byte
// for byte as the same field of such a document, under the same Limits, is that document's value, not read again.
// The text of a map or a list is its whole value (what follows it cannot change how it reads), so the result is the
// one JSONDocumentSharedIn gives, and a failure the same failure. Documents an object, a patch and the object patched
// often hold such fields (a spec no one changed): the text is compared, not scanned. The result is valid until a.Reset
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

// kinField is a field of the top-level object of a document read with JSONDocumentSharingIn whose value is a map or a
// list: its key, its value, the text that value was read from and the limits it was read under. dollar reports a map
// key beginning with '$' in the value: a document sharing it holds one too (jsonScanner.dollar, value.DollarFree).
type kinField struct {
	key    string
	text   []byte
	v      value.Value
	limits Limits
	dollar bool
}

// kinValue reads the value of top-level field key whose text starts at offset i (a map or a list, checked by
// the caller), and returns it and the offset after it: the value of the same field of an earlier document when its
// text is the same, else the value read, recorded for the documents after. ok is false where reading fails.
func (sc *jsonScanner) kinValue(key string, i int) (v value.Value, next int, ok bool) {
	rest := sc.data[i:]
	for _, f := range sc.kin.kin[:sc.kinBase] {
		if f.key == key && len(f.text) <= len(rest) && f.limits == sc.limits && string(rest[:len(f.text)]) == string(f.text) {
			sc.dollar = sc.dollar || f.dollar
			return f.v, i + len(f.text), true
		}
	}
	sc.pos = i
	before := sc.dollar
	sc.dollar = false
	if v, ok = sc.value(1); ok && (v.IsMap() || v.IsList()) {
		sc.kin.kin = append(sc.kin.kin, kinField{key: key, text: sc.data[i:sc.pos:sc.pos], v: v, limits: sc.limits, dollar: sc.dollar})
	}
	sc.dollar = sc.dollar || before
	return v, sc.pos, ok
}
