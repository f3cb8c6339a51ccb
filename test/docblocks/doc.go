// Package docblocks compiles the Go code blocks of the documentation: every ```go block of the documents it lists
// (docs/extending.md) is a complete file, built and vetted as a package of its own in a scratch module that requires
// ply through a replace to this checkout, so a document can never show code that no longer compiles.
package docblocks
