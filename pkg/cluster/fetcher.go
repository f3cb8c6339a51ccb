package cluster

import (
	"context"
	"fmt"

	"github.com/plyproject/ply/openapi"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"
)

// NewFetcher returns an openapi.Fetcher that GETs server-relative URLs
// (path and query, such as "/openapi/v3/apis/apps/v1?hash=...") through rc,
// a REST client of the server's root (the discovery client's). A 404 is
// an error wrapping openapi.ErrNotServed; other failures are returned as
// the client reports them. Pass it to openapi.FromServer, which caches the
// parsed documents per process.
func NewFetcher(rc rest.Interface) openapi.Fetcher { return &restFetcher{rc: rc} }

type restFetcher struct {
	rc rest.Interface
	// retry, when not nil, runs each GET, repeating it as it sees fit.
	retry func(ctx context.Context, op func(context.Context) error) error
}

// Fetch implements openapi.Fetcher.
func (f *restFetcher) Fetch(ctx context.Context, path string) (data []byte, err error) {
	get := func(ctx context.Context) error {
		data, err = f.rc.Get().RequestURI(path).SetHeader("Accept", "application/json").Do(ctx).Raw()
		return err
	}
	if f.retry != nil {
		err = f.retry(ctx, get)
	} else {
		err = get(ctx)
	}
	if err != nil {
		if apierrors.IsNotFound(err) {
			return nil, &notServedError{path: path}
		}
		return nil, fmt.Errorf("GET %s: %w", path, err)
	}
	return data, nil
}

// notServedError is a 404 of path; it wraps openapi.ErrNotServed.
type notServedError struct{ path string }

func (e *notServedError) Error() string { return "GET " + e.path + ": " + openapi.ErrNotServed.Error() }
func (e *notServedError) Unwrap() error { return openapi.ErrNotServed }
