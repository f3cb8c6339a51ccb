package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"regexp"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/dynamic"

	"github.com/plyproject/ply/pkg/value"
)

// The labels and annotations of the ApplySet specification (KEP-3659), as
// kubectl 1.32 reads and writes them.
const (
	// ApplySetIDLabel, on the parent, holds the ApplySet's id (ApplySetID).
	ApplySetIDLabel = "applyset.kubernetes.io/id"
	// ApplySetPartOfLabel, on every member, holds the id of its set.
	ApplySetPartOfLabel = "applyset.kubernetes.io/part-of"
	// ApplySetToolingAnnotation, on the parent, names the tool managing the
	// set: "NAME/VERSION" ("kubectl/v1.32.5", "ply/v0.3.0").
	ApplySetToolingAnnotation = "applyset.kubernetes.io/tooling"
	// ApplySetGroupKindsAnnotation, on the parent, lists the kinds that may
	// have members: "Kind.group" (the core group without the dot), sorted,
	// comma-separated.
	ApplySetGroupKindsAnnotation = "applyset.kubernetes.io/contains-group-kinds"
	// ApplySetGroupResourcesAnnotation is the older form of
	// ApplySetGroupKindsAnnotation ("deployments.apps,configmaps"), read
	// when the parent has no ApplySetGroupKindsAnnotation, never written.
	ApplySetGroupResourcesAnnotation = "applyset.kubernetes.io/contains-group-resources"
	// ApplySetNamespacesAnnotation, on the parent, lists the namespaces
	// other than the parent's own that may hold members, sorted,
	// comma-separated.
	ApplySetNamespacesAnnotation = "applyset.kubernetes.io/additional-namespaces"
	// ApplySetParentTypeLabel, on a CustomResourceDefinition (any value),
	// lets its custom resources be ApplySet parents.
	ApplySetParentTypeLabel = "applyset.kubernetes.io/is-parent-type"
)

// Tool names of the ApplySetToolingAnnotation that ply manages: its own,
// and kubectl's, whose sets ply continues (see Prune.Tooling).
const (
	PlyTool     = "ply"
	KubectlTool = "kubectl"
)

// DefaultTooling returns the tooling value ply writes on the parents it
// creates: "ply/" and the version of the ply module in the running binary
// ("ply/v0.0.0-devel" in a build from a checkout).
func DefaultTooling() string {
	version := "v0.0.0-devel"
	if bi, ok := debug.ReadBuildInfo(); ok {
		mods := append([]*debug.Module{&bi.Main}, bi.Deps...)
		for _, m := range mods {
			if m != nil && m.Path == "github.com/plyproject/ply" && strings.HasPrefix(m.Version, "v") {
				version = m.Version
				break
			}
		}
	}
	return PlyTool + "/" + version
}

// ApplySetID returns the id of the ApplySet whose parent is the object
// name in namespace ("" when cluster-scoped) of kind in group (""
// for the core group): "applyset-" followed by the unpadded URL-safe
// base64 of the SHA-256 of "name.namespace.kind.group", then "-v1".
func ApplySetID(name, namespace, kind, group string) string {
	sum := sha256.Sum256([]byte(name + "." + namespace + "." + kind + "." + group))
	return "applyset-" + base64.RawURLEncoding.EncodeToString(sum[:]) + "-v1"
}

// toolName returns the tool of a tooling value: what precedes its last
// slash (the whole value when it has none), as kubectl compares it.
func toolName(tooling string) string {
	if i := strings.LastIndexByte(tooling, '/'); i >= 0 {
		return tooling[:i]
	}
	return tooling
}

// CheckTooling checks a tooling value ply may write: "NAME/VERSION" with
// NAME ply or kubectl and a non-empty VERSION.
func CheckTooling(tooling string) error {
	name, version, ok := strings.Cut(tooling, "/")
	if !ok || version == "" || strings.Contains(version, "/") || (name != PlyTool && name != KubectlTool) {
		return errors.New(`invalid ApplySet tooling "` + tooling + `": want ply/VERSION or kubectl/VERSION`)
	}
	return nil
}

