package patch

import (
	"slices"
	"strconv"
	"strings"

	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// tupleKey is the hashable identity of a list item (see elements.Key).
type tupleKey = elements.Key

// collator builds the Element tree of a patch: each node holds the patch's
// value in Values.Local (directive keys and directive items taken out) and
// live's in Values.Live; directives become the node's elements.PatchMeta.
type collator struct {
	// max is the deepest nesting accepted.
	max int
	// kubectl selects OrderKubectl's list order (strategicpatch's), else
	// OrderSeed's.
	kubectl bool
}

// node builds the Element of one node: vals holds the patch value (Local)
// and the live value (Live); pm the directives its parent gives for it.
func (c *collator) node(parent elements.Element, name string, vals elements.Values, pm *elements.PatchMeta, t *openapi.Type, meta openapi.Meta, depth int) (elements.Element, error) {
	if t == nil {
		t = openapi.Unknown
	}
	fill := func(n *elements.Node) {
		n.Parent, n.Name, n.Values, n.Type, n.Meta, n.Patch = parent, name, vals, t, meta, pm
	}
	leaf := func() (elements.Element, error) {
		e := &elements.AtomicElement{}
		fill(&e.Node)
		return e, nil
	}
	fail := func(s elements.Source, msg string) error {
		n := &elements.Node{}
		fill(n)
		return n.Errorf(s, msg)
	}
	if depth > c.max {
		return nil, fail(elements.Patch, "nesting is deeper than the limit of "+strconv.Itoa(c.max)+" levels of maps and lists")
	}
	if pm != nil && pm.HasDeleteFromList {
		if err := c.checkDeleteTarget(&vals, name, pm.DeleteFromList.Items(), t, fail); err != nil {
			return nil, err
		}
	}
	if !vals.HasLocal {
		if pm == nil || !pm.HasSetOrder {
			return leaf()
		}
		// "$setElementOrder/<field>" for a list the patch does not set
		// reorders live's list.
		switch {
		case !vals.HasLive || vals.Live.IsNull():
			return leaf()
		case !vals.Live.IsList():
			return nil, fail(elements.Live, smp.SetOrderPrefix+name+" orders a list, but live's value is "+vals.Live.Kind().String())
		}
		return c.list(parent, name, &vals, pm, t, meta, depth, fill, fail)
	}
	p := vals.Local
	if pm != nil && pm.HasSetOrder && !p.IsList() {
		return nil, fail(elements.Patch, smp.SetOrderPrefix+name+" orders a list, but the patch sets "+name+" to "+p.Kind().String())
	}
	switch p.Kind() {
	case value.KindNull:
		return leaf()
	case value.KindMap:
		return c.mapNode(parent, name, &vals, pm, t, meta, depth, fill, fail)
	case value.KindList:
		return c.list(parent, name, &vals, pm, t, meta, depth, fill, fail)
	}
	return leaf()
}

// checkDeleteTarget rejects "$deleteFromPrimitiveList/<field>" for a field
// that is not a list (by schema, or by the patch's own value), for a list
// of objects, and values to delete that are not scalars of the list's
// kind.
func (c *collator) checkDeleteTarget(vals *elements.Values, name string, del []value.Value, t *openapi.Type, fail func(elements.Source, string) error) error {
	dir := smp.DeletePrefix + name
	if t.Kind != openapi.KindList && t.Kind != openapi.KindUnknown {
		return fail(elements.Patch, dir+" applies to lists of scalars; the schema says this field is "+kindPhrase(t))
	}
	if vals.HasLocal && !vals.Local.IsNull() && !vals.Local.IsList() {
		return fail(elements.Patch, dir+" applies to lists of scalars; the patch sets this field to "+vals.Local.Kind().String())
	}
	// The values to delete and the list they are deleted from (the
	// patch's, else live's) are scalars of one kind.
	dc, msg := listClass(del)
	if msg != "" {
		return fail(elements.Patch, dir+": "+msg)
	}
	if dc == classMap || dc == classList || dc == classNull {
		return fail(elements.Patch, dir+": the values to delete must be scalars, got "+classNames[dc])
	}
	base, src := vals.Live, elements.Live
	if vals.HasLocal && vals.Local.IsList() {
		base, src = vals.Local, elements.Patch
	} else if !vals.HasLive || !vals.Live.IsList() {
		return nil
	}
	bc, msg := listClass(base.Items())
	switch {
	case msg != "":
		return fail(src, msg)
	case bc == classMap:
		return fail(elements.Patch, dir+" applies to lists of scalars; this list holds objects (delete them with \""+smp.DirectiveKey+": "+smp.DeleteValue+"\" items)")
	case bc != classNone && dc != classNone && bc != dc:
		return fail(elements.Patch, dir+": the values to delete are "+classPlural[dc]+" but the list holds "+classPlural[bc])
	}
	return nil
}

func kindPhrase(t *openapi.Type) string {
	switch t.Kind {
	case openapi.KindStruct, openapi.KindMap:
		return "an object"
	case openapi.KindPrimitive:
		return "a scalar"
	case openapi.KindList:
		return "a list"
	}
	return "of unknown kind"
}

// mapNode builds the node of a patch map.
func (c *collator) mapNode(parent elements.Element, name string, vals *elements.Values, pm *elements.PatchMeta, t *openapi.Type, meta openapi.Meta, depth int,
	fill func(*elements.Node), fail func(elements.Source, string) error) (elements.Element, error) {
	p := vals.Local
	hasLive := vals.HasLive && vals.Live.IsMap()
	if t.Kind != openapi.KindStruct && t.Kind != openapi.KindMap && t.Kind != openapi.KindUnknown {
		return nil, fail(elements.Patch, "expected "+kindPhrase(t)+" ("+t.Name+"), got an object")
	}
	if d, ok := p.Get(smp.DirectiveKey); ok && !declares(t, smp.DirectiveKey) {
		s, isString := d.AsString()
		if !isString || (s != smp.ReplaceValue && s != smp.DeleteValue && s != smp.MergeValue) {
			return nil, fail(elements.Patch, "unknown "+smp.DirectiveKey+" value "+d.Short()+"; expected "+smp.ReplaceValue+" or "+smp.DeleteValue)
		}
		e := &elements.AtomicElement{}
		fill(&e.Node)
		switch {
		case !hasLive:
			// A directive map for a field live lacks is dropped (the field
			// stays absent), as strategicpatch does.
			e.Values.Local, e.Values.HasLocal = value.Null, true
		case s == smp.MergeValue:
			return nil, fail(elements.Patch, smp.DirectiveKey+": "+smp.MergeValue+" is a schema strategy, not a patch directive: maps merge without it")
		case s == smp.DeleteValue:
			// The map is deleted, as document 001 says (strategicpatch
			// leaves an empty map: a deliberate difference, doc.go).
			e.Values.Local = value.Null
			e.Patch = withDirective(pm, s)
		default:
			v, err := c.clean(p.Without(smp.DirectiveKey), t, depth, fail)
			if err != nil {
				return nil, err
			}
			e.Values.Local = v
			e.Patch = withDirective(pm, s)
		}
		return e, nil
	}
	own := pm
	// Directives: $retainKeys, $setElementOrder/<f>, $deleteFromPrimitiveList/<f>;
	// other "$" keys the schema does not declare come from newer clients
	// and are ignored.
	var childDirs map[string]*elements.PatchMeta
	dir := func(f string) *elements.PatchMeta {
		if childDirs == nil {
			childDirs = make(map[string]*elements.PatchMeta)
		}
		d := childDirs[f]
		if d == nil {
			d = &elements.PatchMeta{}
			childDirs[f] = d
		}
		return d
	}
	data := make([]value.Field, 0, p.Len())
	for _, f := range p.Fields() {
		if !strings.HasPrefix(f.Key, "$") || declares(t, f.Key) {
			data = append(data, f)
			continue
		}
		switch {
		case f.Key == smp.RetainKeysKey:
			if !f.Value.IsList() {
				return nil, fail(elements.Patch, smp.RetainKeysKey+" must be a list of field names, got "+f.Value.Kind().String())
			}
			keys := make([]string, 0, f.Value.Len())
			for i, it := range f.Value.Items() {
				s, ok := it.AsString()
				if !ok {
					return nil, fail(elements.Patch, smp.RetainKeysKey+" item "+strconv.Itoa(i)+": expected a field name (string), got "+it.Kind().String())
				}
				keys = append(keys, s)
			}
			slices.Sort(keys)
			own = &elements.PatchMeta{}
			if pm != nil {
				*own = *pm
			}
			own.RetainKeys, own.HasRetainKeys = slices.Compact(keys), true
		case strings.HasPrefix(f.Key, smp.SetOrderPrefix):
			if !f.Value.IsList() {
				return nil, fail(elements.Patch, f.Key+" must be a list, got "+f.Value.Kind().String())
			}
			d := dir(f.Key[len(smp.SetOrderPrefix):])
			d.SetOrder, d.HasSetOrder = f.Value, true
		case strings.HasPrefix(f.Key, smp.DeletePrefix):
			if !f.Value.IsList() {
				return nil, fail(elements.Patch, f.Key+" must be a list of the values to delete, got "+f.Value.Kind().String())
			}
			d := dir(f.Key[len(smp.DeletePrefix):])
			d.DeleteFromList, d.HasDeleteFromList = f.Value, true
		}
	}
	if own != nil && own.HasRetainKeys {
		for _, f := range data {
			if f.Value.IsNull() {
				continue
			}
			if _, found := slices.BinarySearch(own.RetainKeys, f.Key); !found {
				return nil, fail(elements.Patch, "the patch sets field "+strconv.Quote(f.Key)+" but "+smp.RetainKeysKey+" does not list it; "+smp.RetainKeysKey+" must name every field the patch sets")
			}
		}
	}
	if meta.Strategy.Has(openapi.StrategyReplace) && hasLive {
		// A map whose schema strategy is replace is taken from the patch whole.
		v, err := c.clean(value.MapFromSorted(data), t, depth, fail)
		if err != nil {
			return nil, err
		}
		e := &elements.AtomicElement{}
		fill(&e.Node)
		e.Values.Local = v
		return e, nil
	}
	// The children: the union of the patch's data fields, live's fields
	// and the fields directives name, in key order.
	var lf []value.Field
	if hasLive {
		lf = vals.Live.Fields()
	}
	var dirNames []string
	for k := range childDirs {
		dirNames = append(dirNames, k)
	}
	slices.Sort(dirNames)
	var self elements.Element
	var node *elements.Node
	if t.Kind == openapi.KindStruct {
		e := &elements.TypeElement{}
		self, node = e, &e.Node
	} else {
		e := &elements.MapElement{}
		self, node = e, &e.Node
	}
	fill(node)
	node.Patch = own
	if !hasLive {
		node.Live, node.HasLive = value.Value{}, false
	}
	fields := make(elements.Fields, 0, max(len(data), len(lf)))
	i, j, k := 0, 0, 0
	for i < len(data) || j < len(lf) || k < len(dirNames) {
		var key string
		have := false
		if i < len(data) {
			key, have = data[i].Key, true
		}
		if j < len(lf) && (!have || lf[j].Key < key) {
			key, have = lf[j].Key, true
		}
		if k < len(dirNames) && (!have || dirNames[k] < key) {
			key = dirNames[k]
		}
		var cv elements.Values
		var cd *elements.PatchMeta
		if i < len(data) && data[i].Key == key {
			cv.Local, cv.HasLocal = data[i].Value, true
			i++
		}
		if j < len(lf) && lf[j].Key == key {
			cv.Live, cv.HasLive = lf[j].Value, true
			j++
		}
		if k < len(dirNames) && dirNames[k] == key {
			cd = childDirs[key]
			k++
		}
		ct, cm := t.Child(key)
		child, err := c.node(self, key, cv, cd, ct, cm, depth+1)
		if err != nil {
			return nil, err
		}
		fields = append(fields, elements.Field{Name: key, Element: child})
	}
	switch e := self.(type) {
	case *elements.TypeElement:
		e.Fields = fields
	case *elements.MapElement:
		e.Fields = fields
	}
	return self, nil
}

// withDirective returns a copy of pm (or a new PatchMeta) with Directive d.
func withDirective(pm *elements.PatchMeta, d string) *elements.PatchMeta {
	out := &elements.PatchMeta{}
	if pm != nil {
		*out = *pm
	}
	out.Directive = d
	return out
}

// declares reports whether struct type t declares a field called name (a
// few types, JSONSchemaProps among them, have "$ref" and "$schema" fields,
// which are data, not directives).
func declares(t *openapi.Type, name string) bool { return t.Field(name) != nil }
