package visitors

import (
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// deletesFromHeld reports whether atomic node c of a repeat's tree is a list the repeat leaves out and deletes from by
// "$deleteFromPrimitiveList" alone where lv, its member's outcome there, is not a list (a scalar, a map, a null: kept
// as it stands), or is a list of scalars of one class (numbers one), that of the values deleted where both have any,
// and c is either a list the schema merges by no strategy or lv holds no items: a collation with lv as live passes its
// checks (format.CheckDirs: no items to check where lv is not a list) and decides the node whole, lv less the values
// deleted (Decide: heldLessDeleted), where c's own tree, without live, leaves it absent.
func deletesFromHeld(c *elements.AtomicElement, lv value.Value) bool {
	if c.HasLocal || c.HasRecorded || !deletesOnly(c.Dirs) || c.Ruled {
		return false
	}
	if !lv.IsList() {
		return true
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

// deletesRefused returns the error a collation with lv as live gives at atomic node c of a repeat's tree, a list the
// schema merges by no strategy that the repeat leaves out and deletes from by "$deleteFromPrimitiveList" alone, where
// lv, its member's outcome there, is a list the deletion refuses (smp.DeletesFromClass: items of mixed classes or null,
// live's; objects, or a class other than the values deleted, the patch's), as format.CheckDirs finds it. Nil elsewhere.
func deletesRefused(c *elements.AtomicElement, lv value.Value) error {
	if c.HasLocal || c.HasRecorded || !deletesOnly(c.Dirs) || c.Ruled || !lv.IsList() || elements.MergedList(c.Type, &c.Meta) {
		return nil
	}
	deleted, _ := smp.ItemClass(c.Dirs.DeleteFromList.Items())
	switch msg, fromLive := smp.DeletesFromClass(smp.DeletePrefix+c.Name, deleted, lv.Items(), false); {
	case msg == "":
		return nil
	case fromLive:
		return c.Errorf(elements.Live, msg)
	default:
		return c.Errorf(elements.Patch, msg)
	}
}
