package property

import (
	"strconv"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/gen"
)

// scope walks live next to recorded, local and the merge result, and
// classifies what it meets:
//
//   - untouched: a live field or list item that neither recorded nor local
//     holds; the result must hold it with its live value;
//   - merged: a map, or a list with merge strategy, that local holds (not
//     null) and live holds too; the result must hold it, of the same kind.
//
// Everything else is in the merge scope and not checked: what local sets
// to a scalar, null, an atomic list or an atomic map replaces live's
// value; what recorded has and local dropped is removed; fields of a
// retainKeys union that local leaves out are cleared.
type scope struct {
	untouched, merged int
	// multiKeyItems counts the live items of merged lists with a
	// multi-field merge key that the walk matched and checked.
	multiKeyItems int
	// lost lists untouched values the result changed or dropped; dropped
	// lists merged maps and lists the result dropped.
	lost, dropped []string
}

// at is one position: its value in each input and in the result.
type at struct {
	rec, loc, live, res          value.Value
	hasRec, hasLoc, hasRes, root bool
}

func (s *scope) walk(t *openapi.Type, m openapi.Meta, p at, path string) {
	if t == nil {
		t = openapi.Unknown
	}
	if !p.hasRec && !p.hasLoc {
		s.untouched++
		switch {
		case !p.hasRes:
			s.lost = append(s.lost, path+": dropped, live has "+string(p.live.JSON()))
		case !value.Equal(p.live, p.res):
			s.lost = append(s.lost, path+": live has "+string(p.live.JSON())+", result "+string(p.res.JSON()))
		}
		return
	}
	if !p.hasLoc || p.loc.IsNull() || m.Strategy.Has(openapi.StrategyReplace) {
		return
	}
	switch {
	case p.live.IsMap() && p.loc.IsMap() && t.Kind != openapi.KindPrimitive && t.Kind != openapi.KindList:
		s.walkMap(t, m, p, path)
	case p.live.IsList() && p.loc.IsList() && t.Kind == openapi.KindList && m.Strategy.Has(openapi.StrategyMerge):
		s.walkList(t, m, p, path)
	}
}

// walkMap checks the fields of a map that live and local hold (type t, metadata m) at path, each by walk.
func (s *scope) walkMap(t *openapi.Type, m openapi.Meta, p at, path string) {
	s.merged++
	if !p.hasRes || !p.res.IsMap() {
		s.dropped = append(s.dropped, path+": merged map dropped, result "+string(p.res.JSON()))
		return
	}
	retain := m.Strategy.Has(openapi.StrategyRetainKeys)
	for _, f := range p.live.Fields() {
		ct, cm := openapi.Unknown, openapi.Meta{}
		switch t.Kind {
		case openapi.KindStruct:
			if fd := t.Field(f.Key); fd != nil {
				ct, cm = fd.Type, fd.Meta
			}
		case openapi.KindMap:
			ct = t.Elem
		}
		c := at{live: f.Value}
		if p.hasRec && p.rec.IsMap() {
			c.rec, c.hasRec = p.rec.Get(f.Key)
		}
		c.loc, c.hasLoc = p.loc.Get(f.Key)
		c.res, c.hasRes = p.res.Get(f.Key)
		if retain && !c.hasLoc {
			continue // a union field local leaves out is cleared
		}
		if p.root && (f.Key == "apiVersion" || f.Key == "kind") {
			continue
		}
		s.walk(ct, cm, c, path+"."+f.Key)
	}
}

// walkList checks the items of a merged list that live and local hold (type t, metadata m) at path, each by walk,
// matched by their identity: a scalar's value, or a list of maps' merge key.
func (s *scope) walkList(t *openapi.Type, m openapi.Meta, p at, path string) {
	s.merged++
	if !p.hasRes || !p.res.IsList() {
		s.dropped = append(s.dropped, path+": merged list dropped, result "+string(p.res.JSON()))
		return
	}
	var key func(value.Value) (itemKey, bool)
	switch {
	case t.Elem.Kind == openapi.KindPrimitive:
		key = func(v value.Value) (itemKey, bool) {
			k, ok := v.Key()
			return itemKey{k}, ok
		}
	case t.Elem.Kind == openapi.KindStruct && len(m.MergeKey) >= 1 && len(m.MergeKey) <= len(itemKey{}):
		key = func(v value.Value) (itemKey, bool) { return keyTuple(t.Elem, m.MergeKey, v) }
	default:
		return
	}
	var recItems map[itemKey]value.Value
	if p.hasRec && p.rec.IsList() {
		recItems = index(p.rec, key)
	}
	locItems, resItems := index(p.loc, key), index(p.res, key)
	for i, it := range p.live.Items() {
		k, ok := key(it)
		if !ok {
			continue
		}
		c := at{live: it}
		c.rec, c.hasRec = recItems[k]
		c.loc, c.hasLoc = locItems[k]
		c.res, c.hasRes = resItems[k]
		if len(m.MergeKey) > 1 {
			s.multiKeyItems++
		}
		// A retainKeys strategy on a list applies to the union of
		// each of its items.
		s.walk(t.Elem, openapi.Meta{Strategy: m.Strategy & openapi.StrategyRetainKeys}, c, path+"["+strconv.Itoa(i)+"]")
	}
}

// itemKey identifies an item of a merged list: a primitive's value, or
// the values of the merge-key fields in key order; unused slots are zero.
type itemKey [3]value.ScalarKey

// keyTuple returns the key of item, a map of struct type et with merge
// key fields key: a key field the item leaves out takes its schema default
// (the identity the server gives it). ok is false when a key field is
// missing with no default or holds a map or list.
func keyTuple(et *openapi.Type, key []string, item value.Value) (k itemKey, ok bool) {
	for i, name := range key {
		v, has := item.Get(name)
		if !has {
			if v, has = et.KeyDefault(name); !has {
				return k, false
			}
		}
		if k[i], ok = v.Key(); !ok {
			return k, false
		}
	}
	return k, true
}

// index maps the items of list by key; an item without a key is left out,
// and of two items with the same key the first is kept.
func index(list value.Value, key func(value.Value) (itemKey, bool)) map[itemKey]value.Value {
	out := make(map[itemKey]value.Value, len(list.Items()))
	for _, it := range list.Items() {
		if k, ok := key(it); ok {
			if _, dup := out[k]; !dup {
				out[k] = it
			}
		}
	}
	return out
}

// rootMeta is the metadata of the root object: none.
var rootMeta = openapi.Meta{}

// rootAt is the root position of a triple and the result of merging it.
func rootAt(tr gen.Triple, res value.Value) at {
	return at{rec: tr.Recorded, hasRec: !tr.Recorded.IsNull(), loc: tr.Local, hasLoc: true,
		live: tr.Live, res: res, hasRes: true, root: true}
}

// withLiveOnly adds to live what a controller or another client would: a
// label and an annotation under keys neither recorded nor local uses, so
// every triple has untouched values for the scope check.
func withLiveOnly(tr gen.Triple) gen.Triple {
	meta, _ := tr.Live.Get("metadata")
	if !meta.IsMap() {
		meta = value.MustMap()
	}
	for _, field := range []string{"annotations", "labels"} {
		m, _ := meta.Get(field)
		if !m.IsMap() {
			m = value.MustMap()
		}
		meta = meta.With(field, m.With("property.ply.dev/live-only", value.String("kept")))
	}
	tr.Live = tr.Live.With("metadata", meta)
	return tr
}
