// Package openapi is ply's schema model and its loaders: it turns an OpenAPI
// document into resolved Types that tell the merge engine, for every field,
// its shape (struct, map, list, primitive or unknown) and its merge metadata
// (patch strategy and merge key).
//
// LoadV2 reads an OpenAPI v2 (swagger) document; Default returns the
// embedded schema of Kubernetes DefaultKubernetesVersion. A loaded Schema
// and every Type reachable from it are immutable and safe for concurrent
// use; Types reached through $ref are shared pointers, so a $ref cycle
// (JSONSchemaProps) is a cycle of pointers.
//
// The embedded document is regenerated with `go generate ./openapi/`, which
// writes the same bytes every time (see internal/gen and internal/reduce).
package openapi
