package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// Prune says what ApplyPrune deletes after applying: either the members of
// an ApplySet that this run no longer holds (ApplySet set), or, kubectl's
// older form, the objects of a list of kinds that match Selector (or any,
// with All), carry a last-applied annotation and were not applied in this
// run.
type Prune struct {
	// ApplySet is the parent of the set as kubectl's --applyset names it:
	// "[RESOURCE[.GROUP]/]NAME", a Secret when no resource is given
	// ("app", "configmaps/app", "widgets.example.com/app"). A namespaced
	// parent lives in Options.Namespace, which must be set.
	ApplySet string
	// Tooling is the value of the parent's ApplySetToolingAnnotation to
	// write ("ply/v0.3.0" or "kubectl/v1.32.5", see CheckTooling). Empty
	// means: keep the value of a parent kubectl manages (so that kubectl
	// continues to accept it), else DefaultTooling.
	Tooling string

	// Selector is the label selector of the older form; All selects every
	// object instead. Exactly one is set when ApplySet is not.
	Selector string
	All      bool
	// Allowlist are the kinds the older form lists (its version is the one
	// listed); empty means DefaultPruneKinds.
	Allowlist []schema.GroupVersionKind

	// Propagation is the propagation policy of the deletions; empty means
	// Background.
	Propagation metav1.DeletionPropagation

	// Lock configures the Lease a run holds on its ApplySet (not in dry
	// runs): see lease.go.
	Lock Lock
	// Notify, when not nil, hears what the run says besides its
	// outcomes, one line at a time: that it waits for the Lease another
	// run holds, warnings ("Warning: ...") about the parent or the kinds
	// pruned.
	Notify func(line string)
}

// notify tells p.Notify line, when set.
func (p Prune) notify(line string) {
	if p.Notify != nil {
		p.Notify(line)
	}
}

// DefaultPruneKinds are the kinds kubectl 1.32's older form of pruning
// lists when no allowlist is given: namespaced ones in the namespaces of
// the run, then the cluster-scoped Namespace and PersistentVolume. ply's
// default is the namespaced ones only: cluster-scoped kinds are pruned
// when Prune.Allowlist names them.
var DefaultPruneKinds = []schema.GroupVersionKind{
	{Version: "v1", Kind: "ConfigMap"},
	{Version: "v1", Kind: "Endpoints"},
	{Version: "v1", Kind: "PersistentVolumeClaim"},
	{Version: "v1", Kind: "Pod"},
	{Version: "v1", Kind: "ReplicationController"},
	{Version: "v1", Kind: "Secret"},
	{Version: "v1", Kind: "Service"},
	{Group: "batch", Version: "v1", Kind: "Job"},
	{Group: "batch", Version: "v1", Kind: "CronJob"},
	{Group: "networking.k8s.io", Version: "v1", Kind: "Ingress"},
	{Group: "apps", Version: "v1", Kind: "DaemonSet"},
	{Group: "apps", Version: "v1", Kind: "Deployment"},
	{Group: "apps", Version: "v1", Kind: "ReplicaSet"},
	{Group: "apps", Version: "v1", Kind: "StatefulSet"},
	{Version: "v1", Kind: "Namespace"},
	{Version: "v1", Kind: "PersistentVolume"},
}

// ParsePruneKind parses an allowlist entry as kubectl's --prune-allowlist
// takes it: "group/version/Kind", with "core" for the core group
// ("core/v1/ConfigMap", "apps/v1/Deployment").
func ParsePruneKind(s string) (schema.GroupVersionKind, error) {
	parts := strings.Split(s, "/")
	if len(parts) != 3 || parts[1] == "" || parts[2] == "" {
		return schema.GroupVersionKind{}, errors.New(`invalid --prune-allowlist entry "` + s + `": want group/version/Kind (core/v1/ConfigMap, apps/v1/Deployment)`)
	}
	if parts[0] == "core" {
		parts[0] = ""
	}
	return schema.GroupVersionKind{Group: parts[0], Version: parts[1], Kind: parts[2]}, nil
}

// PruneSource is the Object.Source of the outcomes of pruned objects.
const PruneSource = "prune"

