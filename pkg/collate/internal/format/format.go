// Package format reads the strategic merge patch format (design documents 000-002) for pkg/collate: a patch's
// directives into node metadata, and the rules that reject a patch. It takes engine nodes; programs use pkg/patch.
package format

import (
	"slices"
	"strconv"
	"strings"

	"github.com/plyproject/ply/internal/carve"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/value"
)

// FieldDirectives are the directives a patch map gives its field Name.
type FieldDirectives struct {
	Name string
	Dirs *elements.Directives
}

// Memory is where ReadMap builds the directives a patch map gives its fields, carved from reused chunks (carve.Chunks):
// a tree's maps cost an allocation per chunk, not two per field. What it hands out is valid until Reset, which clears
// it (no patch stays referenced) for the next tree. The zero Memory is ready.
type Memory struct {
	byField carve.Chunks[FieldDirectives]
	dirs    carve.Chunks[elements.Directives]
	// data holds the data fields of patch maps holding directives (ReadMap).
	data carve.Chunks[value.Field]
}

// Reset clears what m handed out and readies it for the next tree.
func (m *Memory) Reset() {
	m.byField.Reset()
	m.dirs.Reset()
	m.data.Reset()
}

// Own returns data, the data fields ReadMap read of patch map p, in memory that outlives the Memory ReadMap was given
// (a value of the tree holding them may be the merge's result): data itself where it is p's own fields (p holds no
// directive), else a copy.
func Own(p value.Value, data []value.Field) []value.Field {
	if fields := p.Fields(); len(data) == 0 || (len(fields) > 0 && &fields[0] == &data[0]) {
		return data
	}
	return slices.Clone(data)
}

// forFields returns an empty list of FieldDirectives with room for every field the directive keys of fields may name
// (nil: none).
func (m *Memory) forFields(fields []value.Field) []FieldDirectives {
	named := 0
	for _, fl := range fields {
		if strings.HasPrefix(fl.Key, smp.SetOrderPrefix) || strings.HasPrefix(fl.Key, smp.DeletePrefix) {
			named++
		}
	}
	if named == 0 {
		return nil
	}
	return m.byField.Carve(named)[:0]
}

// fieldDirs returns the Directives of field name in byField (kept sorted by name), added if absent.
func (m *Memory) fieldDirs(byField *[]FieldDirectives, name string) *elements.Directives {
	i, found := slices.BinarySearchFunc(*byField, name, func(fd FieldDirectives, k string) int { return strings.Compare(fd.Name, k) })
	if !found {
		*byField = slices.Insert(*byField, i, FieldDirectives{Name: name, Dirs: &m.dirs.Carve(1)[0]})
	}
	return (*byField)[i].Dirs
}

// fail is the *elements.Error blaming the patch at n, a node complete but for its children and ID. (Errors blame
// elements.Patch, or elements.Live for live data a directive cannot apply to, at the map's or list's path.)
func fail(n *elements.Node, msg string) error { return n.Errorf(elements.Patch, msg) }

// ReadMap reads patch map n.Local: its data fields, sorted; its "$patch" value ("replace", "delete" or "merge"; "" if
// none), else its "$retainKeys", into n.Dirs (nil before: the directives a parent gives a field are for lists, and
// CheckDirs refuses them for a map), and the directives it gives its fields, sorted by name. With compose (a patch
// merged into another: pkg/patch.Compose) directive keys are data too, and only "$setElementOrder/<f>" is read. The
// fields' directives are built in mem, to be kept as long as n's tree; so are the data fields of a map holding a
// directive key (a "$patch" or another), which a value kept longer holds only as Own gives them. With kubectl (the
// kubectl view: gate MultiFieldMergeKeys off), a "$deleteFromPrimitiveList/<f>" whose value is not a list is read as
// strategicpatch's merge reads it (deleted). A map's directive keys (smp.Directive) are checked by
// smp.ReadMapDirectives, then its data against "$retainKeys" (smp.MapRead.Unlisted): Phase 2's decisions of repeats
// read a map by the same two, so the order of the checks is one.
func ReadMap(n *elements.Node, compose, kubectl bool, mem *Memory) (data []value.Field, directive string, byField []FieldDirectives, err error) {
	p, t := n.Local, n.Type
	if d, ok := p.Get(smp.DirectiveKey); ok && smp.Directive(t, smp.DirectiveKey) {
		s, _ := d.AsString() // "" (unknown) when not a string
		switch {
		case s != smp.ReplaceValue && s != smp.DeleteValue && s != smp.MergeValue:
			return nil, "", nil, fail(n, smp.UnknownDirective(d))
		case s == smp.MergeValue && n.HasLive && n.Live.IsMap():
			return nil, "", nil, fail(n, smp.DirectiveKey+": "+smp.MergeValue+" is a schema strategy, not a patch directive: maps merge without it")
		}
		return withoutKey(p.Fields(), smp.DirectiveKey, mem), s, nil, nil
	}
	fields := p.Fields()
	first := slices.IndexFunc(fields, func(fl value.Field) bool { return smp.Directive(t, fl.Key) })
	if first < 0 {
		return fields, "", nil, nil
	}
	read, msg := smp.ReadMapDirectives(fields[first:], t, compose, kubectl)
	if msg != "" {
		return nil, "", nil, fail(n, msg)
	}
	if read.Retains {
		n.Dirs = &elements.Directives{RetainKeys: read.RetainKeys, HasRetainKeys: true}
	}
	data = append(mem.data.Carve(len(fields))[:0], fields[:first]...)
	byField = mem.forFields(fields[first:])
	for _, fl := range fields[first:] {
		if dir := smp.Directive(t, fl.Key); !dir || compose {
			data = append(data, fl)
			if !dir || !strings.HasPrefix(fl.Key, smp.SetOrderPrefix) {
				continue
			}
		}
		switch {
		case strings.HasPrefix(fl.Key, smp.SetOrderPrefix):
			d := mem.fieldDirs(&byField, fl.Key[len(smp.SetOrderPrefix):])
			d.SetOrder, d.HasSetOrder = fl.Value, true
		case strings.HasPrefix(fl.Key, smp.DeletePrefix) && fl.Value.IsList():
			d := mem.fieldDirs(&byField, fl.Key[len(smp.DeletePrefix):])
			d.DeleteFromList, d.HasDeleteFromList = fl.Value, true
		}
	}
	if read.ReadsLive { // (a deletion not a list, read once $retainKeys is)
		if data, err = deleted(n, fields[first:], byField, data); err != nil {
			return nil, "", nil, err
		}
	}
	if msg := read.Unlisted(data); msg != "" {
		return nil, "", nil, fail(n, msg)
	}
	return data, "", byField, nil
}

