package engine

import (
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/mergepatch"

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
// schema. Implementations may be called from many goroutines at once, as strategicpatch's are. A key may share the
// memory of a JSON argument of the call (see jsonReader), valid only while the call lasts: an implementation that keeps
// a key keeps a copy of it.
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
// documents hold objects (or lists) there, and fails only when they differ. Creating a three-way patch overwriting
// current's changes (docs original, modified, current), strategicpatch diffs modified against the others only, not
// original against current (which it diffs for the conflict check): a key is looked up where modified differs.
type mode uint8

const (
	merging mode = iota
	diffing
	overwriting
	// composing is merging two patches: a "$setElementOrder" directive is looked up only in a patch map strategicpatch
	// merges into the other's (see orderLooked).
	composing
	// keysAsData marks diffing or overwriting with gate MultiFieldMergeKeys off: the documents' directive keys are data,
	// as strategicpatch's diffs read them (see addFields).
	keysAsData mode = 8
)

// merges reports whether m merges a patch into an object or into another patch.
func (m mode) merges() bool {
	return m == merging || m == composing
}

// diffed reports whether mode m compares documents a and b, creating a patch.
func (m mode) diffed(a, b int) bool {
	return m&^keysAsData != overwriting || a == modifiedDoc || b == modifiedDoc
}

// modifiedDoc is the place of modified among a three-way patch's documents.
const modifiedDoc = 1

// placed is a value at one place of the documents, the document it comes from and its pair. A witness (the object a
// patch applies to) gives no field of its own: only the patch's keys are looked up, as strategicpatch looks them up, and
// the witness's values there count for failAt and below.
//
// Values of one place pair as strategicpatch pairs them, which is where it looks a key up: the documents' roots pair,
// a map's values pair with the map's pair, and the items of a list merged by key pair by their merge key's value within
// the list's pair (other items keep the list's pair). pair names the class: values of one place with equal pairs pair.
type placed struct {
	v       value.Value
	doc     int
	witness bool
	// item marks an item of a list merged by key while builder.gather holds it: its pair is its list's until it is
	// paired (objects.itemPair).
	item bool
	pair int32
}

// typeOf builds the ply schema type of documents docs (objects or null, all of one type) from l, asking l only for the
// keys the documents hold, as strategicpatch does. A failed look-up is an error where strategicpatch would fail (see
// mode); anywhere else the field is left without schema (maps merge, lists are replaced), which is what strategicpatch
// does with values it takes without looking at them.
//
// In mode merging, docs are the object and the patch (or two patches): only the keys of the patch (docs[1]) are
// looked up, so that the cost is the patch's, not the object's. stable reports a type kept for later calls (see
// Types).
func typeOf(l Lookup, m mode, docs ...value.Value) (t *openapi.Type, stable bool, err error) {
	t, stable, _, err = buildType(l, m, docs...)
	return t, stable, err
}

// buildType is typeOf, and reports whether the type depends on more of the documents than their skeletons
// (appendSkeleton): on the values of merge keys, which pair the items of lists, or of values compared, where a field
// holds both objects and lists, or a look-up fails.
func buildType(l Lookup, m mode, docs ...value.Value) (t *openapi.Type, stable, pairs bool, err error) {
	b := builders.Get().(*builder)
	defer b.release()
	b.mode, b.readPairs = m, false
	maps := b.values.take(len(docs))
	for i, d := range docs {
		if d.IsMap() {
			maps = append(maps, placed{v: d, doc: i, witness: m.merges() && i == 0})
		}
	}
	t, stable, err = b.structType(l, objects{maps: maps}, 0)
	return t, stable, b.readPairs, err
}

// builder builds the schema type of one call. Its scratch memory (the keys of each node and their values, dropped
// once the node's type is built) is kept for the next call.
type builder struct {
	mode mode
	// readPairs records that the type read which values pair (paired), which the documents' skeletons do not tell.
	readPairs bool
	fields    scratch[fieldValues]
	values    scratch[placed]
	declared  scratch[openapi.Field]
	shape     []byte
	pairs     pairTable
}

// pairTable numbers the pairs of items of lists merged by key: one number per pair of the list and merge key value.
// Merging, lists records the pairs of lists strategicpatch merges item by item (lists two documents hold in one pair: a
// patch's list the object lacks is taken whole), and merged the pairs of their items: there an item a patch names
// twice merges into its earlier repeat's outcome, so two values of one document in such a pair pair.
type pairTable struct {
	of     map[pairKey]int32
	lists  map[int32]bool
	merged map[int32]bool
}

// pairKey is an item's pair: the pair of its list and the value of its merge key.
type pairKey struct {
	list int32
	key  value.ScalarKey
}

// pairTableMax bounds the entries a pool keeps in a pairTable: a larger one is dropped on release.
const pairTableMax = 1 << 12

// item is the pair of an item of a list in pair list whose merge key holds key.
func (t *pairTable) item(list int32, key value.ScalarKey) int32 {
	if t.of == nil {
		t.of = map[pairKey]int32{}
	}
	k := pairKey{list, key}
	if p, ok := t.of[k]; ok {
		return p
	}
	p := int32(len(t.of) + 1)
	t.of[k] = p
	if t.lists[list] {
		if t.merged == nil {
			t.merged = map[int32]bool{}
		}
		t.merged[p] = true
	}
	return p
}

// mergeLists records the pairs of lists (at one place) that strategicpatch merges item by item, merging: those two
// documents hold, or one document twice where their pair is a merged item's (a repeat's list merged into its earlier
// repeat's).
func (t *pairTable) mergeLists(lists []placed) {
	for i, a := range lists {
		for _, b := range lists[i+1:] {
			if a.pair == b.pair && (a.doc != b.doc || t.merged[a.pair]) {
				if t.lists == nil {
					t.lists = map[int32]bool{}
				}
				t.lists[a.pair] = true
			}
		}
	}
}

// reset forgets t's pairs, which refer to the documents.
func (t *pairTable) reset() {
	if len(t.of) > pairTableMax {
		t.of = nil
	}
	clear(t.of)
	clear(t.lists)
	clear(t.merged)
}

var builders = sync.Pool{New: func() any { return new(builder) }}

// release clears b's scratch memory, which refers to the documents, and returns b to the pool.
func (b *builder) release() {
	b.fields.reset()
	b.values.reset()
	b.declared.reset()
	b.pairs.reset()
	builders.Put(b)
}

// scratch hands out slices of one chunk of memory, a larger chunk when it runs out, until reset makes the last chunk
// (cleared) available again.
type scratch[T any] struct {
	chunk []T
}

// scratchMax bounds the chunks of a scratch, in elements: larger requests get memory of their own.
const scratchMax = 1 << 16

// take returns a slice of length 0 and capacity n.
func (s *scratch[T]) take(n int) []T {
	if n > cap(s.chunk)-len(s.chunk) {
		if n > scratchMax/2 {
			return make([]T, 0, n)
		}
		s.chunk = make([]T, 0, min(max(n, 2*cap(s.chunk), 256), scratchMax))
	}
	at := len(s.chunk)
	s.chunk = s.chunk[:at+n]
	return s.chunk[at : at : at+n]
}

// reset clears what s handed out of its chunk and makes the chunk available again.
func (s *scratch[T]) reset() {
	clear(s.chunk)
	s.chunk = s.chunk[:0]
}

// fieldValues collects, for one key of the objects of a node, the non-null values the documents hold there.
type fieldValues struct {
	name       string
	values     []placed // the objects and lists
	maps       int
	lists      int
	scalars    int
	listLookup bool // a $setElementOrder or $deleteFromPrimitiveList directive names the key
	ordered    bool // a $setElementOrder directive names the key
	// orderMerged records, composing, a $setElementOrder directive naming the key in a patch map strategicpatch merges
	// into the other patch's map, and orderErr the error strategicpatch gives there before it looks the key up
	// (markMergedOrders).
	orderMerged bool
	orderErr    error
	// notList is the first value other than a list that the object (a witness) holds at the key, else that a patch
	// map holding a $setElementOrder directive for the key holds there (null included), when hasNotList: merging,
	// strategicpatch refuses it (ErrBadArgType) before it looks the key up as a list. fromObject says the object's.
	notList                value.Value
	hasNotList, fromObject bool
}

// badOrder is strategicpatch's error for a "$setElementOrder/<key>" beside a value of fv's key that is not a list
// (notList), which it gives before looking the key up, in place of that look-up's err; err where there is none.
func (b *builder) badOrder(fv *fieldValues, err error) error {
	if err == nil || !b.mode.merges() || !b.orderLooked(fv) || !fv.hasNotList {
		return err
	}
	return mergepatch.ErrBadArgType([]interface{}{}, toGo(fv.notList))
}

// noteNotList records v, held at fv's key by the object (fromObject) or by a patch map ordering the key, as notList
// unless the object's value, which strategicpatch checks first, is recorded already.
func (fv *fieldValues) noteNotList(v value.Value, fromObject bool) {
	if v.IsList() || fv.fromObject || (fv.hasNotList && !fromObject) {
		return
	}
	fv.notList, fv.hasNotList, fv.fromObject = v, true, fromObject
}

// fieldSet holds the fieldValues of the keys of one node, one per key; index finds them once there are many.
type fieldSet struct {
	fields []fieldValues
	index  map[string]int
}

// fieldSetIndexed is the number of keys past which a fieldSet finds keys through its index rather than by scanning.
const fieldSetIndexed = 16

// find returns the position of key's fieldValues, or -1.
func (s *fieldSet) find(key string) int {
	if s.index != nil {
		if i, ok := s.index[key]; ok {
			return i
		}
		return -1
	}
	for i := range s.fields {
		if s.fields[i].name == key {
			return i
		}
	}
	return -1
}

// add returns the position of key's fieldValues, added if s has none.
func (s *fieldSet) add(key string) int {
	if i := s.find(key); i >= 0 {
		return i
	}
	s.fields = append(s.fields, fieldValues{name: key})
	i := len(s.fields) - 1
	switch {
	case s.index != nil:
		s.index[key] = i
	case len(s.fields) > fieldSetIndexed:
		s.index = make(map[string]int, 2*len(s.fields))
		for j, f := range s.fields {
			s.index[f.name] = j
		}
	}
	return i
}

// objects are the objects of one node: maps themselves, or the items of lists that are objects. The items of lists
// merged by key (mergeKey) pair through pairs.
type objects struct {
	maps     []placed
	itemsOf  []placed
	mergeKey string
	pairs    *pairTable
}

// gather appends o's objects to dst, those of the documents first and then the witnesses' (which add values only to
// the keys the others hold), and returns dst and the most fields any one of them holds. Items of a list merged by key
// are marked item, their pair left their list's until paired.
func (o objects) gather(dst []placed) ([]placed, int) {
	most := 0
	for _, witnesses := range [...]bool{false, true} {
		for _, m := range o.maps {
			if m.witness == witnesses {
				dst = append(dst, m)
				most = max(most, m.v.Len())
			}
		}
		for _, list := range o.itemsOf {
			if list.witness != witnesses {
				continue
			}
			for _, it := range list.v.Items() {
				if it.IsMap() {
					dst = append(dst, placed{v: it, doc: list.doc, witness: list.witness, item: o.mergeKey != "", pair: list.pair})
					most = max(most, it.Len())
				}
			}
		}
	}
	return dst, most
}

// count is the number of objects o holds.
func (o objects) count() int {
	n := len(o.maps)
	for _, list := range o.itemsOf {
		n += list.v.Len()
	}
	return n
}

// itemPair is the pair of item it of a list in pair list.
func (o objects) itemPair(list int32, it value.Value) int32 {
	if o.mergeKey == "" {
		return list
	}
	v, ok := it.Get(o.mergeKey)
	if !ok {
		return list
	}
	key, ok := v.Key()
	if !ok {
		return list
	}
	return o.pairs.item(list, key)
}

// nested reports whether any of o's objects holds a map or a list, or a key starting with "$" (a directive, or a key
// collectFields passes over): without one, fieldType gives every field no type, looking nothing up.
func (o objects) nested() bool {
	for _, m := range o.maps {
		if holdsNested(m.v) {
			return true
		}
	}
	for i, list := range o.itemsOf {
		if sameListBefore(o.itemsOf, i) {
			continue
		}
		for _, it := range list.v.Items() {
			// (A marked map whose first key sorts after "$", the common item, is told here rather than in a call.)
			if fs := it.Fields(); value.MarkedFlat(it) && len(fs) > 0 && fs[0].Key != "" && fs[0].Key[0] > '$' {
				continue
			}
			if it.IsMap() && holdsNested(it) {
				return true
			}
		}
	}
	return false
}

// holdsNested reports whether map m holds a map or a list (a map pkg/parse marks as holding none answers at once), or
// a key starting with "$", found among the first keys: m's keys are sorted.
func holdsNested(m value.Value) bool {
	if !value.MarkedFlat(m) && value.Deeper(m, 1) {
		return true
	}
	for _, f := range m.Fields() {
		if f.Key != "" && f.Key[0] >= '$' {
			return f.Key[0] == '$'
		}
	}
	return false
}

// sameListBefore reports whether lists[i] is the very list (the same memory: documents read together share what they
// write alike) of one before it, which tells nothing new of its items.
func sameListBefore(lists []placed, i int) bool {
	for _, l := range lists[:i] {
		if l.v == lists[i].v {
			return true
		}
	}
	return false
}

// structType is the type of objects objs (at nesting depth) under schema l: a struct with one field per key they hold.
// stable reports a type that is kept (see Types) or shared, whose address names it in the shape of another.
func (b *builder) structType(l Lookup, objs objects, depth int) (t *openapi.Type, stable bool, err error) {
	if l == nil || depth > maxDepth {
		return openapi.Unknown, true, nil
	}
	if !objs.nested() {
		return emptyStruct, true, nil // (every field a scalar or null: none has a type, none is looked up)
	}
	fields := b.collectFields(objs)
	slices.SortFunc(fields, func(a, b fieldValues) int { return strings.Compare(a.name, b.name) })
	for i := range fields {
		if fields[i].orderErr != nil {
			return nil, false, fields[i].orderErr // (strategicpatch checks a merged map's orders before its fields)
		}
	}
	declared := b.declared.take(len(fields))
	stable = true
	for i := range fields {
		fv := &fields[i]
		ft, meta, ftStable, err := b.fieldType(l, fv, depth)
		if err != nil {
			return nil, false, err
		}
		if ft == nil {
			continue
		}
		stable = stable && ftStable
		declared = append(declared, openapi.Field{Name: fv.name, Type: ft, Meta: meta, KubectlMeta: meta})
	}
	if b.mode&keysAsData != 0 {
		declared = b.orderLookups(l, fields, declared)
	}
	if len(declared) == 0 {
		return emptyStruct, true, nil
	}
	cache, ok := l.(TypeCacher)
	if !ok || !stable {
		return newStruct(declared, false), false, nil
	}
	shape := append(b.shape[:0], byte(b.mode))
	for i := range declared {
		shape = appendShape(shape, &declared[i])
	}
	b.shape = shape
	if t := cache.Types().get(shape); t != nil {
		return t, true, nil
	}
	t = newStruct(declared, true)
	if kept := cache.Types().put(shape, t); kept != nil {
		return kept, true, nil
	}
	return t, false, nil
}

// orderLookups is declared with the look-up failures of the lists the "$setElementOrder/<f>" keys of fields name,
// where the documents' directive keys are data (mode keysAsData): kubectl's merge of its three-way patch's halves looks
// <f> up as a list where it reads such a key of the delta half's (local's data) in a map the deletions half holds too,
// and fails where the look-up fails (delta's checkOrders). Each failing <f> is declared, of no type (as a field left
// without one), its NotAList the look-up's error; a declared <f> gets it as well. Sorted by name, as declared is.
func (b *builder) orderLookups(l Lookup, fields []fieldValues, declared []openapi.Field) []openapi.Field {
	added := false
	for i := range fields {
		name, ok := strings.CutPrefix(fields[i].name, setOrderPrefix)
		if !ok {
			continue
		}
		_, _, err := l.Slice(name)
		if err == nil {
			continue
		}
		if j := slices.IndexFunc(declared, func(f openapi.Field) bool { return f.Name == name }); j >= 0 {
			declared[j].NotAList = err.Error()
			continue
		}
		declared = append(declared, openapi.Field{Name: name, Type: openapi.Unknown, NotAList: err.Error()})
		added = true
	}
	if added {
		slices.SortFunc(declared, func(a, b openapi.Field) int { return strings.Compare(a.Name, b.Name) })
	}
	return declared
}

// newStruct is the struct type declaring fields (sorted by name), in memory of its own; with toKeep, the field names
// are copies, as the documents' may share the memory of a whole document text.
func newStruct(fields []openapi.Field, toKeep bool) *openapi.Type {
	t := openapi.KubectlBuilt(&openapi.Type{Name: emptyStruct.Name, Kind: openapi.KindStruct, Fields: make(map[string]*openapi.Field, len(fields)),
		FieldNames: make([]string, len(fields))})
	own := slices.Clone(fields)
	for i := range own {
		if toKeep {
			own[i].Name = strings.Clone(own[i].Name)
		}
		t.Fields[own[i].Name] = &own[i]
		t.FieldNames[i] = own[i].Name
	}
	return t
}

// emptyStruct is the type of objects none of whose fields have a type (maps of scalars, as labels): shared, as types
// are never modified once built.
var emptyStruct = openapi.KubectlBuilt(&openapi.Type{Name: "strategicpatch", Kind: openapi.KindStruct, Fields: map[string]*openapi.Field{}})

// collectFields groups the fields of objs by key; a directive naming a list counts for the list's key. Witnesses
// add values to the keys the others hold only.
//
// It reads the objects twice: first it finds the keys and counts their values, then it gives each key room for its
// objects and lists from the builder's scratch memory and fills them in, with their pairs (counting needs none).
func (b *builder) collectFields(objs objects) []fieldValues {
	all, most := objs.gather(b.values.take(objs.count()))
	fields := fieldSet{fields: b.fields.take(most)}
	for _, m := range all {
		addFields(&fields, m, false, b.mode&keysAsData != 0)
	}
	if b.mode == composing {
		markMergedOrders(&fields, all, objs)
	}
	if !slices.ContainsFunc(fields.fields, func(fv fieldValues) bool { return fv.maps+fv.lists > 0 }) {
		return fields.fields
	}
	for i := range fields.fields {
		fv := &fields.fields[i]
		fv.values = b.values.take(fv.maps + fv.lists)
	}
	for _, m := range all {
		if m.item {
			m.pair, m.item = objs.itemPair(m.pair, m.v), false
		}
		addFields(&fields, m, true, b.mode&keysAsData != 0)
	}
	return fields.fields
}

// orderLooked reports whether strategicpatch looks up the list a "$setElementOrder" directive names fv's key for:
// applying a patch, wherever the patch holds one (ply follows the directives of content the object lacks, which
// strategicpatch copies); composing, where a patch map holding one merges into the other patch's map (orderMerged).
func (b *builder) orderLooked(fv *fieldValues) bool {
	return fv.ordered && (b.mode != composing || fv.orderMerged)
}

// addFields adds the fields of m to fields: their keys and counts, or (fill) their objects and lists. A witness adds
// values to the keys fields holds only (but directive keys, which a list directive's name may be), each looked up in
// it. Creating a patch with directive keys as data (diffs: mode keysAsData), a key starting with "$" but "$patch" is a
// field as any other and a map holding "$patch" is read field by field, as strategicpatch's diffs read them (comparing
// "$patch" as a marker, looked up nowhere); else such a map is taken whole and a list directive counts for the list
// it names.
func addFields(fields *fieldSet, m placed, fill, diffs bool) {
	if m.witness {
		for i := range fields.fields {
			fv := &fields.fields[i]
			if v, ok := m.v.Get(fv.name); ok && !strings.HasPrefix(fv.name, "$") {
				fv.add(v, m, fill)
				if fv.ordered && !fill {
					fv.noteNotList(v, true)
				}
			}
		}
		return
	}
	if _, ok := m.v.Get("$patch"); ok && !diffs {
		// A directive map ("$patch: replace", "delete") is taken as a whole: strategicpatch looks nothing up inside.
		return
	}
	for _, f := range m.v.Fields() {
		if !strings.HasPrefix(f.Key, "$") || (diffs && f.Key != "$patch") {
			fields.fields[fields.add(f.Key)].add(f.Value, m, fill)
		} else if name, ok := listDirective(f.Key); ok && !fill && !diffs {
			fv := &fields.fields[fields.add(name)]
			fv.listLookup = true
			if strings.HasPrefix(f.Key, setOrderPrefix) {
				fv.ordered = true
				if v, ok := m.v.Get(name); ok {
					fv.noteNotList(v, false)
				}
			}
		}
	}
}

// add counts v, the value object m holds at fv's key, or (fill) adds it to fv's values if an object or a list.
func (fv *fieldValues) add(v value.Value, m placed, fill bool) {
	switch {
	case v.IsNull():
	case fill:
		if v.IsMap() || v.IsList() {
			fv.values = append(fv.values, placed{v: v, doc: m.doc, witness: m.witness, pair: m.pair})
		}
	case v.IsMap():
		fv.maps++
	case v.IsList():
		fv.lists++
	default:
		fv.scalars++
	}
}

// listDirective returns the list a "$setElementOrder/" or "$deleteFromPrimitiveList/" key names.
func listDirective(key string) (string, bool) {
	if name, ok := strings.CutPrefix(key, setOrderPrefix); ok {
		return name, true
	}
	return strings.CutPrefix(key, deletePrimPrefix)
}

// fieldType is the type and metadata of field fv.name holding fv, nil for a field left without schema; stable as for
// structType. The field is typed by the kind kindOf chooses, looked up as strategicpatch looks up paired values of
// that kind; values of other kinds there (and scalars) are taken whole by the merge, as strategicpatch takes a value
// paired with one of another kind, or with none.
func (b *builder) fieldType(l Lookup, fv *fieldValues, depth int) (*openapi.Type, openapi.Meta, bool, error) {
	kind := b.kindOf(fv)
	if err := b.otherKindFails(l, fv, kind); err != nil {
		return nil, openapi.Meta{}, false, err
	}
	switch kind {
	case value.KindMap:
		maps := fv.only(value.Value.IsMap)
		sub, m, err := l.Struct(fv.name)
		if err != nil {
			return nil, openapi.Meta{}, false, b.badOrder(fv, b.failAt(err, maps, false))
		}
		meta := toMeta(m)
		if meta.Strategy.Has(openapi.StrategyReplace) {
			// Taken whole: strategicpatch looks nothing up inside.
			return openapi.Unknown, meta, true, nil
		}
		t, stable, err := b.structType(sub, objects{maps: maps, pairs: &b.pairs}, depth+1)
		return t, meta, stable, err
	case value.KindList:
		lists := fv.only(value.Value.IsList)
		sub, m, err := l.Slice(fv.name)
		if err != nil {
			return nil, openapi.Meta{}, false, b.badOrder(fv, b.failAt(err, lists, b.orderLooked(fv)))
		}
		meta := toMeta(m)
		if !meta.Strategy.Has(openapi.StrategyMerge) && b.mode.merges() {
			// Replaced whole: applying, strategicpatch looks nothing up inside. (Its conflict check does, item by item.)
			return atomicList, meta, true, nil
		}
		if b.mode.merges() {
			b.pairs.mergeLists(lists)
		}
		t, stable, err := b.listType(sub, meta, lists, depth+1)
		return t, meta, stable, err
	}
	return nil, openapi.Meta{}, true, nil
}

// kindOf is the kind fieldType types fv by: KindMap where it holds objects and no lists, KindList where it holds lists
// and no objects or a list directive names it and it holds no objects, else (KindNull) none. A field holding both is
// typed by the kind two documents hold in one pair (and differing, creating a patch), where strategicpatch merges
// values; by objects where both kinds or neither are so held.
func (b *builder) kindOf(fv *fieldValues) value.Kind {
	switch {
	case fv.maps > 0 && fv.lists == 0:
		return value.KindMap
	case fv.lists > 0 && fv.maps == 0, fv.maps == 0 && fv.listLookup:
		return value.KindList
	case fv.maps == 0:
		return value.KindNull
	}
	if !b.paired(fv.only(value.Value.IsMap)) && b.paired(fv.only(value.Value.IsList)) {
		return value.KindList
	}
	return value.KindMap
}

// otherKindFails is the error of strategicpatch's look-up of the field holding fv as the kind fieldType does not type
// it by (typed), objects or lists, where it looks it up (failAt) and the look-up fails; nil elsewhere.
func (b *builder) otherKindFails(l Lookup, fv *fieldValues, typed value.Kind) error {
	if fv.maps == 0 || fv.lists == 0 {
		return nil
	}
	lookup, is := l.Struct, value.Value.IsMap
	if typed == value.KindMap {
		lookup, is = l.Slice, value.Value.IsList
	}
	if _, _, err := lookup(fv.name); err != nil {
		return b.failAt(err, fv.only(is), false)
	}
	return nil
}

// only moves fv's values of one kind (is) first and returns them.
func (fv *fieldValues) only(is func(value.Value) bool) []placed {
	n := 0
	for i, p := range fv.values {
		if is(p.v) {
			fv.values[i], fv.values[n] = fv.values[n], p
			n++
		}
	}
	return fv.values[:n]
}

// failAt is err where strategicpatch would look the field holding values up and fail (see mode), nil elsewhere. ordered
// reports a "$setElementOrder" directive for the field, which strategicpatch looks up whenever it applies one.
func (b *builder) failAt(err error, values []placed, ordered bool) error {
	b.readPairs = true // (a failed look-up fails the call or leaves the field without type, as the values pair)
	if (b.mode.merges() && ordered) || b.paired(values) {
		return err
	}
	return nil
}

// paired reports whether two documents hold values of one pair among values (values of one kind), which differ when
// creating a patch: where strategicpatch looks their field up.
func (b *builder) paired(values []placed) bool {
	b.readPairs = true
	byPair := map[int32][]placed{}
	for _, p := range values {
		byPair[p.pair] = append(byPair[p.pair], p)
	}
	for _, group := range byPair {
		docs := map[int]value.Value{}
		differ := false
		for _, p := range group {
			if first, ok := docs[p.doc]; ok {
				if b.mode.merges() && b.pairs.merged[p.pair] {
					return true // (a repeat merged into its earlier repeat's outcome: pairTable.merged)
				}
				differ = differ || (b.mode.diffed(p.doc, p.doc) && !value.Equal(first, p.v))
				continue
			}
			for doc, other := range docs {
				differ = differ || (b.mode.diffed(doc, p.doc) && !value.Equal(other, p.v))
			}
			docs[p.doc] = p.v
		}
		if len(docs) >= 2 && (b.mode.merges() || differ) {
			return true
		}
	}
	return false
}

// listType is the type of lists lists of metadata meta, their items of schema l: objects (a struct type, the items of
// a list merged by key pairing by it), scalars (a primitive type), else no schema; stable as for structType.
func (b *builder) listType(l Lookup, meta openapi.Meta, lists []placed, depth int) (*openapi.Type, bool, error) {
	maps, scalars := 0, 0
	for i, list := range lists {
		if sameListBefore(lists, i) {
			continue // (its items count as the list's before: the same kinds)
		}
		for _, it := range list.v.Items() {
			switch {
			case it.IsMap():
				maps++
			case it.IsScalar():
				scalars++
			}
		}
	}
	elem, stable := openapi.Unknown, true
	switch {
	case maps > 0 && scalars == 0:
		items := objects{itemsOf: lists, pairs: &b.pairs}
		if meta.Strategy.Has(openapi.StrategyMerge) && len(meta.MergeKey) == 1 {
			items.mergeKey = meta.MergeKey[0]
		}
		var err error
		if elem, stable, err = b.structType(l, items, depth); err != nil {
			return nil, false, err
		}
	case maps == 0:
		elem = anyPrimitive
	}
	t, stable := listOf(elem, stable)
	return t, stable, nil
}

// atomicList is the type of lists replaced whole.
var atomicList = openapi.KubectlBuilt(&openapi.Type{Name: "strategicpatch list", Kind: openapi.KindList, Elem: openapi.Unknown})

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
		out.MergeKey = mergeKeyOf(m.MergeKey)
	}
	return out
}

// mergeKeys holds one merge key slice per field name a schema names as one (never modified: types share them).
var mergeKeys readMostly[string, []string]

// mergeKeysMax bounds the merge keys held; others get a slice per call.
const mergeKeysMax = 1024

// mergeKeyOf returns the merge key of one field, name.
func mergeKeyOf(name string) []string {
	if key, ok := mergeKeys.load()[name]; ok {
		return key
	}
	key := []string{strings.Clone(name)}
	if kept, ok := mergeKeys.add(key[0], key, mergeKeysMax); ok {
		return kept
	}
	return key
}
