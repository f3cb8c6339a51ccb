package cluster

import (
	"net/http"
	"net/http/httptest"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
)

var _ = Describe("ReadObjects from URLs", func() {
	var srv *httptest.Server
	BeforeEach(func() {
		srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/app.yaml":
				w.Write([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n"))
			case "/big.yaml":
				w.Write([]byte("a: \"" + strings.Repeat("x", parse.DefaultMaxBytes) + "\"\n"))
			default:
				http.NotFound(w, r)
			}
		}))
		DeferCleanup(srv.Close)
	})

	It("reads the documents of an http(s) URL, named by the URL, alongside files", func() {
		objs, err := ReadObjects([]string{srv.URL + "/app.yaml", "testdata/read/multi.yaml"}, false, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(names(objs)).To(Equal([]string{"ConfigMap/a", "ConfigMap/b", "ConfigMap/one", "Deployment/web"}))
		Expect(sources(objs)[:2]).To(Equal([]string{srv.URL + "/app.yaml#1", srv.URL + "/app.yaml#2"}))
	})

	DescribeTable("reports a URL that cannot be read",
		func(path, want string) {
			_, err := ReadObjects([]string{srv.URL + path}, false, nil)
			Expect(err).To(MatchError(ContainSubstring(srv.URL + path + want)))
		},
		Entry("not found", "/nope.yaml", ": cannot download: the server answered 404 Not Found"),
		Entry("larger than a file may be: the limit of files", "/big.yaml", ": input is 33554433 bytes, more than the limit of 33554432"),
	)
})
