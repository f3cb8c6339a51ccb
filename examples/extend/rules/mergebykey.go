package rules

import (
	"errors"
	"strings"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
)

// MergeByKey is the name of the rule that merges a list of maps by the key fields its declaration names.
const MergeByKey = "MergeByKey"

// MergeByKeyLists is MergeByKey's gate: off (or --compat=kubectl), such lists are atomic again, as their schema says.
var MergeByKeyLists = features.MustRegister("MergeByKeyLists",
	"lists declared keyed (rule MergeByKey) merge item by item by the key they name; off: they are replaced whole, as their schema says")

func init() {
	elements.MustRegisterRule(elements.Rule{
		Name: MergeByKey,
		Gate: MergeByKeyLists,
		Meta: keyedBy,
		// Only metadata changes: the built-in rules merge, order, diff and check the list by the key.
		Patch: elements.PatchByMetadata,
	})
}

// keyedBy is the metadata of a list merged by key fields args: strategy merge, merge key args.
func keyedBy(declared openapi.Meta, args []string) (openapi.Meta, error) {
	if len(args) == 0 {
		return declared, errors.New("needs the merge key's field names as its arguments")
	}
	for _, a := range args {
		if a == "" || strings.Contains(a, ",") {
			return declared, errors.New("argument " + a + " is not one field name")
		}
	}
	m := declared
	m.Strategy = openapi.StrategyMerge
	m.MergeKey = args
	m.Set = false
	return m, nil
}

// ListKeyedBy declares that the list at path of the objects of apiVersion and kind merges by the key fields keys.
func ListKeyedBy(apiVersion, kind, path string, keys ...string) openapi.FieldRule {
	return openapi.FieldRule{APIVersion: apiVersion, Kind: kind, Path: path, Rule: openapi.RuleRef{Name: MergeByKey, Args: keys}}
}
