// Package secrets keeps the values of Secrets out of what ply prints: it
// masks them in objects, diffs and patches as kubectl diff's masker does,
// inside the last-applied annotation too, and marks the conflicts of a
// Secret's merge whose values must not be printed. Messages are built
// from masked values and paths where they are made; no text is ever
// searched for values. It links no cluster client, so that ply's file
// commands use it as apply and diff do.
package secrets

import (
	"errors"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/lastapplied"
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

// HoldsValues reports whether the field at path of a Secret holds some of
// its values, or lies within one: the root, metadata and its annotations
// (which hold the last-applied ones), data and stringData and their
// fields, and the last-applied annotations.
func HoldsValues(path fieldpath.Path) bool {
	if len(path) == 0 {
		return true
	}
	switch path[0].Field {
	case "data", "stringData":
		return true
	case "metadata":
	default:
		return false
	}
	if len(path) == 1 {
		return true
	}
	if path[1].Field != "annotations" {
		return false
	}
	if len(path) == 2 {
		return true
	}
	key := path[2].Field
	return key == lastapplied.Annotation || key == lastapplied.CompressedAnnotation
}

// MaskConflicts marks, when one of objs is a Secret, the conflicts of err
// (an *apply.ConflictError, found through its Mask method) whose paths hold
// the Secret's values (HoldsValues), so that their report prints ***; it
// returns err.
func MaskConflicts(err error, objs ...value.Value) error {
	var masker interface {
		Mask(holds func(fieldpath.Path) bool)
	}
	if err == nil || !errors.As(err, &masker) {
		return err
	}
	for _, v := range objs {
		if Is(v) {
			masker.Mask(HoldsValues)
			break
		}
	}
	return err
}

// MaskDirective masks, when one of objs is a Secret, the "$patch" value
// quoted by err's *elements.Error (found through errors.As) where that
// error is of an unknown "$patch" value (smp.UnknownDirective) at a path
// holding the Secret's values (HoldsValues): kubectl's merge reads a key
// "$patch" of data or stringData as a directive, and its value is the
// Secret's. The message then quotes Masked. It returns err.
func MaskDirective(err error, objs ...value.Value) error {
	var e *elements.Error
	if err == nil || !errors.As(err, &e) || !HoldsValues(e.Path) || !smp.IsUnknownDirective(e.Msg) {
		return err
	}
	for _, v := range objs {
		if Is(v) {
			e.Msg = smp.UnknownDirective(value.String(Masked))
			break
		}
	}
	return err
}
