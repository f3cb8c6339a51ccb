package difftest

import (
	"strings"

	"github.com/plyproject/ply/pkg/value"
)

// The helpers below expose the harness's building blocks to other
// differential suites (test/patchdiff), which classify their own kinds of
// cases.

// ServerNormalize returns v as the API server stores it after decoding:
// map fields holding null and "$"-prefixed directive keys dropped,
// recursively (see RawOracle); changed reports whether anything was
// dropped.
func ServerNormalize(v value.Value) (out value.Value, changed bool) { return serverNormalize(v) }

// FirstDiff returns the first path (in document order) where a and b
// differ as JSON values, like ".spec.parts[1].env[0].value"; ok is false
// when they are equal.
func FirstDiff(a, b value.Value) (path string, ok bool) { return firstDiff(a, b, "") }

// DeleteNth deletes the n-th map field or list item of v in pre-order
// (the root itself is not deletable); ok is false when v has fewer than
// n+1 such nodes. Shrinkers call it with n = 0, 1, 2, ...
func DeleteNth(v value.Value, n int) (out value.Value, ok bool) { return deleteNth(v, n) }

// HasDuplicateItems reports whether v holds, at any depth, a list with two
// equal items.
func HasDuplicateItems(v value.Value) bool { return hasDuplicateItems(v) }

// DropLeakedDeletes removes from v every list item that carries a
// "$patch": "delete" directive (strategicpatch copies such items into a
// list item new to live instead of applying them: the OracleLeaksDirective
// class); ok reports whether there was one.
func DropLeakedDeletes(v value.Value) (out value.Value, ok bool) { return dropLeakedDeletes(v) }

// PathShape returns a FirstDiff path with its list indices and keys
// reduced to "[]" (".spec.parts[1].env[0]" -> ".spec.parts[].env[]"): the
// part of failure signatures that groups cases likely to share a cause.
func PathShape(path string) string {
	var sb strings.Builder
	in := false
	for _, r := range path {
		switch {
		case r == '[':
			in = true
			sb.WriteString("[]")
		case r == ']':
			in = false
		case !in:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}
