package cluster

import (
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/pkg/visitors"
	"k8s.io/apimachinery/pkg/labels"
)

// Ignored fields: fields other writers own (a Deployment's spec.replicas
// under a HorizontalPodAutoscaler, a webhook's caBundle a certificate
// injector writes) that ply leaves to them. An object's ignored fields are
// the union of
//   - Options.IgnoreFields whose group and kind are the object's and whose
//     selector, if any, matches the manifest's labels;
//   - the paths of the manifest's IgnoreFieldsAnnotation;
//   - the fields that the live object's managedFields give to a manager
//     of Options.IgnoreManagers (fieldsV1 read by managedPaths).
//
// Client-side, the merge decides each ignored field by the built-in rule
// IgnoredRule (registered here): live's value is kept (absent when live
// has none), and an object created now takes the manifest's value; the
// change list marks what the manifest sets and the rule did not take
// (apply.OpKept), which ply diff shows as ignored. The rule is declared
// on the object's kind in a schema derived per set of paths
// (openapi.Schema.WithRules, cached per Client), so keyed lists and the
// change list are the engine's. StripIgnored is the same rule for a writer
// that sends only the fields it sets (server-side apply): the ignored
// fields are left out of what is sent.
//
// A path names fields from the object's root joined by dots; a list is
// crossed into its items by naming it ("webhooks.clientConfig.caBundle":
// the caBundle of every webhook). A path the kind's schema does not
// declare (a map's key, such as one label) is not ignored: from a flag or
// the annotation it is a warning of the object, from managedFields it is
// dropped.

// IgnoreFieldsAnnotation, on an object of a manifest, lists the paths of
// its fields ply leaves to other writers, separated by commas:
// "spec.replicas,webhooks.clientConfig.caBundle".
const IgnoreFieldsAnnotation = "ply.dev/ignore-fields"

// IgnoredRule is the name of the built-in merge rule of ignored fields.
const IgnoredRule = "PlyIgnored"

// IgnoreFieldsGate switches IgnoredRule: off (or --compat=kubectl), the
// manifest's value of an ignored field is applied, as kubectl applies it.
var IgnoreFieldsGate = features.MustRegister("IgnoreFields",
	"fields ply is told to leave to other writers (--ignore-field, --ignore-manager, "+IgnoreFieldsAnnotation+") keep live's value; off: the manifest's value is applied, as kubectl applies it")

func init() {
	elements.MustRegisterRule(elements.Rule{
		Name:    IgnoredRule,
		Gate:    IgnoreFieldsGate,
		Visitor: func(elements.Walker) elements.Visitor { return visitors.KeepLive{} },
		// Another writer's field: a patch never mentions it.
		Patch: elements.PatchLeavesLive,
	})
}

// IgnoreField is a field of the objects of one kind that ply leaves to
// other writers.
type IgnoreField struct {
	// Group and Kind name the objects ("apps", "Deployment"; "" is the
	// core group).
	Group, Kind string
	// Path is the field's path (see IgnoreFieldsAnnotation).
	Path string
	// Selector, when not nil, limits the rule to the objects whose
	// manifest labels it matches.
	Selector labels.Selector
}

// ParseIgnoreField parses the value of --ignore-field:
// KIND[.GROUP]:PATH[:SELECTOR], the kind as kubectl names a resource's
// kind with its group ("deployment.apps", "mutatingwebhookconfiguration.admissionregistration.k8s.io",
// "configmap"; case-insensitive), the path dotted, the optional selector
// a label selector as -l takes it.
func ParseIgnoreField(s string) (IgnoreField, error) {
	parts := strings.SplitN(s, ":", 3)
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return IgnoreField{}, errors.New(`invalid --ignore-field "` + s + `": want KIND[.GROUP]:PATH[:SELECTOR], such as deployment.apps:spec.replicas`)
	}
	kind, group, _ := strings.Cut(parts[0], ".")
	f := IgnoreField{Group: group, Kind: kind, Path: parts[1]}
	if len(parts) == 3 {
		sel, err := labels.Parse(parts[2])
		if err != nil {
			return IgnoreField{}, errors.New(`invalid --ignore-field "` + s + `": bad selector: ` + err.Error())
		}
		f.Selector = sel
	}
	return f, nil
}

