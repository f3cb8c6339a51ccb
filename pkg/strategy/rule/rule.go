// Package rule is Phase 2's one switch on Element kinds: which merge rule decides an element.
// pkg/strategy maps rules to pkg/visitors; internal/delta, below those in the import graph, asks it
// before visiting a node, so an Element kind neither knows is an error in merge, patch and patchgen alike.
package rule

import (
	"fmt"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
)

// Rule is the merge rule that decides an element.
type Rule uint8

const (
	// Replace decides AtomicElement.
	Replace Rule = iota
	// Merge decides MapElement, unless RetainKeys does.
	Merge
	// RetainKeys decides a MapElement with a patch's $retainKeys or, outside a patch, of strategy retainKeys.
	RetainKeys
	// Ordered decides ListElement and SetElement.
	Ordered
	// Count is the number of rules.
	Count
)

// For returns the rule that decides e; patch says the tree is collated from a strategic merge patch. An
// Element type it does not know is an error naming it: no element is decided by a default.
func For(e elements.Element, patch bool) (Rule, error) {
	switch e.(type) {
	case *elements.ListElement, *elements.SetElement:
		return Ordered, nil
	case *elements.MapElement:
		n := e.Base()
		if (n.Dirs != nil && n.Dirs.HasRetainKeys) || (!patch && n.Meta.Strategy.Has(openapi.StrategyRetainKeys)) {
			return RetainKeys, nil
		}
		return Merge, nil
	case *elements.AtomicElement:
		return Replace, nil
	}
	return 0, e.Base().Errorf(elements.NoSource, fmt.Sprintf("no merge rule decides a %T", e))
}
