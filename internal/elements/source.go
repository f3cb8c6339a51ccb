package elements

import (
	"github.com/plyproject/ply/pkg/fieldpath"
)

// Source names where a value came from.
type Source uint8

// The sources of a three-way apply, and a patch (server-side apply of a
// strategic merge patch).
const (
	// NoSource is the zero Source: not attributed to any input.
	NoSource Source = iota
	// Recorded is the configuration last applied (the
	// kubectl.kubernetes.io/last-applied-configuration annotation).
	Recorded
	// Local is the configuration the user applies now.
	Local
	// Live is the object as the server holds it.
	Live
	// Patch is a strategic merge patch applied to Live.
	Patch
)

var sourceNames = [...]string{"", "recorded", "local", "live", "patch"}

// String names the source in lower case, as messages print it.
func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "invalid"
}

// Error is bad input found while collating or merging: it names the source
// that holds the offending value, the field path and what was expected.
type Error struct {
	Source Source
	Path   fieldpath.Path
	// Msg says what is wrong and what was expected.
	Msg string
}

// Error renders "<source> <path>: <msg>".
func (e *Error) Error() string {
	if e.Source == NoSource {
		return e.Path.String() + ": " + e.Msg
	}
	return e.Source.String() + " " + e.Path.String() + ": " + e.Msg
}
