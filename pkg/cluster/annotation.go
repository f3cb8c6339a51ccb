package cluster

import (
	"errors"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// LastAppliedAnnotation is the annotation holding the configuration last
// applied, as kubectl apply writes it.
const LastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// LastAppliedConfiguration returns the annotation value kubectl apply
// records for local (an object with a metadata map): local's compact JSON
// with map keys sorted, <, > and & escaped as \u003c, \u003e and \u0026,
// the annotation itself left out of metadata.annotations (which is present,
// possibly empty: "annotations":{}), and a trailing newline. The bytes are
// equal to what kubectl writes for the same object.
func LastAppliedConfiguration(local value.Value) string {
	md, _ := local.Get("metadata")
	ann, ok := md.Get("annotations")
	if !ok || !ann.IsMap() {
		ann = value.MustMap()
	}
	md = md.With("annotations", ann.Without(LastAppliedAnnotation))
	return string(local.With("metadata", md).JSON()) + "\n"
}

// WithLastApplied returns local with the LastAppliedAnnotation set to
// LastAppliedConfiguration(local), what kubectl apply sends.
func WithLastApplied(local value.Value) value.Value {
	s := LastAppliedConfiguration(local)
	md, _ := local.Get("metadata")
	ann, ok := md.Get("annotations")
	if !ok || !ann.IsMap() {
		ann = value.MustMap()
	}
	md = md.With("annotations", ann.With(LastAppliedAnnotation, value.String(s)))
	return local.With("metadata", md)
}

// RecordedFrom returns the configuration recorded in live's
// LastAppliedAnnotation: value.Null when live is null or has no (or an
// empty) annotation, an error when the annotation is not one JSON object.
func RecordedFrom(live value.Value) (value.Value, error) {
	md, _ := live.Get("metadata")
	ann, _ := md.Get("annotations")
	a, ok := ann.Get(LastAppliedAnnotation)
	if !ok {
		return value.Null, nil
	}
	s, isStr := a.AsString()
	if !isStr {
		return value.Null, errors.New("metadata.annotations." + LastAppliedAnnotation + ": expected a string, got " + a.Kind().String())
	}
	if s == "" {
		return value.Null, nil
	}
	v, err := parse.Document([]byte(s))
	if err != nil {
		return value.Null, errors.New("metadata.annotations." + LastAppliedAnnotation + ": not a valid recorded configuration: " + err.Error())
	}
	if v.IsNull() {
		return value.Null, nil
	}
	if !v.IsMap() {
		return value.Null, errors.New("metadata.annotations." + LastAppliedAnnotation + ": expected a JSON object, got " + v.Kind().String())
	}
	return v, nil
}