// matches reports whether f names the object local (of ref's kind).
func (f IgnoreField) matches(ref Ref, local value.Value) bool {
	if !strings.EqualFold(f.Kind, ref.Kind) || !strings.EqualFold(f.Group, ref.Group) {
		return false
	}
	if f.Selector == nil {
		return true
	}
	set := labels.Set{}
	lv, _ := local.Get("metadata")
	lv, _ = lv.Get("labels")
	for _, fl := range lv.Fields() {
		s, _ := fl.Value.AsString()
		set[fl.Key] = s
	}
	return f.Selector.Matches(set)
}

// ignored returns the sorted paths the object's own rules name (the
// options' and its annotation's: given) and those live's managedFields
// give to Options.IgnoreManagers (owned).
func (c *Client) ignored(ref Ref, local, live value.Value) (given, owned []string) {
	for _, f := range c.opts.IgnoreFields {
		if f.matches(ref, local) {
			given = append(given, f.Path)
		}
	}
	for _, p := range strings.Split(stringAt(local, "metadata", "annotations", IgnoreFieldsAnnotation), ",") {
		if p = strings.TrimSpace(p); p != "" {
			given = append(given, p)
		}
	}
	if len(c.opts.IgnoreManagers) > 0 {
		owned = managedPaths(live, c.opts.IgnoreManagers)
	}
	slices.Sort(given)
	return slices.Compact(given), owned
}

// schemaKey names a schema derived with ignored paths.
type schemaKey struct {
	base             *openapi.Schema
	apiVersion, kind string
	paths            string
}

// ignoreSchemas caches derived schemas; bounded by the kinds and path sets
// of one Client's runs.
type ignoreSchemas struct{ m sync.Map }

