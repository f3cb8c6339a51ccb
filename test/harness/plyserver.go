package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/plyproject/ply/test/internal/patchedmachinery"
)

// APIServer names a kube-apiserver build the harness runs.
type APIServer string

const (
	// StockAPIServer is kube-apiserver KubernetesVersion as released.
	StockAPIServer APIServer = "stock"
	// PlyAPIServer is the same build with k8s.io/apimachinery replaced by a copy whose strategicpatch is ply's
	// (test/internal/patchedmachinery), so that every PATCH with application/strategic-merge-patch+json runs ply's
	// engine.
	PlyAPIServer APIServer = "ply"
)

// APIServerEnv is the environment variable that picks the API server of Start when Options.APIServer is empty:
// "stock" (or unset) or "ply".
const APIServerEnv = "PLY_TEST_APISERVER"

// APIServerFromEnv returns the API server APIServerEnv names, StockAPIServer when it is unset.
func APIServerFromEnv() (APIServer, error) {
	switch v := os.Getenv(APIServerEnv); v {
	case "", string(StockAPIServer):
		return StockAPIServer, nil
	case string(PlyAPIServer):
		return PlyAPIServer, nil
	default:
		return "", fmt.Errorf("harness: %s=%q: want %q or %q", APIServerEnv, v, StockAPIServer, PlyAPIServer)
	}
}

// plyBinaryPrefix starts the cache file name of every ply-built kube-apiserver; the rest is the source hash.
const plyBinaryPrefix = "kube-apiserver-" + KubernetesVersion + "-ply-"

// plyBuildsKept is how many ply-built binaries the cache keeps (the newest), so that checkouts at different commits
// sharing a cache do not rebuild each other's in turn.
const plyBuildsKept = 3

// APIServerBinaryFor returns the path of the cached kube-apiserver of kind: APIServerBinary() for StockAPIServer, and
// for PlyAPIServer CacheDir()/kube-apiserver-<KubernetesVersion>-ply-<hash>, where hash is PlySourceHash's. The file
// exists only after PrepareAPIServer(kind) succeeded.
func APIServerBinaryFor(kind APIServer) (string, error) {
	switch kind {
	case StockAPIServer:
		return APIServerBinary()
	case PlyAPIServer:
		dir, err := CacheDir()
		if err != nil {
			return "", err
		}
		root, err := ModuleRoot()
		if err != nil {
			return "", err
		}
		hash, err := PlySourceHash(root)
		if err != nil {
			return "", err
		}
		return filepath.Join(dir, plyBinaryPrefix+hash), nil
	}
	return "", fmt.Errorf("harness: unknown API server %q: want %q or %q", kind, StockAPIServer, PlyAPIServer)
}

// PlySourceHash is the first 16 hex digits of a SHA-256 over what the ply-built kube-apiserver is made of besides
// Kubernetes itself: the Go files of every package of ply that pkg/strategicpatch imports (itself included), of
// test/internal/patchedmachinery (which writes the copy), ply's go.mod and go.sum (the versions of apimachinery and of
// ply's dependencies), and the build module's go.mod and go.sum. An unchanged tree gives the same hash, so the binary
// built for it is reused.
func PlySourceHash(root string) (string, error) {
	files, err := plySourceFiles(root)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return "", fmt.Errorf("harness: hashing ply's sources: %w", err)
		}
		rel, _ := filepath.Rel(root, f)
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// plySourceFiles lists, sorted, the files PlySourceHash reads.
func plySourceFiles(root string) ([]string, error) {
	cmd := exec.Command("go", "list", "-deps", "-f",
		`{{if .Module}}{{if eq .Module.Path "github.com/plyproject/ply"}}{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}
{{end}}{{range .CgoFiles}}{{$d}}/{{.}}
{{end}}{{range .EmbedFiles}}{{$d}}/{{.}}
{{end}}{{end}}{{end}}`,
		"./pkg/strategicpatch", "./test/internal/patchedmachinery")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		detail := ""
		if ee, ok := err.(*exec.ExitError); ok {
			detail = string(ee.Stderr)
		}
		return nil, fmt.Errorf("harness: listing ply's sources of pkg/strategicpatch: %w\n%s", err, detail)
	}
	files := strings.Fields(string(out))
	files = append(files, filepath.Join(root, "go.mod"), filepath.Join(root, "go.sum"),
		filepath.Join(root, "test", "harness", "kube-apiserver", "go.mod"),
		filepath.Join(root, "test", "harness", "kube-apiserver", "go.sum"))
	sort.Strings(files)
	return slices.Compact(files), nil
}

