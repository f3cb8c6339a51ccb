package cluster

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Ref identifies an object on the server.
type Ref struct {
	// GroupVersionKind is the object's apiVersion and kind.
	schema.GroupVersionKind
	// Namespace is the namespace the object is applied in; empty for
	// cluster-scoped objects (and before the object is mapped).
	Namespace string
	// Name is metadata.name.
	Name string
	// Resource is the plural resource name ("deployments"), known once the
	// object is mapped through discovery; empty before.
	Resource string
}

// refOf returns the Ref of an object checked by checkObject, without
// namespace or resource.
func refOf(o Object) Ref {
	av, _ := o.Value.Get("apiVersion")
	k, _ := o.Value.Get("kind")
	md, _ := o.Value.Get("metadata")
	n, _ := md.Get("name")
	apiVersion, _ := av.AsString()
	kind, _ := k.AsString()
	name, _ := n.AsString()
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		// Keep what was written, so messages show it.
		gv = schema.GroupVersion{Version: apiVersion}
	}
	return Ref{GroupVersionKind: gv.WithKind(kind), Name: name}
}

// String renders the ref the way kubectl names objects in its output: the
// lower-case kind, a dot and the group unless it is the core group, a
// slash and the name ("deployment.apps/web", "configmap/settings").
func (r Ref) String() string {
	var sb strings.Builder
	sb.WriteString(strings.ToLower(r.Kind))
	if r.Group != "" {
		sb.WriteByte('.')
		sb.WriteString(r.Group)
	}
	sb.WriteByte('/')
	sb.WriteString(r.Name)
	return sb.String()
}

// Quoted renders the ref the way the API server names objects in its
// messages: the plural resource, a dot and the group unless it is the core
// group, and the quoted name (`deployments.apps "web"`). Before the object
// is mapped, the lower-case kind stands for the resource.
func (r Ref) Quoted() string {
	var sb strings.Builder
	if r.Resource != "" {
		sb.WriteString(r.Resource)
	} else {
		sb.WriteString(strings.ToLower(r.Kind))
	}
	if r.Group != "" {
		sb.WriteByte('.')
		sb.WriteString(r.Group)
	}
	sb.WriteString(` "`)
	sb.WriteString(r.Name)
	sb.WriteByte('"')
	return sb.String()
}

// FileName is the name kubectl diff gives the object's files:
// group.version.Kind.namespace.name, leaving out the empty group and
// namespace ("apps.v1.Deployment.default.web", "v1.Namespace.prod").
func (r Ref) FileName() string {
	parts := make([]string, 0, 5)
	for _, p := range [...]string{r.Group, r.Version, r.Kind, r.Namespace, r.Name} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ".")
}
