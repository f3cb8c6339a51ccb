package gen

import (
	"hash/fnv"
	"math/rand/v2"
	"slices"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/value"
)

// Config tunes a Generator.
type Config struct {
	// Fixed holds root fields that have the same value in every input and
	// are never mutated (apiVersion, kind).
	Fixed []value.Field
	// MaxDepth bounds the nesting of generated values; below it only
	// primitive fields are generated. Zero means 8.
	MaxDepth int
	// UndeclaredFields lets edits add fields the schema does not declare
	// (with scalar values, which strategicpatch merges without metadata).
	UndeclaredFields bool
	// FirstApplyPercent is the share of triples, in percent, generated as a
	// first apply (recorded is value.Null). Zero means 10; negative means
	// never.
	FirstApplyPercent int
	// MultiFieldKeys generates merged lists whose merge key has two or
	// three primitive fields (OpenAPI v3 list-map-keys such as
	// containerPort,protocol). Off by default: strategicpatch, the
	// differential oracle, knows single-field keys only. Key tuples come
	// from small pools so that edits collide; a key field whose value is
	// its schema default is sometimes left out, so one item is spelled
	// two ways across the inputs. Patch never generates them.
	MultiFieldKeys bool
}

// Triple is one generated case. Recorded is value.Null for a first apply.
type Triple struct {
	Recorded, Local, Live value.Value
}

// Generator produces triples for one root type. It is immutable after New
// and safe for concurrent use.
type Generator struct {
	root     *openapi.Type
	cfg      Config
	interest map[*openapi.Type]int
}

// New returns a Generator for objects of type root.
func New(root *openapi.Type, cfg Config) *Generator {
	if cfg.MaxDepth == 0 {
		cfg.MaxDepth = 8
	}
	if cfg.FirstApplyPercent == 0 {
		cfg.FirstApplyPercent = 10
	}
	fixed := slices.Clone(cfg.Fixed)
	slices.SortFunc(fixed, func(a, b value.Field) int {
		switch {
		case a.Key < b.Key:
			return -1
		case a.Key > b.Key:
			return 1
		}
		return 0
	})
	cfg.Fixed = fixed
	g := &Generator{root: root, cfg: cfg, interest: map[*openapi.Type]int{}}
	g.score(root, map[*openapi.Type]bool{})
	return g
}

// Triple generates the triple of the given seed.
func (g *Generator) Triple(seed uint64) Triple {
	s := &state{g: g, seed: seed, r: rand.New(rand.NewPCG(seed, 0x706c792d64696666))}
	base := s.genRoot()
	first := g.cfg.FirstApplyPercent > 0 && s.r.IntN(100) < g.cfg.FirstApplyPercent
	local := s.mutateRoot(base, &localRates)
	live := s.mutateRoot(base, &liveRates)
	if first {
		if s.r.IntN(4) == 0 {
			// The object was created by other means: live shares little
			// with local.
			live = s.mutateRoot(s.genRoot(), &liveRates)
		}
		return Triple{Recorded: value.Null, Local: local, Live: live}
	}
	recorded := base
	if s.r.IntN(10) == 0 {
		// The last applied configuration set fields to null (kubectl
		// records local as written); live still holds them, as if the
		// server had set them again.
		recorded = s.mutateRoot(base, &recordedRates)
	}
	return Triple{Recorded: recorded, Local: local, Live: live}
}

// shape is how the generator treats one position of the schema.
type shape uint8

const (
	shapeSkip       shape = iota // never generated
	shapePrim                    // string, integer, number, boolean
	shapeStruct                  // declared fields
	shapePrimMap                 // map of primitives (labels)
	shapeOpaqueMap               // map of non-primitive values
	shapeFree                    // free-form object
	shapeKeyed                   // merged list of maps, single-field key
	shapeMultiKeyed              // merged list of maps, key of 2 or 3 fields
	shapeSet                     // merged list of primitives
	shapeAtomic                  // any other list: replaced whole
)