// PruneSkippedError is ApplyPrune's error when objects failed to apply:
// nothing was deleted.
type PruneSkippedError struct {
	// Failed is the number of objects that failed.
	Failed int
}

func (e *PruneSkippedError) Error() string {
	n := strconv.Itoa(e.Failed) + " objects"
	if e.Failed == 1 {
		n = "1 object"
	}
	return "pruning skipped: " + n + " failed to apply; nothing was deleted"
}

// ApplyPrune applies objs as Apply does, then deletes what p selects and
// the run did not apply. It returns the outcomes of objs (in input order)
// followed by one outcome per object pruned (Action Pruned, or Failed),
// which Options.Report hears of at indices from len(objs) on, in the
// order of deletion.
//
// With p.ApplySet, the flow is kubectl's (KEP-3659): the parent is read
// and checked (openApplySet) and every object gets the set's
// ApplySetPartOfLabel (so it is recorded in its last-applied
// configuration) before anything is written; the parent then lists the
// union of the kinds and namespaces it listed and those of this run, the
// objects are applied, the members (by label) of every kind in every
// namespace the parent listed before are deleted unless applied in this
// run, and the parent at last lists what this run holds. A run that stops
// on the way leaves the union on the parent, so no member is ever lost
// from the set. Outside dry runs, the run holds the set's Lease (lease.go)
// from before it reads the parent until its last write of it, so runs on
// one set take turns; every write of the parent carries the
// resourceVersion read and is merged again after a conflict (update), so
// what another writer added stays listed. A parent that is itself among
// objs is refused; a kinds annotation with entries that are not kinds
// makes the run prune nothing.
//
// The older form lists the kinds of p.Allowlist (else the namespaced kinds
// of DefaultPruneKinds): namespaced ones in the namespaces of the run's
// objects (and Options.Namespace when set), cluster-scoped ones across
// the cluster, matching p.Selector, and deletes those that carry a
// last-applied annotation (kubectl's or ply's compressed one) and were
// not applied.
//
// Safety: nothing is deleted when any object failed to apply (the error is
// a *PruneSkippedError); a member a per-object control protects
// (ignoredPrune) is not deleted, its outcome Ignored; deletions go in
// reverse apply order (other
// objects, then CustomResourceDefinitions, then Namespaces), each with a
// UID precondition and p.Propagation; with DryRunClient nothing is
// deleted and the parent not written, with DryRunServer both are sent as
// dry runs. An error before the apply (a bad or foreign parent, a bad
// allowlist) returns no outcomes: nothing was written.
func (c *Client) ApplyPrune(ctx context.Context, objs []Object, p Prune) ([]Outcome, error) {
	if p.Propagation == "" {
		p.Propagation = metav1.DeletePropagationBackground
	}
	switch p.Propagation {
	case metav1.DeletePropagationBackground, metav1.DeletePropagationForeground, metav1.DeletePropagationOrphan:
	default:
		return nil, errors.New(`invalid propagation policy "` + string(p.Propagation) + `": want Background, Foreground or Orphan`)
	}
	if len(objs) == 0 {
		// kubectl refuses too: pruning after applying nothing would delete
		// every member.
		return nil, errors.New("prune: no objects to apply (an empty run would prune everything)")
	}
	if p.ApplySet != "" {
		return c.applySetPrune(ctx, objs, p)
	}
	if (p.Selector == "") == !p.All {
		return nil, errors.New("prune: set exactly one of ApplySet, Selector and All")
	}
	return c.legacyPrune(ctx, objs, p)
}

// applySetPrune is ApplyPrune with an ApplySet. Outside dry runs, the run
// holds the set's Lease (lock) from before it reads the parent until its
// last write of the parent; the parent is read once before, so that a
// refused parent fails at once, and again under the Lease.
func (c *Client) applySetPrune(ctx context.Context, objs []Object, p Prune) ([]Outcome, error) {
	set, err := c.openApplySet(ctx, p)
	if err != nil {
		return nil, err
	}
	if c.opts.DryRun == DryRunNone {
		lease, err := c.lock(ctx, set, p.Lock, p.notify)
		if err != nil {
			return nil, err
		}
		defer lease.release(ctx)
		if set, err = c.openApplySet(ctx, p); err != nil {
			return nil, err
		}
		return c.applySetRun(ctx, objs, p, set, lease.check)
	}
	return c.applySetRun(ctx, objs, p, set, func(context.Context) error { return nil })
}

