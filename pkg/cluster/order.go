package cluster

// isNamespace reports whether r is a core v1-group Namespace.
func isNamespace(r Ref) bool { return r.Group == "" && r.Kind == "Namespace" }

// isCRD reports whether r is a CustomResourceDefinition.
func isCRD(r Ref) bool {
	return r.Group == "apiextensions.k8s.io" && r.Kind == "CustomResourceDefinition"
}
