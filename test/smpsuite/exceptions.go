package smpsuite

import "strings"

// Exception is a test of apimachinery's that fails against ply for a documented reason (docs/strategicpatch.md).
// Name is the normalized name (Normalize) of the failing subtest; Class names the difference.
type Exception struct {
	Name, Class, Reason string
}

// Exceptions are the tests of apimachinery v0.36.3 that fail against ply, each for a reason docs/strategicpatch.md
// lists. Every other test must pass, and every exception must still fail (a fixed one is removed from the list).
var Exceptions = []Exception{}

// Excepted returns the exception for the test named name (normalized or not, spaces or underscores).
func Excepted(name string) (Exception, bool) {
	n := strings.ReplaceAll(Normalize(name), "_", " ")
	for _, e := range Exceptions {
		if e.Name == n {
			return e, true
		}
	}
	return Exception{}, false
}
