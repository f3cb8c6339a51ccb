package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Fault is what a Proxy does to one request in place of forwarding it
// plainly (see Proxy.InjectFaults).
type Fault int

const (
	// NoFault forwards the request and returns the server's answer.
	NoFault Fault = iota
	// ResetBefore cuts the request's connection (an HTTP/1.1 connection
	// is closed, an HTTP/2 stream reset) without forwarding it.
	ResetBefore
	// TooManyBefore answers 429 with Retry-After: 1 without forwarding.
	TooManyBefore
	// UnavailableBefore answers 503 (no Retry-After) without forwarding.
	UnavailableBefore
	// Stall holds the request for FaultPlan.Stall, then forwards it (also
	// when the client gave up meanwhile: a slow server still carries the
	// request out).
	Stall
	// Hang holds the request until the client gives up; it is never
	// forwarded.
	Hang
	// UnavailableAfter forwards the request, drops the server's answer
	// and answers 503: the request was carried out, the client cannot
	// know.
	UnavailableAfter
	// RetryAfterAfter is UnavailableAfter with Retry-After: 1 on the 503
	// (which makes client-go's REST client send the request again by
	// itself).
	RetryAfterAfter
	// ResetAfter forwards the request, drops the answer and cuts the
	// connection.
	ResetAfter
	// TruncateAfter forwards the request and sends the answer's status,
	// headers and half of its body, then cuts the connection.
	TruncateAfter
)

// Faults lists every Fault but NoFault, for plans that draw among them.
var Faults = []Fault{ResetBefore, TooManyBefore, UnavailableBefore, Hang, Stall, UnavailableAfter, RetryAfterAfter, ResetAfter, TruncateAfter}

// String names the fault.
func (f Fault) String() string {
	names := [...]string{"none", "reset-before", "429-before", "503-before", "stall", "hang", "503-after", "503-retry-after-after",
		"reset-after", "truncate-after"}
	if int(f) < len(names) {
		return names[f]
	}
	return "fault-" + strconv.Itoa(int(f))
}

// Forwarded reports whether the request reaches the server under f.
func (f Fault) Forwarded() bool {
	return f == NoFault || (f >= Stall && f != Hang)
}

// FaultPlan decides the fault of each request.
type FaultPlan struct {
	// Choose returns the fault of r (called once per request, serially:
	// it may draw from a seeded math/rand source without locking).
	Choose func(r *http.Request) Fault
	// Stall is how long a Stall fault holds a request.
	Stall time.Duration
}

// Exchange is what the proxy saw of one request under InjectFaults: the
// fault applied and, for a forwarded request, the server's answer. Name
// and RV are the metadata.name and metadata.resourceVersion of the
// request's body (a create or an update), AnswerRV the resourceVersion
// of the server's answer; for other methods Name is the last segment of
// the path.
type Exchange struct {
	Method, Path string
	Fault        Fault
	Status       int // the server's status; 0 when not forwarded or it failed
	Name, RV     string
	AnswerRV     string
}

// Stored reports whether the server carried out a write: a POST, PUT or
// DELETE it answered with 2xx; an update only when the resourceVersion
// moved (an update that changes nothing keeps it).
func (e Exchange) Stored() bool {
	if e.Status < 200 || e.Status > 299 {
		return false
	}
	switch e.Method {
	case http.MethodPost, http.MethodDelete:
		return true
	case http.MethodPut:
		return e.AnswerRV != e.RV
	}
	return false
}

// faultState is a Proxy's fault injection.
type faultState struct {
	mu        sync.Mutex
	plan      *FaultPlan
	exchanges []Exchange
}

// InjectFaults makes the proxy apply plan to every request but watches
// (which it forwards plainly), recording an Exchange for each; nil stops
// injecting (the exchanges are kept). It runs after OnFirst hooks and
// interceptors.
func (p *Proxy) InjectFaults(plan *FaultPlan) {
	p.faults.mu.Lock()
	defer p.faults.mu.Unlock()
	p.faults.plan = plan
}

// Exchanges returns the exchanges recorded so far, in the order requests
// arrived.
func (p *Proxy) Exchanges() []Exchange {
	p.faults.mu.Lock()
	defer p.faults.mu.Unlock()
	return append([]Exchange(nil), p.faults.exchanges...)
}

