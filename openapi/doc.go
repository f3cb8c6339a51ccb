// Package openapi is ply's schema model and its loaders: it turns an OpenAPI
// document into resolved Types that tell the merge engine, for every field,
// its shape (struct, map, list, primitive or unknown) and its merge metadata
// (patch strategy and merge key).
//
// LoadV2 reads an OpenAPI v2 (swagger) document, with ply's own parser
// (pkg/parse) and checks of its own; LoadV3 reads OpenAPI v3
// documents, where x-kubernetes-list-type, x-kubernetes-list-map-keys and
// x-kubernetes-map-type refine the patch extensions (list-map-keys define
// identity, atomic lists and maps are replaced whole, set lists merge as
// sets). DefaultV3 returns the embedded v3 schema of Kubernetes
// DefaultKubernetesVersion, parsed lazily one group-version document at a
// time; DefaultV2 returns its embedded v2 schema, whose metadata is exactly
// what strategicpatch reads; Default is the engine's default (DefaultV3).
// LoadCRD reads CustomResourceDefinition manifests (every served version's
// structural schema, honouring x-kubernetes-preserve-unknown-fields and
// x-kubernetes-embedded-resource); LoadSource tells v2, v3 and CRD input
// apart by content and LoadSources reads files and folders of them; Union
// chains schemas, the first that resolves a name or kind winning; and
// FromServer reads a server's /openapi/v3 documents through a Fetcher
// (falling back to /openapi/v2), parsing each group-version once per
// process on first use. Where a document departs from the OpenAPI
// specification in a way kube-openapi reads past, the loaders read it as
// kube-openapi does and record a Warning, which Schema.Warnings returns
// (they print nothing). Schema.Kubectl is the kubectl view of a schema:
// merge metadata read as kubectl's strategic merge patch reads it (the
// patch extensions alone, a merge key one field name, no key defaults),
// built lazily per type; the engine merges with it when the
// MultiFieldMergeKeys feature gate is off. A loaded Schema and every Type
// reachable from it are immutable and safe for concurrent use; Types
// reached through $ref are shared pointers, so a $ref cycle
// (JSONSchemaProps) is a cycle of pointers.
//
// The embedded documents are regenerated with `go generate ./openapi/`, which
// writes the same bytes every time (see internal/gen and internal/reduce),
// and compiles them (default/v3.compiled, see compiled.go): DefaultV3 reads
// a group-version's schema from its compiled section, already converted,
// so that a command's first lookup costs about a millisecond rather than a
// JSON parse of the document. Documents from users and servers are read
// with encoding/json (their errors are its messages); an embedded document
// the compiled form lacks is read with ply's own parser (pkg/parse).
package openapi
