package openapi

import "strings"

// Error is a schema document that cannot be loaded. It names the document,
// and where the fault lies inside it, the definition and the place within
// that definition.
type Error struct {
	// Document names the document: the name given to LoadV2Named or
	// LoadV3 (with "#n" when LoadV3 got several documents), else for v2 the
	// document's info.title and info.version, else "OpenAPI v2 document" or
	// "OpenAPI v3 document".
	Document string
	// Definition is the definition (v3: the components.schemas entry) at fault ("io.k8s.api.core.v1.PodSpec");
	// empty for faults of the document as a whole.
	Definition string
	// Path is the place inside Definition: field names joined by ".", "[]"
	// for list items and "{}" for map values ("containers[].ports"); empty
	// for the definition itself.
	Path string
	// Msg says what is wrong and what was expected.
	Msg string
}

// Error renders `openapi: <document>: definition <name>, field <path>: <msg>`,
// leaving out the parts that are empty.
func (e *Error) Error() string { return render("openapi: ", e.Document, e.Definition, e.Path, e.Msg) }

// Warning is a place where a loaded document departs from the OpenAPI
// specification (or from Kubernetes' extensions to it) in a way
// kube-openapi, the reader of kubectl and strategicpatch, reads past. The
// loader reads that place as kube-openapi does and records a Warning,
// which Schema.Warnings returns; the loaders print nothing. Its fields
// name the place as Error's do; Msg says what departs, what the
// specification wants and how the value was read.
type Warning struct {
	Document, Definition, Path, Msg string
}

// String renders `openapi: warning: <document>: definition <name>, field
// <path>: <msg>`, leaving out the parts that are empty.
func (w Warning) String() string {
	return render("openapi: warning: ", w.Document, w.Definition, w.Path, w.Msg)
}

// render is the text of an Error or a Warning.
func render(prefix, document, definition, path, msg string) string {
	var sb strings.Builder
	sb.WriteString(prefix)
	sb.WriteString(document)
	if definition != "" {
		sb.WriteString(": definition ")
		sb.WriteString(definition)
		if path != "" {
			sb.WriteString(", field ")
			sb.WriteString(path)
		}
	}
	sb.WriteString(": ")
	sb.WriteString(msg)
	return sb.String()
}
