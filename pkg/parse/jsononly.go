package parse

import (
	"bytes"
	"strconv"

	"github.com/plyproject/ply/pkg/value"
)

// JSONDocument reads data as one JSON value, as encoding/json reads it, never as YAML: input that is not JSON (YAML
// that Document would read included) or that holds no value or more than one is an *Error. A null value is
// value.Null. Limits apply as for Document.
func (l Limits) JSONDocument(data []byte) (value.Value, error) {
	l = l.withDefaults()
	if len(data) > l.MaxBytes {
		return value.Null, &Error{Msg: "input is " + strconv.Itoa(len(data)) + " bytes, more than the limit of " + strconv.Itoa(l.MaxBytes)}
	}
	var one [1]doc
	docs, err, _ := l.parseJSON(data, false, nil, one[:0])
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
