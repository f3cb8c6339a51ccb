package apply

import (
	"errors"
	"sync"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// MergeBytes is Merge on JSON or YAML text, returning the merged object's JSON and Merge's warnings (not changes).
// Recorded or live with no document (empty, only comments, or null) is value.Null. Parsing uses parse.Limits' defaults
// with opts.MaxDepth; errors are Merge's, or a *DocumentError for a document that does not parse or breaks a limit.
//
// JSON is read in place into a pooled parse.Arena, so repeated merges allocate little beyond their results (YAML, and
// JSON of over about 8,192 fields, get memory of their own, as parse.OwnedDocument). Arguments are never modified and
// nothing returned shares memory with them or the pool: a failed merge is repeated on copies, whose error is returned.
func MergeBytes(recorded, local, live []byte, opts Options) ([]byte, []string, error) {
	a := docArenas.Get().(*parse.Arena)
	defer func() {
		a.Reset()
		docArenas.Put(a)
	}()
	res, err := mergeText(recorded, local, live, opts, a)
	if err != nil {
		// The slow path: this error may share the arguments' and a's memory, the repeated merge's does not.
		_, err = mergeText(recorded, local, live, opts, nil)
		return nil, nil, err
	}
	return res.Object.JSON(), res.Warnings, nil
}

var docArenas = sync.Pool{New: func() any { return new(parse.Arena) }}

// mergeText reads the documents in place into a (nil: into copies, parse.Document) and merges them, listing no changes.
func mergeText(recorded, local, live []byte, opts Options, a *parse.Arena) (Result, error) {
	limits := parse.Limits{MaxDepth: opts.MaxDepth}
	var vs [3]value.Value // value.Null where a document is none
	for i, data := range [...][]byte{recorded, local, live} {
		var v value.Value
		var err error
		if a != nil { // (a branch, not a func value: that would cost allocations per merge)
			v, err = limits.OwnedDocumentIn(a, data)
		} else {
			v, err = limits.Document(data)
		}
		switch source := [...]string{"recorded", "local", "live"}[i]; {
		case err == nil:
			vs[i] = v
		case source == "local" || !noDocument(err):
			return Result{}, &DocumentError{Source: source, Err: err}
		}
	}
	return merge(vs[0], vs[1], vs[2], opts, false)
}

func noDocument(err error) bool {
	var pe *parse.Error
	return errors.As(err, &pe) && pe.NoDocument()
}

// DocumentError is a MergeBytes document not parsing: Source "recorded", "local" or "live"; Err the *parse.Error.
type DocumentError struct {
	Source string
	Err    error
}

// Error renders "<source>: <error>".
func (e *DocumentError) Error() string {
	if e.Err == nil {
		return e.Source
	}
	return e.Source + ": " + e.Err.Error()
}

// Unwrap returns the parse error.
func (e *DocumentError) Unwrap() error { return e.Err }
