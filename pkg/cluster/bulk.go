package cluster

import (
	"context"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/plyproject/ply/pkg/value"
)

// DefaultListThreshold is the fewest objects of one resource in one
// namespace that Apply reads with a LIST rather than a GET each, when
// Options.ListThreshold is zero. Below it the LIST's fixed cost (and the
// objects of the namespace the run does not want) outweigh the GETs saved.
const DefaultListThreshold = 16

// listPage is the page size (ListOptions.Limit) of bulk reads; listOverread
// bounds them: once a group's pages have returned listOverread times as many
// objects as the run wants of it, paging stops and the objects not found
// yet are read with a GET each. A LIST returns every object of the
// resource in the namespace, so without the bound a run applying 20
// ConfigMaps to a namespace holding 100,000 would read them all.
const (
	listPage     = 500
	listOverread = 4
)

// bulkKey is a group of a run's objects read by one LIST: one resource in
// one version, in one namespace ("" for cluster-scoped resources).
type bulkKey struct {
	group, version, resource, namespace string
}

// bulkReader holds the groups of a phase of Apply read with a LIST. A nil
// *bulkReader reads nothing: every object is read with a GET.
type bulkReader struct {
	groups map[bulkKey]*bulkGroup
	// order lists the groups in the order their first object appears in
	// the input, the order prefetch reads them in.
	order []*bulkGroup
	// wg counts the running prefetch.
	wg sync.WaitGroup
}

// bulkGroup is the LIST of one bulkKey, made once (by prefetch or by the
// first object of the group to be planned, whichever comes first).
//
// Invariant, once done: items holds, by name, the listed objects of the
// wanted names (each with apiVersion and kind, as a GET returns it);
// complete is true only when every page was read, so that a wanted name not
// in items did not exist when the LIST was served; failed is true when not
// even the first page could be read, and then the group answers nothing.
type bulkGroup struct {
	key  bulkKey
	ri   dynamic.ResourceInterface
	gvk  [2]string // apiVersion and kind of the group's objects
	want map[string]struct{}

	// raw, when not nil, reads the pages as JSON bytes (wire.go), else ri
	// does.
	raw rest.Interface
	// client retries the pages that fail transiently.
	client *Client

	once     sync.Once
	items    map[string]value.Value
	complete bool
	failed   bool
	// pages counts the LIST requests made: an error on the first marks
	// the group failed, on a later one incomplete.
	pages int
}

// newBulk groups the objects of objs at idx by resource and namespace and
// returns a reader for the groups of at least Options.ListThreshold distinct
// names, nil when there are none or the threshold is negative. Objects
// whose kind the server does not serve now, or whose namespace resolve
// would refuse, are left out: they are read (and fail) as before. It makes
// no request but discovery's (cached): the LISTs run when prefetch or
// lookup first needs them, so only resources that exist at that time (a
// CRD's kinds once it is established) are listed.
func (c *Client) newBulk(objs []Object, idx []int) *bulkReader {
	threshold := c.opts.ListThreshold
	if threshold == 0 {
		threshold = DefaultListThreshold
	}
	// The server-side lane reads each object too (its controls).
	if threshold < 0 || len(idx) < threshold {
		return nil
	}
	all := map[bulkKey]*bulkGroup{}
	var order []*bulkGroup
	for _, i := range idx {
		ref := refOf(objs[i])
		mapping, err := c.mapper.RESTMapping(ref.GroupKind(), ref.Version)
		if err != nil || ref.Name == "" {
			continue
		}
		key := bulkKey{group: mapping.Resource.Group, version: mapping.Resource.Version, resource: mapping.Resource.Resource}
		namespaced := mapping.Scope.Name() == meta.RESTScopeNameNamespace
		if namespaced {
			md, _ := objs[i].Value.Get("metadata")
			nsv, _ := md.Get("namespace")
			ns, _ := nsv.AsString()
			switch {
			case ns == "":
				ns = c.namespace
			case c.enforce && ns != c.namespace:
				continue
			}
			key.namespace = ns
		}
		g := all[key]
		if g == nil {
			g = &bulkGroup{key: key, want: map[string]struct{}{}, gvk: [2]string{ref.GroupVersion().String(), ref.Kind}, raw: c.raw, client: c}
			if namespaced {
				g.ri = c.dyn.Resource(mapping.Resource).Namespace(key.namespace)
			} else {
				g.ri = c.dyn.Resource(mapping.Resource)
			}
			all[key] = g
			order = append(order, g)
		}
		g.want[ref.Name] = struct{}{}
	}
	b := &bulkReader{groups: map[bulkKey]*bulkGroup{}}
	for _, g := range order {
		if len(g.want) >= threshold {
			b.groups[g.key] = g
			b.order = append(b.order, g)
		}
	}
	if len(b.order) == 0 {
		return nil
	}
	return b
}

