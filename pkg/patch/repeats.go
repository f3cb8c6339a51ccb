package patch

import (
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/strategy"
	"github.com/plyproject/ply/pkg/visitors"
)

// WalkAnswering walks tree with w, made with answers (strategy.Options.Answers), as Apply under opts (its MaxDepth,
// Ordering and Gates) walks a patch's tree: until the walk ends without a question (visitors.InTurn), each question a
// repeat of a patch list's merge key that Phase 2 cannot decide from the tree, answered by applying the repeat's item
// to its key's outcome as Apply does (one collation more each), w then walking the tree again. It serves a front-end
// walking a patch tree another collated (pkg/apply's outcome trees, elements.Patched).
func WalkAnswering(w *strategy.Walker, tree elements.Element, answers *visitors.Answers, opts Options) (elements.Outcome, error) {
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = parse.DefaultMaxDepth
	}
	opts.compose, opts.reused = false, nil
	return walkAnswering(w, tree, answers, opts)
}
