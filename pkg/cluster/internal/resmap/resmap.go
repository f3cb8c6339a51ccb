// Package resmap maps kinds to API resources through a server's discovery
// documents: a meta.ResettableRESTMapper that reads discovery on first use
// and again after Reset.
//
// It reads aggregated discovery (apidiscovery.k8s.io/v2: the whole of
// /api and /apis in two requests) and falls back to the legacy documents
// (/api, /apis, then one request per group-version) on servers that do not
// serve it. The documents are decoded with encoding/json into the few
// fields the mapping needs, so that the package links no typed client
// scheme: client-go's discovery package registers every built-in API type
// (k8s.io/client-go/kubernetes/scheme) when a program starts, which ply's
// commands that never talk to a cluster would pay for too.
//
// Invariants: a mapping holds the discovery read last, whole (a
// group-version that could not be read, or that aggregated discovery marks
// stale, contributes no kinds, as with client-go's mapper); mappings are
// exact (RESTMapping with versions resolves those versions only, without
// versions the group's preferred version first); a kind discovery does not
// list is a *meta.NoKindMatchError. A Mapper is safe for concurrent use.
package resmap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/client-go/rest"
)

// acceptAggregated asks for aggregated discovery, v2 then v2beta1, else the
// legacy documents.
const acceptAggregated = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList," +
	"application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json"

// Mapper is a meta.ResettableRESTMapper over a server's discovery.
type Mapper struct {
	rc rest.Interface
	// Retry, when not nil, runs each read of discovery (op), repeating it
	// as it sees fit; nil means one attempt.
	Retry func(ctx context.Context, op func(context.Context) error) error

	mu     sync.Mutex
	mapper meta.RESTMapper // nil until read, and after Reset
}

// New returns a Mapper that reads discovery through rc, a REST client of
// the server's root. It makes no request until a mapping is asked for.
func New(rc rest.Interface) *Mapper { return &Mapper{rc: rc} }

var _ meta.ResettableRESTMapper = (*Mapper)(nil)

// Reset forgets the discovery read; the next mapping reads it again.
func (m *Mapper) Reset() {
	m.mu.Lock()
	m.mapper = nil
	m.mu.Unlock()
}

// current returns the mapping of the discovery read, reading it first if
// needed. A failed read is not kept: the next call tries again.
func (m *Mapper) current() (meta.RESTMapper, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mapper != nil {
		return m.mapper, nil
	}
	var groups []group
	op := func(ctx context.Context) error {
		var err error
		groups, err = read(ctx, m.rc)
		return err
	}
	var err error
	if m.Retry != nil {
		err = m.Retry(context.Background(), op)
	} else {
		err = op(context.Background())
	}
	if err != nil {
		return nil, err
	}
	m.mapper = build(groups)
	return m.mapper, nil
}

// KindFor implements meta.RESTMapper.
func (m *Mapper) KindFor(resource schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	cur, err := m.current()
	if err != nil {
		return schema.GroupVersionKind{}, err
	}
	return cur.KindFor(resource)
}

// KindsFor implements meta.RESTMapper.
func (m *Mapper) KindsFor(resource schema.GroupVersionResource) ([]schema.GroupVersionKind, error) {
	cur, err := m.current()
	if err != nil {
		return nil, err
	}
	return cur.KindsFor(resource)
}

// ResourceFor implements meta.RESTMapper.
func (m *Mapper) ResourceFor(input schema.GroupVersionResource) (schema.GroupVersionResource, error) {
	cur, err := m.current()
	if err != nil {
		return schema.GroupVersionResource{}, err
	}
	return cur.ResourceFor(input)
}

// ResourcesFor implements meta.RESTMapper.
func (m *Mapper) ResourcesFor(input schema.GroupVersionResource) ([]schema.GroupVersionResource, error) {
	cur, err := m.current()
	if err != nil {
		return nil, err
	}
	return cur.ResourcesFor(input)
}

