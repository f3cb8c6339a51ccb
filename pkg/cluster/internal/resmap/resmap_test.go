package resmap

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
)

// The documents of a small server: the core group (ConfigMap, Namespace,
// Pod with a subresource), apps in v1 (Deployment) and a custom group
// example.com serving v2 (preferred) and v1, whose kind Widget has an
// irregular plural, and a stale group-version gone.example.com/v1.
const aggregatedAPI = `{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[
 {"metadata":{"name":""},"versions":[{"version":"v1","freshness":"Current","resources":[
  {"resource":"configmaps","singularResource":"configmap","scope":"Namespaced","responseKind":{"group":"","version":"","kind":"ConfigMap"},"verbs":["get"]},
  {"resource":"namespaces","singularResource":"namespace","scope":"Cluster","responseKind":{"group":"","version":"","kind":"Namespace"},"verbs":["get"]},
  {"resource":"pods","singularResource":"pod","scope":"Namespaced","responseKind":{"group":"","version":"","kind":"Pod"},"verbs":["get"],
   "subresources":[{"subresource":"status","responseKind":{"group":"","version":"","kind":"Pod"},"verbs":["get"]}]}]}]}]}`

const aggregatedAPIs = `{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[
 {"metadata":{"name":"apps"},"versions":[{"version":"v1","freshness":"Current","resources":[
  {"resource":"deployments","singularResource":"deployment","scope":"Namespaced","responseKind":{"group":"","version":"","kind":"Deployment"},"verbs":["get"]}]}]},
 {"metadata":{"name":"example.com"},"versions":[
  {"version":"v2","freshness":"Current","resources":[
   {"resource":"widgetries","singularResource":"widget","scope":"Cluster","responseKind":{"group":"","version":"","kind":"Widget"},"verbs":["get"]}]},
  {"version":"v1","freshness":"Current","resources":[
   {"resource":"widgetries","singularResource":"widget","scope":"Cluster","responseKind":{"group":"","version":"","kind":"Widget"},"verbs":["get"]}]}]},
 {"metadata":{"name":"gone.example.com"},"versions":[{"version":"v1","freshness":"Stale","resources":[
  {"resource":"ghosts","singularResource":"ghost","scope":"Namespaced","responseKind":{"group":"","version":"","kind":"Ghost"},"verbs":["get"]}]}]}]}`

// The same server's legacy documents (without the stale group).
var legacyDocs = map[string]string{
	"/api": `{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"x"}]}`,
	"/apis": `{"kind":"APIGroupList","apiVersion":"v1","groups":[
  {"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}},
  {"name":"example.com","versions":[{"groupVersion":"example.com/v1","version":"v1"},{"groupVersion":"example.com/v2","version":"v2"}],
   "preferredVersion":{"groupVersion":"example.com/v2","version":"v2"}}]}`,
	"/api/v1": `{"kind":"APIResourceList","groupVersion":"v1","resources":[
  {"name":"configmaps","singularName":"configmap","namespaced":true,"kind":"ConfigMap","verbs":["get"]},
  {"name":"namespaces","singularName":"namespace","namespaced":false,"kind":"Namespace","verbs":["get"]},
  {"name":"pods","singularName":"pod","namespaced":true,"kind":"Pod","verbs":["get"]},
  {"name":"pods/status","singularName":"","namespaced":true,"kind":"Pod","verbs":["get"]}]}`,
	"/apis/apps/v1": `{"kind":"APIResourceList","groupVersion":"apps/v1","resources":[
  {"name":"deployments","singularName":"deployment","namespaced":true,"kind":"Deployment","verbs":["get"]}]}`,
	"/apis/example.com/v1": `{"kind":"APIResourceList","groupVersion":"example.com/v1","resources":[
  {"name":"widgetries","singularName":"widget","namespaced":false,"kind":"Widget","verbs":["get"]}]}`,
	"/apis/example.com/v2": `{"kind":"APIResourceList","groupVersion":"example.com/v2","resources":[
  {"name":"widgetries","singularName":"widget","namespaced":false,"kind":"Widget","verbs":["get"]}]}`,
}

// discoveryServer serves the documents above, aggregated ones only when
// aggregated is set and the client asks for them; it counts the requests
// by path.
func discoveryServer(aggregated bool) (*httptest.Server, func() map[string]int) {
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Path]++
		mu.Unlock()
		if aggregated && strings.Contains(r.Header.Get("Accept"), "as=APIGroupDiscoveryList") {
			switch r.URL.Path {
			case "/api":
				w.Header().Set("Content-Type", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
				w.Write([]byte(aggregatedAPI))
				return
			case "/apis":
				w.Header().Set("Content-Type", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
				w.Write([]byte(aggregatedAPIs))
				return
			}
		}
		doc, ok := legacyDocs[r.URL.Path]
		if !ok {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","code":404}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(doc))
	}))
	DeferCleanup(srv.Close)
	return srv, func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		out := map[string]int{}
		for k, v := range seen {
			out[k] = v
		}
		return out
	}
}

