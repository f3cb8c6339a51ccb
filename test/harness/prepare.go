package harness

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
)

// KubernetesVersion is the release of the kube-apiserver the harness runs:
// the version test/harness/kube-apiserver/go.mod pins, stamped into the
// binary and part of its cache file name.
const KubernetesVersion = "v1.36.3"

// kubectlMinor is the kubectl minor version the harness accepts.
const kubectlMinor = "1.32"

// kubectlSDKPath is where the Google Cloud SDK installs kubectl 1.32; the
// `kubectl` on PATH next to it is a dispatcher that picks a minor version by
// the server's version.
const kubectlSDKPath = "/usr/lib/google-cloud-sdk/bin/kubectl.1.32"

// buildTimeout bounds the kube-apiserver build (a cold build takes 5-10
// minutes on two cores, longer when modules must be downloaded first).
const buildTimeout = 45 * time.Minute

// CacheDir returns the directory holding the built kube-apiserver:
// $PLY_CACHE_DIR when set, else ~/.cache/ply. It does not create it.
func CacheDir() (string, error) {
	if d := os.Getenv("PLY_CACHE_DIR"); d != "" {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("harness: cache directory: PLY_CACHE_DIR is unset and the home directory is unknown: %w", err)
	}
	return filepath.Join(home, ".cache", "ply"), nil
}

// APIServerBinary returns the path of the cached kube-apiserver
// (CacheDir()/kube-apiserver-<KubernetesVersion>); the file exists only
// after Prepare succeeded.
func APIServerBinary() (string, error) {
	dir, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "kube-apiserver-"+KubernetesVersion), nil
}

var (
	prepareMu   sync.Mutex
	prepareDone bool
)

// Prepare makes sure the prerequisites of Start exist: an etcd binary
// (installed with `apt-get install -y etcd-server` when missing and the
// process runs as root; otherwise an error says what to install),
// bash-completion's script for the completion specs (BashCompletion) and the
// kube-apiserver binary at APIServerBinary() (built from the module in
// test/harness/kube-apiserver when missing). Concurrent callers, in this
// process or in other processes, build the binary once: the build runs
// under an exclusive flock(2) on a lock file in CacheDir() and the binary
// is renamed into place only when complete. A successful Prepare is
// remembered for the rest of the process.
func Prepare() error {
	prepareMu.Lock()
	defer prepareMu.Unlock()
	if prepareDone {
		return nil
	}
	if _, err := etcdBinary(true); err != nil {
		return err
	}
	if _, err := BashCompletion(true); err != nil {
		return err
	}
	if err := ensureAPIServer(); err != nil {
		return err
	}
	prepareDone = true
	return nil
}

// etcdBinary returns the path of etcd: $PLY_ETCD, else `etcd` on PATH, else
// /usr/bin/etcd. With install set and running as root, a missing etcd is
// installed from Debian's etcd-server package.
func etcdBinary(install bool) (string, error) {
	if p := os.Getenv("PLY_ETCD"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("harness: PLY_ETCD=%s: %w", p, err)
		}
		return p, nil
	}
	find := func() string {
		if p, err := exec.LookPath("etcd"); err == nil {
			return p
		}
		if _, err := os.Stat("/usr/bin/etcd"); err == nil {
			return "/usr/bin/etcd"
		}
		return ""
	}
	if p := find(); p != "" {
		return p, nil
	}
	const hint = "install etcd 3.4 or later (Debian/Ubuntu: `apt-get install -y etcd-server`) or set PLY_ETCD to its path"
	if !install {
		return "", errors.New("harness: etcd not found; run Prepare or " + hint)
	}
	if os.Geteuid() != 0 {
		return "", errors.New("harness: etcd not found and not running as root, so it cannot be installed here; " + hint)
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		return "", errors.New("harness: etcd not found and apt-get is not available; " + hint)
	}
	if err := aptInstall("etcd-server"); err != nil {
		return "", err
	}
	if p := find(); p != "" {
		return p, nil
	}
	return "", errors.New("harness: etcd-server was installed but no etcd binary was found; " + hint)
}

// aptInstall installs the Debian package pkg with apt-get (as root),
// updating the package index first when the install fails without it.
func aptInstall(pkg string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	install := func() ([]byte, error) {
		cmd := exec.CommandContext(ctx, "apt-get", "install", "-y", "--no-install-recommends", pkg)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		return cmd.CombinedOutput()
	}
	out, err := install()
	if err != nil {
		// The package index may be missing or stale on a fresh machine.
		upd, uerr := exec.CommandContext(ctx, "apt-get", "update").CombinedOutput()
		if uerr != nil {
			return fmt.Errorf("harness: apt-get update failed: %w\n%s", uerr, tail(upd, 20))
		}
		if out, err = install(); err != nil {
			return fmt.Errorf("harness: apt-get install -y %s failed: %w\n%s", pkg, err, tail(out, 20))
		}
	}
	return nil
}

