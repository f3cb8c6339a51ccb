package openapi

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/plyproject/ply/pkg/value"
)

// ExtMergeRule is the schema extension that declares, on a property of an
// OpenAPI v2 or v3 document or a CRD's structural schema, the merge rule a
// program registered (pkg/elements.RegisterRule) to decide that field:
//
//	x-ply-merge-rule: KeepLive                           # a rule's name
//	x-ply-merge-rule: {name: MergeByKey, args: [name]}   # with arguments
//
// It is the one hook through which a schema document names a rule; the
// loaders read it into Meta.Rule. The rule is looked up when an object is
// collated, so a document may name a rule its reader has not registered:
// collating a field that names an unknown rule is an error naming it.
const ExtMergeRule = "x-ply-merge-rule"

// RuleRef names a registered merge rule and the arguments its declaration
// gives it (such as the merge key a rule merges a list by). Immutable once
// built: it is shared by every Meta that names it.
type RuleRef struct {
	Name string
	Args []string
}

// String renders the reference as messages print it: Name, or Name(a,b).
func (r *RuleRef) String() string {
	if len(r.Args) == 0 {
		return r.Name
	}
	return r.Name + "(" + strings.Join(r.Args, ",") + ")"
}

// parseRuleRef reads the value of ExtMergeRule: a rule's name, or an object
// with a name and a list of string arguments.
func parseRuleRef(v value.Value) (*RuleRef, error) {
	if name, ok := v.AsString(); ok {
		if name == "" {
			return nil, errors.New("the rule's name is empty")
		}
		return &RuleRef{Name: name}, nil
	}
	if !v.IsMap() {
		return nil, errors.New("want a rule's name or {name, args}, got " + kindPhrase(v))
	}
	r := &RuleRef{}
	for _, f := range v.Fields() {
		switch f.Key {
		case "name":
			r.Name, _ = f.Value.AsString()
		case "args":
			for i, a := range f.Value.Items() {
				s, ok := a.AsString()
				if !ok {
					return nil, errors.New("args[" + strconv.Itoa(i) + "] is " + kindPhrase(a) + ", want a string")
				}
				r.Args = append(r.Args, s)
			}
			if !f.Value.IsList() {
				return nil, errors.New("args is " + kindPhrase(f.Value) + ", want a list of strings")
			}
		default:
			return nil, errors.New("unknown member " + strconv.Quote(f.Key) + " (want name and args)")
		}
	}
	if r.Name == "" {
		return nil, errors.New("the rule's name is missing or not a string")
	}
	return r, nil
}

// FieldRule declares in code that a registered merge rule decides one
// field of a kind, as ExtMergeRule declares it in a document: for fields
// whose schema the program does not own (a Deployment's spec.replicas, a
// CRD's list), with no document edited.
type FieldRule struct {
	// APIVersion and Kind name the objects ("apps/v1", "Deployment").
	APIVersion, Kind string
	// Path is the field's path from the object's root, field names joined
	// by dots. A list is crossed into its items by naming the list
	// ("webhooks.clientConfig.caBundle"), a map into its values by "*".
	Path string
	// Rule is the rule and its arguments.
	Rule RuleRef
}

// WithRules returns a schema that resolves kinds as s does, but for the
// kinds rules name, whose types carry the rules on the fields their paths
// reach (Meta.Rule, in ply's and kubectl's metadata alike). The types of s
// are not modified: the types along each path are copied, others shared.
// An unknown kind, or a path step the schema does not declare, is an error
// naming the rule. Lookups by definition name (ByName) see s's types.
func (s *Schema) WithRules(rules ...FieldRule) (*Schema, error) {
	overlay := &Schema{byName: map[string]*Type{}, byGVK: map[GVK]*Type{}}
	for _, r := range rules {
		g := gvkOf(r.APIVersion, r.Kind)
		root, ok := overlay.byGVK[g]
		if !ok {
			if root, ok = s.ForKind(r.APIVersion, r.Kind); !ok {
				return nil, errors.New("field rule " + r.Rule.String() + ": the schema has no kind " + r.APIVersion + " " + r.Kind)
			}
		}
		ref := &RuleRef{Name: r.Rule.Name, Args: slices.Clone(r.Rule.Args)}
		root, err := withRule(root, strings.Split(r.Path, "."), ref)
		if err != nil {
			return nil, errors.New("field rule " + ref.String() + " at " + r.APIVersion + " " + r.Kind + " " + r.Path + ": " + err.Error())
		}
		overlay.byGVK[g] = root
	}
	return Union(overlay, s), nil
}

// gvkOf splits apiVersion ("group/version", or "version" for the core group).
func gvkOf(apiVersion, kind string) GVK {
	group, version, found := strings.Cut(apiVersion, "/")
	if !found {
		group, version = "", apiVersion
	}
	return GVK{Group: group, Version: version, Kind: kind}
}

// withRule returns a copy of t in which the field at path carries rule, the
// types along the path copied.
func withRule(t *Type, path []string, rule *RuleRef) (*Type, error) {
	step := path[0]
	switch {
	case t.Kind == KindList:
		elem, err := withRule(t.Item(), path, rule)
		return copyType(t, func(c *Type) { c.Elem = elem }), err
	case t.Kind == KindMap && step == "*":
		if len(path) == 1 {
			return nil, errors.New("\"*\" names a map's values, not a field")
		}
		elem, err := withRule(t.Elem, path[1:], rule)
		return copyType(t, func(c *Type) { c.Elem = elem }), err
	case t.Kind != KindStruct || t.Fields[step] == nil:
		return nil, errors.New("the schema declares no field " + strconv.Quote(step) + " in " + t.Name)
	}
	f := *t.Fields[step]
	if len(path) == 1 {
		f.Meta.Rule, f.KubectlMeta.Rule = rule, rule
	} else {
		var err error
		if f.Type, err = withRule(f.Type, path[1:], rule); err != nil {
			return nil, err
		}
	}
	return copyType(t, func(c *Type) {
		c.Fields = make(map[string]*Field, len(t.Fields))
		for name, field := range t.Fields {
			c.Fields[name] = field
		}
		c.Fields[step] = &f
	}), nil
}

// copyType returns a new Type with t's exported data, changed by edit.
func copyType(t *Type, edit func(*Type)) *Type {
	c := &Type{Name: t.Name, Kind: t.Kind, Primitive: t.Primitive, Fields: t.Fields, FieldNames: t.FieldNames,
		Elem: t.Elem, Default: t.Default, HasDefault: t.HasDefault, isKubectl: t.isKubectl}
	edit(c)
	return c
}
