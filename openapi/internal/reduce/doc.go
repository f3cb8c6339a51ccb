// Package reduce shrinks a published Kubernetes OpenAPI v2 (swagger)
// document (Reduce) or per-group-version OpenAPI v3 document (ReduceV3) to
// what ply's merge engine reads, and locates the published documents of a
// Kubernetes release in the Go module cache (Locate, V3Files,
// GroupVersion).
//
// The reduction keeps the swagger (or openapi) version, info.title,
// info.version and the definitions (or components.schemas); in every schema
// it keeps only the keywords that shape values (type, format, items,
// properties, additionalProperties, $ref, allOf, default) and the
// x-kubernetes-* extensions that carry merge, list and GVK metadata.
// Descriptions, parameters, security and the operations under paths are
// dropped (paths stays, empty, since OpenAPI requires it). The
// output is compact JSON with object keys sorted, so the same input always
// gives the same bytes; the generator in openapi/internal/gen and the
// openapi package's reproduction test both rely on that.
package reduce