// applySetRun applies objs to the opened set and prunes its members that
// the run did not apply (see ApplyPrune); held says whether the run still
// holds the set's Lease, checked before the prune and the last write.
func (c *Client) applySetRun(ctx context.Context, objs []Object, p Prune, set *applySet, held func(context.Context) error) ([]Outcome, error) {
	labelled, err := set.label(objs)
	if err != nil {
		return nil, err
	}
	if err := c.parentNotMember(set, labelled); err != nil {
		return nil, err
	}
	for _, w := range set.warnings() {
		p.notify(w)
	}
	kinds, namespaces := c.planned(labelled)
	planned := parentLists{kinds: map[string]bool{}, namespaces: namespaces}
	for gk := range kinds {
		planned.kinds[gk.String()] = true
	}
	err = set.update(ctx, c.opts.DryRun, func(current parentLists) parentLists {
		return current.union(set.opened()).union(planned)
	})
	if err != nil {
		return nil, err
	}
	outs := c.Apply(ctx, labelled)
	if err := skipped(outs); err != nil {
		return outs, err
	}
	if len(set.corrupt) > 0 {
		return outs, errors.New("pruning skipped: the " + set.String() + " has entries in its annotation " + ApplySetGroupKindsAnnotation +
			" that are not kinds (" + quoteAll(set.corrupt) + "); nothing was deleted: correct the annotation")
	}
	if err := held(ctx); err != nil {
		return outs, errors.New("pruning skipped: " + err.Error() + "; nothing was deleted")
	}
	outs, err = c.pruneMembers(ctx, set, outs, len(objs), p.Propagation)
	if err != nil {
		return outs, err
	}
	if err := held(ctx); err != nil {
		return outs, errors.New("applied and pruned, but " + err.Error() + ": the parent keeps listing the kinds of both runs")
	}
	if err := set.update(ctx, c.opts.DryRun, func(current parentLists) parentLists { return c.remaining(set, current, kept(outs, len(objs))) }); err != nil {
		return outs, errors.New("applied and pruned, but: " + err.Error())
	}
	return outs, nil
}

// pruneMembers deletes the members of set (every kind in every namespace
// it listed when opened) that outs did not apply, and returns outs with
// their outcomes appended (Options.Report hears of them from index base).
func (c *Client) pruneMembers(ctx context.Context, set *applySet, outs []Outcome, base int, policy metav1.DeletionPropagation) ([]Outcome, error) {
	cands, err := c.candidates(ctx, set.targets(), ApplySetPartOfLabel+"="+set.id, applied(outs), false)
	if err != nil {
		return outs, errors.New("cannot list the members of the " + set.String() + " to prune (it keeps listing the kinds and namespaces of both runs): " + err.Error())
	}
	pruned, failed := c.deleteAll(ctx, cands, base, policy)
	outs = append(outs, pruned...)
	if failed > 0 {
		return outs, errors.New(strconv.Itoa(failed) + " of " + strconv.Itoa(len(pruned)) + " objects could not be pruned; the " + set.String() +
			" keeps listing the kinds and namespaces of both runs, so the next run prunes them")
	}
	return outs, nil
}

// targets are the lists that find the members of set: every kind it
// listed when opened, in every namespace it listed.
func (set *applySet) targets() []listTarget {
	var targets []listTarget
	for _, m := range set.kinds {
		if m.Scope.Name() != meta.RESTScopeNameNamespace {
			targets = append(targets, listTarget{mapping: m})
			continue
		}
		for ns := range set.namespaces {
			targets = append(targets, listTarget{mapping: m, namespace: ns})
		}
	}
	return targets
}

