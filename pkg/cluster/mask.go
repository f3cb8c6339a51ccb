package cluster

import (
	"encoding/base64"
	"sort"
	"strings"

	"github.com/plyproject/ply/pkg/value"
)

// The texts that stand for a Secret's values, as kubectl diff's masker
// writes them: Mask for a value, MaskBefore and MaskAfter for a value that
// differs between the two sides of a diff.
const (
	Mask       = "***"
	MaskBefore = "*** (before)"
	MaskAfter  = "*** (after)"
)

// secretFields are the fields of a Secret that hold its values.
var secretFields = [...]string{"data", "stringData"}

// IsSecret reports whether v is a core v1 Secret.
func IsSecret(v value.Value) bool {
	api, _ := v.Get("apiVersion")
	kind, _ := v.Get("kind")
	a, _ := api.AsString()
	k, _ := kind.AsString()
	return a == "v1" && k == "Secret"
}

// MaskSecrets returns before and after (either may be null: an absent
// object) with the values that could reveal a Secret replaced: every value
// of data and stringData by Mask, or by MaskBefore and MaskAfter where the
// key is on both sides with different values (so a diff still shows which
// keys change), and the same inside the last-applied annotation, which
// holds the values applied last. Objects other than Secrets are returned
// as they are.
func MaskSecrets(before, after value.Value) (value.Value, value.Value) {
	if !IsSecret(before) && !IsSecret(after) {
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

// MaskSecret is MaskSecrets for one object.
func MaskSecret(v value.Value) value.Value {
	m, _ := MaskSecrets(v, value.Null)
	return m
}

// MaskPatch is MaskSecret for a strategic merge patch of a Secret, which
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
			before = before.With(f, maskMap(bm, am, MaskBefore))
		}
		if am.IsMap() {
			after = after.With(f, maskMap(am, bm, MaskAfter))
		}
	}
	return before, after
}

// maskMap replaces each value of m by Mask, or by changed where other has
// the key with another value.
func maskMap(m, other value.Value, changed string) value.Value {
	fields := m.Fields()
	out := make([]value.Field, len(fields))
	for i, f := range fields {
		s := Mask
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
	r, err := RecordedFrom(v)
	if err != nil {
		return value.String(Mask)
	}
	return r
}

// withLastAppliedValue sets v's last-applied annotation to r rendered as
// kubectl renders it, or to Mask when r is not an object; v without the
// annotation is returned as it is.
func withLastAppliedValue(v, r value.Value) value.Value {
	md, _ := v.Get("metadata")
	ann, _ := md.Get("annotations")
	if _, ok := ann.Get(CompressedLastAppliedAnnotation); ok {
		// Compressed, the values are still there: masked whole.
		ann = ann.With(CompressedLastAppliedAnnotation, value.String(Mask))
		v = v.With("metadata", md.With("annotations", ann))
	}
	if _, ok := ann.Get(LastAppliedAnnotation); !ok {
		return v
	}
	s := Mask
	if r.IsMap() {
		s = LastAppliedConfiguration(r)
	}
	return v.With("metadata", md.With("annotations", ann.With(LastAppliedAnnotation, value.String(s))))
}

// SecretValues returns the strings that would reveal the values of the
// Secrets among objs: each value of data (as sent, base64, and decoded)
// and of stringData, also those in the last-applied annotation; longest
// first, for Redact. Values shorter than minSecretLen are left out: they
// would mask unrelated text ("1", "true") and reveal little.
func SecretValues(objs ...value.Value) []string {
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
		if !IsSecret(v) {
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
		if r, err := RecordedFrom(v); err == nil && !r.IsNull() {
			collect(r)
		}
	}
	for _, v := range objs {
		collect(v)
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// minSecretLen is the shortest value SecretValues reports.
const minSecretLen = 3

// Redact replaces every occurrence of the secrets in msg by Mask.
func Redact(msg string, secrets []string) string {
	for _, s := range secrets {
		if strings.Contains(msg, s) {
			msg = strings.ReplaceAll(msg, s, Mask)
		}
	}
	return msg
}
