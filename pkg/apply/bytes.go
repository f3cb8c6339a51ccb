package apply

import (
	"sync"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// MergeBytes is Merge for objects given as JSON or YAML text (recorded and
// live empty when there is none) and wanted as JSON: it returns the merged
// object's JSON and Merge's warnings, and lists no changes. Errors are
// Merge's, and a *DocumentError for text that does not parse.
//
// It reads the documents into a parse.Arena taken from a pool and puts it
// back once the result is encoded, so a program merging object after object
// allocates little more than its results. The arguments are read in place
// and never modified; an error may share memory with them (the key values
// of its path), so they must not be changed while the error is in use.
func MergeBytes(recorded, local, live []byte, opts Options) ([]byte, []string, error) {
	a := docArenas.Get().(*parse.Arena)
	limits := parse.Limits{MaxDepth: opts.MaxDepth}
	docs := [...]struct {
		source string
		data   []byte
		v      value.Value
	}{{"recorded", recorded, value.Null}, {"local", local, value.Null}, {"live", live, value.Null}}
	for i := range docs {
		d := &docs[i]
		if len(d.data) == 0 && d.source != "local" {
			continue
		}
		var err error
		if d.v, err = limits.OwnedDocumentIn(a, d.data); err != nil {
			return nil, nil, &DocumentError{Source: d.source, Err: err} // a is dropped, as below
		}
	}
	res, err := merge(docs[0].v, docs[1].v, docs[2].v, opts, false)
	if err != nil {
		// The error may refer to a's memory: a is left to the collector.
		return nil, nil, err
	}
	out := res.Object.JSON()
	a.Reset()
	docArenas.Put(a)
	return out, res.Warnings, nil
}

// docArenas keeps the Arenas MergeBytes reads documents into, reset.
var docArenas = sync.Pool{New: func() any { return new(parse.Arena) }}

// DocumentError is one of MergeBytes' documents not parsing: Source is
// "recorded", "local" or "live", Err the *parse.Error.
type DocumentError struct {
	Source string
	Err    error
}

// Error renders "<source>: <error>".
func (e *DocumentError) Error() string { return e.Source + ": " + e.Err.Error() }

// Unwrap returns the parse error.
func (e *DocumentError) Unwrap() error { return e.Err }