// RESTMapping implements meta.RESTMapper.
func (m *Mapper) RESTMapping(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	cur, err := m.current()
	if err != nil {
		return nil, err
	}
	return cur.RESTMapping(gk, versions...)
}

// RESTMappings implements meta.RESTMapper.
func (m *Mapper) RESTMappings(gk schema.GroupKind, versions ...string) ([]*meta.RESTMapping, error) {
	cur, err := m.current()
	if err != nil {
		return nil, err
	}
	return cur.RESTMappings(gk, versions...)
}

// ResourceSingularizer implements meta.RESTMapper.
func (m *Mapper) ResourceSingularizer(resource string) (string, error) {
	cur, err := m.current()
	if err != nil {
		return "", err
	}
	return cur.ResourceSingularizer(resource)
}

// group is one API group as discovery lists it: its versions, preferred
// first.
type group struct {
	name     string
	versions []version
}

// version is one served group-version and its resources.
type version struct {
	version   string
	resources []resource
}

// resource is one top-level resource (subresources are left out).
type resource struct {
	plural, singular, kind string
	namespaced             bool
}

// build makes the mapping of groups: every group-version in discovery
// order is a default (so the preferred version of a group comes first).
func build(groups []group) meta.RESTMapper {
	var order []schema.GroupVersion
	for _, g := range groups {
		for _, v := range g.versions {
			order = append(order, schema.GroupVersion{Group: g.name, Version: v.version})
		}
	}
	rm := meta.NewDefaultRESTMapper(order)
	for _, g := range groups {
		for _, v := range g.versions {
			for _, r := range v.resources {
				gv := schema.GroupVersion{Group: g.name, Version: v.version}
				singular := r.singular
				if singular == "" {
					singular = strings.ToLower(r.kind)
				}
				scope := meta.RESTScopeRoot
				if r.namespaced {
					scope = meta.RESTScopeNamespace
				}
				rm.AddSpecific(gv.WithKind(r.kind), gv.WithResource(r.plural), gv.WithResource(singular), scope)
			}
		}
	}
	return rm
}

