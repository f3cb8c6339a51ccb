package reduce

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// SwaggerPath is where the published OpenAPI v2 document sits inside the
// k8s.io/kubernetes module.
const SwaggerPath = "api/openapi-spec/swagger.json"

// Locate returns the path of the published swagger.json of Kubernetes
// version (for example "v1.36.3") by running
// `go mod download -json k8s.io/kubernetes@version` outside any module, with
// GONOSUMDB=k8s.io/kubernetes and GOFLAGS=-mod=mod added to the environment.
// The module is fetched if it is not in the module cache yet (which needs
// GOPROXY access). It never touches the calling module's go.mod or go.sum.
func Locate(ctx context.Context, version string) (string, error) {
	mod := "k8s.io/kubernetes@" + version
	tmp, err := os.MkdirTemp("", "ply-reduce-locate-")
	if err != nil {
		return "", fmt.Errorf("locate %s: %w", mod, err)
	}
	defer os.RemoveAll(tmp)

	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", mod)
	cmd.Dir = tmp // outside any module: go.mod and go.sum stay untouched
	cmd.Env = append(os.Environ(), "GONOSUMDB=k8s.io/kubernetes", "GOFLAGS=-mod=mod", "GOWORK=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()

	var info struct {
		Dir   string
		Error string
	}
	if err := json.Unmarshal(stdout.Bytes(), &info); err != nil {
		if runErr != nil {
			return "", fmt.Errorf("locate %s: go mod download: %v: %s", mod, runErr, bytes.TrimSpace(stderr.Bytes()))
		}
		return "", fmt.Errorf("locate %s: reading go mod download output: %w", mod, err)
	}
	if info.Error != "" {
		return "", fmt.Errorf("locate %s: go mod download: %s", mod, info.Error)
	}
	if runErr != nil {
		return "", fmt.Errorf("locate %s: go mod download: %v: %s", mod, runErr, bytes.TrimSpace(stderr.Bytes()))
	}
	if info.Dir == "" {
		return "", errors.New("locate " + mod + ": go mod download reported no module directory")
	}
	path := filepath.Join(info.Dir, filepath.FromSlash(SwaggerPath))
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("locate %s: %w", mod, err)
	}
	return path, nil
}