// bashCompletionScript is where Debian's bash-completion package puts the
// script that loads bash's programmable completion.
const bashCompletionScript = "/usr/share/bash-completion/bash_completion"

// BashCompletion returns the path of bash-completion's script, which the
// completion specs source before a program's own completion script. With
// install set and running as root, a missing script is installed from
// Debian's bash-completion package (Prepare does).
func BashCompletion(install bool) (string, error) {
	if _, err := os.Stat(bashCompletionScript); err == nil {
		return bashCompletionScript, nil
	}
	const hint = "install bash-completion (Debian/Ubuntu: `apt-get install -y bash-completion`)"
	if !install {
		return "", errors.New("harness: " + bashCompletionScript + " not found; run Prepare or " + hint)
	}
	if os.Geteuid() != 0 {
		return "", errors.New("harness: " + bashCompletionScript + " not found and not running as root, so it cannot be installed here; " + hint)
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		return "", errors.New("harness: " + bashCompletionScript + " not found and apt-get is not available; " + hint)
	}
	if err := aptInstall("bash-completion"); err != nil {
		return "", err
	}
	if _, err := os.Stat(bashCompletionScript); err != nil {
		return "", errors.New("harness: bash-completion was installed but " + bashCompletionScript + " is missing; " + hint)
	}
	return bashCompletionScript, nil
}

// ensureAPIServer builds the stock kube-apiserver into the cache unless it is
// there already.
func ensureAPIServer() error {
	bin, err := APIServerBinary()
	if err != nil {
		return err
	}
	return ensureBinary(bin, bin+".lock", "kube-apiserver "+KubernetesVersion, func() (string, func(), error) {
		root, err := ModuleRoot()
		if err != nil {
			return "", nil, err
		}
		src := filepath.Join(root, "test", "harness", "kube-apiserver")
		if _, err := os.Stat(filepath.Join(src, "go.mod")); err != nil {
			return "", nil, fmt.Errorf("harness: the kube-apiserver build module is missing: %w", err)
		}
		return src, func() {}, nil
	})
}

// ensureBinary builds kube-apiserver into bin unless it is there already: under an exclusive flock(2) on lockPath, in
// the build module writeModule returns (its cleanup runs after the build), into a temporary file renamed into place
// only when complete. what names the binary in progress lines and errors.
func ensureBinary(bin, lockPath, what string, writeModule func() (string, func(), error)) error {
	if isExecutable(bin) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return fmt.Errorf("harness: cache directory: %w", err)
	}
	lock, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return fmt.Errorf("harness: lock file: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("harness: flock %s: %w", lock.Name(), err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if isExecutable(bin) { // another process built it while we waited
		return nil
	}
	src, cleanup, err := writeModule()
	if err != nil {
		return err
	}
	defer cleanup()
	tmp := bin + ".building"
	_ = os.Remove(tmp)
	fmt.Fprintf(os.Stderr, "harness: building %s into %s (takes 5-10 minutes on a cold cache)\n", what, bin)
	start := time.Now()
	if err := buildAPIServer(src, tmp); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("harness: building %s in %s failed after %s: %w", what, src, time.Since(start).Round(time.Second), err)
	}
	if err := os.Rename(tmp, bin); err != nil {
		return fmt.Errorf("harness: installing %s: %w", what, err)
	}
	fmt.Fprintf(os.Stderr, "harness: built %s in %s\n", what, time.Since(start).Round(time.Second))
	return nil
}

