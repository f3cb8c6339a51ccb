package visitors

import (
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// deletesFromHeld reports whether atomic node c of a repeat's tree is a list the repeat leaves out and deletes from by
// "$deleteFromPrimitiveList" alone where lv, its member's outcome there, is a list of scalars of one class (numbers
// one), that of the values deleted where both have any, and c is either a list the schema merges by no strategy or lv
// holds no items: a collation with lv as live passes its checks (format.CheckDirs) and decides the node whole, lv less
// the values deleted (Decide: heldLessDeleted), where c's own tree, without live, leaves it absent.
func deletesFromHeld(c *elements.AtomicElement, lv value.Value) bool {
	if c.HasLocal || c.HasRecorded || !deletesOnly(c.Dirs) || c.Ruled || !lv.IsList() {
		return false
	}
	if elements.MergedList(c.Type, &c.Meta) && lv.Len() > 0 {
		return false // (a merged list v holds with items is chained: chain.go)
	}
	held, msg := smp.ItemClass(lv.Items())
	deleted, _ := smp.ItemClass(c.Dirs.DeleteFromList.Items())
	scalars := held >= value.KindBool && held <= value.KindString
	return msg == "" && (lv.Len() == 0 || scalars) && (lv.Len() == 0 || c.Dirs.DeleteFromList.Len() == 0 || held == deleted)
}

// heldLessDeleted returns the outcome of atomic node c (deletesFromHeld) collated with lv as live: lv less every item
// equal to a value deleted, as Decide gives it.
func heldLessDeleted(c *elements.AtomicElement, lv value.Value) elements.Outcome {
	n := c.Node
	n.Live, n.HasLive = lv, true
	return Decide(&n)
}
