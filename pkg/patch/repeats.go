package patch

import (
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// Repeats returns how Apply under opts (its MaxDepth, Ordering and Gates) applies a repeat of a patch list to its
// member's outcome where Phase 2 cannot decide it from the patch's tree: strategy.Options.Reapply, for a walk of a
// patch tree that another front-end collated (pkg/apply's outcome trees, elements.Patched). Each call collates the
// repeat with that outcome, as Apply does.
func Repeats(opts Options) func(v, p value.Value, t *openapi.Type, depth int) (value.Value, error) {
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = parse.DefaultMaxDepth
	}
	opts.compose, opts.reused = false, nil
	return func(v, p value.Value, t *openapi.Type, depth int) (value.Value, error) {
		return reapply(v, p, t, depth, opts)
	}
}
