package harness

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Proxy is a TLS reverse proxy on loopback in front of a Server's API
// server, for injecting races and faults at the HTTP level. It forwards
// every request unchanged (the caller's bearer token included) unless an
// interceptor handles it, and it counts requests by method and URL path.
// It serves the Server's certificate, so clients trust it through the same
// CA.
type Proxy struct {
	// URL is the proxy's base URL, https://127.0.0.1:PORT.
	URL string
	// Kubeconfig is an admin kubeconfig (context ContextName) pointing at
	// the proxy; Config is the same configuration with client-side rate
	// limiting disabled.
	Kubeconfig string
	Config     *rest.Config

	server   *Server
	http     *http.Server
	listener net.Listener
	forward  *httputil.ReverseProxy
	target   *url.URL
	faults   faultState

	closeOnce sync.Once
	closeErr  error

	mu           sync.Mutex
	counts       map[string]int
	statuses     map[string][]int
	hooks        []*hook
	interceptors []func(http.ResponseWriter, *http.Request) bool
	hookErrs     []error
}

type hook struct {
	method, path string
	fn           func(*http.Request) error
	fired        bool
}

// StartProxy starts a Proxy in front of s. Close it when done (Stop does
// not).
func (s *Server) StartProxy() (*Proxy, error) {
	target, err := url.Parse(s.URL)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(s.CAData)
	cert, err := tls.LoadX509KeyPair(s.pki.servingCert, s.pki.servingK)
	if err != nil {
		return nil, fmt.Errorf("harness[%s]: proxy certificate: %w", s.Name, err)
	}
	l, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2", "http/1.1"}})
	if err != nil {
		return nil, fmt.Errorf("harness[%s]: proxy listener: %w", s.Name, err)
	}
	p := &Proxy{
		URL:      "https://" + l.Addr().String(),
		server:   s,
		listener: l,
		counts:   map[string]int{},
		statuses: map[string][]int{},
		target:   target,
	}
	p.forward = &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			r.Out.Host = target.Host
		},
		Transport:     &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true, MaxIdleConnsPerHost: 100},
		FlushInterval: -1,
	}
	p.http = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second}
	go p.http.Serve(l)
	path, err := s.writeKubeconfig("admin", p.URL)
	if err != nil {
		p.Close()
		return nil, err
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("harness[%s]: reading back %s: %w", s.Name, path, err)
	}
	cfg.QPS = -1
	cfg.Timeout = time.Minute
	p.Kubeconfig, p.Config = path, cfg
	return p, nil
}

// ServeHTTP counts the request, serves it (serve) and records how it was
// answered (Statuses).
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sw := &statusWriter{ResponseWriter: w}
	whole := false
	defer func() {
		code := sw.code
		if !whole || r.Context().Err() != nil {
			code = Abandoned
		}
		p.mu.Lock()
		p.statuses[r.Method+" "+r.URL.Path] = append(p.statuses[r.Method+" "+r.URL.Path], code)
		p.mu.Unlock()
	}()
	p.serve(sw, r)
	whole = true // (a fault resetting the connection panics past this)
}

// serve runs the first matching unfired hook, then the interceptors, then
// the fault plan (InjectFaults), then forwards the request to the API
// server.
func (p *Proxy) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.counts[r.Method+" "+r.URL.Path]++
	var h *hook
	for _, c := range p.hooks {
		if !c.fired && c.method == r.Method && c.path == r.URL.Path {
			c.fired = true
			h = c
			break
		}
	}
	interceptors := append([]func(http.ResponseWriter, *http.Request) bool(nil), p.interceptors...)
	p.mu.Unlock()
	if h != nil {
		if err := h.fn(r); err != nil {
			err = fmt.Errorf("harness proxy hook on %s %s: %w", r.Method, r.URL.Path, err)
			p.mu.Lock()
			p.hookErrs = append(p.hookErrs, err)
			p.mu.Unlock()
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
	}
	for _, ic := range interceptors {
		if ic(w, r) {
			return
		}
	}
	if p.serveFault(w, r) {
		return
	}
	p.forward.ServeHTTP(w, r)
}

// OnFirst registers hook to run once, on the first request whose method
// (e.g. http.MethodPut) and URL path (see ObjectPath) match, before that
// request is forwarded. The hook runs on the request's goroutine and may
// call the API server directly (Server.Config / Server.Dynamic) — e.g. a
// competing update that makes the held request's resourceVersion stale.
// When the hook returns an error, the request is answered 502 with the
// error and the error is kept for HookErrors.
func (p *Proxy) OnFirst(method, path string, fn func(*http.Request) error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hooks = append(p.hooks, &hook{method: method, path: path, fn: fn})
}

// Fired reports whether the OnFirst hooks registered for method and path
// have all run (false when none is registered).
func (p *Proxy) Fired(method, path string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	found := false
	for _, h := range p.hooks {
		if h.method == method && h.path == path {
			if !h.fired {
				return false
			}
			found = true
		}
	}
	return found
}

// Intercept registers fn to see every request after hooks ran; when fn
// returns true it has written the response and the request is not
// forwarded. Interceptors run in registration order.
func (p *Proxy) Intercept(fn func(w http.ResponseWriter, r *http.Request) bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.interceptors = append(p.interceptors, fn)
}

// Count returns how many requests with method and URL path the proxy has
// received so far.
func (p *Proxy) Count(method, path string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.counts[method+" "+path]
}

// Abandoned is the status Statuses records for a request whose answer did
// not reach its client whole: the client went away first (a timeout, a
// closed connection), or a fault reset the connection.
const Abandoned = -1

// Statuses returns the HTTP status each request with method and URL path
// was answered with, in the order the answers ended (Abandoned where the
// answer did not reach the client whole; 200 where it had a body and no
// status).
func (p *Proxy) Statuses(method, path string) []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]int(nil), p.statuses[method+" "+path]...)
}

// statusWriter is an http.ResponseWriter that keeps the status it is
// answered with.
type statusWriter struct {
	http.ResponseWriter
	code int
}

// WriteHeader keeps the first status written.
func (s *statusWriter) WriteHeader(code int) {
	if s.code == 0 {
		s.code = code
	}
	s.ResponseWriter.WriteHeader(code)
}

// Write writes b, the status being 200 if none was written.
func (s *statusWriter) Write(b []byte) (int, error) {
	if s.code == 0 {
		s.code = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// Flush sends what was written so far to the client.
func (s *statusWriter) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController (the reverse proxy's flushes) the
// writer underneath.
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// HookErrors returns the errors OnFirst hooks returned, in order.
func (p *Proxy) HookErrors() []error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]error(nil), p.hookErrs...)
}

// Close stops the proxy and closes its connections: clients see their
// connections reset and new ones refused. Later calls return the first
// call's result.
func (p *Proxy) Close() error {
	p.closeOnce.Do(func() { p.closeErr = p.http.Close() })
	return p.closeErr
}
