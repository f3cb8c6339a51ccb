package updateverb_test

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/plyproject/ply/pkg/cluster"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/harness"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if err := harness.StopAll(); err != nil {
		os.Stderr.WriteString("updateverb: " + err.Error() + "\n")
		code = 1
	}
	os.Exit(code)
}

// user is the user both lanes apply as.
const user = "deployer"

// objects is the size of the set: 500, or 50 in a smoke run (-benchtime 1x).
func objects() int {
	if f := flag.Lookup("test.benchtime"); f != nil && f.Value.String() == "1x" {
		return 50
	}
	return 500
}

// configMaps returns n ConfigMaps whose data changes with version.
func configMaps(n, version int) []cluster.Object {
	out := make([]cluster.Object, n)
	for i := range out {
		out[i] = cluster.Object{Source: "generated", Value: value.MustMap(
			value.Field{Key: "apiVersion", Value: value.String("v1")},
			value.Field{Key: "kind", Value: value.String("ConfigMap")},
			value.Field{Key: "metadata", Value: value.MustMap(value.Field{Key: "name", Value: value.String("cm-" + strconv.Itoa(i))})},
			value.Field{Key: "data", Value: value.MustMap(
				value.Field{Key: "version", Value: value.String(strconv.Itoa(version))},
				// A key that comes and goes: the patch carries a null.
				value.Field{Key: "k" + strconv.Itoa(version%2), Value: value.String("v")})},
		)}
	}
	return out
}

// grant gives user the verbs on ConfigMaps in ns.
func grant(ctx context.Context, srv *harness.Server, ns string, verbs ...string) error {
	vs := make([]any, len(verbs))
	for i, v := range verbs {
		vs[i] = v
	}
	rbac := func(r string) schema.GroupVersionResource {
		return schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: r}
	}
	role := map[string]any{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": map[string]any{"name": "apply"},
		"rules": []any{map[string]any{"apiGroups": []any{""}, "resources": []any{"configmaps"}, "verbs": vs}}}
	binding := map[string]any{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": map[string]any{"name": "apply"},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "apply"},
		"subjects": []any{map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": user}}}
	if _, err := srv.Dynamic().Resource(rbac("roles")).Namespace(ns).Create(ctx, &unstructured.Unstructured{Object: role}, metav1.CreateOptions{}); err != nil {
		return err
	}
	_, err := srv.Dynamic().Resource(rbac("rolebindings")).Namespace(ns).Create(ctx, &unstructured.Unstructured{Object: binding}, metav1.CreateOptions{})
	return err
}

// lane is one namespace and its client.
type lane struct {
	ns string
	c  *cluster.Client
}

// apply applies version of the set and fails b unless every object was
// configured.
func (l lane) apply(b *testing.B, n, version int) time.Duration {
	start := time.Now()
	outs := l.c.Apply(context.Background(), configMaps(n, version))
	d := time.Since(start)
	for _, o := range outs {
		if o.Action != cluster.Configured {
			b.Fatalf("%s %s: %s %v", l.ns, o.Ref, o.Action, o.Err)
		}
	}
	return d
}

// The lanes are set up once per test binary; version is the last version
// applied to both.
var (
	setupOnce          sync.Once
	putLane, patchLane lane
	setupErr           error
	version            int
)

// lanes returns the put and patch lanes, each filled with version 0 of
// the set and then applied version 1 (the patch lane pays its one refused
// PUT there), starting the server on first use.
func lanes(b *testing.B, n int) (put, patch lane) {
	setupOnce.Do(func() { putLane, patchLane, setupErr = setup(n) })
	if setupErr != nil {
		b.Fatal(setupErr)
	}
	return putLane, patchLane
}

// setup starts the server and fills the lanes (see lanes).
func setup(n int) (put, patch lane, err error) {
	ctx := context.Background()
	srv, err := harness.Start(harness.Options{Name: "updateverb", Users: []string{user}, Log: io.Discard})
	if err != nil {
		return put, patch, errors.New("updateverb needs a kube-apiserver and etcd (go run ./test/harness/cmd/prepare): " + err.Error())
	}
	path, err := srv.UserKubeconfig(user)
	if err != nil {
		return put, patch, err
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		return put, patch, err
	}
	var ls [2]lane
	for i, verbs := range [][]string{{"get", "list", "update", "patch"}, {"get", "list", "patch"}} {
		if ls[i], err = fill(ctx, srv, cfg, n, verbs); err != nil {
			return put, patch, err
		}
	}
	version = 1
	return ls[0], ls[1], nil
}

// fill creates a namespace where user has verbs on ConfigMaps, creates
// version 0 of the set there as the admin and applies version 1 as user.
func fill(ctx context.Context, srv *harness.Server, cfg *rest.Config, n int, verbs []string) (lane, error) {
	ns, err := srv.CreateNamespace(ctx, "updateverb-")
	if err == nil {
		err = grant(ctx, srv, ns, verbs...)
	}
	if err != nil {
		return lane{}, err
	}
	admin, err := cluster.New(srv.Config, cluster.Options{Namespace: ns})
	if err != nil {
		return lane{}, err
	}
	c, err := cluster.New(cfg, cluster.Options{Namespace: ns})
	if err != nil {
		return lane{}, err
	}
	for v, cl := range []*cluster.Client{admin, c} {
		for _, o := range cl.Apply(ctx, configMaps(n, v)) {
			if o.Err != nil {
				return lane{}, o.Err
			}
		}
	}
	return lane{ns: ns, c: c}, nil
}

// BenchmarkUpdateVerb: see the package documentation.
func BenchmarkUpdateVerb(b *testing.B) {
	n := objects()
	put, patch := lanes(b, n)
	var tput, tpatch time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		version++
		v := version
		if i%2 == 0 {
			tput += put.apply(b, n, v)
			tpatch += patch.apply(b, n, v)
		} else {
			tpatch += patch.apply(b, n, v)
			tput += put.apply(b, n, v)
		}
	}
	objs := float64(n * b.N)
	b.ReportMetric(objs/tput.Seconds(), "put-objects/s")
	b.ReportMetric(objs/tpatch.Seconds(), "patch-objects/s")
	b.ReportMetric(tput.Seconds()/tpatch.Seconds(), "patch/put")
}