var (
	secretResource    = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
	configMapResource = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
)

// applySet is an ApplySet's parent as found on the server, and what
// ApplyPrune writes on it.
type applySet struct {
	// parent is the parent's ref (Resource set, Namespace "" when it is
	// cluster-scoped); ri reaches it.
	parent Ref
	ri     dynamic.ResourceInterface
	id     string
	// exists says whether the parent existed as a parent before this run
	// (a custom resource without ApplySet labels and annotations does
	// not).
	exists bool
	// tooling is the value written; manager the field manager of the
	// parent's writes, "<tool>-applyset" as kubectl names its own.
	tooling, manager string
	// kinds are the kinds the parent listed before this run, by their
	// mapping (kinds the server does not serve now are in unserved);
	// namespaces the namespaces it covered (its own included).
	kinds      map[schema.GroupKind]*meta.RESTMapping
	namespaces map[string]bool
	// unserved are the kinds the parent lists that the server does not
	// serve now (a CRD set to served: false, an aggregated API down, a
	// deleted CRD): their objects cannot be listed, so nothing of them is
	// pruned, and every write keeps them listed, so that a later run
	// still finds their members.
	unserved []string
	// corrupt are the entries of the parent's kinds annotation that are
	// not "Kind" or "Kind.group": the kinds of some members are unknown,
	// so this run prunes nothing, and every write keeps them as they are
	// for a person to fix.
	corrupt []string
	// client retries the parent's reads and writes that fail transiently
	// (a server-side apply of the same parent is safe to repeat), and
	// renders the server's refusals of them (Client.maskStatus: a Secret
	// parent's without the server's text).
	client *Client
}

// String names the parent in messages: `secret "app" in namespace "ns"`
// or `widget.example.com "app"`.
func (a *applySet) String() string {
	s := strings.TrimSuffix(a.parent.String(), "/"+a.parent.Name) + ` "` + a.parent.Name + `"`
	if a.parent.Namespace != "" {
		s += ` in namespace "` + a.parent.Namespace + `"`
	}
	return "ApplySet parent " + s
}

// mapResource returns the mapping of gvr (a resource, its singular or its
// kind, with or without version), reading discovery again once when the
// cached one does not know it.
func (c *Client) mapResource(gvr schema.GroupVersionResource) (*meta.RESTMapping, error) {
	gvk, err := c.mapper.KindFor(gvr)
	if err != nil && meta.IsNoMatchError(err) {
		c.mapper.Reset()
		gvk, err = c.mapper.KindFor(gvr)
	}
	if err != nil {
		return nil, err
	}
	return c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
}

// mapKind returns the mapping of gk in the first of versions served (its
// preferred version when none is given), reading discovery again once when
// the cached one does not know it.
func (c *Client) mapKind(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	m, err := c.mapper.RESTMapping(gk, versions...)
	if err != nil && meta.IsNoMatchError(err) {
		c.mapper.Reset()
		m, err = c.mapper.RESTMapping(gk, versions...)
	}
	return m, err
}

