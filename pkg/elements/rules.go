package elements

import (
	"errors"
	"strconv"
	"sync"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/fieldpath"
)

// Rule is a merge rule a program adds to ply. A field's metadata names it (openapi.Meta.Rule: the schema extension
// x-ply-merge-rule, or openapi.Schema.WithRules in code); the rule then decides that field in every front-end:
//
//   - collation (pkg/collate) resolves the field's metadata through Meta, and builds its element through Collate;
//   - merges and patch application (pkg/strategy's Walker) decide its element with Visitor;
//   - the change list reports where local sets a value the rule did not take as Kept;
//   - patch generation and the conflict check follow Patch.
//
// With Gate off, collation drops the declaration: the built-in rules decide the field as its schema alone says.
type Rule struct {
	// Name identifies the rule; openapi.RuleRef.Name names it.
	Name string
	// Gate switches the rule (features.Register); Kubectl() turns it off with the built-in gates.
	Gate features.Gate
	// Meta, if set, returns the field's merge metadata under the rule, given the metadata the schema declares and the
	// declaration's arguments: a rule that changes how the built-in rules merge a field (a merge key for a list the
	// schema leaves atomic). An error is bad declaration, reported at the field's path.
	Meta func(declared openapi.Meta, args []string) (openapi.Meta, error)
	// Visitor, if set, returns the visitor that decides the rule's elements in one walk: w decides children (each by its
	// own rule). Nil: the built-in rules decide the element by its kind (after Meta).
	Visitor func(w Walker) Visitor
	// Collate, if set, builds the element of a node the rule decides, in a merge (an Element kind of the rule's own);
	// b numbers it and builds children by the ordinary rules. It requires Visitor. In a patch the node is collated by
	// the built-in rules and Visitor decides it.
	Collate func(b Builder, n Node) (Element, error)
	// Patch says what a strategic merge patch makes of the rule's fields. A rule with Visitor must choose
	// PatchLeavesLive or PatchRefused: ply cannot derive a patch from an arbitrary decision.
	Patch PatchForm
}

// PatchForm is what strategic merge patches make of a rule's fields.
type PatchForm uint8

const (
	// PatchByMetadata: the rule only changes metadata (Rule.Meta); patches are made, applied and checked for conflicts
	// by that metadata, as for any field.
	PatchByMetadata PatchForm = iota
	// PatchLeavesLive: the fields are another writer's. A patch made never touches them (no entry, no deletion, no
	// order), and the conflict check (Overwrite false) finds no conflict there.
	PatchLeavesLive
	// PatchRefused: no strategic merge patch expresses the rule; making a patch of an object whose tree holds a field it
	// decides is an error naming the rule and the path (RuleError).
	PatchRefused
)

// Builder is what a Rule's Collate hook builds with (pkg/collate's collator implements it).
type Builder interface {
	// Number gives n the tree's next ID: call it once for every node the hook builds itself.
	Number(n *Node)
	// Child builds, by the ordinary rules, the element of a child of parent: a map field (name) or a list item ("").
	Child(parent Element, name string, vals Values, t *openapi.Type, meta openapi.Meta) (Element, error)
}

// rules holds the registered rules by name.
var rules = struct {
	sync.RWMutex
	byName map[string]*Rule
}{byName: map[string]*Rule{}}

// RegisterRule adds r to the process's rules. A rule without name, one already registered, one that does nothing
// (no Meta, Visitor or Collate), a Collate without Visitor, or a Visitor with PatchByMetadata is an error naming it.
// Safe for concurrent use; call it at start-up, before collating objects whose schema names the rule.
func RegisterRule(r Rule) error {
	quoted := strconv.Quote(r.Name)
	switch {
	case r.Name == "":
		return errors.New("a merge rule needs a name")
	case r.Meta == nil && r.Visitor == nil && r.Collate == nil:
		return errors.New("merge rule " + quoted + " sets neither Meta, Visitor nor Collate: it would decide nothing")
	case r.Collate != nil && r.Visitor == nil:
		return errors.New("merge rule " + quoted + " builds its own elements (Collate) and needs a Visitor to decide them")
	case r.Visitor != nil && r.Patch == PatchByMetadata:
		return errors.New("merge rule " + quoted + " decides with a Visitor: say what patches make of its fields (PatchLeavesLive or PatchRefused)")
	case r.Gate.BuiltIn():
		return errors.New("merge rule " + quoted + " needs a gate of its own (features.Register), not the built-in " + r.Gate.String())
	case r.Patch > PatchRefused:
		return errors.New("merge rule " + quoted + ": unknown PatchForm " + strconv.Itoa(int(r.Patch)))
	}
	rules.Lock()
	defer rules.Unlock()
	if _, dup := rules.byName[r.Name]; dup {
		return errors.New("merge rule " + quoted + " is registered already")
	}
	rules.byName[r.Name] = &r
	return nil
}

// MustRegisterRule is RegisterRule for a package's init: it panics on RegisterRule's errors.
func MustRegisterRule(r Rule) {
	if err := RegisterRule(r); err != nil {
		panic(err)
	}
}

// LookupRule returns the registered rule named name.
func LookupRule(name string) (*Rule, bool) {
	rules.RLock()
	defer rules.RUnlock()
	r, ok := rules.byName[name]
	return r, ok
}

// RuleOf returns the registered rule that decides node n (its Meta.Rule), nil when the built-in rules do. Collation
// leaves Meta.Rule set only on nodes whose rule is registered and gated on.
func RuleOf(n *Node) *Rule {
	if n.Meta.Rule == nil {
		return nil
	}
	r, _ := LookupRule(n.Meta.Rule.Name)
	return r
}

// RuleError is an operation a rule refuses at a path: patch generation for a PatchRefused rule's field.
type RuleError struct {
	Rule string
	Path fieldpath.Path
	Msg  string
}

// Error renders "<path>: merge rule <name> <msg>".
func (e *RuleError) Error() string {
	return e.Path.String() + ": merge rule " + e.Rule + " " + e.Msg
}