// remaining returns what the parent lists after a run that applied outs
// and pruned set: the kinds and namespaces of outs, and of current
// (the parent as read now) those the prune did not cover (unserved and
// corrupt entries, and what another writer added since the run opened
// the set).
func (c *Client) remaining(set *applySet, current parentLists, outs []Outcome) parentLists {
	out := parentLists{kinds: map[string]bool{}, namespaces: map[string]bool{}}
	for _, o := range outs {
		out.kinds[o.Ref.GroupKind().String()] = true
		if o.Ref.Namespace != "" {
			out.namespaces[o.Ref.Namespace] = true
		}
	}
	for gk := range current.kinds {
		if wellFormedKind(gk) {
			if _, covered := set.kinds[schema.ParseGroupKind(gk)]; covered {
				continue
			}
		}
		out.kinds[gk] = true
	}
	for ns := range current.namespaces {
		if !set.namespaces[ns] {
			out.namespaces[ns] = true
		}
	}
	return out
}

// parentNotMember refuses objs that hold the parent of set itself: a
// parent is not a member of its set (ApplySetPartOfLabel on it would make
// it one, pruned with its data when it leaves the manifests, and its
// manifest would overwrite the set's annotations).
func (c *Client) parentNotMember(set *applySet, objs []Object) error {
	for _, o := range objs {
		ref := refOf(o)
		if ref.GroupKind() != set.parent.GroupKind() || ref.Name != set.parent.Name {
			continue
		}
		ns := stringAt(o.Value, "metadata", "namespace")
		if ns == "" && set.parent.Namespace != "" {
			ns = c.namespace
		}
		if ns == set.parent.Namespace {
			return errors.New(o.Source + ": the manifests hold the " + set.String() + " itself: a parent cannot be a member of its own ApplySet " +
				"(it would be labelled a member and pruned with its data once it leaves the manifests); nothing was written: " +
				"name another parent with --applyset, or leave this object out of the manifests")
		}
	}
	return nil
}

// LegacyClusterScopedWarning is what the older form of pruning without an
// allowlist leaves out, and kubectl does not.
const LegacyClusterScopedWarning = "Warning: --prune without --applyset and --prune-allowlist prunes kubectl's default namespaced kinds only: " +
	"kubectl apply --prune would also delete every Namespace and PersistentVolume in the cluster that matches the selector " +
	"(--all: every one that carries a last-applied annotation), and with a Namespace every object in it; " +
	"ply prunes cluster-scoped kinds only when --prune-allowlist names them (core/v1/Namespace)"

// legacyPrune is ApplyPrune with a selector (or All) and a list of kinds;
// without p.Allowlist, the namespaced kinds of DefaultPruneKinds.
func (c *Client) legacyPrune(ctx context.Context, objs []Object, p Prune) ([]Outcome, error) {
	mappings, err := c.legacyMappings(p)
	if err != nil {
		return nil, err
	}
	outs := c.Apply(ctx, objs)
	if err := skipped(outs); err != nil {
		return outs, err
	}
	refs := make([]Ref, len(outs))
	for i, o := range outs {
		refs[i] = o.Ref
	}
	cands, err := c.candidates(ctx, c.legacyTargets(mappings, refs), p.legacySelector(), applied(outs), true)
	if err != nil {
		return outs, errors.New("cannot list the objects to prune: " + err.Error())
	}
	pruned, failed := c.deleteAll(ctx, cands, len(objs), p.Propagation)
	outs = append(outs, pruned...)
	if failed > 0 {
		return outs, errors.New(strconv.Itoa(failed) + " of " + strconv.Itoa(len(pruned)) + " objects could not be pruned")
	}
	return outs, nil
}

// legacyMappings maps the kinds the legacy prune p lists: p.Allowlist,
// else the namespaced kinds of DefaultPruneKinds.
func (c *Client) legacyMappings(p Prune) ([]*meta.RESTMapping, error) {
	kinds := p.Allowlist
	if len(kinds) == 0 {
		kinds = DefaultPruneKinds
	}
	mappings := make([]*meta.RESTMapping, 0, len(kinds))
	for _, k := range kinds {
		m, err := c.mapKind(k.GroupKind(), k.Version)
		if err != nil {
			return nil, errors.New("cannot prune " + k.Kind + " in " + k.GroupVersion().String() + ": " + err.Error())
		}
		if len(p.Allowlist) == 0 && m.Scope.Name() != meta.RESTScopeNameNamespace {
			// Never by default: a selector that also matches a Namespace
			// would delete everything in it (see LegacyClusterScopedWarning).
			continue
		}
		mappings = append(mappings, m)
	}
	return mappings, nil
}

