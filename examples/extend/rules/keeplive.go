package rules

import (
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/visitors"
)

// KeepLive is the name of the rule that keeps live's value of a field another writer owns.
const KeepLive = "KeepLive"

// KeepLiveOwner is KeepLive's gate: off (or --compat=kubectl), the manifest's value wins again.
var KeepLiveOwner = features.MustRegister("KeepLiveOwner",
	"fields declared another writer's (rule KeepLive) keep live's value; off: the manifest's value is applied, as kubectl applies it")

func init() {
	elements.MustRegisterRule(elements.Rule{
		Name:    KeepLive,
		Gate:    KeepLiveOwner,
		Visitor: func(elements.Walker) elements.Visitor { return keepLive{} },
		// The field is another writer's: a patch never mentions it, so it never conflicts either.
		Patch: elements.PatchLeavesLive,
	})
}

// keepLive decides a field as live holds it: live's value, or absent when live has none (the field stays unset until
// its owner sets it); an object created now takes the manifest's value, as there is no owner's yet. It decides every
// element kind alike, built-in or not, without walking children.
type keepLive struct{}

// Visit implements elements.Visitor.
func (keepLive) Visit(e elements.Element) (elements.Outcome, error) {
	switch n := e.Base(); {
	case n.HasLive && !n.Live.IsNull():
		return elements.Keep(n.Live), nil
	case !n.Root().HasLive:
		return visitors.Decide(n), nil
	}
	return elements.Absent, nil
}

// Owned declares that another writer owns the field at path (dotted field names; a list is crossed into its items by
// naming it) of the objects of apiVersion and kind.
func Owned(apiVersion, kind, path string) openapi.FieldRule {
	return openapi.FieldRule{APIVersion: apiVersion, Kind: kind, Path: path, Rule: openapi.RuleRef{Name: KeepLive}}
}
