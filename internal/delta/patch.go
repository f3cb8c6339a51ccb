// Package delta is the one place deciding what kubectl's strategic merge patches hold, made from a collated tree
// (pkg/collate) in kubectl's modes (Mode) for pkg/patchgen and pkg/apply (Patch, ThreeWay) and kubectl apply
// --overwrite=false's conflict check (Check); the predicates it shares with kubectl's list order are internal/halves'.
// It only reads trees: what it needs beyond a merge's tree (elements.Below subtrees, the conflict check's view) is
// built by the same collation, beside the tree (Beside: collate.Arena). Lists are matched by collate's index, so a
// patch is linear in the objects' size; it equals strategicpatch's JSON byte for byte where both are defined.
package delta

import (
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// Beside is what Phase 1 builds beside a tree, in the same collation, for patch generation: collate.Arena, of a tree
// collated with Options.Patches (and Options.Conflicts for the conflict check).
type Beside interface {
	// Below returns the subtree kubectl's patches compare atomic node e by (elements.Below), nil if it has none.
	Below(e *elements.AtomicElement) *elements.Below
	// Conflicts returns the conflict check's view of the object: its recorded and live values, live's held as Local,
	// collated with the tree; or the error collating it. Both nil: collated without it.
	Conflicts() (elements.Element, error)
}

// Patch returns mode m's patch for a tree of a whole object collated for patches under gates (beside: what its
// collation built beside it); ok false: no entry. Errors are *elements.Error naming the bad value's source (an item a
// patch cannot name, a local field named like a directive).
func Patch(root elements.Element, beside Beside, m Mode, gates features.Gates) (p value.Value, ok bool, err error) {
	d := New(m, gates)
	d.Beside = beside
	en, err := d.Entry(root)
	return en.Value, en.Present, err
}

// ThreeWay returns kubectl apply's patch for a tree collated for patches (strategicpatch.CreateThreeWayMergePatch):
// Delta and Deletions in one walk, merged node by node as kubectl does, or, for a Ranked list, as values made of the
// tree where that does not hold. A fault of recorded wins over one of live: on an error the Deletions alone are
// asked for theirs. Unless overwrite, the patch's conflicts with live's changes (Check) are the error.
func ThreeWay(root elements.Element, beside Beside, gates features.Gates, overwrite bool) (value.Value, bool, error) {
	return ThreeWayIn(&Memory{}, root, beside, gates, overwrite)
}

// ThreeWayIn is ThreeWay with the patch built in mem (see Memory), as are the values of a conflict error.
func ThreeWayIn(mem *Memory, root elements.Element, beside Beside, gates features.Gates, overwrite bool) (value.Value, bool, error) {
	d := New(threeWay, gates)
	d.Beside, d.mem = beside, mem
	d.made, _ = beside.(Entered)
	en, err := d.Entry(root)
	if err != nil {
		if _, _, derr := Patch(root, beside, Deletions, gates); derr != nil {
			err = derr
		}
		return value.Value{}, false, err
	}
	var emptied []fieldpath.Path
	if en.Value, emptied, err = withoutLocalDirectives(en.Value, d.wroteDirective, root, beside, gates); err != nil {
		return value.Value{}, false, err
	}
	if !overwrite {
		err = check(root, beside, en.Value, en.Present, gates, emptied)
	}
	return en.Value, en.Present, err
}

// Conflict is where the three-way patch (what local writes) and the recorded->live patch (server changes) disagree.
type Conflict struct {
	Path fieldpath.Path
	// Local is what the three-way patch writes there (null for a removal, a delete directive for a deleted item).
	Local value.Value
	// Live is what the recorded->live patch has there (null for a removal).
	Live value.Value
	// Masked marks Local and Live as values that must not be printed (a Secret's: ConflictError.Mask): Describe
	// renders them as MaskedValue.
	Masked bool
}

// MaskedValue stands for a value Describe does not print, as ply's Secret masking writes it.
const MaskedValue = "***"

// Describe renders c on one line: "path: local sets V, live has W" ("local removes it", "live removed it" for null),
// each value as compact JSON cut short at 60 bytes, or MaskedValue when c.Masked and not show.
func (c Conflict) Describe(show bool) string {
	render := func(v value.Value) string {
		if c.Masked && !show {
			return MaskedValue
		}
		return brief(v)
	}
	s := c.Path.String() + ": "
	if c.Local.IsNull() {
		s += "local removes it"
	} else {
		s += "local sets " + render(c.Local)
	}
	if c.Live.IsNull() {
		return s + ", live removed it"
	}
	return s + ", live has " + render(c.Live)
}

// briefMax is the longest rendering of a value in Describe, in bytes.
const briefMax = 60

// brief renders v on one line: compact JSON, cut short with "..." beyond briefMax bytes (at a rune's start).
func brief(v value.Value) string {
	s := string(v.JSON())
	if len(s) <= briefMax {
		return s
	}
	cut := briefMax
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// ConflictError reports that applying local would overwrite the server's changes since the last apply; never empty.
type ConflictError struct {
	Conflicts []Conflict
}

// Error lists the conflicting paths (never a value).
func (e *ConflictError) Error() string {
	s := "apply conflicts with changes made on the server at:"
	for _, c := range e.Conflicts {
		s += " " + c.Path.String()
	}
	return s
}

// Mask sets Masked on the conflicts whose path holds reports true for: the front-ends mask a Secret's values with it.
func (e *ConflictError) Mask(holds func(fieldpath.Path) bool) {
	for i := range e.Conflicts {
		e.Conflicts[i].Masked = e.Conflicts[i].Masked || holds(e.Conflicts[i].Path)
	}
}

// Check is kubectl apply --overwrite=false's conflict check: a *ConflictError listing, in the patch's order, each field
// where patch, root's three-way patch (ThreeWay(root); ok false: no conflict), and the Changed patch from root's
// recorded to its live object ({} when absent) both have an entry and, by kubectl's rule, disagree on a scalar, a kind,
// a $patch directive, or an atomic list's length or member (scalars deduplicated and sorted). Replace-strategy fields
// and merged lists of scalars never conflict; items of merged lists of maps match by elements.KeyOf (none: skipped).
//
// The Changed patch is made of beside's Conflicts view, live collated as local leniently (collate.Options.Conflicts):
// of items repeating a key the first is compared, as the merge writes only it, but with gate UniqueMergeKeys off they
// pair as kubectl's do. An item no patch can name is an *elements.Error naming its source, as kubectl fails on it too;
// so is the view's collation error, and a list of the patch holding such an item (local's list taken whole where no
// source had items to pair: collate.Options.KubectlDiffs) where Changed holds a list too, as kubectl's check settles
// it (unnamed).
func Check(root elements.Element, beside Beside, patch value.Value, ok bool, gates features.Gates) error {
	return check(root, beside, patch, ok, gates, nil)
}

// check is Check where the three-way patch's lists at paths emptied lost all their items, local's maps holding
// "$patch" (withoutLocalDirectives): there, as kubectl's check, it fails where current's changes hold an empty list
// too (smp.EmptyListsMsg), blaming local.
func check(root elements.Element, beside Beside, patch value.Value, ok bool, gates features.Gates, emptied []fieldpath.Path) error {
	if !ok || patch.Len() == 0 {
		return nil
	}
	var view elements.Element
	var err error
	if beside != nil {
		view, err = beside.Conflicts()
	}
	if err != nil {
		if e, ok := err.(*elements.Error); ok { // (a copy: the view's error stays as collated)
			c := *e
			err = &c
		}
		return renamed(err, elements.Local, elements.Live)
	}
	if view == nil {
		return errors.New("the conflict check needs the view of recorded and live collated with the tree (collate.Options.Conflicts)")
	}
	changed, ok, err := Patch(view, nil, Changed, gates)
	if err != nil || !ok {
		return renamed(err, elements.Local, elements.Live)
	}
	n := root.Base()
	w := checked{emptied: emptied}
	w.compare(patch, changed, n.Type, n.Meta, nil)
	switch {
	case w.err != nil:
		return w.err
	case len(w.conflicts) > 0:
		return &ConflictError{Conflicts: w.conflicts}
	}
	return nil
}

// checked is what the conflict check found: the conflicts, or the error of kubectl's check (which then stops).
type checked struct {
	conflicts []Conflict
	err       error
	// emptied are the paths of the patch's lists emptied of local's maps holding "$patch" (check).
	emptied []fieldpath.Path
}

// renamed blames source to for an *elements.Error blaming from, found in a tree holding to's value in from's place
// (live as local: Check; live as recorded: below).
func renamed(err error, from, to elements.Source) error {
	if e, ok := err.(*elements.Error); ok && e.Source == from {
		e.Source = to
	}
	return err
}

// compare appends the conflicts between p (three-way) and c (changed) at path, of type t with metadata meta.
func (w *checked) compare(p, c value.Value, t *openapi.Type, meta openapi.Meta, path fieldpath.Path) {
	add := func() { w.conflicts = append(w.conflicts, Conflict{Path: path, Local: p, Live: c}) }
	if w.err != nil {
		return
	}
	switch p.Kind() {
	case value.KindMap:
		pd, pok := p.Get(smp.DirectiveKey)
		cd, cok := c.Get(smp.DirectiveKey)
		if !c.IsMap() || pok != cok || !value.Equal(pd, cd) {
			add()
		} else if !meta.Strategy.Has(openapi.StrategyReplace) {
			for _, f := range p.Fields() {
				if cv, ok := c.Get(f.Key); ok && f.Key != smp.DirectiveKey && f.Key != smp.RetainKeysKey &&
					!strings.HasPrefix(f.Key, smp.SetOrderPrefix) && !strings.HasPrefix(f.Key, smp.DeletePrefix) {
					ct, cm := t.Child(f.Key)
					w.compare(f.Value, cv, ct, cm, path.Child(fieldpath.Field(f.Key)))
				}
			}
		}
	case value.KindList:
		if p.Len() == 0 && c.IsList() && c.Len() == 0 && slices.ContainsFunc(w.emptied, path.Equal) {
			w.err = &elements.Error{Source: elements.Local, Path: path, Msg: smp.EmptyListsMsg}
			break
		}
		switch merged := elements.MergedList(t, &meta); {
		case !c.IsList() || (!merged && p.Len() != c.Len()):
			add()
		case merged:
			if len(meta.MergeKey) == 0 {
				break
			}
			if settled, err := unnamed(p, c, t.Item(), meta.MergeKey, path); settled {
				w.err = err
				break
			}
			w.compareItems(p, c, t.Item(), meta.MergeKey, path)
		case p.Len() == 0 || !p.Items()[0].IsMap():
			if !slices.EqualFunc(sortedScalars(p), sortedScalars(c), value.Equal) {
				add()
			}
		default:
			for i, it := range p.Items() {
				w.compare(it, c.Items()[i], t.Item(), openapi.Meta{}, path.Child(fieldpath.Index(i)))
			}
		}
	default:
		if !value.Equal(p, c) {
			add()
		}
	}
}

// compareItems compares, per identity, the last item of p, a patch list of maps merged by mergeKey, with c's last, as
// kubectl indexes them; items without an identity are not compared.
func (w *checked) compareItems(p, c value.Value, itemType *openapi.Type, mergeKey []string, path fieldpath.Path) {
	type entry struct {
		c    value.Value
		last int // the position of p's last item of the key
	}
	byKey := make(map[elements.Key]entry, c.Len())
	for _, it := range c.Items() {
		if k, ok := keyOfItem(it, mergeKey, itemType); ok {
			byKey[k] = entry{c: it}
		}
	}
	for pass := range 2 {
		for i, it := range p.Items() {
			k, ok := keyOfItem(it, mergeKey, itemType)
			e, found := byKey[k]
			switch {
			case !ok || !found:
			case pass == 0:
				e.last = i
				byKey[k] = e
			case e.last == i:
				w.compare(it, e.c, itemType, openapi.Meta{}, path.Child(fieldpath.Key(elements.KeyFields(it, mergeKey, itemType))))
			}
		}
	}
}

// unnamed settles lists p (three-way) and c (changed), merged by key mk, where p holds an item without identity (local's
// list taken whole where no source held items: collate.Options.KubectlDiffs), as kubectl's check settles them: it
// fails (err, an *elements.Error blaming local's item) on items of more than one kind (an integer and a decimal
// too), on lists of lists and on objects without their merge key, and finds no conflict in scalars (err nil). settled
// is false where p's items all have an identity: compareItems compares them.
func unnamed(p, c value.Value, itemType *openapi.Type, mk []string, path fieldpath.Path) (settled bool, err error) {
	first := slices.IndexFunc(p.Items(), func(it value.Value) bool {
		_, ok := keyOfItem(it, mk, itemType)
		return !ok
	})
	if first < 0 {
		return false, nil
	}
	kind := p.Items()[0].Kind()
	other := func(it value.Value) bool { return it.Kind() != kind }
	if kind != value.KindList && kind != value.KindMap && !slices.ContainsFunc(p.Items(), other) &&
		!slices.ContainsFunc(c.Items(), other) {
		return true, nil // (scalars of one kind: a merged list of scalars never conflicts)
	}
	got := p.Items()[first].Kind().String()
	if p.Items()[first].IsMap() {
		got = smp.GotWithoutKey
	}
	return true, &elements.Error{Source: elements.Local, Path: path, Msg: smp.MergeKeyNotScalar{Item: first, MergeKey: mk, Got: got}.Msg()}
}

// sortedScalars dedupes l's items and sorts them by smp.KeyString, as kubectl does to compare atomic lists of scalars.
func sortedScalars(l value.Value) []value.Value {
	seen := make(map[value.ScalarKey]bool, l.Len())
	out := make([]value.Value, 0, l.Len())
	for _, v := range l.Items() {
		if k, ok := v.Key(); !ok || !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	smp.SortScalars(out)
	return out
}
