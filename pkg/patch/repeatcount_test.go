package patch_test

import (
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"

	"github.com/plyproject/ply/internal/probe"
)

// countRepeats zeroes all and again and, until the running spec ends, counts into all every repeat Phase 2 applies
// to its key's outcome and into again those the front-end applies again (answering visitors.InTurn), through
// probe.OnRepeat; all may be nil.
func countRepeats(all, again *atomic.Int64) {
	again.Store(0)
	if all != nil {
		all.Store(0)
	}
	DeferCleanup(probe.OnRepeat(func(frontEnd bool) {
		if all != nil {
			all.Add(1)
		}
		if frontEnd {
			again.Add(1)
		}
	}))
}