// openApplySet resolves p.ApplySet ("[RESOURCE[.GROUP]/]NAME"), checks that
// its type may be a parent (a Secret, a ConfigMap, or a custom resource
// whose CRD carries ApplySetParentTypeLabel), reads the parent and checks
// that ply may manage it: its tooling names ply or kubectl, its id label
// is the set's id.
func (c *Client) openApplySet(ctx context.Context, p Prune) (*applySet, error) {
	fail := func(msg string) (*applySet, error) {
		return nil, errors.New("--applyset=" + p.ApplySet + ": " + msg)
	}
	gvr, name := secretResource, p.ApplySet
	if res, n, ok := strings.Cut(p.ApplySet, "/"); ok {
		gvr, name = schema.ParseGroupResource(res).WithVersion(""), n
	}
	if name == "" || strings.Contains(name, "/") {
		return fail("want [RESOURCE[.GROUP]/]NAME with a name")
	}
	mapping, err := c.mapResource(gvr)
	if err != nil {
		return fail("cannot find the resource of the parent: " + err.Error())
	}
	res := mapping.Resource
	if res.GroupResource() != secretResource.GroupResource() && res.GroupResource() != configMapResource.GroupResource() {
		ok, err := c.parentType(ctx, res.GroupResource())
		if err != nil {
			return fail("cannot list the CustomResourceDefinitions labelled " + ApplySetParentTypeLabel + ": " + err.Error())
		}
		if !ok {
			return fail(`resource "` + res.GroupResource().String() + `" is not permitted as an ApplySet parent: a parent is a Secret, a ConfigMap ` +
				`or a custom resource whose CustomResourceDefinition carries the label ` + ApplySetParentTypeLabel)
		}
	}
	a := &applySet{
		parent:     Ref{GroupVersionKind: mapping.GroupVersionKind, Name: name, Resource: res.Resource},
		kinds:      map[schema.GroupKind]*meta.RESTMapping{},
		namespaces: map[string]bool{},
		client:     c,
	}
	if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		if !c.enforce {
			return fail("the parent is namespaced: name its namespace with -n (--namespace)")
		}
		a.parent.Namespace = c.namespace
		a.namespaces[c.namespace] = true
		a.ri = c.dyn.Resource(res).Namespace(c.namespace)
	} else {
		a.ri = c.dyn.Resource(res)
	}
	a.id = ApplySetID(name, a.parent.Namespace, a.parent.Kind, a.parent.Group)

	builtin := res.GroupResource() == secretResource.GroupResource() || res.GroupResource() == configMapResource.GroupResource()
	live, err := a.read(ctx)
	switch {
	case apierrors.IsNotFound(err):
		if !builtin {
			return fail("the " + a.String() + " does not exist: custom resource parents are not created automatically, create it first")
		}
	case err != nil:
		return fail("cannot read the " + a.String() + ": " + c.maskStatus(a.parent, err).Error())
	case !builtin && unmarked(live.GetLabels(), live.GetAnnotations()):
		// A custom resource of a parent type, created for the set and not
		// yet marked: the set starts empty (kubectl refuses it until its
		// id, tooling and kinds are written by hand).
	default:
		a.exists = true
	}
	tooling := p.Tooling
	if a.exists {
		if tooling, err = a.readExisting(c, live, tooling); err != nil {
			return fail(err.Error())
		}
	}
	if tooling == "" {
		tooling = DefaultTooling()
	}
	if err := CheckTooling(tooling); err != nil {
		return fail(err.Error())
	}
	a.tooling, a.manager = tooling, toolName(tooling)+"-applyset"
	return a, nil
}

// readExisting checks that ply may manage the existing parent live (its
// tooling names ply or kubectl, its id label is the set's), reads the
// kinds and namespaces it lists, and returns the tooling to write: the
// one asked for, else kubectl's on a set kubectl manages.
func (a *applySet) readExisting(c *Client, live *unstructured.Unstructured, tooling string) (string, error) {
	ann := live.GetAnnotations()
	current, ok := ann[ApplySetToolingAnnotation]
	switch tool := toolName(current); {
	case !ok:
		return "", errors.New("the " + a.String() + " exists without the annotation " + ApplySetToolingAnnotation + ": it is not an ApplySet ply may manage")
	case tool != PlyTool && tool != KubectlTool:
		return "", errors.New("the " + a.String() + ` is managed by the tool "` + tool + `" (` + ApplySetToolingAnnotation + "=" + current +
			`), not by ply or kubectl: refusing to change it`)
	case tooling == "" && tool == KubectlTool:
		// Continue kubectl's set as kubectl: it refuses any other tool.
		tooling = current
	}
	if got := live.GetLabels()[ApplySetIDLabel]; got != a.id {
		return "", errors.New("the " + a.String() + " has the label " + ApplySetIDLabel + `="` + got + `", want "` + a.id + `"`)
	}
	if err := a.readKinds(c, ann); err != nil {
		return "", errors.New("the " + a.String() + ": " + err.Error())
	}
	// Empty entries ("a,") are skipped: the empty namespace would list
	// every namespace.
	for _, ns := range splitList(ann[ApplySetNamespacesAnnotation]) {
		a.namespaces[ns] = true
	}
	return tooling, nil
}