func newMapper(srv *httptest.Server) *Mapper {
	rc, err := NewRootClient(&rest.Config{Host: srv.URL})
	Expect(err).NotTo(HaveOccurred())
	return New(rc)
}

// clientGoMapper is client-go's discovery mapper, the oracle.
func clientGoMapper(srv *httptest.Server) meta.RESTMapper {
	dc, err := discovery.NewDiscoveryClientForConfig(&rest.Config{Host: srv.URL})
	Expect(err).NotTo(HaveOccurred())
	return restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))
}

// mapping renders a RESTMapping or its error for comparison.
func mapping(m meta.RESTMapper, gk schema.GroupKind, versions ...string) string {
	rm, err := m.RESTMapping(gk, versions...)
	if err != nil {
		if meta.IsNoMatchError(err) {
			return "no match"
		}
		return "error: " + err.Error()
	}
	return rm.GroupVersionKind.String() + " -> " + rm.Resource.String() + " (" + string(rm.Scope.Name()) + ")"
}

var _ = Describe("Mapper", func() {
	cases := []struct {
		gk       schema.GroupKind
		versions []string
	}{
		{schema.GroupKind{Kind: "ConfigMap"}, []string{"v1"}},
		{schema.GroupKind{Kind: "Namespace"}, []string{"v1"}},
		{schema.GroupKind{Kind: "Pod"}, []string{"v1"}},
		{schema.GroupKind{Group: "apps", Kind: "Deployment"}, []string{"v1"}},
		{schema.GroupKind{Group: "apps", Kind: "Deployment"}, nil},
		{schema.GroupKind{Group: "apps", Kind: "Deployment"}, []string{"v1beta1"}},
		{schema.GroupKind{Group: "example.com", Kind: "Widget"}, []string{"v1"}},
		{schema.GroupKind{Group: "example.com", Kind: "Widget"}, []string{"v2"}},
		{schema.GroupKind{Group: "example.com", Kind: "Widget"}, nil},
		{schema.GroupKind{Group: "gone.example.com", Kind: "Ghost"}, []string{"v1"}},
		{schema.GroupKind{Group: "example.com", Kind: "Gadget"}, []string{"v1"}},
	}
	for _, aggregated := range []bool{true, false} {
		name := "legacy discovery"
		if aggregated {
			name = "aggregated discovery"
		}
		It("maps kinds as client-go's discovery mapper does, from "+name, func() {
			srv, _ := discoveryServer(aggregated)
			ours, theirs := newMapper(srv), clientGoMapper(srv)
			for _, c := range cases {
				Expect(mapping(ours, c.gk, c.versions...)).To(Equal(mapping(theirs, c.gk, c.versions...)), "%v %v", c.gk, c.versions)
			}
			Expect(mapping(ours, schema.GroupKind{Group: "example.com", Kind: "Widget"}, "v1")).
				To(Equal("example.com/v1, Kind=Widget -> example.com/v1, Resource=widgetries (root)"))
			Expect(mapping(ours, schema.GroupKind{Group: "example.com", Kind: "Widget"})).
				To(Equal("example.com/v2, Kind=Widget -> example.com/v2, Resource=widgetries (root)"))
			Expect(mapping(ours, schema.GroupKind{Kind: "ConfigMap"}, "v1")).
				To(Equal("/v1, Kind=ConfigMap -> /v1, Resource=configmaps (namespace)"))
			Expect(mapping(ours, schema.GroupKind{Group: "gone.example.com", Kind: "Ghost"}, "v1")).To(Equal("no match"))
			singular, err := ours.ResourceSingularizer("widgetries")
			Expect(err).NotTo(HaveOccurred())
			Expect(singular).To(Equal("widget"))
		})
	}

	It("reads aggregated discovery in two requests, once, and again after Reset", func() {
		srv, seen := discoveryServer(true)
		m := newMapper(srv)
		Expect(seen()).To(BeEmpty(), "New made a request")
		for range 3 {
			_, err := m.RESTMapping(schema.GroupKind{Group: "apps", Kind: "Deployment"}, "v1")
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(seen()).To(Equal(map[string]int{"/api": 1, "/apis": 1}))
		m.Reset()
		_, err := m.KindFor(schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"})
		Expect(err).NotTo(HaveOccurred())
		Expect(seen()).To(Equal(map[string]int{"/api": 2, "/apis": 2}))
	})

	It("reports a server it cannot read, and tries again on the next call", func() {
		srv, _ := discoveryServer(true)
		m := newMapper(srv)
		srv.Close()
		_, err := m.RESTMapping(schema.GroupKind{Group: "apps", Kind: "Deployment"}, "v1")
		Expect(err).To(MatchError(ContainSubstring("cannot read the server's API discovery (GET /api): ")))
		Expect(meta.IsNoMatchError(err)).To(BeFalse())
		_, err = m.RESTMapping(schema.GroupKind{Group: "apps", Kind: "Deployment"}, "v1")
		Expect(err).To(MatchError(ContainSubstring("cannot read the server's API discovery")))
	})
})
