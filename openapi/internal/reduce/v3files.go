package reduce

import (
	"os"
	"sort"
	"strings"
)

// V3Dir is where the published per-group-version OpenAPI v3 documents sit
// inside the k8s.io/kubernetes module, beside SwaggerPath.
const V3Dir = "api/openapi-spec/v3"

// GroupVersion returns the apiVersion ("apps/v1", or "v1" for the core
// group) of a published OpenAPI v3 document from its file name, the server
// path with "/" written "__": apis__apps__v1_openapi.json is apps/v1,
// api__v1_openapi.json is v1. ok is false for the other files (the
// group-only discovery documents api_openapi.json, apis__apps_openapi.json,
// and anything else).
func GroupVersion(file string) (apiVersion string, ok bool) {
	base, found := strings.CutSuffix(file, "_openapi.json")
	if !found {
		return "", false
	}
	switch first, rest, _ := strings.Cut(base, "__"); first {
	case "api":
		if rest != "" && !strings.Contains(rest, "__") {
			return rest, true
		}
	case "apis":
		group, version, _ := strings.Cut(rest, "__")
		if group != "" && version != "" && !strings.Contains(version, "__") {
			return group + "/" + version, true
		}
	}
	return "", false
}

// V3Files lists, sorted, the names of the per-group-version documents in
// dir (the files GroupVersion accepts).
func V3Files(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if _, ok := GroupVersion(e.Name()); ok && e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}