// deleted adds to data (sorted) the fields that patch map n's "$deleteFromPrimitiveList/<f>" keys of fields whose
// values are not lists give, as strategicpatch's merge of a map reads such a key: as the key f, the value left for
// f's merge, taken only where live's map holds f once "$retainKeys" has cleared the fields it does not list. So a null
// deletes f (and a "$setElementOrder/<f>" beside it, which orders live's list first, orders nothing); a value of the
// kind live holds at f (a scalar of one Go type, or a map, merged into live's as a patch) is f's; a value of another
// kind, an f live lacks is nothing. Where the patch sets f too, strategicpatch's result depends on the order Go's map
// iteration meets the two keys, so that is an error. A map live lacks is content live lacks: the key is dropped there
// (strategicpatch keeps it as data: a documented difference, values taken whole cleaned of directive keys).
func deleted(n *elements.Node, fields []value.Field, byField []FieldDirectives, data []value.Field) ([]value.Field, error) {
	if !n.HasLive || !n.Live.IsMap() {
		return data, nil // (a map new to live: content live lacks, cleaned of directive keys)
	}
	if msg := smp.DeletionBesideSet(n.Local, n.Type); msg != "" {
		return nil, fail(n, msg)
	}
	added := false
	for _, fl := range fields {
		if !strings.HasPrefix(fl.Key, smp.DeletePrefix) || fl.Value.IsList() || !smp.Directive(n.Type, fl.Key) {
			continue
		}
		name := fl.Key[len(smp.DeletePrefix):]
		lv, ok := n.Live.Get(name)
		if r := n.Dirs; r != nil && r.HasRetainKeys {
			_, listed := slices.BinarySearch(r.RetainKeys, name)
			ok = ok && listed
		}
		if !ok || (!fl.Value.IsNull() && lv.Kind() != fl.Value.Kind()) {
			continue
		}
		if i := slices.IndexFunc(byField, func(fd FieldDirectives) bool { return fd.Name == name }); i >= 0 && lv.IsList() {
			byField[i].Dirs.SetOrder, byField[i].Dirs.HasSetOrder = value.Value{}, false
		}
		data, added = append(data, value.Field{Key: name, Value: fl.Value}), true
	}
	if added {
		slices.SortFunc(data, func(a, b value.Field) int { return strings.Compare(a.Key, b.Key) })
	}
	return data, nil
}

// ReadItem reads the "$patch" directive of item i of merged list of maps n: "", "delete" or "replace".
func ReadItem(n *elements.Node, i int, it value.Value) (string, error) {
	d, ok := it.Get(smp.DirectiveKey)
	if !ok || !smp.Directive(n.Type.Item(), smp.DirectiveKey) {
		return "", nil
	}
	// A non-string reads as "" (unknown). (A "delete" item's key is checked as it is matched: localKey.)
	at := "item " + strconv.Itoa(i) + ": "
	switch s, _ := d.AsString(); s {
	case smp.DeleteValue, smp.ReplaceValue:
		return s, nil
	case smp.MergeValue:
		return "", fail(n, at+"\""+smp.DirectiveKey+": "+smp.MergeValue+"\" cannot be given for a list (lists with a merge strategy merge without it)")
	}
	return "", fail(n, at+"unknown "+smp.DirectiveKey+" value "+d.Short()+"; a list item takes "+smp.DeleteValue+" or "+smp.ReplaceValue)
}

