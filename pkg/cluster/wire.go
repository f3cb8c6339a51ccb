package cluster

import (
	"context"
	"errors"
	"strconv"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
)

// The wire path: when Client.raw is set (New and the other constructors
// set it; tests that assemble a Client from fakes do not), the reads and
// writes of Apply send and receive JSON bytes through a REST client of the
// same connection and parse answers straight into values, instead of
// through the dynamic client's unstructured maps, which decode, encode and
// decode again every object (about half of ply's CPU per object). Requests,
// query parameters and the errors returned (*apierrors.StatusError for the
// server's refusals) are those of the dynamic client. Each request is sent
// once (client-go's own repeat after a Retry-After is off): the callers
// retry through retries (retry.go), which knows which repeats are safe.

// objectPath returns the URL path segments of the resource of ref in its
// namespace, and of the object name when name is not empty.
func objectPath(group, version, resource, namespace, name string) []string {
	var p []string
	if group == "" {
		p = append(p, "api")
	} else {
		p = append(p, "apis", group)
	}
	p = append(p, version)
	if namespace != "" {
		p = append(p, "namespaces", namespace)
	}
	p = append(p, resource)
	if name != "" {
		p = append(p, name)
	}
	return p
}

// refPath returns objectPath for the object ref names.
func refPath(ref Ref) []string {
	return objectPath(ref.Group, ref.Version, ref.Resource, ref.Namespace, ref.Name)
}

// decodeAnswer parses the server's JSON answer for an object.
func decodeAnswer(body []byte, what string) (value.Value, error) {
	v, err := parse.OwnedDocument(body)
	if err != nil {
		return value.Null, &badAnswerError{msg: "cannot read the " + what + ": " + err.Error()}
	}
	if !v.IsMap() {
		return value.Null, &badAnswerError{msg: "cannot read the " + what + ": not an object"}
	}
	return v, nil
}

// do sends req and returns the answer's body, or the error the server's
// Status describes (Result.Error decodes it, as the dynamic client does;
// Result.Raw alone keeps only a generic message).
func do(ctx context.Context, req *rest.Request) ([]byte, error) {
	res := req.MaxRetries(0).Do(ctx)
	if err := res.Error(); err != nil {
		return nil, err
	}
	return res.Raw()
}

// writeParams returns req, a write, with the parameters every write
// carries: the field manager, the field validation (--validate) and, for a
// dry run, dryRun=All.
func (c *Client) writeParams(req *rest.Request, manager string, dry bool) *rest.Request {
	req = req.Param("fieldManager", manager).Param("fieldValidation", c.fieldValidation())
	if dry {
		req = req.Param("dryRun", metav1.DryRunAll)
	}
	return req
}

// getRaw reads the object ref names; found is false when the server
// answers 404.
func (c *Client) getRaw(ctx context.Context, raw rest.Interface, ref Ref) (live value.Value, found bool, err error) {
	body, err := do(ctx, raw.Get().AbsPath(refPath(ref)...))
	if apierrors.IsNotFound(err) {
		return value.Null, false, nil
	}
	if err != nil {
		return value.Null, false, err
	}
	live, err = decodeAnswer(body, "live object")
	return live, err == nil, err
}

// writeRaw creates (create) or updates the object whose JSON is body and
// returns the server's answer.
func (c *Client) writeRaw(ctx context.Context, raw rest.Interface, ref Ref, create bool, body []byte, dry bool) (value.Value, error) {
	var req *rest.Request
	if create {
		req = raw.Post().AbsPath(objectPath(ref.Group, ref.Version, ref.Resource, ref.Namespace, "")...)
	} else {
		req = raw.Put().AbsPath(refPath(ref)...)
	}
	req = c.writeParams(req.SetHeader("Content-Type", "application/json").Body(body), c.fieldManager(), dry)
	answer, err := do(ctx, req)
	if err != nil {
		return value.Null, err
	}
	return decodeAnswer(answer, "server's answer")
}

// listRaw reads one page of the resource of key: the items, each with
// apiVersion and kind (the server leaves them out of the items of built-in
// lists; gvk gives them), and the continue token.
func listRaw(ctx context.Context, raw rest.Interface, key bulkKey, gvk [2]string, limit int64, cont string) ([]value.Value, string, error) {
	req := raw.Get().AbsPath(objectPath(key.group, key.version, key.resource, key.namespace, "")...).
		Param("limit", strconv.FormatInt(limit, 10))
	if cont != "" {
		req = req.Param("continue", cont)
	}
	body, err := do(ctx, req)
	if err != nil {
		return nil, "", err
	}
	l, err := decodeAnswer(body, "list")
	if err != nil {
		return nil, "", err
	}
	items, _ := l.Get("items")
	md, _ := l.Get("metadata")
	next := stringAt(md, "continue")
	out := make([]value.Value, 0, items.Len())
	for _, it := range items.Items() {
		if !it.IsMap() {
			return nil, "", errors.New("cannot read the list: an item is not an object")
		}
		if stringAt(it, "apiVersion") == "" || stringAt(it, "kind") == "" {
			it = it.With("apiVersion", value.String(gvk[0])).With("kind", value.String(gvk[1]))
		}
		out = append(out, it)
	}
	return out, next, nil
}
