package difftest

import (
	"errors"
	"slices"
	"strings"

	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/fieldpath"
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

// ConflictsAtDuplicates reports whether err is ply's *apply.ConflictError
// and local's or live's value at each of its paths is a list holding two
// equal items: where kubectl's check, deduplicating both lists and
// comparing only as many items as the patch's list keeps, finds none (the
// DuplicateItems class).
func ConflictsAtDuplicates(local, live value.Value, err error) bool {
	var ce *apply.ConflictError
	if !errors.As(err, &ce) {
		return false
	}
	for _, c := range ce.Conflicts {
		l, _ := Lookup(local, c.Path)
		v, _ := Lookup(live, c.Path)
		if !repeatsItem(l) && !repeatsItem(v) {
			return false
		}
	}
	return true
}

// repeatsItem reports whether v is a list holding two equal items.
func repeatsItem(v value.Value) bool {
	items := v.Items()
	for i := range items {
		for j := i + 1; j < len(items); j++ {
			if value.Equal(items[i], items[j]) {
				return true
			}
		}
	}
	return false
}

// Lookup returns the value v holds at path p; ok is false where it holds
// none.
func Lookup(v value.Value, p fieldpath.Path) (value.Value, bool) {
	for _, e := range p {
		var ok bool
		switch e.Kind {
		case fieldpath.FieldElement:
			v, ok = v.Get(e.Field)
		case fieldpath.IndexElement:
			if ok = v.IsList() && e.Index >= 0 && e.Index < v.Len(); ok {
				v = v.Items()[e.Index]
			}
		case fieldpath.ValueElement:
			ok = v.IsList() && slices.ContainsFunc(v.Items(), func(it value.Value) bool { return value.Equal(it, e.Value) })
			v = e.Value
		case fieldpath.KeyElement:
			for _, it := range v.Items() {
				if slices.IndexFunc(e.Key, func(kf fieldpath.KeyField) bool {
					kv, in := it.Get(kf.Name)
					return !in || !value.Equal(kv, kf.Value)
				}) < 0 {
					v, ok = it, true
					break
				}
			}
		}
		if !ok {
			return value.Null, false
		}
	}
	return v, true
}

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
