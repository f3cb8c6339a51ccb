// Package lastapplied is the record of the configuration last applied that
// kubectl apply keeps in an object's annotation, and ply with it: written
// byte for byte as kubectl writes it (Configuration, With), compressed in
// ply's own annotation when it would not fit the server's limit (Record),
// and read from either (From). It links no cluster client, so that ply's
// file commands can read and mask it.
package lastapplied

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"errors"
	"io"
	"strconv"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// Annotation is the annotation holding the configuration last
// applied, as kubectl apply writes it.
const Annotation = "kubectl.kubernetes.io/last-applied-configuration"

// CompressedAnnotation holds the configuration last applied
// when Annotation would push the object's annotations over the
// API server's limit (AnnotationsLimit): the same bytes, gzip-compressed
// and base64-encoded. ply reads either; an object carries one of them
// (kubectl's, when both are there: the newer writer then was kubectl).
const CompressedAnnotation = "ply.dev/last-applied-configuration-gzip"

// AnnotationsLimit is the API server's limit on the size of an object's
// annotations, keys and values summed: 256 KiB.
const AnnotationsLimit = 256 << 10

// Configuration returns the annotation value kubectl apply
// records for local (an object with a metadata map): local's compact JSON
// with map keys sorted, <, > and & escaped as \u003c, \u003e and \u0026,
// the annotation itself left out of metadata.annotations (which is present,
// possibly empty: "annotations":{}), and a trailing newline. The bytes are
// equal to what kubectl writes for the same object.
func Configuration(local value.Value) string {
	md, _ := local.Get("metadata")
	ann, ok := md.Get("annotations")
	if !ok || !ann.IsMap() {
		ann = value.MustMap()
	}
	md = md.With("annotations", ann.Without(Annotation).Without(CompressedAnnotation))
	return string(local.With("metadata", md).JSON()) + "\n"
}

// With returns local with the Annotation set to
// Configuration(local), what kubectl apply sends.
func With(local value.Value) value.Value {
	s := Configuration(local)
	md, _ := local.Get("metadata")
	ann, ok := md.Get("annotations")
	if !ok || !ann.IsMap() {
		ann = value.MustMap()
	}
	md = md.With("annotations", ann.With(Annotation, value.String(s)))
	return local.With("metadata", md)
}

// Record returns local with its configuration recorded for the next
// apply: in Annotation, as kubectl records it (With),
// whenever the annotations then fit AnnotationsLimit; else compressed in
// CompressedAnnotation, with a warning saying so. A
// configuration that does not fit even compressed is an error: nothing is
// written.
func Record(local value.Value) (value.Value, string, error) {
	s := Configuration(local)
	md, _ := local.Get("metadata")
	ann, ok := md.Get("annotations")
	if !ok || !ann.IsMap() {
		ann = value.MustMap()
	}
	ann = ann.Without(Annotation).Without(CompressedAnnotation)
	others := 0
	for _, f := range ann.Fields() {
		v, _ := f.Value.AsString()
		others += len(f.Key) + len(v)
	}
	if others+len(Annotation)+len(s) <= AnnotationsLimit {
		return local.With("metadata", md.With("annotations", ann.With(Annotation, value.String(s)))), "", nil
	}
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	w.Write([]byte(s))
	w.Close()
	enc := base64.StdEncoding.EncodeToString(z.Bytes())
	size := strconv.Itoa(len(s)) + " bytes"
	if others+len(CompressedAnnotation)+len(enc) > AnnotationsLimit {
		return value.Value{}, "", errors.New("the configuration (" + size + ", " + strconv.Itoa(len(enc)) + " compressed) does not fit the server's limit of " +
			strconv.Itoa(AnnotationsLimit) + " bytes of annotations, even compressed: ply cannot record it for the next apply (use server-side apply for this object)")
	}
	return local.With("metadata", md.With("annotations", ann.With(CompressedAnnotation, value.String(enc)))),
		"the configuration (" + size + ") would push the annotations over the server's limit of " + strconv.Itoa(AnnotationsLimit) +
			" bytes in " + Annotation + ": recorded compressed in " + CompressedAnnotation + " instead (kubectl apply cannot read it; see docs/cluster.md)", nil
}

// From returns the configuration recorded in live's
// Annotation, or else in its CompressedAnnotation:
// value.Null when live is null or has neither (or an empty one), an error
// naming the annotation when it is not one JSON object.
func From(live value.Value) (value.Value, error) {
	md, _ := live.Get("metadata")
	ann, _ := md.Get("annotations")
	key := Annotation
	a, ok := ann.Get(key)
	if !ok {
		key = CompressedAnnotation
		if a, ok = ann.Get(key); !ok {
			return value.Null, nil
		}
	}
	fail := func(msg string) (value.Value, error) {
		return value.Null, errors.New("metadata.annotations." + key + ": " + msg)
	}
	s, isStr := a.AsString()
	if !isStr {
		return fail("expected a string, got " + a.Kind().String())
	}
	if s == "" {
		return value.Null, nil
	}
	data := []byte(s)
	if key == CompressedAnnotation {
		z, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return fail("not base64: " + err.Error())
		}
		r, err := gzip.NewReader(bytes.NewReader(z))
		if err == nil {
			data, err = io.ReadAll(io.LimitReader(r, parse.DefaultMaxBytes+1))
		}
		if err != nil {
			return fail("not gzip-compressed: " + err.Error())
		}
	}
	v, err := parse.OwnedDocument(data)
	switch {
	case err != nil:
		return fail("not a valid recorded configuration: " + err.Error())
	case v.IsNull():
		return value.Null, nil
	case !v.IsMap():
		return fail("expected a JSON object, got " + v.Kind().String())
	}
	return v, nil
}