func classify(t *openapi.Type, m openapi.Meta) shape {
	switch t.Kind {
	case openapi.KindPrimitive:
		return shapePrim
	case openapi.KindStruct:
		return shapeStruct
	case openapi.KindUnknown:
		return shapeFree
	case openapi.KindMap:
		switch t.Elem.Kind {
		case openapi.KindPrimitive:
			return shapePrimMap
		case openapi.KindUnknown:
			return shapeFree
		}
		return shapeOpaqueMap
	case openapi.KindList:
		if !m.Strategy.Has(openapi.StrategyMerge) {
			return shapeAtomic
		}
		switch t.Elem.Kind {
		case openapi.KindPrimitive:
			return shapeSet
		case openapi.KindStruct:
			if len(m.MergeKey) == 0 || len(m.MergeKey) > maxKeyFields {
				return shapeSkip
			}
			for _, k := range m.MergeKey {
				if f := t.Elem.Field(k); f == nil || f.Type.Kind != openapi.KindPrimitive {
					return shapeSkip
				}
			}
			if len(m.MergeKey) == 1 {
				return shapeKeyed
			}
			return shapeMultiKeyed
		}
		return shapeSkip
	}
	return shapeSkip
}

// classify is the package classify, with lists of multi-field keys
// skipped unless the Config asks for them.
func (g *Generator) classify(t *openapi.Type, m openapi.Meta) shape {
	sh := classify(t, m)
	if sh == shapeMultiKeyed && !g.cfg.MultiFieldKeys {
		return shapeSkip
	}
	return sh
}

// score rates how much merge metadata lies below t (0 none, 1 some, 2 a
// directive-bearing field directly in t), so generation favours the fields
// that exercise strategies. Cycles score what is known so far.
func (g *Generator) score(t *openapi.Type, onPath map[*openapi.Type]bool) int {
	if v, ok := g.interest[t]; ok {
		return v
	}
	if onPath[t] {
		return 0
	}
	onPath[t] = true
	defer delete(onPath, t)
	best := 0
	switch t.Kind {
	case openapi.KindStruct:
		for _, name := range t.FieldNames {
			f := t.Fields[name]
			if f.Meta.Strategy != 0 {
				best = 2
			}
			if s := g.score(f.Type, onPath); s > 0 && best < 1 {
				best = 1
			}
		}
	case openapi.KindList, openapi.KindMap:
		if s := g.score(t.Elem, onPath); s > 0 {
			best = 1
		}
	}
	g.interest[t] = best
	return best
}

// state is the per-triple generation state.
type state struct {
	g    *Generator
	seed uint64
	r    *rand.Rand
}

// rates are the edit probabilities, in percent, of one side.
// descend applies to maps and lists (edit inside), mutate to scalars
// (change the value) and to items of keyed lists (edit the item).
type rates struct {
	remove, null, descend, mutate, add, addItem, reorder, replaceAtomic int
	undeclared                                                          int
}

var localRates = rates{remove: 12, null: 5, descend: 60, mutate: 25, add: 30, addItem: 35, reorder: 20, replaceAtomic: 35, undeclared: 3}
var recordedRates = rates{null: 8, descend: 50}
var liveRates = rates{remove: 5, null: 0, descend: 55, mutate: 25, add: 35, addItem: 30, reorder: 15, replaceAtomic: 25, undeclared: 5}

func (s *state) pct(p int) bool { return p > 0 && s.r.IntN(100) < p }

// size returns the length of a fresh collection: 0 one time in ten (empty
// maps and lists are valid input, and kubectl treats them specially),
// otherwise 1 to max.
func (s *state) size(max int) int {
	if s.r.IntN(10) == 0 {
		return 0
	}
	return 1 + s.r.IntN(max)
}

func (s *state) genRoot() value.Value {
	v := s.genStruct(s.g.root, 0, nil)
	for _, f := range s.g.cfg.Fixed {
		v = v.With(f.Key, f.Value)
	}
	return v
}

func (s *state) mutateRoot(v value.Value, rt *rates) value.Value {
	return s.mutateStruct(v, s.g.root, 0, nil, rt)
}

func (s *state) isFixed(depth int, name string) bool {
	if depth != 0 {
		return false
	}
	for _, f := range s.g.cfg.Fixed {
		if f.Key == name {
			return true
		}
	}
	return false
}