// legacyTargets are the lists of the legacy prune: the kinds of mappings,
// the namespaced ones in the namespace of -n and those of refs.
func (c *Client) legacyTargets(mappings []*meta.RESTMapping, refs []Ref) []listTarget {
	namespaces := map[string]bool{}
	if c.enforce {
		namespaces[c.namespace] = true
	}
	for _, r := range refs {
		if r.Namespace != "" {
			namespaces[r.Namespace] = true
		}
	}
	var targets []listTarget
	for _, m := range mappings {
		if m.Scope.Name() != meta.RESTScopeNameNamespace {
			targets = append(targets, listTarget{mapping: m})
			continue
		}
		for ns := range namespaces {
			targets = append(targets, listTarget{mapping: m, namespace: ns})
		}
	}
	return targets
}

// legacySelector is the label selector of the legacy prune p: none with
// All.
func (p Prune) legacySelector() string {
	if p.All {
		return ""
	}
	return p.Selector
}

// skipped returns a *PruneSkippedError when any outcome failed.
func skipped(outs []Outcome) error {
	n := 0
	for _, o := range outs {
		if o.Action == Failed {
			n++
		}
	}
	if n > 0 {
		return &PruneSkippedError{Failed: n}
	}
	return nil
}

// planned returns the kinds and namespaces objs will occupy once applied:
// a kind's scope comes from discovery, or, for a custom resource whose
// CustomResourceDefinition is among objs (not served yet), from that
// definition. Objects of kinds neither knows will fail to apply.
func (c *Client) planned(objs []Object) (map[schema.GroupKind]bool, map[string]bool) {
	kinds, namespaces := map[schema.GroupKind]bool{}, map[string]bool{}
	defined := map[schema.GroupKind]string{}
	for _, o := range objs {
		if isCRD(refOf(o)) {
			gk := schema.GroupKind{Group: stringAt(o.Value, "spec", "group"), Kind: stringAt(o.Value, "spec", "names", "kind")}
			defined[gk] = stringAt(o.Value, "spec", "scope")
		}
	}
	for _, o := range objs {
		ref := refOf(o)
		gk := ref.GroupKind()
		namespaced := false
		if m, err := c.mapper.RESTMapping(gk, ref.Version); err == nil {
			namespaced = m.Scope.Name() == meta.RESTScopeNameNamespace
		} else if scope, ok := defined[gk]; ok {
			namespaced = scope == "Namespaced"
		} else {
			continue
		}
		kinds[gk] = true
		if namespaced {
			ns := stringAt(o.Value, "metadata", "namespace")
			if ns == "" {
				ns = c.namespace
			}
			namespaces[ns] = true
		}
	}
	return kinds, namespaces
}

// objectKey identifies an object across versions: "Kind.group/namespace/name".
func objectKey(gk schema.GroupKind, namespace, name string) string {
	return gk.String() + "/" + namespace + "/" + name
}

// keep is what a run applied, never to be pruned: the UIDs of the objects
// the server answered with (kubectl's rule; an object listed under
// another group of the same kind, an Event through events.k8s.io, is
// still the same object) and, for answers without a UID (a client dry
// run creating), the objectKey.
type keep struct {
	uids map[string]bool
	keys map[string]bool
}

// applied returns what outs applied.
func applied(outs []Outcome) keep {
	k := keep{uids: make(map[string]bool, len(outs)), keys: make(map[string]bool, len(outs))}
	for _, o := range outs {
		k.keys[objectKey(o.Ref.GroupKind(), o.Ref.Namespace, o.Ref.Name)] = true
		if uid := stringAt(o.Result, "metadata", "uid"); uid != "" {
			k.uids[uid] = true
		}
	}
	return k
}

