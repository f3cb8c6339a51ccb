package openapi

// Test hooks: the uncached loader, the embedded documents and a fresh
// (unparsed) lazy default, as a new process would have it.
var (
	LoadV2Uncached  = loadV2
	EmbeddedDefault = defaultDoc
	NewLazyDefault  = newLazyDefault
)

// CheckLazy parses every document of a lazy default and returns the first
// error; nil for any other schema.
func CheckLazy(s *Schema) error {
	if s.lazy == nil {
		return nil
	}
	return s.lazy.check()
}

// LazyGroupVersions lists the apiVersions of a lazy default's documents.
func LazyGroupVersions(s *Schema) []string {
	if s.lazy == nil {
		return nil
	}
	return s.lazy.groupVersions()
}

// EmbeddedV3 returns the embedded v3 document file of the default.
func EmbeddedV3(file string) ([]byte, error) {
	return defaultV3.ReadFile(defaultV3Dir + "/" + file)
}

// EmbeddedV3Files lists the embedded v3 document files, sorted.
func EmbeddedV3Files() ([]string, error) {
	entries, err := defaultV3.ReadDir(defaultV3Dir)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Name()
	}
	return out, nil
}

// LazyParsedFiles lists the documents a lazy default has parsed so far.
func LazyParsedFiles(s *Schema) []string {
	if s.lazy == nil {
		return nil
	}
	return s.lazy.parsedFiles()
}
