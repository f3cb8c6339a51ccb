package cluster

import (
	"context"
	"errors"
)

// PlannedPrune is an object ApplyPrune would delete (see PrunePlan).
type PlannedPrune struct {
	Ref Ref
	// Stage is its deletion stage, from 1 (see orderDeletions).
	Stage int
	// ResourceVersion is that of the live object listed.
	ResourceVersion string
	// IgnoredReason, when set, says why ApplyPrune would leave it (a
	// per-object control): it would not be deleted.
	IgnoredReason string
}

// PruneObjects returns objs as ApplyPrune with p sends them: with an
// ApplySet, labelled as its members (reading its parent, writing
// nothing); else as they are. A Diff of what ApplyPrune would write diffs
// these.
func (c *Client) PruneObjects(ctx context.Context, objs []Object, p Prune) ([]Object, error) {
	if p.ApplySet == "" {
		return objs, nil
	}
	set, err := c.openApplySet(ctx, p)
	if err != nil {
		return nil, err
	}
	return set.label(objs)
}

// PrunePlan returns, in deletion order, the objects that ApplyPrune with p
// would delete after applying the objects of res (the Diff of the same
// objects). It only reads: it takes no lease and writes nothing, not the
// ApplySet's parent either, and lists the members exactly as ApplyPrune
// does (the kinds and namespaces the parent lists, or p's selector over
// the allowlist). When an object of res has an error, ApplyPrune would
// delete nothing: the error is then a *PruneSkippedError.
func (c *Client) PrunePlan(ctx context.Context, res []DiffResult, p Prune) ([]PlannedPrune, error) {
	failed := 0
	outs := make([]Outcome, len(res))
	refs := make([]Ref, len(res))
	for i, d := range res {
		if d.Err != nil {
			failed++
		}
		outs[i] = Outcome{Ref: d.Ref, Result: d.Live}
		refs[i] = d.Ref
	}
	if failed > 0 {
		return nil, &PruneSkippedError{Failed: failed}
	}
	if len(res) == 0 {
		return nil, errors.New("prune: no objects to apply (an empty run would prune everything)")
	}
	var cands []candidate
	switch {
	case p.ApplySet != "":
		set, err := c.openApplySet(ctx, p)
		if err != nil {
			return nil, err
		}
		if len(set.corrupt) > 0 {
			return nil, errors.New("pruning would be skipped: the " + set.String() + " has entries in its annotation " +
				ApplySetGroupKindsAnnotation + " that are not kinds (" + quoteAll(set.corrupt) + ")")
		}
		if cands, err = c.candidates(ctx, set.targets(), ApplySetPartOfLabel+"="+set.id, applied(outs), false); err != nil {
			return nil, errors.New("cannot list the members of the " + set.String() + ": " + err.Error())
		}
	case (p.Selector == "") == !p.All:
		return nil, errors.New("prune: set exactly one of ApplySet, Selector and All")
	default:
		mappings, err := c.legacyMappings(p)
		if err != nil {
			return nil, err
		}
		if cands, err = c.candidates(ctx, c.legacyTargets(mappings, refs), p.legacySelector(), applied(outs), true); err != nil {
			return nil, errors.New("cannot list the objects to prune: " + err.Error())
		}
	}
	out := make([]PlannedPrune, len(cands))
	for i, cd := range cands {
		out[i] = PlannedPrune{Ref: cd.ref, Stage: cd.stage, ResourceVersion: cd.live.GetResourceVersion(), IgnoredReason: cd.ignored}
	}
	return out, nil
}