// unmarked reports whether an object carries none of the ApplySet
// specification's labels and annotations.
func unmarked(labels, annotations map[string]string) bool {
	for k := range labels {
		if strings.HasPrefix(k, "applyset.kubernetes.io/") {
			return false
		}
	}
	for k := range annotations {
		if strings.HasPrefix(k, "applyset.kubernetes.io/") {
			return false
		}
	}
	return true
}

// readKinds reads the kinds the parent's annotations list. A kind the
// server does not serve now goes to unserved (kept listed, not pruned); a
// resource of the older annotation that the server does not serve is an
// error, for its kind cannot be known.
func (a *applySet) readKinds(c *Client, ann map[string]string) error {
	s, ok := ann[ApplySetGroupKindsAnnotation]
	if !ok {
		grs, ok := ann[ApplySetGroupResourcesAnnotation]
		if !ok {
			return errors.New("no annotation " + ApplySetGroupKindsAnnotation + " (nor the older " + ApplySetGroupResourcesAnnotation + ")")
		}
		for _, gr := range splitList(grs) {
			m, err := c.mapResource(schema.ParseGroupResource(gr).WithVersion(""))
			switch {
			case err == nil:
				a.kinds[m.GroupVersionKind.GroupKind()] = m
			case meta.IsNoMatchError(err):
				return errors.New(ApplySetGroupResourcesAnnotation + ": " + gr + ": the server does not serve it, and the kind of its members is unknown: " +
					"apply with kubectl, or write " + ApplySetGroupKindsAnnotation + " on the parent")
			default:
				return errors.New(ApplySetGroupResourcesAnnotation + ": " + gr + ": " + err.Error())
			}
		}
		return nil
	}
	for _, gk := range splitList(s) {
		if !wellFormedKind(gk) {
			a.corrupt = append(a.corrupt, gk)
			continue
		}
		m, err := c.mapKind(schema.ParseGroupKind(gk))
		switch {
		case err == nil:
			a.kinds[m.GroupVersionKind.GroupKind()] = m
		case meta.IsNoMatchError(err):
			a.unserved = append(a.unserved, schema.ParseGroupKind(gk).String())
		default:
			return errors.New(ApplySetGroupKindsAnnotation + ": " + gk + ": " + err.Error())
		}
	}
	return nil
}

