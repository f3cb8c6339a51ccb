package clusterbench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/plyproject/ply/pkg/cluster"
	"github.com/plyproject/ply/test/harness"
)

// PatchServers are the API servers PatchEnv compares, in the order it starts them.
var PatchServers = []harness.APIServer{harness.StockAPIServer, harness.PlyAPIServer}

var (
	configMapsGVR  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
)

// PatchEnv measures PATCH with application/strategic-merge-patch+json, the request kubectl apply, edit and patch
// send, on the stock kube-apiserver and on the one built on ply (harness.PlyAPIServer), with the same patches from
// the same client.
type PatchEnv struct {
	// Servers are the running servers, by PatchServers.
	Servers map[harness.APIServer]*harness.Server
	// Workers is the number of requests in flight.
	Workers int

	clients map[harness.APIServer]dynamic.Interface
}

// SetupPatch starts both servers (building the one on ply when missing, as harness.PrepareAPIServer does). workers is
// the number of requests in flight (0: pkg/cluster's default). log receives the harness's progress lines. Close stops
// the servers.
func SetupPatch(workers int, log io.Writer) (*PatchEnv, error) {
	if workers <= 0 {
		workers = cluster.DefaultWorkers
	}
	p := &PatchEnv{Workers: workers, Servers: map[harness.APIServer]*harness.Server{}, clients: map[harness.APIServer]dynamic.Interface{}}
	for _, kind := range PatchServers {
		srv, err := harness.Start(harness.Options{Name: "clusterbench-patch-" + string(kind), APIServer: kind, Log: log})
		if err != nil {
			p.Close()
			return nil, err
		}
		p.Servers[kind] = srv
		cfg := rest.CopyConfig(srv.Config)
		cfg.QPS, cfg.Burst = cluster.DefaultQPS, cluster.DefaultBurst
		if p.clients[kind], err = dynamic.NewForConfig(cfg); err != nil {
			p.Close()
			return nil, err
		}
	}
	return p, nil
}

// Close stops the servers.
func (p *PatchEnv) Close() error {
	var errs []error
	for _, srv := range p.Servers {
		errs = append(errs, srv.Stop())
	}
	return errors.Join(errs...)
}

// PatchSet is a set of objects in two versions and the patches between them: strategicpatch's two-way patches, with
// the $setElementOrder directives kubectl sends, made before any clock starts.
type PatchSet struct {
	// N is the number of objects.
	N int
	// seed is version 1 of the set; patches[v] turns version 3-v into v, versions[v] is version v.
	seed     []*unstructured.Unstructured
	patches  [3][]objectPatch
	versions [3][]map[string]any
}

// objectPatch is one strategic merge patch of a set: the object it patches and the patch's JSON.
type objectPatch struct {
	resource schema.GroupVersionResource
	name     string
	body     []byte
}