// withIgnored returns the schema to merge the object with: sch, or sch
// with IgnoredRule on the object's ignored fields, and warnings for given
// paths the kind's schema does not declare.
func (c *Client) withIgnored(sch *openapi.Schema, ref Ref, local, live value.Value) (*openapi.Schema, []string) {
	given, owned := c.ignored(ref, local, live)
	if len(given)+len(owned) == 0 || sch == nil {
		return sch, nil
	}
	apiVersion := stringAt(local, "apiVersion")
	var paths, warnings []string
	for _, p := range given {
		if err := c.ignorable(sch, apiVersion, ref.Kind, p); err != nil {
			warnings = append(warnings, "ignored field "+p+" is not ignored: "+err.Error())
			continue
		}
		paths = append(paths, p)
	}
	for _, p := range owned {
		if c.ignorable(sch, apiVersion, ref.Kind, p) == nil {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	if len(paths) == 0 {
		return sch, warnings
	}
	key := schemaKey{sch, apiVersion, ref.Kind, strings.Join(paths, ",")}
	if s, ok := c.ignoreSchemas.m.Load(key); ok {
		return s.(*openapi.Schema), warnings
	}
	rules := make([]openapi.FieldRule, len(paths))
	for i, p := range paths {
		rules[i] = openapi.FieldRule{APIVersion: apiVersion, Kind: ref.Kind, Path: p, Rule: openapi.RuleRef{Name: IgnoredRule}}
	}
	s, err := sch.WithRules(rules...)
	if err != nil { // each path was checked alone
		return sch, append(warnings, "ignored fields are not ignored: "+err.Error())
	}
	c.ignoreSchemas.m.Store(key, s)
	return s, warnings
}

// ignorable checks that the kind's schema declares the field at path.
func (c *Client) ignorable(sch *openapi.Schema, apiVersion, kind, path string) error {
	key := schemaKey{sch, apiVersion, kind, "?" + path}
	if v, ok := c.ignoreSchemas.m.Load(key); ok {
		err, _ := v.(error)
		return err
	}
	_, err := sch.WithRules(openapi.FieldRule{APIVersion: apiVersion, Kind: kind, Path: path, Rule: openapi.RuleRef{Name: IgnoredRule}})
	var stored any = true
	if err != nil {
		stored = err
	}
	c.ignoreSchemas.m.Store(key, stored)
	return err
}

// managedPaths returns the sorted paths of the fields that live's
// managedFields give to the managers named (leaves only: a field that
// holds no owned field below it).
func managedPaths(live value.Value, managers []string) []string {
	md, _ := live.Get("metadata")
	mf, _ := md.Get("managedFields")
	var out []string
	for _, entry := range mf.Items() {
		if !slices.Contains(managers, stringAt(entry, "manager")) {
			continue
		}
		fields, _ := entry.Get("fieldsV1")
		out = fieldsV1Paths(fields, "", out)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// fieldsV1Paths appends to out the dotted paths of the leaf fields of a
// fieldsV1 set under prefix: "f:name" is a field, "k:{...}", "v:..." and
// "i:N" are items of a list (crossed without a step, as rules name lists),
// "." marks the node itself. A name that is empty or holds a dot (a map
// key such as an annotation's) is no step of a path: skipped with what it
// holds.
func fieldsV1Paths(set value.Value, prefix string, out []string) []string {
	for _, f := range set.Fields() {
		switch {
		case strings.HasPrefix(f.Key, "f:"):
			path := f.Key[2:]
			if path == "" || strings.Contains(path, ".") {
				continue // not a step of a dotted path (a key such as "app.kubernetes.io/name")
			}
			if prefix != "" {
				path = prefix + "." + path
			}
			if leaf(f.Value) {
				out = append(out, path)
			} else {
				out = fieldsV1Paths(f.Value, path, out)
			}
		case strings.HasPrefix(f.Key, "k:"), strings.HasPrefix(f.Key, "v:"), strings.HasPrefix(f.Key, "i:"):
			out = fieldsV1Paths(f.Value, prefix, out)
		}
	}
	return out
}

// leaf reports whether a fieldsV1 node owns no field below it.
func leaf(node value.Value) bool {
	for _, f := range node.Fields() {
		if f.Key != "." {
			return false
		}
	}
	return true
}

// StripIgnored returns obj without the fields at paths (the object's
// ignored fields, IgnoredPaths): for a writer that sends only the fields
// it sets, such as server-side apply, where leaving a field out leaves it
// to its owner. A path crosses lists into every item.
func StripIgnored(obj value.Value, paths []string) value.Value {
	for _, p := range paths {
		obj = strip(obj, strings.Split(p, "."))
	}
	return obj
}

func strip(v value.Value, path []string) value.Value {
	switch {
	case v.IsList():
		items := make([]value.Value, v.Len())
		for i, it := range v.Items() {
			items[i] = strip(it, path)
		}
		return value.List(items)
	case !v.IsMap():
		return v
	}
	child, ok := v.Get(path[0])
	switch {
	case !ok:
		return v
	case len(path) == 1:
		return v.Without(path[0])
	}
	return v.With(path[0], strip(child, path[1:]))
}

// IgnoredPaths returns the paths of the fields of the object local (its
// live object: live, value.Null when it does not exist) that the Client
// leaves to other writers: Options.IgnoreFields, IgnoreFieldsAnnotation
// and Options.IgnoreManagers, sorted; for StripIgnored.
func (c *Client) IgnoredPaths(o Object, live value.Value) ([]string, error) {
	t, err := c.resolve(o)
	if err != nil {
		return nil, err
	}
	given, owned := c.ignored(t.ref, t.local, live)
	out := append(given, owned...)
	slices.Sort(out)
	return slices.Compact(out), nil
}
