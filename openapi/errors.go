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
func (e *Error) Error() string {
	var sb strings.Builder
	sb.WriteString("openapi: ")
	sb.WriteString(e.Document)
	if e.Definition != "" {
		sb.WriteString(": definition ")
		sb.WriteString(e.Definition)
		if e.Path != "" {
			sb.WriteString(", field ")
			sb.WriteString(e.Path)
		}
	}
	sb.WriteString(": ")
	sb.WriteString(e.Msg)
	return sb.String()
}