// gen returns a fresh value for a position of type t with metadata m.
func (s *state) gen(t *openapi.Type, m openapi.Meta, depth int) value.Value {
	switch s.g.classify(t, m) {
	case shapePrim:
		return s.prim(t)
	case shapeStruct:
		return s.genStruct(t, depth, nil)
	case shapePrimMap:
		return s.genPrimMap(t)
	case shapeOpaqueMap:
		return s.genOpaqueMap(t, depth)
	case shapeFree:
		return s.genFree(t)
	case shapeKeyed:
		return s.genKeyed(t, m, depth)
	case shapeMultiKeyed:
		return s.genMultiKeyed(t, m, depth)
	case shapeSet:
		return s.genSet(t)
	case shapeAtomic:
		return s.genAtomic(t, depth)
	}
	return value.Null
}

var (
	stringPool = []string{"a", "b", "c", "d"}
	keyPool    = []string{"k1", "k2", "k3", "k4", "k5"}
	namePool   = []string{"a", "b", "c", "d", "e", "f"}
	setPool    = []string{"s1", "s2", "s3", "s4", "s5", "s6"}
	floatPool  = []float64{0.5, 1.5, 2.5}
)

func (s *state) prim(t *openapi.Type) value.Value {
	switch t.Primitive {
	case "integer":
		return value.Int(int64(s.r.IntN(5)))
	case "number":
		return value.Float(floatPool[s.r.IntN(len(floatPool))])
	case "boolean":
		return value.Bool(s.r.IntN(2) == 0)
	}
	return value.String(stringPool[s.r.IntN(len(stringPool))])
}

// otherPrim returns a primitive of type t that differs from old when the
// pool allows.
func (s *state) otherPrim(t *openapi.Type, old value.Value) value.Value {
	for range 4 {
		if v := s.prim(t); !value.Equal(v, old) {
			return v
		}
	}
	return s.prim(t)
}

// pickFields chooses which declared fields of t a fresh struct sets,
// favouring fields with merge metadata below them.
func (s *state) pickFields(t *openapi.Type, depth int, protect []string) []*openapi.Field {
	var cands []*openapi.Field
	var weights []int
	total := 0
	for _, name := range t.FieldNames {
		f := t.Fields[name]
		if slices.Contains(protect, name) || s.isFixed(depth, name) {
			continue
		}
		sh := s.g.classify(f.Type, f.Meta)
		if sh == shapeSkip || (depth >= s.g.cfg.MaxDepth && sh != shapePrim) {
			continue
		}
		w := 1 + 3*s.g.interest[f.Type]
		if f.Meta.Strategy != 0 {
			w += 4
		}
		cands = append(cands, f)
		weights = append(weights, w)
		total += w
	}
	if len(cands) == 0 {
		return nil
	}
	n := 1 + s.r.IntN(min(3, len(cands)))
	if depth == 0 {
		n = min(len(cands), 2+s.r.IntN(3))
	}
	var out []*openapi.Field
	for range n {
		x := s.r.IntN(total)
		for i, w := range weights {
			if x < w {
				out = append(out, cands[i])
				total -= w
				weights[i] = 0
				break
			}
			x -= w
		}
	}
	return out
}

func (s *state) genStruct(t *openapi.Type, depth int, protect []string) value.Value {
	fields := []value.Field{}
	for _, f := range s.pickFields(t, depth, protect) {
		fields = append(fields, value.Field{Key: f.Name, Value: s.gen(f.Type, f.Meta, depth+1)})
	}
	v, _, _ := value.NewMap(fields)
	return v
}

func (s *state) genPrimMap(t *openapi.Type) value.Value {
	n := s.size(3)
	fields := []value.Field{}
	for _, k := range s.pickDistinct(keyPool, n) {
		fields = append(fields, value.Field{Key: k, Value: s.prim(t.Elem)})
	}
	v, _, _ := value.NewMap(fields)
	return v
}

func (s *state) genOpaqueMap(t *openapi.Type, depth int) value.Value {
	n := s.size(2)
	fields := []value.Field{}
	for _, k := range s.pickDistinct(keyPool, n) {
		fields = append(fields, value.Field{Key: k, Value: s.opaque(t, k, depth)})
	}
	v, _, _ := value.NewMap(fields)
	return v
}

