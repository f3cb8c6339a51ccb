package engine

import (
	"slices"
	"strings"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// Meta is the merge metadata of one field as a Lookup reports it: the patch strategies (x-kubernetes-patch-strategy
// or the patchStrategy tag, split at commas) and the merge key, one field name taken verbatim.
type Meta struct {
	Strategies []string
	MergeKey   string
}

// Lookup is a schema walked key by key, the shape of strategicpatch's LookupPatchMeta: Struct gives the schema and
// metadata of the field key of an object, Slice those of the items of the list in field key. A nil Lookup is no
// schema. Implementations may be called from many goroutines at once, as strategicpatch's are.
type Lookup interface {
	Struct(key string) (Lookup, Meta, error)
	Slice(key string) (Lookup, Meta, error)
}

const (
	setOrderPrefix   = "$setElementOrder/"
	deletePrimPrefix = "$deleteFromPrimitiveList/"
)

// A mode says when a failed look-up fails the call, as in strategicpatch: applying a patch (or merging two) looks a key
// up wherever both documents hold objects (or both lists) there, and fails; creating a patch looks it up where two
// documents hold objects (or lists) there, and fails only when they differ.
type mode uint8

const (
	merging mode = iota
	diffing
)

// placed is a value at one place of the documents and the document it comes from. A witness (the object a patch
// applies to) gives no field of its own: only the patch's keys are looked up, as strategicpatch looks them up, and the
// witness's values there count for failAt and below.
type placed struct {
	v       value.Value
	doc     int
	witness bool
}

// typeOf builds the ply schema type of documents docs (objects or null, all of one type) from l, asking l only for the
// keys the documents hold, as strategicpatch does. A failed look-up is an error where strategicpatch would fail (see
// mode); anywhere else the field is left without schema (maps merge, lists are replaced), which is what strategicpatch
// does with values it takes without looking at them.
//
// In mode merging, docs are the object and the patch (or two patches): only the keys of the patch (docs[1]) are
// looked up, so that the cost is the patch's, not the object's.
func typeOf(l Lookup, m mode, docs ...value.Value) (*openapi.Type, error) {
	maps := make([]placed, 0, len(docs))
	for i, d := range docs {
		if d.IsMap() {
			maps = append(maps, placed{d, i, m == merging && i == 0})
		}
	}
	b := builder{mode: m}
	return b.structType(l, maps, 0)
}

// builder builds the schema type of one call.
type builder struct {
	mode mode
}

// fieldValues collects, for one key of the objects of a node, the non-null values the documents hold there.
type fieldValues struct {
	values     []placed // the objects and lists
	maps       int
	lists      int
	scalars    int
	listLookup bool // a $setElementOrder or $deleteFromPrimitiveList directive names the key
	ordered    bool // a $setElementOrder directive names the key
}

// structType is the type of objects maps (at nesting depth) under schema l: a struct with one field per key they hold.
func (b *builder) structType(l Lookup, maps []placed, depth int) (*openapi.Type, error) {
	if l == nil || depth > maxDepth {
		return openapi.Unknown, nil
	}
	fields := collectFields(maps)
	t := &openapi.Type{Name: "strategicpatch", Kind: openapi.KindStruct, Fields: make(map[string]*openapi.Field, len(fields))}
	for name, fv := range fields {
		ft, meta, err := b.fieldType(l, name, fv, depth)
		if err != nil {
			return nil, err
		}
		if ft == nil {
			continue
		}
		t.Fields[name] = &openapi.Field{Name: name, Type: ft, Meta: meta, KubectlMeta: meta}
		t.FieldNames = append(t.FieldNames, name)
	}
	slices.Sort(t.FieldNames)
	return t, nil
}

// collectFields groups the fields of maps by key; a directive naming a list counts for the list's key. Witnesses
// add values to the keys the others hold only.
func collectFields(maps []placed) map[string]*fieldValues {
	fields := make(map[string]*fieldValues)
	for _, witnesses := range [...]bool{false, true} {
		for _, m := range maps {
			if m.witness == witnesses {
				addFields(fields, m)
			}
		}
	}
	return fields
}

// addFields adds the fields of m to fields.
func addFields(fields map[string]*fieldValues, m placed) {
	if _, ok := m.v.Get("$patch"); ok && !m.witness {
		// A directive map ("$patch: replace", "delete") is taken as a whole: strategicpatch looks nothing up inside.
		return
	}
	get := func(k string) *fieldValues {
		fv := fields[k]
		if fv == nil && !m.witness {
			fv = &fieldValues{}
			fields[k] = fv
		}
		return fv
	}
	for _, f := range m.v.Fields() {
		if strings.HasPrefix(f.Key, "$") {
			if name, ok := listDirective(f.Key); ok && !m.witness {
				fv := get(name)
				fv.listLookup = true
				fv.ordered = fv.ordered || strings.HasPrefix(f.Key, setOrderPrefix)
			}
			continue
		}
		fv := get(f.Key)
		if fv == nil || f.Value.IsNull() {
			continue
		}
		switch {
		case f.Value.IsMap():
			fv.maps++
		case f.Value.IsList():
			fv.lists++
		default:
			fv.scalars++
			continue
		}
		fv.values = append(fv.values, placed{f.Value, m.doc, m.witness})
	}
}

// listDirective returns the list a "$setElementOrder/" or "$deleteFromPrimitiveList/" key names.
func listDirective(key string) (string, bool) {
	if name, ok := strings.CutPrefix(key, setOrderPrefix); ok {
		return name, true
	}
	return strings.CutPrefix(key, deletePrimPrefix)
}

// fieldType is the type and metadata of field name holding fv, nil for a field left without schema.
func (b *builder) fieldType(l Lookup, name string, fv *fieldValues, depth int) (*openapi.Type, openapi.Meta, error) {
	n := fv.maps + fv.lists + fv.scalars
	switch {
	case n > 0 && fv.maps == n:
		sub, m, err := l.Struct(name)
		if err != nil {
			return nil, openapi.Meta{}, b.failAt(err, fv, false)
		}
		meta := toMeta(m)
		if meta.Strategy.Has(openapi.StrategyReplace) {
			// Taken whole: strategicpatch looks nothing up inside.
			return openapi.Unknown, meta, nil
		}
		t, err := b.structType(sub, fv.values, depth+1)
		return t, meta, err
	case fv.lists == n && (n > 0 || fv.listLookup):
		sub, m, err := l.Slice(name)
		if err != nil {
			return nil, openapi.Meta{}, b.failAt(err, fv, fv.ordered)
		}
		meta := toMeta(m)
		if !meta.Strategy.Has(openapi.StrategyMerge) && b.mode == merging {
			// Replaced whole: applying, strategicpatch looks nothing up inside. (Its conflict check does, item by item.)
			return atomicList, meta, nil
		}
		t, err := b.listType(sub, fv.values, depth+1)
		return t, meta, err
	}
	return nil, openapi.Meta{}, nil
}

// failAt is err where strategicpatch would look the field up and fail (see mode), nil elsewhere. ordered reports a
// "$setElementOrder" directive for the field, which strategicpatch looks up whenever it applies one.
func (b *builder) failAt(err error, fv *fieldValues, ordered bool) error {
	if b.mode == merging && ordered {
		return err
	}
	docs := map[int]value.Value{}
	differ := false
	for _, p := range fv.values {
		if first, ok := docs[p.doc]; ok {
			differ = differ || !value.Equal(first, p.v)
			continue
		}
		for _, other := range docs {
			differ = differ || !value.Equal(other, p.v)
		}
		docs[p.doc] = p.v
	}
	if len(docs) < 2 || (b.mode == diffing && !differ) {
		return nil
	}
	return err
}

// listType is the type of lists lists, their items of schema l: objects (a struct type), scalars (a primitive type),
// else no schema.
func (b *builder) listType(l Lookup, lists []placed, depth int) (*openapi.Type, error) {
	var maps []placed
	scalars := 0
	for _, list := range lists {
		for _, it := range list.v.Items() {
			switch {
			case it.IsMap():
				maps = append(maps, placed{it, list.doc, list.witness})
			case it.IsScalar():
				scalars++
			}
		}
	}
	elem := openapi.Unknown
	switch {
	case len(maps) > 0 && scalars == 0:
		var err error
		if elem, err = b.structType(l, maps, depth); err != nil {
			return nil, err
		}
	case len(maps) == 0:
		elem = anyPrimitive
	}
	return &openapi.Type{Name: "strategicpatch list", Kind: openapi.KindList, Elem: elem}, nil
}

// atomicList is the type of lists replaced whole.
var atomicList = &openapi.Type{Name: "strategicpatch list", Kind: openapi.KindList, Elem: openapi.Unknown}

// anyPrimitive is the item type of lists of scalars.
var anyPrimitive = &openapi.Type{Name: "strategicpatch scalar", Kind: openapi.KindPrimitive}

// toMeta reads strategicpatch's metadata as ply's: "merge", "replace" and "retainKeys" strategies, the merge key one
// field name.
func toMeta(m Meta) openapi.Meta {
	var out openapi.Meta
	for _, s := range m.Strategies {
		switch s {
		case "merge":
			out.Strategy |= openapi.StrategyMerge
		case "replace":
			out.Strategy |= openapi.StrategyReplace
		case "retainKeys":
			out.Strategy |= openapi.StrategyRetainKeys
		}
	}
	if m.MergeKey != "" {
		out.MergeKey = []string{m.MergeKey}
	}
	return out
}
