package openapi

import (
	_ "embed"
	"sync"

	"github.com/plyproject/ply/openapi/internal/reduce"
)

//go:generate go run ./internal/gen

// DefaultKubernetesVersion is the Kubernetes release whose published OpenAPI
// v2 document (api/openapi-spec/swagger.json, reduced to definitions and
// merge metadata) is embedded as the default schema.
const DefaultKubernetesVersion = reduce.KubernetesVersion

// defaultDoc is the reduced swagger.json of DefaultKubernetesVersion,
// written by `go generate ./openapi/`.
//
//go:embed default/swagger.json
var defaultDoc []byte

const defaultDocName = "embedded Kubernetes " + DefaultKubernetesVersion + " schema"

var defaultSchema struct {
	once   sync.Once
	schema *Schema
	err    error
}

// Default returns the schema of Kubernetes DefaultKubernetesVersion, loaded
// from the embedded document on first use and shared by every later call
// (and goroutine) of the process.
func Default() (*Schema, error) {
	defaultSchema.once.Do(func() {
		defaultSchema.schema, defaultSchema.err = loadV2(defaultDocName, defaultDoc)
	})
	return defaultSchema.schema, defaultSchema.err
}
