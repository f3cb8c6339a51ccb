package elements

import (
	"github.com/plyproject/ply/pkg/fieldpath"
)

// Source names where a value came from.
type Source uint8

// The sources of a three-way apply and of a patch.
const (
	NoSource Source = iota // not attributed to any input
	Recorded               // the last applied configuration (annotation)
	Local                  // the configuration applied now
	Live                   // the object as the server holds it
	Patch                  // a strategic merge patch applied to Live
)

var sourceNames = [...]string{"", "recorded", "local", "live", "patch"}

// String names the source in lower case, as messages print it.
func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "invalid"
}

// Error is bad input found while collating or merging: the source that
// holds the offending value, the field path, and Msg, what is wrong and
// what was expected.
type Error struct {
	Source Source
	Path   fieldpath.Path
	Msg    string
}

// Error renders "<source> <path>: <msg>".
func (e *Error) Error() string {
	if e.Source == NoSource {
		return e.Path.String() + ": " + e.Msg
	}
	return e.Source.String() + " " + e.Path.String() + ": " + e.Msg
}
