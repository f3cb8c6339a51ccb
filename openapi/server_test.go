package openapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
)

// fakeServer serves the embedded v3 documents (or, with noV3, only the
// embedded v2 document) as a Kubernetes API server would, counting the
// fetches of each path. salt goes into every document hash so that specs
// do not share the process-wide document cache.
type fakeServer struct {
	salt   string
	noV3   bool
	failAt string // a path whose fetch fails
	mu     sync.Mutex
	counts map[string]int
	docs   map[string]string // serverRelativeURL -> embedded file
}

func newFakeServer(salt string) *fakeServer {
	f := &fakeServer{salt: salt, counts: make(map[string]int), docs: make(map[string]string)}
	files, err := openapi.EmbeddedV3Files()
	Expect(err).NotTo(HaveOccurred())
	for _, file := range files {
		p := strings.ReplaceAll(strings.TrimSuffix(file, "_openapi.json"), "__", "/")
		f.docs["/openapi/v3/"+p+"?hash="+salt+p] = file
	}
	return f
}

func (f *fakeServer) Fetch(ctx context.Context, path string) ([]byte, error) {
	f.mu.Lock()
	f.counts[path]++
	f.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if path == f.failAt {
		return nil, errors.New("connection reset")
	}
	switch {
	case path == "/openapi/v3" && f.noV3:
		return nil, fmt.Errorf("GET %s: 404 Not Found: %w", path, openapi.ErrNotServed)
	case path == "/openapi/v3":
		idx := map[string]map[string]map[string]string{"paths": {
			"version":                          {"serverRelativeURL": "/version"},
			".well-known/openid-configuration": {"serverRelativeURL": "/.well-known/openid-configuration"},
		}}
		for url := range f.docs {
			p := strings.TrimPrefix(url[:strings.Index(url, "?")], "/openapi/v3/")
			idx["paths"][p] = map[string]string{"serverRelativeURL": url}
		}
		return json.Marshal(idx)
	case path == "/openapi/v2" && f.noV3:
		return openapi.EmbeddedDefault, nil
	}
	if file, ok := f.docs[path]; ok {
		return openapi.EmbeddedV3(file)
	}
	return nil, fmt.Errorf("GET %s: 404 Not Found: %w", path, openapi.ErrNotServed)
}

// fetched returns how often path was fetched, and the total of document
// fetches (all but the index).
func (f *fakeServer) fetched(path string) (int, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	total := 0
	for p, n := range f.counts {
		if p != "/openapi/v3" {
			total += n
		}
	}
	return f.counts[path], total
}

// count returns how often path was fetched.
func (f *fakeServer) count(path string) int {
	n, _ := f.fetched(path)
	return n
}

func (f *fakeServer) url(p string) string { return "/openapi/v3/" + p + "?hash=" + f.salt + p }

var _ = Describe("FromServer", func() {
	ctx := context.Background()

	It("fetches a group-version's v3 document on its first lookup, once per process", func() {
		f := newFakeServer("once")
		s, err := openapi.FromServer(ctx, f)
		Expect(err).NotTo(HaveOccurred())
		_, total := f.fetched("")
		Expect(total).To(BeZero(), "only the index is fetched up front")
		expectMeta(s, "apps/v1", "Deployment", "spec.template.spec.containers[].ports", openapi.StrategyMerge, []string{"containerPort", "protocol"})
		expectMeta(s, "apps/v1", "Deployment", "spec.template.spec.containers", openapi.StrategyMerge, []string{"name"})
		n, total := f.fetched(f.url("apis/apps/v1"))
		Expect(n).To(Equal(1))
		Expect(total).To(Equal(1))

		again, err := openapi.FromServer(ctx, f)
		Expect(err).NotTo(HaveOccurred())
		d1, _ := s.ForKind("apps/v1", "Deployment")
		d2, _ := again.ForKind("apps/v1", "Deployment")
		Expect(d2).To(BeIdenticalTo(d1), "the parsed document is shared by its serverRelativeURL")
		n, total = f.fetched(f.url("apis/apps/v1"))
		Expect(n).To(Equal(1))
		Expect(total).To(Equal(1))

		_, ok := s.ForKind("v1", "Pod")
		Expect(ok).To(BeTrue())
		Expect(f.count(f.url("api/v1"))).To(Equal(1))
		expectUnresolved(s, "nope/v1", "Pod")
		Expect(byName(s, "io.k8s.api.core.v1.PodSpec").Kind).To(Equal(openapi.KindStruct))
	})

	It("parses a document once when many goroutines look it up at once", func() {
		f := newFakeServer("concurrent")
		a, err := openapi.FromServer(ctx, f)
		Expect(err).NotTo(HaveOccurred())
		b, err := openapi.FromServer(ctx, f)
		Expect(err).NotTo(HaveOccurred())
		var wg sync.WaitGroup
		found := make([]*openapi.Type, 16)
		for i := range found {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := a
				if i%2 == 1 {
					s = b
				}
				found[i], _ = s.ForKind("batch/v1", "Job")
			}()
		}
		wg.Wait()
		for _, t := range found {
			Expect(t).NotTo(BeNil())
			Expect(t).To(BeIdenticalTo(found[0]))
		}
		Expect(f.count(f.url("apis/batch/v1"))).To(Equal(1))
	})

	It("falls back to /openapi/v2 when the server has no v3 index", func() {
		f := newFakeServer("v2")
		f.noV3 = true
		s, err := openapi.FromServer(ctx, f)
		Expect(err).NotTo(HaveOccurred())
		Expect(f.count("/openapi/v2")).To(Equal(1))
		expectMeta(s, "apps/v1", "Deployment", "spec.template.spec.containers[].ports", openapi.StrategyMerge, []string{"containerPort"})
	})

	It("leaves the kinds of a document it cannot fetch unresolved, and fetches it again later", func() {
		f := newFakeServer("retry")
		f.failAt = f.url("apis/apps/v1")
		s, err := openapi.FromServer(ctx, f)
		Expect(err).NotTo(HaveOccurred())
		expectUnresolved(s, "apps/v1", "Deployment")
		f.failAt = ""
		s, err = openapi.FromServer(ctx, f)
		Expect(err).NotTo(HaveOccurred())
		_, ok := s.ForKind("apps/v1", "Deployment")
		Expect(ok).To(BeTrue())
		Expect(f.count(f.url("apis/apps/v1"))).To(Equal(2))
	})

	It("reports a failed index fetch and a failed v2 fallback naming the path", func() {
		f := newFakeServer("fail")
		f.failAt = "/openapi/v3"
		_, err := openapi.FromServer(ctx, f)
		Expect(err).To(MatchError("openapi: /openapi/v3: cannot fetch: connection reset"))
		f.noV3, f.failAt = true, "/openapi/v2"
		_, err = openapi.FromServer(ctx, f)
		Expect(err).To(MatchError("openapi: /openapi/v2: cannot fetch: connection reset"))
	})

	It("does not fetch documents once its context is done", func() {
		f := newFakeServer("cancel")
		cctx, cancel := context.WithCancel(ctx)
		s, err := openapi.FromServer(cctx, f)
		Expect(err).NotTo(HaveOccurred())
		cancel()
		expectUnresolved(s, "batch/v1", "Job")
	})
})
