package visitors

import (
	"slices"
	"strings"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// disagreement is what a walk of compose mode's repeat tree e with v finds first in the order a collation with v as
// live builds e's maps (fields by name, a map's "$" keys compared as the patch holds them before its fields are
// built): a "$retainKeys" or "$setElementOrder/<f>" v's map there holds otherwise, a failing "$" field
// (dollarFailure), or a map holding "$patch: merge" or an unknown "$patch" onto a map (directedField). err is its error (nil: none), at its place in that order (at: the directive's key below its map's
// path); plain reports that every field the walk met before it is a scalar or null at a field the schema types as a
// scalar or does not declare, or a "$retainKeys" v's map holds equal (plainField), or a map holding "$patch" that fits
// there (directedField), which that collation builds without error, or a "$setElementOrder/<g>" or
// "$deleteFromPrimitiveList/<g>" of a list at a field g after its place (listDirective: met at g), so err is the
// collation's.
type disagreement struct {
	err   error
	at    fieldpath.Path
	plain bool
	later []fieldpath.Path // the places of the lists orders or deletions met before it name (listDirective)
}

// composeDisagrees returns the disagreement of compose mode's repeat tree e with v (disagreement), walking the maps
// below e's own that v holds maps for.
func composeDisagrees(e elements.Element, v value.Value) disagreement {
	d := disagreement{plain: true}
	d.err = d.below(e, v, true, false)
	return d
}

// ownDisagrees is composeDisagrees' error for e's own map alone, not the maps below it: the collation builds a map's
// fields in key order, its "$" keys before the fields of names it builds a list at, so it meets such a disagreement
// of e's before a list of e's it holds empty and orders fails (emptyOrdersHeld).
func ownDisagrees(e elements.Element, v value.Value) error {
	d := disagreement{plain: true}
	return d.below(e, v, false, false)
}

// below walks e's map onto v's, and e's maps below it where deep (below a "$" field of e's too: ownDisagrees). Such a
// directive is compared as e's patch map holds it (its maps holding "$patch" too, which its node drops or builds), as
// the collation compares it before building it. A "$" field of the item's map, and any field below one (early: the
// collation builds them before the item's other fields), that fails merged onto v's (dollarFailure) fails there, in
// its place; so, where deep, does a map holding "$patch" that does not fit onto v's map (directedField).
func (d *disagreement) below(e elements.Element, v value.Value, deep, early bool) error {
	m, _ := e.(*elements.MapElement)
	if m == nil || !v.IsMap() {
		return nil
	}
	for _, f := range m.Fields {
		lv, inLive := v.Get(f.Name)
		directive := (f.Name == smp.RetainKeysKey || strings.HasPrefix(f.Name, smp.SetOrderPrefix)) && m.Type.Field(f.Name) == nil
		pv, inPatch := m.Local.Get(f.Name)
		if inLive && directive && inPatch && !value.Equal(pv, lv) {
			return d.failed(append(m.Path(), fieldpath.Field(f.Name)), m.Errorf(elements.Patch, f.Name+disagrees))
		}
		dollar := strings.HasPrefix(f.Name, "$")
		if err := dollarFailure(f, m, pv, lv, inLive && (early || dollar)); err != nil {
			return d.failed(f.Element.Base().Path(), err)
		}
		if directed, fits, err := directedField(f, pv, lv); deep && directed && !replacedDirected(f, pv) {
			if !fits {
				return d.failed(f.Element.Base().Path(), err) // (the collation reads the directive there, failing)
			}
			continue // (taken as the patch holds it less the directive, emptied, or dropped)
		}
		c, _ := f.Element.(*elements.MapElement)
		if c == nil || directive || !(deep || dollar) || !lv.IsMap() || unmergeable(m.Type, f.Name, pv, lv) != "" {
			// (no map merged onto a map here; an unmergeable map: the collation fails at that map first,
			// composeChecked, orderFails)
			if g, ok := listDirective(m, f.Name, pv); ok {
				d.later = append(d.later, append(m.Path(), fieldpath.Field(g)))
			} else {
				d.plain = d.plain && plainField(m, f.Name, pv, lv, inLive)
			}
			continue
		}
		if err := d.below(f.Element, lv, true, early || dollar); err != nil {
			return err
		}
	}
	return nil
}

// failed records err, a failure the walk met at place at (a failure's own path where it has one: a disagreement's
// is its map's), as d's, and returns it; d is plain no more where a list that an order or a deletion met before it
// names lies before it or at an unknown place (d.later).
func (d *disagreement) failed(at fieldpath.Path, err error) error {
	d.at = at
	if e, ok := err.(*elements.Error); ok && !strings.HasSuffix(e.Msg, disagrees) {
		d.at = e.Path
	}
	for _, p := range d.later {
		d.plain = d.plain && walkOrder(d.at, p) < 0
	}
	return err
}

// listDirective returns g where field name of compose mode's repeat map m, the patch holding pv there, is a
// "$setElementOrder/<g>" or "$deleteFromPrimitiveList/<g>" list of a field g the schema types as a list: the
// collation reads it as data at the map and checks it where it builds g's list, failing there or not at all.
func listDirective(m *elements.MapElement, name string, pv value.Value) (string, bool) {
	g, ok := strings.CutPrefix(name, smp.SetOrderPrefix)
	if !ok {
		g, ok = strings.CutPrefix(name, smp.DeletePrefix)
	}
	ft, _ := m.Type.Child(g)
	return g, ok && pv.IsList() && ft.Kind == openapi.KindList
}

// plainField reports whether field name of compose mode's repeat map m, the patch holding pv there and v's map lv
// (held: inLive), is one a collation with v as live builds without error: a scalar or null at a field of no "$" name
// the schema types as a scalar or does not declare, of no merge rule, or a "$retainKeys" v's map holds equal (or
// lacks, a list of strings: copied).
func plainField(m *elements.MapElement, name string, pv, lv value.Value, inLive bool) bool {
	if name == smp.RetainKeysKey {
		return value.Equal(pv, lv) || (!inLive && pv.IsList() && !slices.ContainsFunc(pv.Items(), notString))
	}
	if strings.HasPrefix(name, "$") || pv.IsMap() || pv.IsList() {
		return false
	}
	if pv.IsNull() {
		return true // (copied as the patch holds it)
	}
	ft, meta := m.Type.Child(name)
	return scalarField(ft) && meta.Rule == nil
}

// first returns, of err, the first error Phase 2 tells a collation of the repeat with v as live meets where it
// disregards d (nil: it meets none), and d's own error, the one that collation meets first: err where it lies before
// d's place in the collation's order (fields by name), d's where d's lies before it. Nil where their order is not
// known (one path a prefix of the other's, or a list's item where they part).
func (d *disagreement) first(err error) error {
	if err == nil {
		return d.err
	}
	e, ok := err.(*elements.Error)
	if !ok {
		return nil
	}
	if err.Error() == d.err.Error() {
		return err // (a later check meets the same directive first)
	}
	switch walkOrder(e.Path, d.at) {
	case -1:
		return err
	case 1:
		return d.err
	}
	return nil
}

// walkOrder compares places a and b in a collation's walk of a repeat's maps, fields by name: -1 where a lies before
// b, 1 where b lies before a, 0 where their order is not known (one a prefix of the other, or a list's item where
// they part).
func walkOrder(a, b fieldpath.Path) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i].Kind != fieldpath.FieldElement || b[i].Kind != fieldpath.FieldElement {
			return 0
		}
		switch {
		case a[i].Field < b[i].Field:
			return -1
		case a[i].Field > b[i].Field:
			return 1
		}
	}
	return 0
}