// CheckDirs checks n.Dirs' "$setElementOrder/<f>" and "$deleteFromPrimitiveList/<f>" against n's schema and values;
// the latter applies only to a list (by schema and patch value) whose items (the patch's, else live's) and the values
// to delete are scalars of one kind, or objects of a set of maps (n.Meta is collate's: with gate SetOfMaps off, none).
func CheckDirs(n *elements.Node) error {
	if d := n.Dirs; d.HasDeleteFromList {
		dir, del, objects := smp.DeletePrefix+n.Name, d.DeleteFromList.Items(), elements.SetOfMaps(n.Type, &n.Meta)
		dc, msg := smp.ItemClass(del)
		base, src := n.Live.Items(), elements.Live // (nil unless a list)
		if n.Local.IsList() {
			base, src = n.Local.Items(), elements.Patch
		}
		switch baseMsg, fromBase := smp.DeletesFromClass(dir, dc, base, objects); {
		case n.Type.Kind != openapi.KindList && n.Type.Kind != openapi.KindUnknown:
			return fail(n, dir+" applies to lists of scalars; the schema says this field is "+KindPhrase(n.Type))
		case n.LocalSet() && !n.Local.IsList():
			return fail(n, dir+" applies to lists of scalars; the patch sets this field to "+n.Local.Kind().String())
		case msg != "":
			return fail(n, dir+": "+msg)
		case len(del) > 0 && (dc < value.KindBool || dc > value.KindString) && !(objects && dc == value.KindMap):
			return fail(n, dir+": the values to delete must be scalars, got "+smp.ClassName(dc))
		case fromBase:
			return n.Errorf(src, baseMsg)
		case baseMsg != "":
			return fail(n, baseMsg)
		}
	}
	if !n.Dirs.HasSetOrder {
		return nil
	}
	switch merged := elements.MergedList(n.Type, &n.Meta); {
	case n.HasLocal && !n.Local.IsList():
		return fail(n, smp.OrderOfPatch(n.Name, n.Local.Kind()))
	case !n.HasLocal && (!n.HasLive || n.Live.IsNull()):
		return nil
	case !n.HasLocal && !n.Live.IsList():
		return n.Errorf(elements.Live, smp.OrderOfLive(n.Name, n.Live.Kind()))
	case !merged && (n.Type.Kind == openapi.KindList || n.Type.Kind == openapi.KindUnknown):
		return fail(n, smp.OrderOfUnmerged(n.Name))
	case !merged:
		return fail(n, smp.OrderOfOtherKind(n.Name, KindPhrase(n.Type)))
	case merged && len(n.Local.Items()) == 0 && len(n.Live.Items()) == 0: // (no items where absent, null or not a list)
		return fail(n, smp.OrderWithoutItems(n.Name))
	}
	return nil
}

// KindPhrase names what type t holds: "an object", "a scalar", "a list" (elements.KindPhrase).
func KindPhrase(t *openapi.Type) string {
	return elements.KindPhrase(t)
}

// CheckOrder checks that n's "$setElementOrder" lists every patch item (deletions aside) in the patch's order, as
// smp.OrderMismatch reads seq, the items' identities (elements.Index numbers; -1: a "$patch: replace" item), and order,
// those it lists.
func CheckOrder(n *elements.Node, seq, order []int) error {
	if msg := smp.OrderMismatch(n.Name, seq, order); msg != "" {
		return fail(n, msg)
	}
	return nil
}

// ListClass is the class of merged list n's items, the patch's and live's: smp.ClassNone (none), objects or scalars;
// an error where they cannot merge (smp.ListClass; a list merged by key onto live's list: smp.KeyedListClass).
func ListClass(n *elements.Node) (value.Kind, error) {
	classOf := smp.ListClass
	if len(n.Meta.MergeKey) > 0 && !elements.SetOfMaps(n.Type, &n.Meta) && n.HasLive && n.Live.IsList() {
		classOf = smp.KeyedListClass
	}
	class, msg, fromLive := classOf(n.Live.Items(), n.Local.Items())
	switch {
	case msg == "":
		return class, nil
	case fromLive:
		return 0, n.Errorf(elements.Live, msg)
	}
	return 0, fail(n, msg)
}

// withoutKey returns fields less the one of key (fields hold it), carved from mem.
func withoutKey(fields []value.Field, key string, mem *Memory) []value.Field {
	out := mem.data.Carve(len(fields) - 1)[:0]
	for _, f := range fields {
		if f.Key != key {
			out = append(out, f)
		}
	}
	return out
}