// kindPattern is the form of a kind's name: a letter, then letters and
// digits.
var kindPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*$`)

// wellFormedKind reports whether an entry of the kinds annotation reads as
// "Kind" or "Kind.group" (a DNS subdomain).
func wellFormedKind(entry string) bool {
	gk := schema.ParseGroupKind(entry)
	return kindPattern.MatchString(gk.Kind) && (gk.Group == "" || len(validation.IsDNS1123Subdomain(gk.Group)) == 0)
}

// warnings are what the parent's annotations make a run say before it
// applies anything: kinds it cannot prune in this run.
func (a *applySet) warnings() []string {
	var out []string
	if len(a.corrupt) > 0 {
		out = append(out, "Warning: the "+a.String()+" has entries in its annotation "+ApplySetGroupKindsAnnotation+
			" that are not Kind or Kind.group ("+quoteAll(a.corrupt)+"): the kinds of its members are not known, so this run prunes nothing; "+
			"the entries are kept: correct them on the parent")
	}
	if len(a.unserved) > 0 {
		out = append(out, "Warning: the "+a.String()+" lists kinds the server does not serve now ("+strings.Join(a.unserved, ", ")+
			", in "+ApplySetGroupKindsAnnotation+"): their members are not pruned in this run, and the kinds stay listed")
	}
	return out
}

// quoteAll quotes each of ss and joins them with commas.
func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// splitList splits a comma-separated annotation, without empty items.
func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// parentType reports whether a CustomResourceDefinition labelled
// ApplySetParentTypeLabel defines gr.
func (c *Client) parentType(ctx context.Context, gr schema.GroupResource) (bool, error) {
	list, err := c.dyn.Resource(crdResource).List(ctx, metav1.ListOptions{LabelSelector: ApplySetParentTypeLabel})
	if err != nil {
		return false, err
	}
	for _, crd := range list.Items {
		if schema.ParseGroupResource(crd.GetName()) == gr {
			return true, nil
		}
	}
	return false, nil
}

// label returns copies of objs carrying the set's ApplySetPartOfLabel. An
// object that sets that label to another value is an error naming its
// source and the field.
func (a *applySet) label(objs []Object) ([]Object, error) {
	out := make([]Object, len(objs))
	var errs []error
	for i, o := range objs {
		md, _ := o.Value.Get("metadata")
		labels, ok := md.Get("labels")
		switch {
		case !ok || labels.IsNull():
			labels = value.MustMap()
		case !labels.IsMap():
			errs = append(errs, errors.New(o.Source+": metadata.labels: expected a map, got "+labels.Kind().String()))
			continue
		}
		if v, ok := labels.Get(ApplySetPartOfLabel); ok {
			if s, _ := v.AsString(); s != a.id {
				errs = append(errs, errors.New(o.Source+": metadata.labels."+ApplySetPartOfLabel+": the object names the ApplySet "+strconv.Quote(s)+
					", not "+a.id+" of the "+a.String()))
				continue
			}
		}
		out[i] = Object{Source: o.Source, Value: o.Value.With("metadata", md.With("labels", labels.With(ApplySetPartOfLabel, value.String(a.id))))}
	}
	return out, errors.Join(errs...)
}

// parentLists are the kinds ("Kind.group", as the kinds annotation
// spells them) and the namespaces a parent lists.
type parentLists struct {
	kinds, namespaces map[string]bool
}

// union returns the lists of both.
func (p parentLists) union(q parentLists) parentLists {
	out := parentLists{kinds: map[string]bool{}, namespaces: map[string]bool{}}
	for _, l := range [...]parentLists{p, q} {
		for k := range l.kinds {
			out.kinds[k] = true
		}
		for ns := range l.namespaces {
			out.namespaces[ns] = true
		}
	}
	return out
}

// listsOf returns what the parent live lists. A parent with only the
// older resources annotation lists the kinds read from it at open.
func (a *applySet) listsOf(live *unstructured.Unstructured) parentLists {
	out := parentLists{kinds: map[string]bool{}, namespaces: map[string]bool{}}
	ann := live.GetAnnotations()
	if s, ok := ann[ApplySetGroupKindsAnnotation]; ok {
		for _, gk := range splitList(s) {
			out.kinds[gk] = true
		}
	} else {
		out = out.union(a.opened())
	}
	for _, ns := range splitList(ann[ApplySetNamespacesAnnotation]) {
		out.namespaces[ns] = true
	}
	return out
}

// opened returns what the parent listed when the run opened it: its
// kinds (unserved and corrupt entries included) and namespaces.
func (a *applySet) opened() parentLists {
	out := parentLists{kinds: map[string]bool{}, namespaces: map[string]bool{}}
	for gk := range a.kinds {
		out.kinds[gk.String()] = true
	}
	for _, gk := range append(append([]string(nil), a.unserved...), a.corrupt...) {
		out.kinds[gk] = true
	}
	for ns := range a.namespaces {
		out.namespaces[ns] = true
	}
	return out
}

// maxParentAttempts bounds the writes of the parent that conflict with
// concurrent writers of it.
const maxParentAttempts = 10

// update sets the parent's id label and annotations, its kinds and
// namespaces being what next makes of the lists the parent holds now.
// The parent is read first and the write carries the resourceVersion
// read (optimistic lock); when it conflicts with another writer, the
// parent is read and next called again, so that what others added is
// merged, not overwritten. A Secret or ConfigMap parent that does not
// exist is created. Nothing is sent with DryRunClient.
func (a *applySet) update(ctx context.Context, dry DryRun, next func(current parentLists) parentLists) error {
	if dry == DryRunClient {
		return nil
	}
	for attempt := 1; ; attempt++ {
		current := parentLists{kinds: map[string]bool{}, namespaces: map[string]bool{}}
		rv := ""
		live, err := a.read(ctx)
		switch {
		case err == nil:
			current, rv = a.listsOf(live), live.GetResourceVersion()
		case !apierrors.IsNotFound(err):
			return errors.New("cannot read the " + a.String() + ": " + a.client.maskStatus(a.parent, err).Error())
		}
		err = a.write(ctx, dry, next(current), rv)
		if err == nil {
			return nil
		}
		if !apierrors.IsConflict(err) || attempt >= maxParentAttempts {
			return errors.New("cannot update the " + a.String() + ": " + a.client.maskStatus(a.parent, err).Error())
		}
	}
}

// write sets the parent's id label and annotations to want by
// server-side apply under a.manager, with rv as the resourceVersion
// precondition (none when empty: the parent is created). A conflict with
// another manager's fields is forced, as kubectl does; a conflict with
// the resourceVersion is returned.
func (a *applySet) write(ctx context.Context, dry DryRun, want parentLists, rv string) error {
	gks := make([]string, 0, len(want.kinds))
	for gk := range want.kinds {
		gks = append(gks, gk)
	}
	sort.Strings(gks)
	var nss []string
	for ns := range want.namespaces {
		if ns != a.parent.Namespace && ns != "" {
			nss = append(nss, ns)
		}
	}
	sort.Strings(nss)
	md := map[string]any{
		"name":   a.parent.Name,
		"labels": map[string]any{ApplySetIDLabel: a.id},
		"annotations": map[string]any{
			ApplySetToolingAnnotation:    a.tooling,
			ApplySetGroupKindsAnnotation: strings.Join(gks, ","),
			ApplySetNamespacesAnnotation: strings.Join(nss, ","),
		},
	}
	if a.parent.Namespace != "" {
		md["namespace"] = a.parent.Namespace
	}
	if rv != "" {
		md["resourceVersion"] = rv
	}
	data, err := json.Marshal(map[string]any{"apiVersion": a.parent.GroupVersion().String(), "kind": a.parent.Kind, "metadata": md})
	if err != nil {
		return err
	}
	opts := metav1.PatchOptions{FieldManager: a.manager}
	if dry == DryRunServer {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	// Repeated while it fails transiently: with the resourceVersion it
	// carries, a repeat of a stored write gets 409 and update reads again.
	return a.client.retrier().do(ctx, func(ctx context.Context) error {
		_, err := a.ri.Patch(ctx, a.parent.Name, types.ApplyPatchType, data, opts)
		if managerConflict(err) {
			force := true
			opts.Force = &force
			_, err = a.ri.Patch(ctx, a.parent.Name, types.ApplyPatchType, data, opts)
		}
		return err
	})
}

// read reads the parent, repeating the read while it fails transiently.
func (a *applySet) read(ctx context.Context) (live *unstructured.Unstructured, err error) {
	err = a.client.retrier().do(ctx, func(ctx context.Context) error {
		live, err = a.ri.Get(ctx, a.parent.Name, metav1.GetOptions{})
		return err
	})
	return live, err
}

// managerConflict reports whether err is server-side apply's conflict
// with another field manager (not an optimistic-lock conflict).
func managerConflict(err error) bool {
	var status apierrors.APIStatus
	if !apierrors.IsConflict(err) || !errors.As(err, &status) || status.Status().Details == nil {
		return false
	}
	for _, c := range status.Status().Details.Causes {
		if c.Type == metav1.CauseTypeFieldManagerConflict {
			return true
		}
	}
	return false
}
