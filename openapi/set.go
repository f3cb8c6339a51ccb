package openapi

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
	byName map[string]*Type
	byGVK  map[GVK]*Type
	lazy   *lazyDocs // when set, the schema is the lazily parsed embedded default
}

// ByName returns the type of the definition called name
// ("io.k8s.api.apps.v1.Deployment").
func (s *Schema) ByName(name string) (*Type, bool) {
	if s == nil {
		return nil, false
	}
	if s.lazy != nil {
		return s.lazy.byName(name)
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
	if s.lazy != nil {
		return s.lazy.forKind(apiVersion, kind)
	}
	t, ok := s.byGVK[ParseAPIVersion(apiVersion, kind)]
	return t, ok
}
