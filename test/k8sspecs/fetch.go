package k8sspecs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Module is the Go module whose releases carry the documents.
const Module = "k8s.io/kubernetes"

// Releases are the releases read besides HarnessRelease: the oldest the module proxy serves, one between, and the
// newest. Each module zip is 16 to 20 MB (about 90 MB unpacked into the module cache), fetched once per machine.
var Releases = []string{"v1.29.6", "v1.33.13", "v1.37.2"}

// requireLine finds the k8s.io/kubernetes requirement of a go.mod.
var requireLine = regexp.MustCompile(`(?m)^\s*(?:require\s+)?k8s\.io/kubernetes\s+(v\S+)`)

// HarnessRelease returns the release of k8s.io/kubernetes test/harness builds its kube-apiserver from: the version
// test/harness/kube-apiserver/go.mod (under plyRoot) requires.
func HarnessRelease(plyRoot string) (string, error) {
	path := filepath.Join(plyRoot, "test", "harness", "kube-apiserver", "go.mod")
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	m := requireLine.FindSubmatch(data)
	if m == nil {
		return "", fmt.Errorf("k8sspecs: %s requires no %s", path, Module)
	}
	return string(m[1]), nil
}

// Download returns the module cache directory of k8s.io/kubernetes at version, which `go mod download` fetches from
// the module proxy when the cache lacks it. It runs outside any module (in a temporary directory), with the
// environment's GOPROXY, GONOSUMDB and module cache.
func Download(ctx context.Context, version string) (string, error) {
	tmp, err := os.MkdirTemp("", "k8sspecs-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", Module+"@"+version)
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var out struct{ Dir, Error string }
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil || out.Error != "" || runErr != nil || out.Dir == "" {
		return "", fmt.Errorf("k8sspecs: go mod download %s@%s: %v %s\n%s", Module, version, runErr, out.Error, stderr.String())
	}
	return out.Dir, nil
}

// Documents are the OpenAPI documents of one release.
type Documents struct {
	// V2 is api/openapi-spec/swagger.json; V3 the files of api/openapi-spec/v3, sorted.
	V2 string
	V3 []string
}

// AppsV1 is the v3 document of apps/v1.
func (d Documents) AppsV1() string {
	for _, f := range d.V3 {
		if filepath.Base(f) == "apis__apps__v1_openapi.json" {
			return f
		}
	}
	return ""
}

// Find lists the documents of the release whose module directory is dir.
func Find(dir string) (Documents, error) {
	spec := filepath.Join(dir, "api", "openapi-spec")
	d := Documents{V2: filepath.Join(spec, "swagger.json")}
	if _, err := os.Stat(d.V2); err != nil {
		return d, err
	}
	v3, err := filepath.Glob(filepath.Join(spec, "v3", "*.json"))
	if err != nil {
		return d, err
	}
	sort.Strings(v3)
	d.V3 = v3
	if len(v3) == 0 || !strings.HasSuffix(d.AppsV1(), ".json") {
		return d, fmt.Errorf("k8sspecs: %s holds no v3 documents, or none of apps/v1", spec)
	}
	return d, nil
}
