package openapi

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"sync"
)

// Fetcher reads documents from a Kubernetes API server; the cluster client
// implements it over HTTP.
type Fetcher interface {
	// Fetch returns the body of a GET of path, a server-relative URL
	// ("/openapi/v3", "/openapi/v3/apis/apps/v1?hash=..."). A path the
	// server does not serve (HTTP 404) is an error wrapping ErrNotServed.
	Fetch(ctx context.Context, path string) ([]byte, error)
}

// ErrNotServed is wrapped by the errors a Fetcher returns for paths the
// server does not serve (HTTP 404).
var ErrNotServed = errors.New("not served by the server (404)")

// Paths the schema documents of a server are served at.
const (
	ServerV3Index = "/openapi/v3"
	ServerV2      = "/openapi/v2"
)

// serverDocs caches the group-version documents of servers, parsed once
// per process, by their serverRelativeURL, whose hash parameter makes it a
// content key: a server that changes a document serves it under a new URL.
// Entries are small (one per group-version of the clusters a process
// talks to) and are never evicted.
var serverDocs struct {
	sync.Mutex
	m map[string]*serverEntry
}

// serverEntry is the parsed document of one serverRelativeURL. mu
// serializes the first fetch, so that concurrent lookups parse once.
type serverEntry struct {
	mu     sync.Mutex
	done   bool // schema and err are final
	schema *Schema
	err    error
}

// v3Index is the discovery document served at /openapi/v3.
type v3Index struct {
	Paths map[string]struct {
		ServerRelativeURL string `json:"serverRelativeURL"`
	} `json:"paths"`
}

// FromServer returns the schema a server publishes. It fetches the
// OpenAPI v3 discovery document (ServerV3Index) and indexes its
// group-versions ("api/v1" is apiVersion v1, "apis/<group>/<version>" is
// <group>/<version>; other paths are skipped) without fetching them: the
// document of a group-version is fetched and parsed (as LoadV3 does) on
// the first ForKind of that apiVersion, and ByName fetches every document
// on first use. Parsed documents are shared by every FromServer of the
// process that lists the same serverRelativeURL. Documents are fetched
// with ctx: once ctx is done, kinds whose document was not fetched yet do
// not resolve. A document that cannot be fetched leaves its kinds
// unresolved in this Schema; a later FromServer fetches it again.
//
// When the server does not serve the v3 index (the Fetcher's error wraps
// ErrNotServed), FromServer fetches ServerV2 and loads it as LoadV2Named
// does (cached per process by content). Errors are *Error values naming
// the path at fault: a fetch failure, an index that is not JSON or lists a
// group-version without serverRelativeURL, a malformed v2 document.
func FromServer(ctx context.Context, f Fetcher) (*Schema, error) {
	data, err := f.Fetch(ctx, ServerV3Index)
	if errors.Is(err, ErrNotServed) {
		v2, err := f.Fetch(ctx, ServerV2)
		if err != nil {
			return nil, &Error{Document: ServerV2, Msg: "cannot fetch: " + err.Error()}
		}
		return loadCached("server "+ServerV2, v2)
	}
	if err != nil {
		return nil, &Error{Document: ServerV3Index, Msg: "cannot fetch: " + err.Error()}
	}
	var idx v3Index
	if err := json.Unmarshal(data, &idx); err != nil {
		return nil, &Error{Document: ServerV3Index, Msg: "not a valid OpenAPI v3 discovery document: " + err.Error()}
	}
	paths := make([]string, 0, len(idx.Paths))
	for p := range idx.Paths {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	l := &lazyDocs{byGV: make(map[string]*lazyDoc, len(paths))}
	for _, p := range paths {
		gv, ok := pathGroupVersion(p)
		if !ok {
			continue
		}
		url := idx.Paths[p].ServerRelativeURL
		if url == "" {
			return nil, &Error{Document: ServerV3Index, Definition: p, Msg: "the path has no serverRelativeURL, want the URL of its document"}
		}
		d := serverDoc(ctx, f, url)
		l.byGV[gv] = d
		l.order = append(l.order, d)
	}
	return &Schema{lazy: l}, nil
}

// pathGroupVersion returns the apiVersion of a discovery path.
func pathGroupVersion(p string) (string, bool) {
	parts := strings.Split(strings.Trim(p, "/"), "/")
	switch {
	case len(parts) == 2 && parts[0] == "api" && parts[1] != "":
		return parts[1], true
	case len(parts) == 3 && parts[0] == "apis" && parts[1] != "" && parts[2] != "":
		return parts[1] + "/" + parts[2], true
	}
	return "", false
}

// serverDoc returns the lazyDoc of url for one FromServer: it takes the
// process-wide parsed document of url, fetching it with ctx and f when no
// FromServer has parsed it yet. A fetch failure is not remembered by the
// process (a later FromServer retries); a parse error is (the content is
// the same).
func serverDoc(ctx context.Context, f Fetcher, url string) *lazyDoc {
	name := "server " + url
	return &lazyDoc{file: url, name: name, load: func() (*Schema, bool, error) {
		serverDocs.Lock()
		e := serverDocs.m[url]
		if e == nil {
			if serverDocs.m == nil {
				serverDocs.m = make(map[string]*serverEntry)
			}
			e = &serverEntry{}
			serverDocs.m[url] = e
		}
		serverDocs.Unlock()
		e.mu.Lock()
		defer e.mu.Unlock()
		if !e.done {
			data, err := f.Fetch(ctx, url)
			if err != nil {
				return nil, false, &Error{Document: name, Msg: "cannot fetch: " + err.Error()}
			}
			e.schema, e.err = loadV3(name, data)
			e.done = true
		}
		return e.schema, true, e.err
	}}
}