// disagreesFirst returns, for compose mode's Repeat r of patch list l (its item it) onto v, composeDisagrees' error
// where a collation with v as live meets it first: where the fields before it are plain, or where Phase 2 tells the
// failure that collation meets first disregarding it (the checks repeat's switch makes after this one, in its order:
// composeFailure, otherKindFirst, composeChecked, contradictionFirst; none where composeChecked fits) and the two
// lie in a known order (disagreement.first), the first of them. Where such a disagreement is found otherwise, it
// clears c.composing: no case of that switch decides the repeat, left to the front-end.
func (o Ordered) disagreesFirst(c *repeatChecks, l *elements.ListElement, r elements.Repeat, it *elements.Node, v value.Value) error {
	d := composeDisagrees(r.Element, v)
	if d.err == nil || d.plain {
		return d.err
	}
	p := l.Local.Items()[r.Pos]
	var err error
	switch {
	case failed(&err, composeFailure(r, p, it.Type, v, o.UnmergedOrderRefused)):
	case failed(&err, otherKindFirst(r, p, it.Type, v, o.UnmergedOrderRefused)):
	case failed(&err, c.composed.of(r, v, o.UnmergedOrderRefused).err):
	case c.composed.fits:
	case r.Contradicted[-1] != nil && !r.Deep && contradictionFirst(p, it.Type, v, r.Contradicted[-1]):
		err = r.Contradicted[-1]
	default:
		c.composing = false
		return nil
	}
	if first := d.first(err); first != nil {
		return first
	}
	c.composing = false
	return nil
}

// notString reports whether v is no string.
func notString(v value.Value) bool {
	_, ok := v.AsString()
	return !ok
}
