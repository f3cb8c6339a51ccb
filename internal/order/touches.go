package order

import (
	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/internal/elements"
)

// What kubectl's three-way patch holds for a merged list, read from the
// producer of patches (internal/delta) for that list node alone, and only
// as far as needed: the patch of each node stops at its first entry
// (delta.Touches), and the deletions are asked only when the delta has
// nothing.

// deltaTouches reports whether kubectl's delta (live -> local, additions
// and changes) has anything for e, a merged list local sets: items or
// $setElementOrder.
func deltaTouches(e elements.Element) bool { return touches(e, delta.Delta) }

// deletionsTouch reports whether kubectl's deletions (recorded -> local,
// removals) have anything for e, a merged list local sets: delete
// directives, $deleteFromPrimitiveList or $setElementOrder.
func deletionsTouch(e elements.Element) bool { return touches(e, delta.Deletions) }

// touches asks the producer. A list it cannot diff (an item of the source
// compared with local that cannot be put in a patch: not an object with
// its merge key, a set value that is not a scalar) counts as touched:
// kubectl fails on such input, so there is no kubectl order to reproduce,
// and ply orders the list as one the patch names (the merge itself keeps
// such live items, see internal/collate), which is live's order when
// nothing else in the list changed: the live-only and local runs are
// merged by live rank.
func touches(e elements.Element, m delta.Mode) bool {
	t, err := delta.Touches(e, m)
	return t || err != nil
}
