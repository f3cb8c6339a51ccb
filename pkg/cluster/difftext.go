package cluster

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"io"
	"strings"

	"github.com/plyproject/ply/pkg/lastapplied"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// decodedBelow is what the diff text shows as the value of a last-applied
// annotation whose configuration it shows decoded at its end.
const decodedBelow = "(decoded at the end)"

// readableLastApplied returns v, an object about to be rendered for a
// diff, with the value of each last-applied annotation replaced by
// decodedBelow, and the text that shows the configurations they record:
// for each, a comment line naming the annotation, then the configuration
// as YAML, one field a line, each line commented ("#   image: web:2"). A
// diff of two objects thus shows the fields of the configuration that
// changed, apart from the object's own lines (a hunk inside the block is
// still told by its "#"), rather than one long JSON line: kubectl's
// annotation decoded, ply's compressed one decompressed (never its
// base64). A value that is not what it should be (not JSON, not gzip, or
// masked whole as "***" in a Secret) is left in place. Only the rendering
// changes: the objects compared and written are untouched.
func readableLastApplied(v value.Value) (value.Value, string) {
	md, ok := v.Get("metadata")
	if !ok {
		return v, ""
	}
	ann, ok := md.Get("annotations")
	if !ok || !ann.IsMap() {
		return v, ""
	}
	var trailer strings.Builder
	for _, key := range []string{lastapplied.Annotation, lastapplied.CompressedAnnotation} {
		rec, ok := recordedIn(ann, key)
		if !ok {
			continue
		}
		ann = ann.With(key, value.String(decodedBelow))
		trailer.WriteString("# metadata.annotations." + key + ", decoded:\n")
		for _, l := range strings.SplitAfter(string(rec.YAML()), "\n") {
			if l != "" {
				trailer.WriteString("#   " + l)
			}
		}
	}
	if trailer.Len() == 0 {
		return v, ""
	}
	return v.With("metadata", md.With("annotations", ann)), trailer.String()
}

// recordedIn returns the configuration the annotation key of ann
// records, decoded; ok is false when it has none that reads as a JSON
// object.
func recordedIn(ann value.Value, key string) (value.Value, bool) {
	a, ok := ann.Get(key)
	s, isStr := a.AsString()
	if !ok || !isStr {
		return value.Null, false
	}
	data := []byte(s)
	if key == lastapplied.CompressedAnnotation {
		var err error
		if data, err = gunzipBase64(s); err != nil {
			return value.Null, false
		}
	}
	if !json.Valid(data) {
		return value.Null, false
	}
	rec, err := parse.Document(data)
	if err != nil || !rec.IsMap() {
		return value.Null, false
	}
	return rec, true
}

// gunzipBase64 decodes the value of the compressed annotation, at most
// parse.DefaultMaxBytes of it.
func gunzipBase64(s string) ([]byte, error) {
	z, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	r, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(r, parse.DefaultMaxBytes+1))
}
