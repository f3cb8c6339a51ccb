package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/plyproject/ply/pkg/parse"
)

// LoadSource loads one schema document, telling its format by content:
// an OpenAPI v2 document (a top-level "swagger" field) goes to LoadV2Named,
// an OpenAPI v3 document (a top-level "openapi" field) to LoadV3, and
// CustomResourceDefinition manifests (kind CustomResourceDefinition, one
// or more YAML or JSON documents, or a CustomResourceDefinitionList or
// List of them) to LoadCRD. JSON input is probed without
// building a value tree; YAML input is parsed with pkg/parse and, for v2
// and v3 documents, re-encoded as JSON. Errors are *Error values whose
// Document is name; anything else is an error saying which formats are
// accepted. LoadSource never panics.
func LoadSource(name string, data []byte) (*Schema, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, &Error{Document: name, Msg: "the document is empty, " + wantSource}
	}
	if trimmed[0] == '{' {
		var probe struct {
			Swagger json.RawMessage `json:"swagger"`
			OpenAPI json.RawMessage `json:"openapi"`
			Kind    json.RawMessage `json:"kind"`
		}
		// A stream of several JSON objects fails here and is read as YAML
		// (a superset of JSON) below.
		if err := json.Unmarshal(trimmed, &probe); err == nil {
			switch {
			case probe.Swagger != nil:
				return LoadV2Named(name, data)
			case probe.OpenAPI != nil:
				return LoadV3(name, data)
			case string(probe.Kind) == `"`+crdKind+`"` || string(probe.Kind) == `"`+crdListKind+`"` || string(probe.Kind) == `"List"`:
				return LoadCRD(name, data)
			}
			return nil, &Error{Document: name, Msg: "the JSON object has no swagger, openapi or kind " + crdKind + " field, " + wantSource}
		}
	}
	docs, err := parse.Documents(data)
	if err != nil {
		return nil, &Error{Document: name, Msg: "not valid YAML or JSON (" + err.Error() + "), " + wantSource}
	}
	for _, d := range docs {
		if d.IsNull() {
			continue
		}
		if !d.IsMap() {
			return nil, &Error{Document: name, Msg: "the document is " + kindPhrase(d) + ", " + wantSource}
		}
		if _, ok := d.Get("swagger"); ok {
			return LoadV2Named(name, d.JSON())
		}
		if _, ok := d.Get("openapi"); ok {
			return LoadV3(name, d.JSON())
		}
		if k, _ := str(d, "kind"); k == crdKind || k == crdListKind || k == "List" {
			return loadCRDs(name, docs)
		}
		k, _ := str(d, "kind")
		return nil, &Error{Document: name, Msg: "the document has kind " + quoteOrNone(k) + ", " + wantSource}
	}
	return nil, &Error{Document: name, Msg: "the input holds no document, " + wantSource}
}

const wantSource = "want an OpenAPI v2 or v3 document or CustomResourceDefinition manifests"

func quoteOrNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return `"` + s + `"`
}

// sourceExts are the file name endings LoadSources reads in folders.
var sourceExts = [...]string{".json", ".yaml", ".yml"}

// LoadSources loads the schema files and folders at paths, in order, and
// returns their Union: a name or kind that several define resolves to the
// first. A folder is walked recursively in lexical order and contributes
// every file whose name ends in .json, .yaml or .yml, each loaded with
// LoadSource; a file named directly is loaded whatever its name. Errors
// are *Error values whose Document is the file's path: an unreadable file,
// a folder holding no schema file, and every LoadSource fault.
func LoadSources(paths ...string) (*Schema, error) {
	var schemas []*Schema
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, &Error{Document: p, Msg: "cannot read: " + pathErr(err)}
		}
		files := []string{p}
		if info.IsDir() {
			files = nil
			err := filepath.WalkDir(p, func(f string, d fs.DirEntry, err error) error {
				if err != nil {
					return &Error{Document: f, Msg: "cannot read: " + pathErr(err)}
				}
				if d.IsDir() {
					return nil
				}
				for _, ext := range sourceExts {
					if strings.HasSuffix(f, ext) {
						files = append(files, f)
						break
					}
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
			if len(files) == 0 {
				return nil, &Error{Document: p, Msg: "the folder holds no .json, .yaml or .yml file, want schema files"}
			}
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, &Error{Document: f, Msg: "cannot read: " + pathErr(err)}
			}
			s, err := LoadSource(f, data)
			if err != nil {
				return nil, err
			}
			schemas = append(schemas, s)
		}
	}
	return Union(schemas...), nil
}

// pathErr renders err without the path a *fs.PathError repeats.
func pathErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
