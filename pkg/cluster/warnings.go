package cluster

import (
	"context"
	"slices"
	"sync"
)

// The server's warnings (HTTP Warning headers of code 299: an unknown or
// duplicate field, a deprecated API) reach a Client's connection handler,
// serverWarnings, instead of client-go's default, which logs them through
// klog. A warning answering a request about one object (its read, write,
// re-creation, dry run) joins that object's Outcome.Warnings or
// DiffResult.Warnings, so that it is printed under the object; the others
// (discovery, the schema, an ApplySet's parent, a prune) go to
// Options.Warn.

// warningsKey is the context key of a *heardWarnings.
type warningsKey struct{}

// heardWarnings gathers the server's warnings of the requests made with a
// context that carries it: those about one object. Each text is kept
// once (a retried write hears it again).
type heardWarnings struct {
	mu    sync.Mutex
	texts []string
}

// withWarnings returns ctx carrying a new heardWarnings, and it.
func withWarnings(ctx context.Context) (context.Context, *heardWarnings) {
	h := &heardWarnings{}
	return context.WithValue(ctx, warningsKey{}, h), h
}

func (h *heardWarnings) add(text string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !slices.Contains(h.texts, text) {
		h.texts = append(h.texts, text)
	}
}

// appendTo returns warnings followed by the texts heard.
func (h *heardWarnings) appendTo(warnings []string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append(warnings, h.texts...)
}

// serverWarnings is the rest.WarningHandlerWithContext of a Client's
// connection.
type serverWarnings struct {
	// other receives the warnings of requests about no one object; nil
	// drops them.
	other func(text string)
}

// HandleWarningHeaderWithContext takes a Warning header: code 299 (the
// API server's) with a text, as client-go's own handler does.
func (s serverWarnings) HandleWarningHeaderWithContext(ctx context.Context, code int, _ string, text string) {
	if code != 299 || text == "" {
		return
	}
	if h, ok := ctx.Value(warningsKey{}).(*heardWarnings); ok {
		h.add(text)
		return
	}
	if s.other != nil {
		s.other(text)
	}
}
