package cluster

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"

	"github.com/plyproject/ply/openapi"
)

// schemaServer serves OpenAPI documents from the embedded Kubernetes
// schema files: the v3 index and apps/v1 when v3 is set, else only v2.
// It records the request URIs without the discovery client's timeout
// parameter.
func schemaServer(v3 bool) (*httptest.Server, *[]string) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		// The discovery client adds its timeout; record the rest.
		q := r.URL.Query()
		q.Del("timeout")
		uri := r.URL.Path
		if len(q) > 0 {
			uri += "?" + q.Encode()
		}
		seen = append(seen, uri)
		mu.Unlock()
		var file string
		switch {
		case v3 && r.URL.Path == "/openapi/v3":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"paths":{"apis/apps/v1":{"serverRelativeURL":"/openapi/v3/apis/apps/v1?hash=CLUSTERTEST1"}}}`))
			return
		case v3 && r.URL.Path == "/openapi/v3/apis/apps/v1" && r.URL.Query().Get("hash") == "CLUSTERTEST1":
			file = "../../openapi/default/v3/apis__apps__v1_openapi.json"
		case !v3 && r.URL.Path == "/openapi/v2":
			file = "../../openapi/default/swagger.json"
		case r.URL.Path == "/broken":
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		default:
			http.NotFound(w, r)
			return
		}
		data, err := os.ReadFile(file)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(data)
	}))
	DeferCleanup(srv.Close)
	return srv, &seen
}

func fetcherFor(srv *httptest.Server) openapi.Fetcher {
	dc, err := discovery.NewDiscoveryClientForConfig(&rest.Config{Host: srv.URL})
	Expect(err).NotTo(HaveOccurred())
	return NewFetcher(dc.RESTClient())
}

var _ = Describe("the schema Fetcher", func() {
	ctx := context.Background()

	It("reads the OpenAPI v3 index and a group-version's document by its URL with query", func() {
		srv, seen := schemaServer(true)
		s, err := openapi.FromServer(ctx, fetcherFor(srv))
		Expect(err).NotTo(HaveOccurred())
		_, ok := s.ForKind("apps/v1", "Deployment")
		Expect(ok).To(BeTrue())
		Expect(*seen).To(Equal([]string{"/openapi/v3", "/openapi/v3/apis/apps/v1?hash=CLUSTERTEST1"}))
	})

	It("falls back to OpenAPI v2 when v3 is not served", func() {
		srv, seen := schemaServer(false)
		s, err := openapi.FromServer(ctx, fetcherFor(srv))
		Expect(err).NotTo(HaveOccurred())
		_, ok := s.ForKind("v1", "ConfigMap")
		Expect(ok).To(BeTrue())
		Expect(*seen).To(Equal([]string{"/openapi/v3", "/openapi/v2"}))
	})

	It("tells a 404 from other failures", func() {
		srv, _ := schemaServer(false)
		f := fetcherFor(srv)
		_, err := f.Fetch(ctx, "/nothing")
		Expect(errors.Is(err, openapi.ErrNotServed)).To(BeTrue())
		Expect(err).To(MatchError("GET /nothing: " + openapi.ErrNotServed.Error()))
		_, err = f.Fetch(ctx, "/broken")
		Expect(err).To(HaveOccurred())
		Expect(errors.Is(err, openapi.ErrNotServed)).To(BeFalse())
		Expect(err.Error()).To(HavePrefix("GET /broken: "))
	})
})