// prefetch lists the groups one after the other in the background, so that
// a group's LIST overlaps the applies of the groups before it; wait waits
// for it. Each group is still listed once: lookup and prefetch share the
// group's sync.Once.
func (b *bulkReader) prefetch(ctx context.Context) {
	if b == nil || len(b.order) < 2 {
		return
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		for _, g := range b.order {
			if ctx.Err() != nil {
				return
			}
			g.load(ctx)
		}
	}()
}

// wait returns when prefetch has finished.
func (b *bulkReader) wait() {
	if b != nil {
		b.wg.Wait()
	}
}

// group returns the group t belongs to, nil when t is read with a GET.
func (b *bulkReader) group(t target) *bulkGroup {
	if b == nil {
		return nil
	}
	return b.groups[bulkKey{group: t.ref.Group, version: t.ref.Version, resource: t.ref.Resource, namespace: t.ref.Namespace}]
}

// lookup returns the listed object named name: live and found when it was
// listed; found false with known true when the complete LIST did not hold
// it (the object did not exist); known false when the LIST cannot say (it
// failed, or stopped paging early), and the caller must GET.
func (g *bulkGroup) lookup(ctx context.Context, name string) (live value.Value, found, known bool) {
	g.load(ctx)
	if g.failed {
		return value.Null, false, false
	}
	if v, ok := g.items[name]; ok {
		return v, true, true
	}
	return value.Null, false, g.complete
}

// page reads one page of the group's LIST: its items, each with apiVersion
// and kind, and the continue token.
func (g *bulkGroup) page(ctx context.Context, limit int64, cont string) ([]value.Value, string, error) {
	if g.raw != nil {
		return listRaw(ctx, g.raw, g.key, g.gvk, limit, cont)
	}
	l, err := g.ri.List(ctx, metav1.ListOptions{Limit: limit, Continue: cont})
	if err != nil {
		return nil, "", err
	}
	out := make([]value.Value, 0, len(l.Items))
	for i := range l.Items {
		u := &l.Items[i]
		// The list's decoder sets the items' apiVersion and kind from
		// the list's when the server leaves them out; this keeps the
		// object what a GET returns in any case.
		if u.GetAPIVersion() == "" || u.GetKind() == "" {
			u.SetAPIVersion(g.gvk[0])
			u.SetKind(g.gvk[1])
		}
		v, err := toValue(u)
		if err != nil {
			return nil, "", err
		}
		out = append(out, v)
	}
	return out, l.GetContinue(), nil
}

// load makes the group's LIST, once: pages of listPage objects, following
// continue tokens, until the last page, until every wanted name was found,
// or until listOverread times as many objects as wanted were read. A page
// that fails transiently is read again (retries). An error on the first
// page marks the group failed; on a later page (an expired continue token)
// it keeps what was read, incomplete.
func (g *bulkGroup) load(ctx context.Context) {
	g.once.Do(func() {
		g.items = make(map[string]value.Value, len(g.want))
		limit := min(listPage, int64(listOverread*len(g.want)))
		read, cont := 0, ""
		for {
			var items []value.Value
			var next string
			err := g.client.retrier().do(ctx, func(ctx context.Context) error {
				var err error
				items, next, err = g.page(ctx, limit, cont)
				return err
			})
			g.pages++
			if err != nil {
				g.failed = g.pages == 1
				return
			}
			for _, it := range items {
				read++
				name := stringAt(it, "metadata", "name")
				if _, ok := g.want[name]; ok {
					g.items[name] = it
				}
			}
			switch cont = next; {
			case cont == "":
				g.complete = true
				return
			case len(g.items) == len(g.want), read >= listOverread*len(g.want):
				return
			}
		}
	})
}

// readLive reads the live object of t: t.pre when it was read already,
// else from its group's LIST when t.bulk
// is set and the LIST knows the object, else with a GET, repeated while it
// fails transiently (t.retries). It returns the object and whether it
// exists, or the GET's error (never NotFound).
func (c *Client) readLive(ctx context.Context, t target) (live value.Value, found bool, err error) {
	if t.pre != nil {
		return t.pre.live, t.pre.found, nil
	}
	if t.bulk != nil {
		if v, found, known := t.bulk.lookup(ctx, t.ref.Name); known {
			return v, found, nil
		}
	}
	err = t.retries.do(ctx, func(ctx context.Context) error {
		var err error
		live, found, err = c.getOnce(ctx, t)
		return err
	})
	return live, found, err
}

// getOnce sends one GET of the live object of t.
func (c *Client) getOnce(ctx context.Context, t target) (value.Value, bool, error) {
	if c.raw != nil {
		return c.getRaw(ctx, c.raw, t.ref)
	}
	u, err := t.ri.Get(ctx, t.ref.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return value.Null, false, nil
	}
	if err != nil {
		return value.Null, false, err
	}
	v, err := toValue(u)
	return v, err == nil, err
}