// serveFault handles r under the fault plan; false when no plan is set
// or r is a watch.
func (p *Proxy) serveFault(w http.ResponseWriter, r *http.Request) bool {
	p.faults.mu.Lock()
	plan := p.faults.plan
	if plan == nil || r.URL.Query().Get("watch") == "true" {
		p.faults.mu.Unlock()
		return false
	}
	f := plan.Choose(r)
	i := len(p.faults.exchanges)
	p.faults.exchanges = append(p.faults.exchanges, Exchange{Method: r.Method, Path: r.URL.Path, Fault: f})
	p.faults.mu.Unlock()

	body, _ := io.ReadAll(r.Body)
	name, rv := objectMeta(body)
	if r.Method != http.MethodPost {
		name = path.Base(r.URL.Path)
	}
	p.record(i, func(e *Exchange) { e.Name, e.RV = name, rv })
	switch f {
	case ResetBefore:
		panic(http.ErrAbortHandler)
	case TooManyBefore:
		w.Header().Set("Retry-After", "1")
		http.Error(w, "injected: too many requests", http.StatusTooManyRequests)
		return true
	case UnavailableBefore:
		http.Error(w, "injected: unavailable", http.StatusServiceUnavailable)
		return true
	case Stall:
		time.Sleep(plan.Stall)
	case Hang:
		<-r.Context().Done()
		panic(http.ErrAbortHandler)
	}
	resp, answer, err := p.roundTrip(r, body)
	if err != nil {
		http.Error(w, "injected proxy: the server is unreachable: "+err.Error(), http.StatusBadGateway)
		return true
	}
	_, arv := objectMeta(answer)
	p.record(i, func(e *Exchange) { e.Status, e.AnswerRV = resp.StatusCode, arv })
	switch f {
	case UnavailableAfter:
		http.Error(w, "injected: the answer was lost", http.StatusServiceUnavailable)
	case RetryAfterAfter:
		w.Header().Set("Retry-After", "1")
		http.Error(w, "injected: the answer was lost", http.StatusServiceUnavailable)
	case ResetAfter:
		panic(http.ErrAbortHandler)
	case TruncateAfter:
		copyHeader(w.Header(), resp.Header)
		w.Header().Set("Content-Length", strconv.Itoa(len(answer)))
		w.WriteHeader(resp.StatusCode)
		w.Write(answer[:len(answer)/2])
		if fl, ok := w.(http.Flusher); ok {
			fl.Flush()
		}
		panic(http.ErrAbortHandler)
	default:
		copyHeader(w.Header(), resp.Header)
		w.WriteHeader(resp.StatusCode)
		w.Write(answer)
	}
	return true
}

// record updates exchange i.
func (p *Proxy) record(i int, f func(*Exchange)) {
	p.faults.mu.Lock()
	defer p.faults.mu.Unlock()
	f(&p.faults.exchanges[i])
}

// roundTrip sends r with body to the API server and reads the whole
// answer.
func (p *Proxy) roundTrip(r *http.Request, body []byte) (*http.Response, []byte, error) {
	out := r.Clone(context.WithoutCancel(r.Context()))
	out.URL.Scheme, out.URL.Host = p.target.Scheme, p.target.Host
	out.Host, out.RequestURI = p.target.Host, ""
	out.Body, out.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	out.Header.Del("Connection")
	resp, err := p.forward.Transport.RoundTrip(out)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, err
	}
	return resp, answer, nil
}

// copyHeader copies the end-to-end headers of from into to.
func copyHeader(to, from http.Header) {
	for k, vs := range from {
		switch strings.ToLower(k) {
		case "connection", "content-length", "transfer-encoding", "keep-alive":
			continue
		}
		to[k] = append([]string(nil), vs...)
	}
}

// objectMeta returns the metadata.name and metadata.resourceVersion of a
// JSON object, "" for what it lacks or when it is not one.
func objectMeta(body []byte) (name, rv string) {
	var o struct {
		Metadata struct {
			Name            string `json:"name"`
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	if len(body) == 0 || json.Unmarshal(body, &o) != nil {
		return "", ""
	}
	return o.Metadata.Name, o.Metadata.ResourceVersion
}