// read reads the groups of the server: aggregated discovery when served,
// else the legacy documents.
func read(ctx context.Context, rc rest.Interface) ([]group, error) {
	var out []group
	for _, root := range []string{"/api", "/apis"} {
		body, err := rc.Get().AbsPath(root).SetHeader("Accept", acceptAggregated).Do(ctx).Raw()
		if err != nil {
			if root == "/apis" && isNotFound(err) {
				break // a server with the core group only
			}
			return nil, fmt.Errorf("cannot read the server's API discovery (GET %s): %w", root, err)
		}
		var head struct {
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(body, &head); err != nil {
			return nil, errors.New("cannot read the server's API discovery (GET " + root + "): " + err.Error())
		}
		var groups []group
		if head.Kind == "APIGroupDiscoveryList" {
			groups, err = aggregated(body)
		} else {
			groups, err = legacy(ctx, rc, root, body)
		}
		if err != nil {
			return nil, fmt.Errorf("cannot read the server's API discovery (GET %s): %w", root, err)
		}
		out = append(out, groups...)
	}
	return out, nil
}

// isNotFound reports a 404.
func isNotFound(err error) bool {
	var se interface{ Status() metav1.Status }
	return errors.As(err, &se) && se.Status().Code == 404
}

// aggregated decodes an APIGroupDiscoveryList (apidiscovery.k8s.io v2 or
// v2beta1, which agree on these fields). Stale versions are left out.
func aggregated(body []byte) ([]group, error) {
	var list struct {
		Items []struct {
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
			Versions []struct {
				Version   string `json:"version"`
				Freshness string `json:"freshness"`
				Resources []struct {
					Resource     string `json:"resource"`
					Singular     string `json:"singularResource"`
					Scope        string `json:"scope"`
					ResponseKind *struct {
						Kind string `json:"kind"`
					} `json:"responseKind"`
				} `json:"resources"`
			} `json:"versions"`
		} `json:"items"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, err
	}
	out := make([]group, 0, len(list.Items))
	for _, it := range list.Items {
		g := group{name: it.Metadata.Name}
		for _, v := range it.Versions {
			if v.Freshness == "Stale" {
				continue
			}
			ver := version{version: v.Version}
			for _, r := range v.Resources {
				if r.ResponseKind == nil || r.ResponseKind.Kind == "" {
					continue
				}
				ver.resources = append(ver.resources, resource{plural: r.Resource, singular: r.Singular,
					kind: r.ResponseKind.Kind, namespaced: r.Scope == "Namespaced"})
			}
			g.versions = append(g.versions, ver)
		}
		out = append(out, g)
	}
	return out, nil
}

// legacy reads the groups of a legacy root document (APIVersions for /api,
// APIGroupList for /apis) and then the resources of each group-version. A
// group-version that cannot be read contributes no kinds.
func legacy(ctx context.Context, rc rest.Interface, root string, body []byte) ([]group, error) {
	var groups []group
	if root == "/api" {
		var vs metav1.APIVersions
		if err := json.Unmarshal(body, &vs); err != nil {
			return nil, err
		}
		g := group{}
		for _, v := range vs.Versions {
			g.versions = append(g.versions, version{version: v})
		}
		groups = append(groups, g)
	} else {
		var list metav1.APIGroupList
		if err := json.Unmarshal(body, &list); err != nil {
			return nil, err
		}
		for _, lg := range list.Groups {
			g := group{name: lg.Name}
			// The preferred version first, then the others in order.
			if p := lg.PreferredVersion.Version; p != "" {
				g.versions = append(g.versions, version{version: p})
			}
			for _, v := range lg.Versions {
				if v.Version != lg.PreferredVersion.Version {
					g.versions = append(g.versions, version{version: v.Version})
				}
			}
			groups = append(groups, g)
		}
	}
	for gi := range groups {
		g := &groups[gi]
		kept := g.versions[:0]
		for _, v := range g.versions {
			path := root + "/" + v.version
			if g.name != "" {
				path = root + "/" + g.name + "/" + v.version
			}
			body, err := rc.Get().AbsPath(path).SetHeader("Accept", "application/json").Do(ctx).Raw()
			if err != nil {
				continue
			}
			var list metav1.APIResourceList
			if err := json.Unmarshal(body, &list); err != nil {
				continue
			}
			for _, r := range list.APIResources {
				if strings.Contains(r.Name, "/") {
					continue // a subresource
				}
				v.resources = append(v.resources, resource{plural: r.Name, singular: r.SingularName, kind: r.Kind, namespaced: r.Namespaced})
			}
			kept = append(kept, v)
		}
		g.versions = kept
	}
	return groups, nil
}

// rootTimeout bounds each request of the root client when cfg sets no
// timeout, as client-go's discovery client does.
const rootTimeout = 32 * time.Second

// NewRootClient returns a REST client of the server's root (no API path or
// group-version) for cfg, configured as client-go's discovery client is:
// requests time out after 32 s unless cfg says otherwise, and error
// responses decode as metav1.Status. It is what Mapper reads discovery with
// and what ply fetches the OpenAPI documents with.
func NewRootClient(cfg *rest.Config) (*rest.RESTClient, error) {
	c := rest.CopyConfig(cfg)
	c.APIPath = ""
	c.GroupVersion = nil
	if c.Timeout == 0 {
		c.Timeout = rootTimeout
	}
	scheme := runtime.NewScheme()
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
	codec := runtime.NoopEncoder{Decoder: serializer.NewCodecFactory(scheme).UniversalDecoder()}
	c.NegotiatedSerializer = serializer.NegotiatedSerializerWrapper(runtime.SerializerInfo{Serializer: codec})
	if c.UserAgent == "" {
		c.UserAgent = rest.DefaultKubernetesUserAgent()
	}
	return rest.UnversionedRESTClientFor(c)
}