// NewPatchSet makes the set whose versions 1 and 2 manifests returns (ConfigMaps and Deployments, the same names in
// the same order in both, every object holding its version as Manifests' objects do) and its patches.
func NewPatchSet(manifests func(version int) []map[string]any) (*PatchSet, error) {
	s := &PatchSet{}
	for _, m := range manifests(1) {
		s.seed = append(s.seed, &unstructured.Unstructured{Object: m})
	}
	s.N = len(s.seed)
	if s.N < 2 {
		return nil, errors.New("clusterbench: the set needs at least 2 objects")
	}
	for v := 1; v <= 2; v++ {
		var err error
		s.versions[v] = manifests(v)
		if s.patches[v], err = patchesBetween(manifests(3-v), s.versions[v]); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// patchesBetween returns the patches that turn each object of from into the one of to.
func patchesBetween(from, to []map[string]any) ([]objectPatch, error) {
	if len(from) != len(to) {
		return nil, fmt.Errorf("clusterbench: the versions hold %d and %d objects", len(from), len(to))
	}
	patches := make([]objectPatch, len(to))
	for i := range to {
		name := (&unstructured.Unstructured{Object: to[i]}).GetName()
		before, err := json.Marshal(from[i])
		if err != nil {
			return nil, err
		}
		after, err := json.Marshal(to[i])
		if err != nil {
			return nil, err
		}
		resource, schemaObj := configMapsGVR, any(corev1.ConfigMap{})
		if to[i]["kind"] == "Deployment" {
			resource, schemaObj = deploymentsGVR, appsv1.Deployment{}
		}
		body, err := strategicpatch.CreateTwoWayMergePatch(before, after, schemaObj)
		if err != nil {
			return nil, fmt.Errorf("clusterbench: patch of %s: %w", name, err)
		}
		patches[i] = objectPatch{resource: resource, name: name, body: body}
	}
	return patches, nil
}

// LongLists returns version version of n Deployments long-NNNN whose one container has env entries, every value
// holding the version (so a patch between versions changes every entry), with the version in a label and the image
// tag as Manifests' Deployments have it.
func LongLists(n, env, version int) []map[string]any {
	v := strconv.Itoa(version)
	vars := make([]any, env)
	for i := range env {
		vars[i] = map[string]any{"name": "VAR_" + pad4(i), "value": "v" + v + "-" + pad4(i)}
	}
	out := make([]map[string]any, n)
	for i := range n {
		name := "long-" + pad4(i)
		out[i] = benchDeployment(name, v, map[string]any{"name": "app", "image": "nginx:1." + v, "env": vars})
	}
	return out
}

// PatchLane is a namespace of one server holding a set: each Next patches every object to the version it does not
// hold.
type PatchLane struct {
	env    *PatchEnv
	set    *PatchSet
	kind   harness.APIServer
	client dynamic.Interface
	ns     string
	v      int
}

// NewPatchLane creates namespace ns on the server of kind and creates version 1 of set there (not measured).
func (p *PatchEnv) NewPatchLane(ctx context.Context, kind harness.APIServer, set *PatchSet, ns string) (*PatchLane, error) {
	client, ok := p.clients[kind]
	if !ok {
		return nil, fmt.Errorf("clusterbench: no %s server", kind)
	}
	nsObj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}}
	if _, err := client.Resource(namespaces).Create(ctx, nsObj, metav1.CreateOptions{}); err != nil {
		return nil, err
	}
	l := &PatchLane{env: p, set: set, kind: kind, client: client, ns: ns, v: 1}
	err := forEach(set.N, p.Workers, func(i int) error {
		_, err := client.Resource(set.patches[1][i].resource).Namespace(ns).Create(ctx, set.seed[i], metav1.CreateOptions{})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("clusterbench: %s server: %w", kind, err)
	}
	return l, nil
}

// Next sends the patches to the other version, Workers at a time, checks that every answer holds the new version,
// and returns how long the requests took.
func (l *PatchLane) Next(ctx context.Context) (time.Duration, error) {
	l.v = 3 - l.v
	start := time.Now()
	err := forEach(l.set.N, l.env.Workers, func(i int) error {
		op := l.set.patches[l.v][i]
		got, err := l.client.Resource(op.resource).Namespace(l.ns).Patch(ctx, op.name, types.StrategicMergePatchType, op.body, metav1.PatchOptions{})
		if err != nil {
			return fmt.Errorf("PATCH %s %s/%s: %w", op.resource.Resource, l.ns, op.name, err)
		}
		return checkPatched(got, l.set.versions[l.v][i])
	})
	if err != nil {
		return 0, fmt.Errorf("clusterbench: %s server: %w", l.kind, err)
	}
	return time.Since(start), nil
}

// checkPatched reports an answer that does not hold what the patch set, the manifest want: a ConfigMap's data, a
// Deployment's labels and its containers' images and env lists, entry by entry.
func checkPatched(got *unstructured.Unstructured, want map[string]any) error {
	if got.GetKind() == "ConfigMap" {
		if !equality.Semantic.DeepEqual(got.Object["data"], want["data"]) {
			return fmt.Errorf("PATCH ConfigMap %s: data %v, want %v", got.GetName(), got.Object["data"], want["data"])
		}
		return nil
	}
	wantLabels, _, _ := unstructured.NestedStringMap(want, "metadata", "labels")
	if !equality.Semantic.DeepEqual(got.GetLabels(), wantLabels) {
		return fmt.Errorf("PATCH Deployment %s: labels %v, want %v", got.GetName(), got.GetLabels(), wantLabels)
	}
	gotC, wantC := containers(got.Object), containers(want)
	if len(gotC) != len(wantC) {
		return fmt.Errorf("PATCH Deployment %s: %d containers, want %d", got.GetName(), len(gotC), len(wantC))
	}
	for i := range wantC {
		g, w := gotC[i].(map[string]any), wantC[i].(map[string]any)
		if g["image"] != w["image"] || !equality.Semantic.DeepEqual(g["env"], w["env"]) {
			return fmt.Errorf("PATCH Deployment %s: container %v has image %v and %d env entries, not the manifest's %v and %d or not the same entries",
				got.GetName(), w["name"], g["image"], len(asSlice(g["env"])), w["image"], len(asSlice(w["env"])))
		}
	}
	return nil
}

// containers is the container list of a Deployment's pod template, not copied.
func containers(deployment map[string]any) []any {
	v, _, _ := unstructured.NestedFieldNoCopy(deployment, "spec", "template", "spec", "containers")
	return asSlice(v)
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}
