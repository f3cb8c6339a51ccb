package parse

import (
	"bytes"
	"errors"
	"strconv"
	"unsafe"

	"github.com/plyproject/ply/pkg/value"
)

// JSONDocument reads data as one JSON value, as encoding/json reads it, never as YAML: input that is not JSON (YAML
// that Document would read included) or that holds no value or more than one is an *Error. A null value is
// value.Null. Limits apply as for Document.
func (l Limits) JSONDocument(data []byte) (value.Value, error) {
	return l.jsonDocument(data, false, nil)
}

// JSONDocumentIn reads data as JSONDocument does, with the result's maps and lists in a's memory instead of an
// allocation of their own: the result is valid until a.Reset (see Arena). Its strings are a copy of data's, as
// JSONDocument's are. A nil a is JSONDocument.
func (l Limits) JSONDocumentIn(a *Arena, data []byte) (value.Value, error) {
	return l.jsonDocument(data, false, a)
}

// jsonDocument is JSONDocument, with data taken over when owned and maps and lists in a.
func (l Limits) jsonDocument(data []byte, owned bool, a *Arena) (value.Value, error) {
	return l.jsonDocumentWith(nil, data, owned, a)
}

// jsonDocumentWith is jsonDocument read by sc, set up by the caller, who releases it (nil: a scanner of the pool's).
func (l Limits) jsonDocumentWith(sc *jsonScanner, data []byte, owned bool, a *Arena) (value.Value, error) {
	l = l.withDefaults()
	if len(data) > l.MaxBytes {
		return value.Null, &Error{Msg: "input is " + strconv.Itoa(len(data)) + " bytes, more than the limit of " + strconv.Itoa(l.MaxBytes)}
	}
	if sc == nil {
		sc = scanners.Get().(*jsonScanner)
		defer sc.release()
	}
	var one [1]doc
	docs, err, _ := l.scanJSON(sc, data, owned, a, one[:0])
	switch {
	case err != nil:
		return value.Null, err
	case len(docs) == 0 && string(bytes.TrimSpace(data)) == "null":
		return value.Null, nil
	case len(docs) != 1 || docs[0].index != 1:
		return value.Null, &Error{Msg: "expected exactly one JSON value"}
	}
	return docs[0].v, nil
}

// JSONDocumentSharedIn reads data as JSONDocumentIn does, but the result's strings share data's memory instead of a
// copy: the result is valid until a.Reset and while data is unchanged, so the caller keeps none of its strings beyond
// either without copying it. It saves the copy of the input, the largest allocation of reading JSON.
func (l Limits) JSONDocumentSharedIn(a *Arena, data []byte) (value.Value, error) {
	return l.jsonDocument(data, true, a)
}

// JSONValueSharedIn reads the one JSON value that starts at offset start of data, as JSONDocumentSharedIn reads a
// document (its maps and lists in a's memory, its strings sharing data's), and returns it and the offset after it:
// what follows it is left to the caller, which reads the text around the values it takes from it. Limits apply as for
// a document: MaxBytes to data whole, MaxDepth and MaxListItems to the value. Any error is an *Error.
func (l Limits) JSONValueSharedIn(a *Arena, data []byte, start int) (value.Value, int, error) {
	l = l.withDefaults()
	if len(data) > l.MaxBytes {
		return value.Null, 0, &Error{Msg: "input is " + strconv.Itoa(len(data)) + " bytes, more than the limit of " + strconv.Itoa(l.MaxBytes)}
	}
	if start < 0 || start >= len(data) {
		return value.Null, 0, &Error{Msg: "expected a JSON value"}
	}
	sc := scanners.Get().(*jsonScanner)
	defer sc.release()
	sc.data, sc.limits, sc.pos = data, l, start
	sc.text = unsafe.String(unsafe.SliceData(data), len(data))
	sc.size(a)
	v, ok := sc.value(0)
	switch {
	case ok:
		return sc.marked(v), sc.pos, nil
	case sc.err != nil:
		return value.Null, 0, sc.err
	}
	return value.Null, 0, jsonSyntaxError(data, start, sc.lines(), errors.New("syntax"), 1)
}