// buildAPIServer builds k8s.io/kubernetes/cmd/kube-apiserver of the build module in src into out, stamped with
// KubernetesVersion.
func buildAPIServer(src, out string) error {
	ldflags := strings.Join([]string{
		"-s", "-w",
		"-X", "k8s.io/component-base/version.gitVersion=" + KubernetesVersion,
		"-X", "k8s.io/component-base/version.gitMajor=" + strings.Split(strings.TrimPrefix(KubernetesVersion, "v"), ".")[0],
		"-X", "k8s.io/component-base/version.gitMinor=" + strings.Split(KubernetesVersion, ".")[1],
		"-X", "k8s.io/component-base/version.gitTreeState=clean",
	}, " ")
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-ldflags", ldflags, "-o", out, "k8s.io/kubernetes/cmd/kube-apiserver")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GONOSUMDB=k8s.io/kubernetes", "GOFLAGS=-mod=mod", "GOWORK=off")
	if output, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%w\n%s", err, tail(output, 40))
	}
	return nil
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// ModuleRoot returns the directory of ply's main module (the one holding
// go.mod with `module github.com/plyproject/ply`), found from this source
// file's location or, failing that, from the working directory upwards.
func ModuleRoot() (string, error) {
	var starts []string
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		starts = append(starts, filepath.Dir(file))
	}
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	for _, dir := range starts {
		for {
			if isPlyModule(filepath.Join(dir, "go.mod")) {
				return dir, nil
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return "", errors.New("harness: cannot find ply's module root (go.mod with module github.com/plyproject/ply) from the source location or the working directory")
}

func isPlyModule(gomod string) bool {
	f, err := os.Open(gomod)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, "module ") {
			return strings.TrimSpace(strings.TrimPrefix(line, "module ")) == "github.com/plyproject/ply"
		}
	}
	return false
}

type plyBuild struct {
	ply, kubectlPly string
	err             error
}

var (
	plyMu     sync.Mutex
	plyBuilds = map[string]*plyBuild{}
)

// BuildPly builds ./cmd/ply and ./cmd/kubectl-ply of ply's module into dir
// (created when missing) and returns the two binaries' paths. It builds
// once per process and directory: later calls with the same dir return the
// first call's result, including its error.
func BuildPly(dir string) (ply, kubectlPly string, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", fmt.Errorf("harness: BuildPly: %w", err)
	}
	plyMu.Lock()
	defer plyMu.Unlock()
	if b, ok := plyBuilds[abs]; ok {
		return b.ply, b.kubectlPly, b.err
	}
	b := &plyBuild{}
	plyBuilds[abs] = b
	b.ply, b.kubectlPly, b.err = buildPly(abs)
	return b.ply, b.kubectlPly, b.err
}

func buildPly(dir string) (string, string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", fmt.Errorf("harness: BuildPly: %w", err)
	}
	ply := filepath.Join(dir, "ply")
	kp := filepath.Join(dir, "kubectl-ply")
	for _, b := range []struct{ out, pkg string }{{ply, "./cmd/ply"}, {kp, "./cmd/kubectl-ply"}} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
		cmd := exec.CommandContext(ctx, "go", "build", "-o", b.out, b.pkg)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			return "", "", fmt.Errorf("harness: go build %s failed: %w\n%s", b.pkg, err, tail(out, 40))
		}
	}
	return ply, kp, nil
}

var (
	kubectlOnce sync.Once
	kubectlPath string
	kubectlErr  error
)

// Kubectl returns the path of a kubectl 1.32 client: $PLY_KUBECTL when set,
// else the Cloud SDK's kubectl.1.32 when present, else `kubectl` on PATH.
// It runs `kubectl version --client` once per process and fails when the
// client is not v1.32.x.
func Kubectl() (string, error) {
	kubectlOnce.Do(func() {
		kubectlPath, kubectlErr = findKubectl()
	})
	return kubectlPath, kubectlErr
}

func findKubectl() (string, error) {
	p := os.Getenv("PLY_KUBECTL")
	switch {
	case p != "":
	case isExecutable(kubectlSDKPath):
		p = kubectlSDKPath
	default:
		lp, err := exec.LookPath("kubectl")
		if err != nil {
			return "", fmt.Errorf("harness: kubectl %s not found: set PLY_KUBECTL or put kubectl %s on PATH", kubectlMinor, kubectlMinor)
		}
		p = lp
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, p, "version", "--client").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("harness: %s version --client: %w\n%s", p, err, tail(out, 10))
	}
	if !bytes.Contains(out, []byte("Client Version: v"+kubectlMinor+".")) {
		return "", fmt.Errorf("harness: %s is not kubectl %s (set PLY_KUBECTL to a kubectl %s binary); it says:\n%s", p, kubectlMinor, kubectlMinor, tail(out, 10))
	}
	return p, nil
}

// tail returns the last n lines of b.
func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// tailFile returns the last n lines of the file at path, or a note why it
// cannot be read.
func tailFile(path string, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	defer f.Close()
	const max = 256 << 10
	if st, err := f.Stat(); err == nil && st.Size() > max {
		_, _ = f.Seek(st.Size()-max, io.SeekStart)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return tail(b, n)
}