// opaque returns the value that key of map type t has in every input: a
// pure function of the case seed, t and key.
func (s *state) opaque(t *openapi.Type, key string, depth int) value.Value {
	h := fnv.New64a()
	h.Write([]byte(t.Name))
	h.Write([]byte{0})
	h.Write([]byte(key))
	sub := &state{g: s.g, seed: s.seed, r: rand.New(rand.NewPCG(s.seed, h.Sum64()))}
	if t.Kind == openapi.KindMap && t.Elem.Kind != openapi.KindUnknown {
		return sub.gen(t.Elem, openapi.Meta{}, depth+1)
	}
	return sub.anyJSON(2)
}

// freeKeys are the keys of free-form objects; the first three hold
// scalars, "f4" an opaque object and "f5" an opaque list.
var freeKeys = []string{"f1", "f2", "f3", "f4", "f5"}

func (s *state) freeValue(t *openapi.Type, key string) value.Value {
	switch key {
	case "f4", "f5":
		sub := s.opaque(t, key, 0)
		if key == "f4" {
			return value.MustMap(value.Field{Key: "o", Value: sub})
		}
		return value.List([]value.Value{sub})
	}
	return s.anyScalar()
}

func (s *state) genFree(t *openapi.Type) value.Value {
	n := s.size(3)
	fields := []value.Field{}
	for _, k := range s.pickDistinct(freeKeys, n) {
		fields = append(fields, value.Field{Key: k, Value: s.freeValue(t, k)})
	}
	v, _, _ := value.NewMap(fields)
	return v
}

func (s *state) anyScalar() value.Value {
	switch s.r.IntN(4) {
	case 0:
		return value.Int(int64(s.r.IntN(5)))
	case 1:
		return value.Bool(s.r.IntN(2) == 0)
	case 2:
		return value.Float(floatPool[s.r.IntN(len(floatPool))])
	}
	return value.String(stringPool[s.r.IntN(len(stringPool))])
}

// anyJSON returns arbitrary JSON nested at most depth levels.
func (s *state) anyJSON(depth int) value.Value {
	if depth <= 0 {
		return s.anyScalar()
	}
	switch s.r.IntN(3) {
	case 0:
		n := s.r.IntN(3)
		items := make([]value.Value, n)
		for i := range items {
			items[i] = s.anyJSON(depth - 1)
		}
		return value.List(items)
	case 1:
		fields := []value.Field{}
		for _, k := range s.pickDistinct(keyPool, 1+s.r.IntN(3)) {
			fields = append(fields, value.Field{Key: k, Value: s.anyJSON(depth - 1)})
		}
		v, _, _ := value.NewMap(fields)
		return v
	}
	return s.anyScalar()
}

// keyValue returns the merge-key value with index i of the key field type.
func keyValue(kt *openapi.Type, i int) value.Value {
	switch kt.Primitive {
	case "integer":
		return value.Int(int64(80 + i))
	case "number":
		return value.Float(float64(i) + 0.5)
	case "boolean":
		return value.Bool(i%2 == 0)
	}
	return value.String(namePool[i])
}

func keyPoolSize(kt *openapi.Type) int {
	if kt.Primitive == "boolean" {
		return 2
	}
	return len(namePool)
}

func (s *state) newItem(t *openapi.Type, key string, kv value.Value, depth int) value.Value {
	return s.genStruct(t.Elem, depth+1, []string{key}).With(key, kv)
}

func (s *state) genKeyed(t *openapi.Type, m openapi.Meta, depth int) value.Value {
	key := m.MergeKey[0]
	kt := t.Elem.Field(key).Type
	n := s.size(3)
	items := []value.Value{}
	for _, i := range s.r.Perm(keyPoolSize(kt))[:min(n, keyPoolSize(kt))] {
		items = append(items, s.newItem(t, key, keyValue(kt, i), depth))
	}
	return value.List(items)
}

func setValue(et *openapi.Type, i int) value.Value {
	switch et.Primitive {
	case "integer":
		return value.Int(int64(i + 1))
	case "number":
		return value.Float(float64(i) + 0.5)
	case "boolean":
		return value.Bool(i%2 == 0)
	}
	return value.String(setPool[i])
}

