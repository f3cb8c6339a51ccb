package openapi_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/test/fuzzseed"
)

// FuzzLoadV2 checks that any input gives either a schema or an *Error,
// never a panic.
func FuzzLoadV2(f *testing.F) {
	fuzzseed.Files(f, filepath.Join("testdata", "errors", "*"), fixturePath)
	f.Add([]byte(`{"swagger":"2.0","info":{"title":"t","version":"v"},"paths":{},"definitions":{"a":{"type":"object","properties":{"b":{"$ref":"#/definitions/a","x-kubernetes-patch-strategy":"merge","default":{"x":[1,2.5,null]}}}}}}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLoad(t, func() (*openapi.Schema, error) { return openapi.LoadV2Uncached("fuzz", data) })
	})
}

// FuzzLoadV3 checks the same of LoadV3.
func FuzzLoadV3(f *testing.F) {
	fuzzseed.Files(f, filepath.Join("testdata", "v3errors", "*.json"), filepath.Join("testdata", "v3", "precedence.json"))
	f.Add([]byte(`{"openapi":"3.0.0","components":{"schemas":{"a":{"properties":{"b":{"type":"array","items":{"$ref":"#/components/schemas/a"},"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["b"]}}}}}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLoad(t, func() (*openapi.Schema, error) { return openapi.LoadV3("fuzz", data) })
	})
}

// checkLoad fails t unless load returns exactly one of a schema and an
// *Error.
func checkLoad(t *testing.T, load func() (*openapi.Schema, error)) {
	s, err := load()
	if err != nil {
		var e *openapi.Error
		if !errors.As(err, &e) {
			t.Fatalf("error %T is not an *openapi.Error: %v", err, err)
		}
		if s != nil {
			t.Fatal("schema and error both returned")
		}
		return
	}
	if s == nil {
		t.Fatal("neither schema nor error")
	}
}

// FuzzLoadSource checks the same of LoadSource (and through it LoadCRD),
// seeded with the CRD fixtures.
func FuzzLoadSource(f *testing.F) {
	fuzzseed.Files(f, filepath.Join("testdata", "crd", "errors", "*.yaml"),
		filepath.Join("testdata", "crd", "widgets.yaml"), filepath.Join("testdata", "crd", "mixed", "b-v3.json"))
	f.Add([]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","spec":{"group":"a","names":{"kind":"W"},"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"x-kubernetes-embedded-resource":true,"properties":{"a":{"type":"array","items":{"x-kubernetes-preserve-unknown-fields":true}}}}}}]}}`))
	f.Add([]byte("- 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLoad(t, func() (*openapi.Schema, error) { return openapi.LoadSource("fuzz", data) })
		checkLoad(t, func() (*openapi.Schema, error) { return openapi.LoadCRD("fuzz", data) })
	})
}
