package cluster

import (
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// NewNamespaceNote is DiffResult.Note for an object of namespace ns,
// which the run's Namespace creates: the server cannot dry-run a create
// in a namespace that does not exist, so the diff shows the object as
// merged locally, without what the server would add (defaults, admission).
func NewNamespaceNote(ns string) string {
	return "namespace " + ns + " does not exist yet (the manifests create it): shown as merged locally, " +
		"without the server's defaults and checks"
}

// declaredNamespaces returns the names of the Namespace objects of objs.
func declaredNamespaces(objs []Object) map[string]bool {
	out := map[string]bool{}
	for _, o := range objs {
		av, _ := o.Value.Get("apiVersion")
		k, _ := o.Value.Get("kind")
		if s, _ := av.AsString(); s != "v1" {
			continue
		}
		if s, _ := k.AsString(); s != "Namespace" {
			continue
		}
		md, _ := o.Value.Get("metadata")
		n, _ := md.Get("name")
		if name, ok := n.AsString(); ok && name != "" {
			out[name] = true
		}
	}
	return out
}

// namespaceNotFound reports whether err is the server's answer that
// namespace ns does not exist (a Secret's masked error included: its
// Status is kept).
func namespaceNotFound(err error, ns string) bool {
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return false
	}
	st := status.Status()
	return st.Code == 404 && st.Details != nil && st.Details.Kind == "namespaces" && st.Details.Name == ns
}