// ensurePlyAPIServer builds the ply-built kube-apiserver into the cache unless the one of this tree's hash is there,
// and then removes all but the newest plyBuildsKept of them.
func ensurePlyAPIServer() error {
	bin, err := APIServerBinaryFor(PlyAPIServer)
	if err != nil {
		return err
	}
	dir := filepath.Dir(bin)
	lockPath := filepath.Join(dir, "kube-apiserver-"+KubernetesVersion+"-ply.lock")
	what := "kube-apiserver " + KubernetesVersion + " on ply (" + filepath.Base(bin) + ")"
	if err := ensureBinary(bin, lockPath, what, writePlyBuildModule); err != nil {
		return err
	}
	return prunePlyBuilds(dir, bin)
}

// writePlyBuildModule writes, in CacheDir()/build-ply (always the same directory, since the go command's cache keys
// hold a package's directory: a build after a change of ply recompiles only what the change reaches), the build module
// of the ply-built kube-apiserver: test/harness/kube-apiserver's go.mod, go.sum and tools.go, the patched apimachinery
// in apimachinery/, and go.mod's replaces of k8s.io/apimachinery by that copy and of ply by the source tree (Go ignores
// the replace the copy's own go.mod holds); go.sum gains ply's entries, which the copy's requirement on ply brings into
// the build. The caller holds the build lock; the cleanup removes the directory.
func writePlyBuildModule() (string, func(), error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", nil, err
	}
	cache, err := CacheDir()
	if err != nil {
		return "", nil, err
	}
	dir := filepath.Join(cache, "build-ply")
	cleanup := func() { _ = os.RemoveAll(dir) }
	cleanup()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, fmt.Errorf("harness: %w", err)
	}
	if err := fillPlyBuildModule(root, dir); err != nil {
		cleanup()
		return "", nil, err
	}
	return dir, cleanup, nil
}

// fillPlyBuildModule writes the files writePlyBuildModule describes into dir.
func fillPlyBuildModule(root, dir string) error {
	src := filepath.Join(root, "test", "harness", "kube-apiserver")
	for _, name := range []string{"go.mod", "go.sum", "tools.go"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			return fmt.Errorf("harness: the kube-apiserver build module: %w", err)
		}
		if name == "go.sum" {
			plySum, err := os.ReadFile(filepath.Join(root, "go.sum"))
			if err != nil {
				return fmt.Errorf("harness: %w", err)
			}
			data = append(append(data, '\n'), plySum...)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return fmt.Errorf("harness: %w", err)
		}
	}
	if _, err := patchedmachinery.Write(root, filepath.Join(dir, "apimachinery")); err != nil {
		return fmt.Errorf("harness: writing the patched apimachinery: %w", err)
	}
	cmd := exec.Command("go", "mod", "edit",
		"-replace=k8s.io/apimachinery=./apimachinery",
		"-replace=github.com/plyproject/ply="+root)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("harness: go mod edit in %s: %w\n%s", dir, err, out)
	}
	return nil
}

// prunePlyBuilds removes the ply-built binaries of dir but the newest plyBuildsKept, never keep itself.
func prunePlyBuilds(dir, keep string) error {
	matches, err := filepath.Glob(filepath.Join(dir, plyBinaryPrefix+"*"))
	if err != nil {
		return err
	}
	type build struct {
		path string
		mod  int64
	}
	var builds []build
	for _, m := range matches {
		st, err := os.Stat(m)
		if err != nil || strings.HasSuffix(m, ".building") || m == keep {
			continue
		}
		builds = append(builds, build{m, st.ModTime().UnixNano()})
	}
	sort.Slice(builds, func(i, j int) bool { return builds[i].mod > builds[j].mod })
	for i, b := range builds {
		if i >= plyBuildsKept-1 {
			if err := os.Remove(b.path); err != nil {
				return fmt.Errorf("harness: removing the old ply-built kube-apiserver: %w", err)
			}
		}
	}
	return nil
}

var (
	preparedMu  sync.Mutex
	preparedBin = map[APIServer]string{}
)

// PrepareAPIServer runs Prepare and makes sure the kube-apiserver of kind is in the cache, building it when missing
// (for PlyAPIServer: the binary of this tree's PlySourceHash, which takes as long as the stock build when cold, and
// relinks the packages above apimachinery when only ply's sources changed). It returns the binary's path, which it
// remembers for the rest of the process.
func PrepareAPIServer(kind APIServer) (string, error) {
	if err := Prepare(); err != nil {
		return "", err
	}
	preparedMu.Lock()
	defer preparedMu.Unlock()
	if bin, ok := preparedBin[kind]; ok {
		return bin, nil
	}
	bin, err := APIServerBinaryFor(kind)
	if err != nil {
		return "", err
	}
	if kind == PlyAPIServer {
		if err := ensurePlyAPIServer(); err != nil {
			return "", err
		}
	}
	preparedBin[kind] = bin
	return bin, nil
}
