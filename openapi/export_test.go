package openapi

// Test hooks: the uncached loader and the embedded document.
var (
	LoadV2Uncached  = loadV2
	EmbeddedDefault = defaultDoc
)