func setPoolSize(et *openapi.Type) int {
	if et.Primitive == "boolean" {
		return 2
	}
	return len(setPool)
}

func (s *state) genSet(t *openapi.Type) value.Value {
	n := min(s.size(3), setPoolSize(t.Elem))
	items := []value.Value{}
	for _, i := range s.r.Perm(setPoolSize(t.Elem))[:n] {
		items = append(items, setValue(t.Elem, i))
	}
	return value.List(items)
}

func (s *state) genAtomic(t *openapi.Type, depth int) value.Value {
	n := s.size(2)
	items := []value.Value{}
	for range n {
		items = append(items, s.genItem(t.Elem, depth))
	}
	return value.List(items)
}

// genItem returns an item of an atomic list. Items are whole values, so
// anything valid goes; keyed lists inside them stay well formed.
func (s *state) genItem(et *openapi.Type, depth int) value.Value {
	switch et.Kind {
	case openapi.KindUnknown:
		return s.anyJSON(2)
	case openapi.KindMap:
		if et.Elem.Kind == openapi.KindPrimitive {
			return s.genPrimMap(et)
		}
		return s.anyJSON(1)
	case openapi.KindList:
		return value.List(nil)
	}
	return s.gen(et, openapi.Meta{}, depth+1)
}

func (s *state) pickDistinct(pool []string, n int) []string {
	n = min(n, len(pool))
	out := make([]string, 0, n)
	for _, i := range s.r.Perm(len(pool))[:n] {
		out = append(out, pool[i])
	}
	return out
}

// mutate returns an edited copy of v, a value at a position of type t with
// metadata m.
func (s *state) mutate(v value.Value, t *openapi.Type, m openapi.Meta, depth int, rt *rates) value.Value {
	sh := s.g.classify(t, m)
	if v.IsNull() {
		return v
	}
	switch sh {
	case shapePrim:
		if v.IsScalar() {
			return s.otherPrim(t, v)
		}
	case shapeStruct:
		if v.IsMap() {
			return s.mutateStruct(v, t, depth, nil, rt)
		}
	case shapePrimMap:
		if v.IsMap() {
			return s.mutateMap(v, rt, func(string) value.Value { return s.prim(t.Elem) }, func(old value.Value) value.Value { return s.otherPrim(t.Elem, old) }, keyPool)
		}
	case shapeOpaqueMap:
		if v.IsMap() {
			return s.mutateMap(v, rt, func(k string) value.Value { return s.opaque(t, k, depth) }, nil, keyPool)
		}
	case shapeFree:
		if v.IsMap() {
			return s.mutateMap(v, rt, func(k string) value.Value { return s.freeValue(t, k) }, func(old value.Value) value.Value {
				if old.IsScalar() {
					return s.anyScalar()
				}
				return old
			}, freeKeys)
		}
	case shapeKeyed:
		if v.IsList() {
			return s.mutateKeyed(v, t, m, depth, rt)
		}
	case shapeMultiKeyed:
		if v.IsList() {
			return s.mutateMultiKeyed(v, t, m, depth, rt)
		}
	case shapeSet:
		if v.IsList() {
			return s.mutateSet(v, t, rt)
		}
	case shapeAtomic:
		if v.IsList() {
			return s.mutateAtomic(v, t, depth, rt)
		}
	}
	return s.gen(t, m, depth)
}

func (s *state) mutateStruct(v value.Value, t *openapi.Type, depth int, protect []string, rt *rates) value.Value {
	out := v
	for _, f := range v.Fields() {
		if slices.Contains(protect, f.Key) || s.isFixed(depth, f.Key) {
			continue
		}
		fd := t.Field(f.Key)
		switch {
		case s.pct(rt.remove):
			out = out.Without(f.Key)
		case s.pct(rt.null):
			out = out.With(f.Key, value.Null)
		case s.pct(rt.mutate) || (!f.Value.IsScalar() && s.pct(rt.descend)):
			if fd == nil {
				if f.Value.IsScalar() {
					out = out.With(f.Key, s.anyScalar())
				}
				continue
			}
			out = out.With(f.Key, s.mutate(f.Value, fd.Type, fd.Meta, depth+1, rt))
		}
	}
	if s.pct(rt.add) {
		for _, f := range s.pickFields(t, depth, protect) {
			if _, ok := out.Get(f.Name); !ok {
				out = out.With(f.Name, s.gen(f.Type, f.Meta, depth+1))
				break
			}
		}
	}
	if s.g.cfg.UndeclaredFields && s.pct(rt.undeclared) {
		out = out.With("x-undeclared", s.anyScalar())
	}
	return out
}

