package patch

import (
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/strategy"
	"github.com/plyproject/ply/pkg/visitors"
)

// WalkAnswering walks tree with w, made with answers (strategy.Options.Answers), as Apply under opts (its MaxDepth,
// Ordering and Gates) walks a patch's tree, answering each question the walk asks (visitors.InTurn: a repeat of a
// patch list's merge key that Phase 2 cannot decide from the tree) by applying the repeat's item to its key's outcome
// as Apply does (one collation more each): the tree is walked once as it stands and, where that walk asks, once more,
// driven (visitors.Answers.Pull). It serves a front-end walking a patch tree another collated (pkg/apply's outcome
// trees, elements.Patched).
func WalkAnswering(w *strategy.Walker, tree elements.Element, answers *visitors.Answers, opts Options) (elements.Outcome, error) {
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = parse.DefaultMaxDepth
	}
	opts.compose, opts.reused = false, nil
	return walkAnswering(w, tree, answers, opts)
}
