package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/restmapper"
)

var namespaceGVR = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}

// CreateNamespace creates a namespace named prefix plus a random suffix
// (generateName) and returns its name. Namespaces are never deleted: no
// controller-manager runs to finalize them, and the server is thrown away.
func (s *Server) CreateNamespace(ctx context.Context, prefix string) (string, error) {
	ns := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "Namespace",
		"metadata":   map[string]any{"generateName": prefix},
	}}
	got, err := s.dyn.Resource(namespaceGVR).Create(ctx, ns, metav1.CreateOptions{})
	if err != nil {
		return "", fmt.Errorf("harness[%s]: creating namespace %s*: %w", s.Name, prefix, err)
	}
	return got.GetName(), nil
}

type mapperState struct {
	once   sync.Once
	mapper *restmapper.DeferredDiscoveryRESTMapper
	err    error
}

// Mapping resolves apiVersion and kind to a resource through discovery.
// Discovery results are cached; on a miss the cache is reset once and the
// lookup retried, so kinds of CRDs created after the first lookup resolve.
func (s *Server) Mapping(apiVersion, kind string) (*meta.RESTMapping, error) {
	ms := &s.mapper
	ms.once.Do(func() {
		dc, err := discovery.NewDiscoveryClientForConfig(s.Config)
		if err != nil {
			ms.err = err
			return
		}
		ms.mapper = restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))
	})
	if ms.err != nil {
		return nil, fmt.Errorf("harness[%s]: discovery client: %w", s.Name, ms.err)
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, fmt.Errorf("harness[%s]: apiVersion %q: %w", s.Name, apiVersion, err)
	}
	gk := gv.WithKind(kind).GroupKind()
	m, err := ms.mapper.RESTMapping(gk, gv.Version)
	if err != nil && meta.IsNoMatchError(err) {
		ms.mapper.Reset()
		m, err = ms.mapper.RESTMapping(gk, gv.Version)
	}
	if err != nil {
		return nil, fmt.Errorf("harness[%s]: resolving %s %s: %w", s.Name, apiVersion, kind, err)
	}
	return m, nil
}

// Get reads the live object apiVersion/kind namespace/name with the admin
// client (namespace is ignored for cluster-scoped kinds).
func (s *Server) Get(ctx context.Context, apiVersion, kind, namespace, name string) (*unstructured.Unstructured, error) {
	m, err := s.Mapping(apiVersion, kind)
	if err != nil {
		return nil, err
	}
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		return s.dyn.Resource(m.Resource).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	}
	return s.dyn.Resource(m.Resource).Get(ctx, name, metav1.GetOptions{})
}

// ObjectPath returns the URL path of an object as client-go requests it,
// e.g. /apis/apps/v1/namespaces/ns/deployments/web or
// /api/v1/namespaces/ns/configmaps/cm; namespace "" means cluster-scoped.
// It is the path Proxy.OnFirst and Proxy.Count match.
func ObjectPath(gvr schema.GroupVersionResource, namespace, name string) string {
	var b strings.Builder
	if gvr.Group == "" {
		b.WriteString("/api/")
	} else {
		b.WriteString("/apis/" + gvr.Group + "/")
	}
	b.WriteString(gvr.Version)
	if namespace != "" {
		b.WriteString("/namespaces/" + namespace)
	}
	b.WriteString("/" + gvr.Resource + "/" + name)
	return b.String()
}

// Result is the outcome of a command Run ran.
type Result struct {
	// Stdout and Stderr are the command's output streams.
	Stdout, Stderr string
	// ExitCode is the exit status; -1 when the command was killed by a
	// signal (e.g. on context expiry).
	ExitCode int
	// Duration is the command's wall time.
	Duration time.Duration
}

// String summarizes r for failure messages: exit code and both streams.
func (r Result) String() string {
	return fmt.Sprintf("exit code %d after %s\n--- stdout:\n%s--- stderr:\n%s", r.ExitCode, r.Duration.Round(time.Millisecond), r.Stdout, r.Stderr)
}

// Cmd describes a command for Run.
type Cmd struct {
	// Path is the program; Args its arguments (without the program name).
	Path string
	Args []string
	// Env is added to the test process's environment (later entries win).
	Env []string
	// Dir is the working directory; default the test's.
	Dir string
	// Stdin is the standard input; default empty.
	Stdin io.Reader
}

// Run runs c to completion and returns its output and exit code. A
// non-zero exit is not an error: err is set only when the program could not
// be started.
func Run(ctx context.Context, c Cmd) (Result, error) {
	cmd := exec.CommandContext(ctx, c.Path, c.Args...)
	cmd.Env = append(os.Environ(), c.Env...)
	cmd.Dir = c.Dir
	cmd.Stdin = c.Stdin
	cmd.SysProcAttr = sysProcAttr()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := Result{Stdout: out.String(), Stderr: errb.String(), Duration: time.Since(start)}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.ExitCode = exit.ExitCode()
	default:
		return r, fmt.Errorf("harness: running %s: %w", c.Path, err)
	}
	return r, nil
}
