package openapi

import (
	"slices"
	"sync"
)

// GVK identifies a Kubernetes kind: group ("" for the core group), version
// and kind, as written in x-kubernetes-group-version-kind.
type GVK struct {
	Group, Version, Kind string
}

// ParseAPIVersion splits an apiVersion ("apps/v1", "v1") and kind into a GVK.
func ParseAPIVersion(apiVersion, kind string) GVK {
	for i := 0; i < len(apiVersion); i++ {
		if apiVersion[i] == '/' {
			return GVK{Group: apiVersion[:i], Version: apiVersion[i+1:], Kind: kind}
		}
	}
	return GVK{Version: apiVersion, Kind: kind}
}

// Schema is a set of resolved types loaded from one or more schema
// documents. It is immutable once loaded and safe for concurrent use.
type Schema struct {
	byName  map[string]*Type
	byGVK   map[GVK]*Type
	lazy    *lazyDocs // when set, the schema is lazily parsed documents (embedded default, server)
	sources []*Schema // when set, the schema is Union(sources...)
	// compiled, when set, holds the schema's types: a compiled section
	// decoded on demand (readEmbedded).
	compiled *compiledTypes
	// kubectlOf, when set, makes the schema the kubectl view of kubectlOf
	// (see Kubectl); view holds this schema's own kubectl view.
	kubectlOf *Schema
	view      struct {
		once sync.Once
		s    *Schema
	}
	// warnings are the departures from the specification the loader read
	// past in the schema's own document(s) (see Warnings).
	warnings []Warning
}

// Warnings lists the places where the schema's documents depart from the
// OpenAPI specification (or from Kubernetes' extensions to it) and the
// loader read them as kube-openapi does, in the order the loader met them
// (definitions and properties in name order). A Union lists its sources'
// warnings in order; a lazily parsed schema (FromServer) those of the
// documents parsed so far; the kubectl view those of its schema. The
// loaders never print them: a program shows them as it sees fit. The
// slice is the caller's.
func (s *Schema) Warnings() []Warning {
	switch {
	case s == nil:
		return nil
	case s.kubectlOf != nil:
		return s.kubectlOf.Warnings()
	case s.sources != nil:
		var out []Warning
		for _, u := range s.sources {
			out = append(out, u.Warnings()...)
		}
		return out
	case s.lazy != nil:
		var out []Warning
		for _, d := range s.lazy.order {
			if d.parsed.Load() && d.schema != nil {
				out = append(out, d.schema.Warnings()...)
			}
		}
		return out
	}
	return slices.Clone(s.warnings)
}

// Union returns a Schema that looks names and kinds up in schemas in order,
// the first that has the name or kind winning; nil schemas are skipped.
// The sources are not copied: lazy sources stay lazy (a lookup the first
// source answers never parses a later one). Union of no schema resolves
// nothing. The result is safe for concurrent use when the sources are.
func Union(schemas ...*Schema) *Schema {
	out := &Schema{sources: make([]*Schema, 0, len(schemas))}
	for _, s := range schemas {
		if s != nil {
			out.sources = append(out.sources, s)
		}
	}
	if out.sources == nil {
		out.sources = []*Schema{}
	}
	return out
}

// FromTypes returns a Schema resolving the definitions of types by name, and no kinds: a schema built in Go, such as
// the types of objects whose merge metadata comes from elsewhere (pkg/strategicpatch's look-ups). types is not
// copied; its Types must be complete, and are then immutable like every Type of a Schema.
func FromTypes(types map[string]*Type) *Schema {
	return &Schema{byName: types}
}

// ByName returns the type of the definition called name
// ("io.k8s.api.apps.v1.Deployment").
func (s *Schema) ByName(name string) (*Type, bool) {
	if s == nil {
		return nil, false
	}
	if s.kubectlOf != nil {
		t, ok := s.kubectlOf.ByName(name)
		return t.Kubectl(), ok
	}
	if s.sources != nil {
		for _, u := range s.sources {
			if t, ok := u.ByName(name); ok {
				return t, true
			}
		}
		return nil, false
	}
	if s.lazy != nil {
		return s.lazy.byName(name)
	}
	if s.compiled != nil {
		return s.compiled.byName(name)
	}
	t, ok := s.byName[name]
	return t, ok
}

// ForKind returns the root type of objects with the given apiVersion and
// kind, found by x-kubernetes-group-version-kind.
func (s *Schema) ForKind(apiVersion, kind string) (*Type, bool) {
	if s == nil {
		return nil, false
	}
	if s.kubectlOf != nil {
		t, ok := s.kubectlOf.ForKind(apiVersion, kind)
		return t.Kubectl(), ok
	}
	if s.sources != nil {
		for _, u := range s.sources {
			if t, ok := u.ForKind(apiVersion, kind); ok {
				return t, true
			}
		}
		return nil, false
	}
	if s.lazy != nil {
		return s.lazy.forKind(apiVersion, kind)
	}
	if s.compiled != nil {
		return s.compiled.forKind(ParseAPIVersion(apiVersion, kind))
	}
	t, ok := s.byGVK[ParseAPIVersion(apiVersion, kind)]
	return t, ok
}
