package cluster

// isNamespace reports whether r is a core v1-group Namespace.
func isNamespace(r Ref) bool { return r.Group == "" && r.Kind == "Namespace" }

// isCRD reports whether r is a CustomResourceDefinition.
func isCRD(r Ref) bool {
	return r.Group == "apiextensions.k8s.io" && r.Kind == "CustomResourceDefinition"
}

// phases splits the indices of refs into the first phase (Namespaces, then
// CRDs) and the rest, each in input order.
func phases(refs []Ref) (first, rest []int) {
	var crds []int
	for i, r := range refs {
		switch {
		case isNamespace(r):
			first = append(first, i)
		case isCRD(r):
			crds = append(crds, i)
		default:
			rest = append(rest, i)
		}
	}
	return append(first, crds...), rest
}
