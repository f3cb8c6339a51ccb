package smp

import (
	"sort"
	"strings"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// Conflict is a place where the three-way patch (what applying local would
// write) and the recorded->live diff (what the server changed since the
// last apply) disagree.
type Conflict struct {
	Path fieldpath.Path
	// Local is what the patch writes there (null for a removal).
	Local value.Value
	// Live is what the server changed it to (null for a removal).
	Live value.Value
}

// Conflicts returns, in sorted path order, every conflict between the
// three-way patch of the collated tree root and the recorded->live diff,
// by kubectl's rule: both touch the same field, and they disagree on its
// scalar value, on its kind (object, list, scalar, null), on whether a
// merged list item is deleted, or on the length or a member of an atomic
// list. Fields with strategy replace and merged lists of primitives never
// conflict. With no recorded object the diff is taken from an empty one,
// as kubectl does.
func Conflicts(root elements.Element) []Conflict {
	n := root.Base()
	p, ok := ThreeWayEntries(root)
	if !ok {
		return nil
	}
	original := value.MapFromSorted(nil)
	if n.HasRecorded {
		original = n.Recorded
	}
	current := value.MapFromSorted(nil)
	if n.HasLive {
		current = n.Live
	}
	c, ok := TwoWay(original, current, n.Type, n.Meta)
	if !ok {
		return nil
	}
	var out []Conflict
	compare(p, c, n.Type, n.Meta, nil, &out)
	return out
}

func compare(p, c value.Value, t *openapi.Type, meta openapi.Meta, path fieldpath.Path, out *[]Conflict) {
	add := func() { *out = append(*out, Conflict{Path: path, Local: p, Live: c}) }
	switch p.Kind() {
	case value.KindMap:
		if !c.IsMap() {
			add()
			return
		}
		pd, pok := p.Get(DirectiveKey)
		cd, cok := c.Get(DirectiveKey)
		if (pok || cok) && (pok != cok || !value.Equal(pd, cd)) {
			add()
			return
		}
		if meta.Strategy.Has(openapi.StrategyReplace) {
			return
		}
		for _, f := range p.Fields() {
			if f.Key == DirectiveKey || f.Key == RetainKeysKey || strings.HasPrefix(f.Key, SetOrderPrefix) || strings.HasPrefix(f.Key, DeletePrefix) {
				continue
			}
			cv, ok := c.Get(f.Key)
			if !ok {
				continue
			}
			ct, cm := t.Child(f.Key)
			compare(f.Value, cv, ct, cm, path.Child(fieldpath.Field(f.Key)), out)
		}
	case value.KindList:
		if !c.IsList() {
			add()
			return
		}
		if t != nil && t.Kind == openapi.KindList && meta.Strategy.Has(openapi.StrategyMerge) {
			if !isMapList(p, c) || len(meta.MergeKey) == 0 {
				return
			}
			byKey := make(map[string]value.Value, c.Len())
			for _, it := range c.Items() {
				if k, ok := keyOf(it, meta.MergeKey); ok {
					byKey[k] = it
				}
			}
			for _, it := range p.Items() {
				k, ok := keyOf(it, meta.MergeKey)
				if !ok {
					continue
				}
				if cit, found := byKey[k]; found {
					compare(it, cit, t.Item(), openapi.Meta{}, path.Child(fieldpath.Key(keyFields(it, meta.MergeKey))), out)
				}
			}
			return
		}
		if p.Len() != c.Len() {
			add()
			return
		}
		if !isMapList(p, c) {
			ps, cs := sortedScalars(p), sortedScalars(c)
			if len(ps) != len(cs) {
				add()
				return
			}
			for i := range ps {
				if !value.Equal(ps[i], cs[i]) {
					add()
					return
				}
			}
			return
		}
		for i, it := range p.Items() {
			compare(it, c.Items()[i], t.Item(), openapi.Meta{}, path.Child(fieldpath.Index(i)), out)
		}
	default:
		if !value.Equal(p, c) {
			add()
		}
	}
}

func keyFields(item value.Value, mergeKey []string) []fieldpath.KeyField {
	kf := make([]fieldpath.KeyField, len(mergeKey))
	for i, name := range mergeKey {
		v, _ := item.Get(name)
		kf[i] = fieldpath.KeyField{Name: name, Value: v}
	}
	return kf
}

// sortedScalars dedupes the items of l and sorts them by KeyString.
func sortedScalars(l value.Value) []value.Value {
	seen := make(map[value.ScalarKey]bool, l.Len())
	out := make([]value.Value, 0, l.Len())
	for _, v := range l.Items() {
		k, ok := v.Key()
		if ok && seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, v)
	}
	sort.SliceStable(out, func(i, j int) bool { return KeyString(out[i]) < KeyString(out[j]) })
	return out
}

// ConflictError reports that applying local would overwrite changes the
// server made since the last apply (kubectl apply --overwrite=false). It
// lists every conflict, in the order Conflicts returns them; it is never
// empty when returned as an error.
type ConflictError struct {
	Conflicts []Conflict
}

// Error lists the conflicting paths.
func (e *ConflictError) Error() string {
	s := "apply conflicts with changes made on the server at:"
	for _, c := range e.Conflicts {
		s += " " + c.Path.String()
	}
	return s
}