// mutateMap edits a map: removes, nulls and changes entries and adds new
// keys from pool. fresh gives the value of a new key; change, when not nil,
// gives a changed value.
func (s *state) mutateMap(v value.Value, rt *rates, fresh func(string) value.Value, change func(value.Value) value.Value, pool []string) value.Value {
	out := v
	for _, f := range v.Fields() {
		switch {
		case s.pct(rt.remove):
			out = out.Without(f.Key)
		case s.pct(rt.null):
			out = out.With(f.Key, value.Null)
		case change != nil && !f.Value.IsNull() && s.pct(rt.mutate):
			out = out.With(f.Key, change(f.Value))
		}
	}
	if s.pct(rt.add) {
		for _, k := range s.pickDistinct(pool, 2) {
			if _, ok := out.Get(k); !ok {
				out = out.With(k, fresh(k))
			}
		}
	}
	return out
}

func (s *state) mutateKeyed(v value.Value, t *openapi.Type, m openapi.Meta, depth int, rt *rates) value.Value {
	key := m.MergeKey[0]
	kt := t.Elem.Field(key).Type
	used := map[value.ScalarKey]bool{}
	items := []value.Value{}
	for _, it := range v.Items() {
		kv, _ := it.Get(key)
		k, _ := kv.Key()
		switch {
		case s.pct(rt.remove):
			continue
		case s.pct(rt.descend):
			it = s.mutateStruct(it, t.Elem, depth+1, []string{key}, rt)
		}
		used[k] = true
		items = append(items, it)
	}
	if s.pct(rt.addItem) {
		for _, i := range s.r.Perm(keyPoolSize(kt))[:1+s.r.IntN(2)] {
			kv := keyValue(kt, i)
			k, _ := kv.Key()
			if used[k] {
				continue
			}
			used[k] = true
			it := s.newItem(t, key, kv, depth)
			at := s.r.IntN(len(items) + 1)
			items = slices.Insert(items, at, it)
		}
	}
	s.maybeReorder(items, rt)
	return value.List(items)
}

func (s *state) mutateSet(v value.Value, t *openapi.Type, rt *rates) value.Value {
	used := map[value.ScalarKey]bool{}
	items := []value.Value{}
	for _, it := range v.Items() {
		if s.pct(rt.remove) {
			continue
		}
		k, _ := it.Key()
		used[k] = true
		items = append(items, it)
	}
	if s.pct(rt.addItem) {
		for _, i := range s.r.Perm(setPoolSize(t.Elem))[:1+s.r.IntN(2)] {
			sv := setValue(t.Elem, i)
			k, _ := sv.Key()
			if used[k] {
				continue
			}
			used[k] = true
			items = slices.Insert(items, s.r.IntN(len(items)+1), sv)
		}
	}
	s.maybeReorder(items, rt)
	return value.List(items)
}

func (s *state) mutateAtomic(v value.Value, t *openapi.Type, depth int, rt *rates) value.Value {
	if s.pct(rt.replaceAtomic) {
		return s.genAtomic(t, depth)
	}
	items := slices.Clone(v.Items())
	switch {
	case len(items) > 0 && s.pct(2*rt.remove):
		items = slices.Delete(items, len(items)-1, len(items))
	case s.pct(rt.addItem):
		items = append(items, s.genItem(t.Elem, depth))
	}
	s.maybeReorder(items, rt)
	return value.List(items)
}

func (s *state) maybeReorder(items []value.Value, rt *rates) {
	if len(items) < 2 || !s.pct(rt.reorder) {
		return
	}
	if s.r.IntN(2) == 0 {
		i, j := s.r.IntN(len(items)), s.r.IntN(len(items))
		items[i], items[j] = items[j], items[i]
		return
	}
	s.r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
}
