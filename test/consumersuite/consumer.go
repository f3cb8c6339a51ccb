package consumersuite

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/plyproject/ply/test/internal/gotestjson"
	"github.com/plyproject/ply/test/internal/patchedmachinery"
)

// The consumer: Helm v3's pkg/kube at the release whose k8s.io modules are v0.36 (v3.21.4 requires v0.36.2; v3.22.0
// and Helm v4.3 require v0.37).
const (
	HelmModule  = "helm.sh/helm/v3"
	HelmVersion = "v3.21.4"
	Package     = HelmModule + "/pkg/kube"
)

// Patched packages: the copy's strategicpatch (whose patch.go is ply's api.go) and ply's engine behind it, the
// packages the patched run measures the coverage of.
const (
	PatchedPackage = "k8s.io/apimachinery/" + patchedmachinery.Package
	EnginePackage  = "github.com/plyproject/ply/pkg/strategicpatch/engine"
)

// Scratch is a prepared directory: Stock and Ply are the two modules' roots; Machinery the patched apimachinery.
type Scratch struct {
	Stock, Ply string
	Machinery  *patchedmachinery.Module
}

// Prepare writes the patched apimachinery copy and the two modules into dir.
func Prepare(plyRoot, dir string) (*Scratch, error) {
	m, err := patchedmachinery.Write(plyRoot, filepath.Join(dir, "apimachinery"))
	if err != nil {
		return nil, err
	}
	s := &Scratch{Stock: filepath.Join(dir, "stock"), Ply: filepath.Join(dir, "ply"), Machinery: m}
	if err := writeModule(plyRoot, s.Stock, ""); err != nil {
		return nil, err
	}
	return s, writeModule(plyRoot, s.Ply, "replace k8s.io/apimachinery => "+strconv.Quote(m.Dir)+"\n")
}

// writeModule writes a module at dir requiring Helm and ply (replaced by plyRoot), with extra appended to its go.mod
// and ply's go.sum as its own (the go command adds Helm's sums).
func writeModule(plyRoot, dir, extra string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	mod := "module ply.test/consumersuite\n\ngo 1.26.0\n\nrequire (\n\t" + HelmModule + " " + HelmVersion +
		"\n\tgithub.com/plyproject/ply v0.0.0\n)\n\nreplace github.com/plyproject/ply => " + strconv.Quote(plyRoot) + "\n" + extra
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(plyRoot, "go.sum"))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644)
}

// CoverProfile is the coverage profile a patched run writes, in the Ply module.
const CoverProfile = "strategicpatch.cover"

// trimPath builds without the scratch directory's path in the compiled packages, so that the go command's build
// cache serves the packages above the patched apimachinery to the next run, whose scratch directory differs.
const trimPath = "-trimpath"

// RunStock runs Helm's pkg/kube tests on stock apimachinery; args are further `go test` flags (-run, -skip).
func (s *Scratch) RunStock(ctx context.Context, args ...string) (*gotestjson.Results, error) {
	return gotestjson.Run(ctx, s.Stock, append(append([]string{trimPath}, args...), Package)...)
}

// RunPly runs them with the patched apimachinery, writing the coverage profile of PatchedPackage and EnginePackage.
func (s *Scratch) RunPly(ctx context.Context, args ...string) (*gotestjson.Results, error) {
	flags := []string{trimPath, "-coverpkg=" + PatchedPackage + "," + EnginePackage, "-coverprofile=" + CoverProfile}
	return gotestjson.Run(ctx, s.Ply, append(append(flags, args...), Package)...)
}

// Covered reads the last patched run's coverage profile: the functions of PatchedPackage and EnginePackage it ran,
// by "<package>.<function>" (as `go tool cover -func` names them, the package being the import path's last element),
// with the share of their statements covered, in percent.
func (s *Scratch) Covered(ctx context.Context) (map[string]float64, error) {
	cmd := exec.CommandContext(ctx, "go", "tool", "cover", "-func="+CoverProfile)
	cmd.Dir = s.Ply
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go tool cover: %w\n%s", err, stderr.String())
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		// "k8s.io/apimachinery/pkg/util/strategicpatch/patch.go:133:	CreateThreeWayMergePatch	100.0%"
		f := strings.Fields(sc.Text())
		if len(f) != 3 || !strings.HasSuffix(f[2], "%") || f[0] == "total:" {
			continue
		}
		pct, err := strconv.ParseFloat(strings.TrimSuffix(f[2], "%"), 64)
		if err != nil || pct == 0 {
			continue
		}
		pkg := filepath.Base(filepath.Dir(strings.SplitN(f[0], ":", 2)[0]))
		out[pkg+"."+f[1]] = pct
	}
	return out, sc.Err()
}
