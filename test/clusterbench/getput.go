package clusterbench

import (
	"context"
	"fmt"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/plyproject/ply/pkg/cluster"
)

// typedSet is one version of the set as client-go's typed objects.
type typedSet struct {
	configMaps  []*corev1.ConfigMap
	deployments []*appsv1.Deployment
}

// typed converts Manifests(n, version) to typed objects.
func typed(n, version int) (*typedSet, error) {
	s := &typedSet{}
	for _, m := range Manifests(n, version) {
		var err error
		switch m["kind"] {
		case "ConfigMap":
			cm := &corev1.ConfigMap{}
			err = runtime.DefaultUnstructuredConverter.FromUnstructured(m, cm)
			s.configMaps = append(s.configMaps, cm)
		case "Deployment":
			d := &appsv1.Deployment{}
			err = runtime.DefaultUnstructuredConverter.FromUnstructured(m, d)
			s.deployments = append(s.deployments, d)
		}
		if err != nil {
			return nil, fmt.Errorf("clusterbench: %s %v: %w", m["kind"], m["metadata"], err)
		}
	}
	return s, nil
}

// clientset returns a typed client for the server, with pkg/cluster's rate
// limits (so that neither side is throttled) and, when proto is set, the
// protobuf wire format for requests and responses.
func (e *Env) clientset(proto bool) (kubernetes.Interface, error) {
	cfg := rest.CopyConfig(e.Server.Config)
	cfg.QPS, cfg.Burst = cluster.DefaultQPS, cluster.DefaultBurst
	if proto {
		cfg.ContentType = "application/vnd.kubernetes.protobuf"
		cfg.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	}
	return kubernetes.NewForConfig(cfg)
}

// getPut is the ceiling of a client that reads and writes object by object:
// the same worker count as ply's pool, each worker taking the next object,
// GETting it, setting the manifest's labels and data (a ConfigMap) or spec
// (a Deployment) and PUTting it with the resourceVersion read, again from
// the GET on a 409. No merge, no last-applied annotation, no schema: only
// the two requests ply's per-object path makes. The typed objects are
// built before the clock starts (Env.typedSets).
func (e *Env) getPut(ctx context.Context, ns string, v int, proto bool) error {
	cs := e.typedClients[boolIndex(proto)]
	set := e.typedSets[v]
	workers := e.Workers
	if workers <= 0 {
		workers = cluster.DefaultWorkers
	}
	n := len(set.configMaps) + len(set.deployments)
	err := forEach(n, workers, func(i int) error {
		if i < len(set.configMaps) {
			return putConfigMap(ctx, cs, ns, set.configMaps[i])
		}
		return putDeployment(ctx, cs, ns, set.deployments[i-len(set.configMaps)])
	})
	if err != nil {
		return fmt.Errorf("clusterbench: getput: %w", err)
	}
	return nil
}

// forEach runs f for every index below n, workers at a time (each worker
// taking the next index), and returns the first error.
func forEach(n, workers int, f func(i int) error) error {
	work := make(chan int)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				if err := f(i); err != nil {
					errs <- err
				}
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		return err
	}
	return nil
}

// maxConflicts bounds the GET-PUT rounds of one object of the loop.
const maxConflicts = 10

func putConfigMap(ctx context.Context, cs kubernetes.Interface, ns string, want *corev1.ConfigMap) error {
	c := cs.CoreV1().ConfigMaps(ns)
	for range maxConflicts {
		cm, err := c.Get(ctx, want.Name, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("configmap %s/%s: %w", ns, want.Name, err)
		}
		cm.Labels, cm.Data = want.Labels, want.Data
		if _, err = c.Update(ctx, cm, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
			if err != nil {
				return fmt.Errorf("configmap %s/%s: %w", ns, want.Name, err)
			}
			return nil
		}
	}
	return fmt.Errorf("configmap %s/%s: %d conflicts", ns, want.Name, maxConflicts)
}

func putDeployment(ctx context.Context, cs kubernetes.Interface, ns string, want *appsv1.Deployment) error {
	c := cs.AppsV1().Deployments(ns)
	for range maxConflicts {
		d, err := c.Get(ctx, want.Name, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("deployment %s/%s: %w", ns, want.Name, err)
		}
		d.Labels, d.Spec = want.Labels, *want.Spec.DeepCopy()
		if _, err = c.Update(ctx, d, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
			if err != nil {
				return fmt.Errorf("deployment %s/%s: %w", ns, want.Name, err)
			}
			return nil
		}
	}
	return fmt.Errorf("deployment %s/%s: %d conflicts", ns, want.Name, maxConflicts)
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}