// has reports whether u is an object the run applied.
func (k keep) has(gk schema.GroupKind, u *unstructured.Unstructured) bool {
	return k.uids[string(u.GetUID())] || k.keys[objectKey(gk, u.GetNamespace(), u.GetName())]
}

// listTarget is one list request of pruning: a kind in a namespace (""
// for a cluster-scoped kind).
type listTarget struct {
	mapping   *meta.RESTMapping
	namespace string
}

// candidate is an object to prune.
type candidate struct {
	ref  Ref
	live *unstructured.Unstructured
	// stage is the deletion stage (orderDeletions), from 1.
	stage int
	// ignored, when set, is why prune leaves it (ignoredPrune): it is
	// not deleted.
	ignored string
}

// candidates lists the objects of targets matching selector that the run
// did not apply (keep), each once (by UID: a kind listed under two
// groups lists its objects twice); with recorded, only those carrying a
// last-applied annotation. The selector is checked again on every object
// listed: a server that ignored it must not make ply delete the rest. They are returned in deletion order
// (orderDeletions).
func (c *Client) candidates(ctx context.Context, targets []listTarget, selector string, applied keep, recorded bool) ([]candidate, error) {
	sel, err := labels.Parse(selector)
	if err != nil {
		return nil, errors.New("prune selector " + strconv.Quote(selector) + ": " + err.Error())
	}
	var out []candidate
	seen := map[types.UID]bool{}
	for _, t := range targets {
		ri := c.dyn.Resource(t.mapping.Resource).Namespace(t.namespace)
		opts := metav1.ListOptions{LabelSelector: selector, Limit: 500}
		for {
			var list *unstructured.UnstructuredList
			err := c.retrier().do(ctx, func(ctx context.Context) error {
				var err error
				list, err = ri.List(ctx, opts)
				return err
			})
			if err != nil {
				where := t.mapping.Resource.GroupResource().String()
				if t.namespace != "" {
					where += " in namespace " + t.namespace
				}
				return nil, errors.New(where + ": " + err.Error())
			}
			for i := range list.Items {
				u := &list.Items[i]
				gvk := u.GroupVersionKind()
				if gvk.Empty() {
					gvk = t.mapping.GroupVersionKind
				}
				if applied.has(gvk.GroupKind(), u) || !sel.Matches(labels.Set(u.GetLabels())) || seen[u.GetUID()] {
					continue
				}
				seen[u.GetUID()] = true
				if recorded {
					ann := u.GetAnnotations()
					_, a := ann[LastAppliedAnnotation]
					_, b := ann[CompressedLastAppliedAnnotation]
					if !a && !b {
						continue
					}
				}
				out = append(out, candidate{
					ref:  Ref{GroupVersionKind: gvk, Namespace: u.GetNamespace(), Name: u.GetName(), Resource: t.mapping.Resource.Resource},
					live: u, ignored: ignoredPrune(u.GetAnnotations()),
				})
			}
			if opts.Continue = list.GetContinue(); opts.Continue == "" {
				break
			}
		}
	}
	return orderDeletions(out)
}

