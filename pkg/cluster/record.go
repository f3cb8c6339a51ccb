package cluster

import (
	"github.com/plyproject/ply/pkg/lastapplied"
	"github.com/plyproject/ply/pkg/secrets"
	"github.com/plyproject/ply/pkg/value"
)

// The last-applied record (package lastapplied) and Secret masking
// (package secrets), under the names this package has always exported
// them by. Both live in packages of their own, which link no cluster
// client, so that ply's file commands use them too.

// LastAppliedAnnotation is lastapplied.Annotation.
const LastAppliedAnnotation = lastapplied.Annotation

// CompressedLastAppliedAnnotation is lastapplied.CompressedAnnotation.
const CompressedLastAppliedAnnotation = lastapplied.CompressedAnnotation

// AnnotationsLimit is lastapplied.AnnotationsLimit.
const AnnotationsLimit = lastapplied.AnnotationsLimit

// LastAppliedConfiguration is lastapplied.Configuration.
func LastAppliedConfiguration(local value.Value) string { return lastapplied.Configuration(local) }

// WithLastApplied is lastapplied.With.
func WithLastApplied(local value.Value) value.Value { return lastapplied.With(local) }

// Record is lastapplied.Record.
func Record(local value.Value) (value.Value, string, error) { return lastapplied.Record(local) }

// RecordedFrom is lastapplied.From.
func RecordedFrom(live value.Value) (value.Value, error) { return lastapplied.From(live) }

// The texts that stand for a Secret's values: secrets.Masked,
// secrets.MaskedBefore and secrets.MaskedAfter.
const (
	Mask       = secrets.Masked
	MaskBefore = secrets.MaskedBefore
	MaskAfter  = secrets.MaskedAfter
)

// IsSecret is secrets.Is.
func IsSecret(v value.Value) bool { return secrets.Is(v) }

// MaskSecrets is secrets.Mask.
func MaskSecrets(before, after value.Value) (value.Value, value.Value) {
	return secrets.Mask(before, after)
}

// MaskSecret is secrets.MaskObject.
func MaskSecret(v value.Value) value.Value { return secrets.MaskObject(v) }

// MaskPatch is secrets.MaskPatch.
func MaskPatch(p value.Value) value.Value { return secrets.MaskPatch(p) }
