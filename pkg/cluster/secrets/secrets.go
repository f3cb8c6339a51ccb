// Package secrets keeps the values of Secrets out of what ply prints: it
// masks them in objects, diffs and patches as kubectl diff's masker does,
// inside the last-applied annotation too, and redacts them from messages.
// It links no cluster client, so that ply's file commands use it as apply
// and diff do.
package secrets

import (
	"encoding/base64"
	"sort"
	"strings"

	"github.com/plyproject/ply/pkg/cluster/lastapplied"
	"github.com/plyproject/ply/pkg/value"
)

// The texts that stand for a Secret's values, as kubectl diff's masker
// writes them: Masked for a value, MaskedBefore and MaskedAfter for a value that
// differs between the two sides of a diff.
const (
	Masked       = "***"
	MaskedBefore = "*** (before)"
	MaskedAfter  = "*** (after)"
)

// secretFields are the fields of a Secret that hold its values.
var secretFields = [...]string{"data", "stringData"}

// Is reports whether v is a core v1 Secret.
func Is(v value.Value) bool {
	api, _ := v.Get("apiVersion")
	kind, _ := v.Get("kind")
	a, _ := api.AsString()
	k, _ := kind.AsString()
	return a == "v1" && k == "Secret"
}

// Mask returns before and after (either may be null: an absent
// object) with the values that could reveal a Secret replaced: every value
// of data and stringData by Masked, or by MaskedBefore and MaskedAfter where the
// key is on both sides with different values (so a diff still shows which
// keys change), and the same inside the last-applied annotation, which
// holds the values applied last. Objects other than Secrets are returned
// as they are.
func Mask(before, after value.Value) (value.Value, value.Value) {
	if !Is(before) && !Is(after) {
		return before, after
	}
	b, a := maskFields(before, after)
	ba, aa := lastApplied(b), lastApplied(a)
	if ba.IsNull() && aa.IsNull() {
		return b, a
	}
	ba, aa = maskFields(ba, aa)
	return withLastAppliedValue(b, ba), withLastAppliedValue(a, aa)
}

// MaskObject is Mask for one object.
func MaskObject(v value.Value) value.Value {
	m, _ := Mask(v, value.Null)
	return m
}

// MaskPatch is MaskObject for a strategic merge patch of a Secret, which
// need not name its kind: the values it sets in data and stringData, and
// those of the last-applied annotation it writes.
func MaskPatch(p value.Value) value.Value {
	m, _ := maskFields(p, value.Null)
	r := lastApplied(m)
	if r.IsMap() {
		r, _ = maskFields(r, value.Null)
	}
	return withLastAppliedValue(m, r)
}

// maskFields masks data and stringData of before and after.
func maskFields(before, after value.Value) (value.Value, value.Value) {
	for _, f := range secretFields {
		bm, _ := before.Get(f)
		am, _ := after.Get(f)
		if bm.IsMap() {
			before = before.With(f, maskMap(bm, am, MaskedBefore))
		}
		if am.IsMap() {
			after = after.With(f, maskMap(am, bm, MaskedAfter))
		}
	}
	return before, after
}

// maskMap replaces each value of m by Masked, or by changed where other has
// the key with another value.
func maskMap(m, other value.Value, changed string) value.Value {
	fields := m.Fields()
	out := make([]value.Field, len(fields))
	for i, f := range fields {
		s := Masked
		if o, ok := other.Get(f.Key); ok && !value.Equal(o, f.Value) {
			s = changed
		}
		out[i] = value.Field{Key: f.Key, Value: value.String(s)}
	}
	return value.MapFromSorted(out)
}

// lastApplied returns the configuration in v's last-applied annotation, or
// null when there is none or it cannot be read (withLastAppliedValue then
// masks it whole).
func lastApplied(v value.Value) value.Value {
	r, err := lastapplied.From(v)
	if err != nil {
		return value.String(Masked)
	}
	return r
}

// withLastAppliedValue sets v's last-applied annotation to r rendered as
// kubectl renders it, or to Masked when r is not an object; v without the
// annotation is returned as it is.
func withLastAppliedValue(v, r value.Value) value.Value {
	md, _ := v.Get("metadata")
	ann, _ := md.Get("annotations")
	if _, ok := ann.Get(lastapplied.CompressedAnnotation); ok {
		// Compressed, the values are still there: masked whole.
		ann = ann.With(lastapplied.CompressedAnnotation, value.String(Masked))
		v = v.With("metadata", md.With("annotations", ann))
	}
	if _, ok := ann.Get(lastapplied.Annotation); !ok {
		return v
	}
	s := Masked
	if r.IsMap() {
		s = lastapplied.Configuration(r)
	}
	return v.With("metadata", md.With("annotations", ann.With(lastapplied.Annotation, value.String(s))))
}

// Values returns the strings that would reveal the values of the
// Secrets among objs: each value of data (as sent, base64, and decoded)
// and of stringData, also those in the last-applied annotation; longest
// first, for Redact. Values shorter than minSecretLen are left out: they
// would mask unrelated text ("1", "true") and reveal little.
func Values(objs ...value.Value) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if len(s) >= minSecretLen && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	var collect func(v value.Value)
	collect = func(v value.Value) {
		if !Is(v) {
			return
		}
		for _, f := range secretFields {
			m, _ := v.Get(f)
			for _, e := range m.Fields() {
				s, ok := e.Value.AsString()
				if !ok {
					add(string(e.Value.JSON()))
					continue
				}
				add(s)
				if f == "data" {
					if d, err := base64.StdEncoding.DecodeString(s); err == nil {
						add(string(d))
					}
				}
			}
		}
		if r, err := lastapplied.From(v); err == nil && !r.IsNull() {
			collect(r)
		}
	}
	for _, v := range objs {
		collect(v)
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// minSecretLen is the shortest value Values reports.
const minSecretLen = 3

// Redact replaces every occurrence of the secrets in msg by Masked.
func Redact(msg string, secrets []string) string {
	for _, s := range secrets {
		if strings.Contains(msg, s) {
			msg = strings.ReplaceAll(msg, s, Masked)
		}
	}
	return msg
}