// orderDeletions sorts cands into deletion order, the reverse of Apply's
// stages (see stagesOf with deleting: higher sync waves first, the kapp
// rules "delete before|after deleting", admission webhooks, then
// workloads, ..., CustomResourceDefinitions, Namespaces last), read from
// the live objects' annotations; within a stage by kind, namespace and
// name. Each candidate's stage is set.
func orderDeletions(cands []candidate) ([]candidate, error) {
	items := make([]orderItem, len(cands))
	for i, cd := range cands {
		items[i] = orderItem{ref: cd.ref, annotations: cd.live.GetAnnotations(), source: "the live object"}
	}
	stages, err := stagesOf(items, true)
	if err != nil {
		return nil, errors.New("cannot order the deletions: " + err.Error())
	}
	for _, s := range stages {
		for _, i := range s.Indices {
			cands[i].stage = s.Number
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i].ref, cands[j].ref
		if sa, sb := cands[i].stage, cands[j].stage; sa != sb {
			return sa < sb
		}
		if ga, gb := a.GroupKind().String(), b.GroupKind().String(); ga != gb {
			return ga < gb
		}
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	return cands, nil
}

// deleteAll deletes cands in order, one stage (see orderDeletions) after
// the other, each stage through the worker pool, and returns their outcomes
// and how many failed. Options.Report hears of cands[k] at index base+k.
func (c *Client) deleteAll(ctx context.Context, cands []candidate, base int, policy metav1.DeletionPropagation) ([]Outcome, int) {
	outs := make([]Outcome, len(cands))
	var phase []int
	flush := func() {
		c.pool(ctx, phase, func(k int) {
			outs[k] = c.deleteOne(ctx, cands[k], policy)
			if c.opts.Report != nil {
				c.opts.Report(base+k, outs[k])
			}
		})
		phase = phase[:0]
	}
	for k, cd := range cands {
		if k > 0 && cd.stage != cands[k-1].stage {
			flush()
		}
		phase = append(phase, k)
	}
	flush()
	failed := 0
	for _, o := range outs {
		if o.Action == Failed {
			failed++
		}
	}
	return outs, failed
}

// deleteOne deletes one candidate (see ApplyPrune), repeating the delete
// while it fails transiently: an object already gone counts as pruned, and
// so does one replaced by another of the same name after a delete whose
// answer was lost. A candidate a per-object control protects is Ignored,
// not deleted. Under Options.ExpectPrune the delete also carries the
// planned resourceVersion as a precondition.
func (c *Client) deleteOne(ctx context.Context, cd candidate, policy metav1.DeletionPropagation) Outcome {
	out := Outcome{Ref: cd.ref, Action: Failed, Attempts: 1}
	v, err := toValue(cd.live)
	if err != nil {
		out.Err = err
		return out
	}
	out.Object, out.Result = Object{Value: v, Source: PruneSource}, v
	switch {
	case cd.ignored != "":
		out.Action, out.IgnoredReason, out.Attempts = Ignored, cd.ignored, 0
		return out
	case c.opts.DryRun == DryRunClient:
		out.Action = Pruned
		return out
	}
	uid := cd.live.GetUID()
	opts := metav1.DeleteOptions{PropagationPolicy: &policy, Preconditions: &metav1.Preconditions{UID: &uid},
		GracePeriodSeconds: c.opts.GracePeriod}
	if c.opts.DryRun == DryRunServer {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	planned, err := c.plannedDelete(cd.ref, &opts)
	if err != nil {
		out.Err = err
		return out
	}
	// The UID precondition makes a repeat safe: once the object is
	// deleted, a repeat finds none (404), or another object of the same
	// name (409), which it does not delete.
	lost := false
	err = c.retrier().do(ctx, func(ctx context.Context) error {
		err := c.deleteOnce(ctx, cd.ref, opts)
		lost = lost || (transient(err) && c.opts.DryRun == DryRunNone)
		return err
	})
	// Under a plan, a conflict may be the resourceVersion's: not gone.
	gone := apierrors.IsNotFound(err) || (lost && apierrors.IsConflict(err) && planned == "")
	switch {
	case err != nil && planned != "" && apierrors.IsConflict(err) && !lost:
		out.Err = errors.New("the live object changed since the plan (resourceVersion " + strconv.Quote(planned) + " in the plan); not deleted")
		return out
	case err != nil && !gone:
		out.Err = errors.New("cannot prune: " + c.maskStatus(cd.ref, err).Error())
		return out
	}
	out.Action = Pruned
	return out
}

// deleteOnce sends one delete of the object ref names with opts.
func (c *Client) deleteOnce(ctx context.Context, ref Ref, opts metav1.DeleteOptions) error {
	if c.raw == nil {
		return c.dyn.Resource(schema.GroupVersionResource{Group: ref.Group, Version: ref.Version, Resource: ref.Resource}).
			Namespace(ref.Namespace).Delete(ctx, ref.Name, opts)
	}
	opts.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "DeleteOptions"}
	body, err := json.Marshal(&opts)
	if err != nil {
		return err
	}
	_, err = do(ctx, c.raw.Delete().AbsPath(refPath(ref)...).SetHeader("Content-Type", "application/json").Body(body))
	return err
}
