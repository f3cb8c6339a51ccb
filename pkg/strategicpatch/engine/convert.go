package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/mergepatch"

	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// maxDepth bounds the nesting of documents given as Go values, as parse.DefaultMaxDepth bounds JSON.
const maxDepth = parse.DefaultMaxDepth

// jsonReader reads the JSON inputs of one call: the values' maps and lists in the arena's memory and their strings in
// the inputs' (parse.Limits.JSONDocumentSharedIn), valid until the arena's Reset (see inArena) and while the call lasts
// (the call's arguments are unchanged then), or (no arena) maps, lists and strings in memory of their own.
type jsonReader struct {
	arena *parse.Arena
}

// object reads JSON text holding an object (null: {}) as strategicpatch does; anything else, YAML included, is
// mergepatch.ErrBadJSONDoc.
func (r jsonReader) object(data []byte) (value.Value, error) {
	return r.objectBy(parse.Limits{}.JSONDocumentSharedIn, data)
}

// objectBy is object reading data with shared, given the arena (without one, JSONDocumentIn reads it).
func (r jsonReader) objectBy(shared func(*parse.Arena, []byte) (value.Value, error), data []byte) (value.Value, error) {
	read := parse.Limits{}.JSONDocumentIn
	if r.arena != nil {
		read = shared
	}
	v, err := read(r.arena, data)
	switch {
	case err != nil:
		return value.Value{}, mergepatch.ErrBadJSONDoc
	case v.IsNull():
		return value.MustMap(), nil
	case !v.IsMap():
		return value.Value{}, mergepatch.ErrBadJSONDoc
	}
	return v, nil
}

// document is object, with nil or empty text an empty object (strategicpatch's patch creation). The documents of one
// call share the top-level maps and lists, and the longer lists below, they write alike
// (parse.Limits.JSONDocumentSharingIn): a patch's documents mostly do (a spec that live holds as recorded does, or its
// env list where the server added fields around it).
func (r jsonReader) document(data []byte) (value.Value, error) {
	if len(data) == 0 {
		return value.MustMap(), nil
	}
	return r.objectBy(parse.Limits{}.JSONDocumentSharingIn, data)
}

// arenas keeps the memory of the documents of finished calls for the next ones.
var arenas = sync.Pool{New: func() any { return new(parse.Arena) }}

// inArena runs call with a reader into an arena, so that reading the inputs allocates nothing per map or list and
// copies no string; call's result must share no memory with the values it read (JSON text the call encodes, Go values
// toGo builds do not). An error is computed again by call with a reader without arena, so that no error refers to the
// arena's memory or the arguments'; calls are deterministic, so it is the same error.
func inArena[R any](call func(jsonReader) (R, error)) (R, error) {
	a := arenas.Get().(*parse.Arena)
	out, err := call(jsonReader{arena: a})
	a.Reset()
	arenas.Put(a)
	if err != nil {
		return call(jsonReader{})
	}
	return out, nil
}

// fromMap converts a JSON object held as Go values (as encoding/json decodes them, numbers of any Go numeric type or
// json.Number) into a Value; a nil map is {}.
func fromMap(m map[string]interface{}) (value.Value, error) {
	return goReader{}.fromGo(m, 0)
}

// goReader converts Go values into Values, their maps and lists in the scratch memory of a pooled goReader (valid
// until its release; see withGoReader) or, for the zero goReader, in memory of their own.
type goReader struct {
	fields *scratch[value.Field]
	items  *scratch[value.Value]
	// kept is the scratch memory of what scoped leaves out, made for the call by applyMap if nil.
	kept *keptScratch
	// wholeLists makes scoped convert every list whole (scopedList is not used).
	wholeLists bool
}

// keptScratch is the scratch memory of scoped's kept and keptList values, and of scopedList's maps.
type keptScratch struct {
	kept       scratch[kept]
	lists      scratch[keptList]
	below      scratch[keptBelow]
	patchItems scratch[patchItem]
	named      scratch[*kept]
	indexes    reusedIndexes
	whole      reusedMaps[value.Value, interface{}]
	// skeleton is the buffer scopedSchemaOf writes the documents' skeletons in (nil: made on first use).
	skeleton []byte
}

// reset clears what s handed out.
func (s *keptScratch) reset() {
	s.kept.reset()
	s.lists.reset()
	s.below.reset()
	s.patchItems.reset()
	s.named.reset()
	s.indexes.reset()
	s.whole.reset()
}

// reusedMaps hands out empty maps, kept with their room for the next call once reset clears them.
type reusedMaps[K comparable, V any] struct {
	maps []map[K]V
	used int
}

// reusedMax bounds the maps a reusedMaps keeps and the Indexes a reusedIndexes keeps, and the entries of a map kept
// (a larger one is dropped, as clearing it costs its room).
const reusedMax = 64

// take returns an empty map, with room for hint entries (at most reusedMax) when it is made.
func (s *reusedMaps[K, V]) take(hint int) map[K]V {
	if s.used == len(s.maps) {
		s.maps = append(s.maps, nil)
	}
	m := s.maps[s.used]
	if m == nil {
		m = make(map[K]V, min(hint, reusedMax))
		s.maps[s.used] = m
	}
	s.used++
	return m
}

// reset clears the maps s handed out, dropping those past reusedMax.
func (s *reusedMaps[K, V]) reset() {
	for i := range s.used {
		if i >= reusedMax || len(s.maps[i]) > reusedMax {
			s.maps[i] = nil
			continue
		}
		clear(s.maps[i])
	}
	s.maps = s.maps[:min(len(s.maps), reusedMax)]
	s.used = 0
}

// reusedIndexes hands out elements.Indexes, each kept with its tables for the next call once reset.
type reusedIndexes struct {
	indexes []*elements.Index
	used    int
}

// take returns an empty Index of single-field keys, sized for n keys.
func (s *reusedIndexes) take(n int) *elements.Index {
	if s.used == len(s.indexes) {
		s.indexes = append(s.indexes, new(elements.Index))
	}
	x := s.indexes[s.used]
	x.Reset(1, n)
	s.used++
	return x
}

// reset makes every Index handed out available again, dropping those past reusedMax.
func (s *reusedIndexes) reset() {
	clear(s.indexes[min(len(s.indexes), reusedMax):])
	s.indexes = s.indexes[:min(len(s.indexes), reusedMax)]
	s.used = 0
}

// goReaders keeps the scratch memory of finished calls for the next ones.
var goReaders = sync.Pool{New: func() any {
	return &goReader{fields: new(scratch[value.Field]), items: new(scratch[value.Value]), kept: new(keptScratch)}
}}

// withGoReader runs call with a pooled goReader; call's result must share no memory with the values it converted (Go
// values toGo builds do not). An error is computed again by call with the zero goReader, so that no error refers to the
// scratch memory; calls are deterministic, so it is the same error (errDecidesEveryField, which refers to nothing, is
// returned as it is).
func withGoReader[R any](call func(goReader) (R, error)) (R, error) {
	r := goReaders.Get().(*goReader)
	out, err := call(*r)
	r.fields.reset()
	r.items.reset()
	r.kept.reset()
	goReaders.Put(r)
	if err != nil && err != errDecidesEveryField {
		return call(goReader{})
	}
	return out, err
}

// takeFields returns room for n fields.
func (r goReader) takeFields(n int) []value.Field {
	if r.fields == nil {
		return make([]value.Field, 0, n)
	}
	return r.fields.take(n)
}

// takeItems returns a list of n items.
func (r goReader) takeItems(n int) []value.Value {
	if r.items == nil {
		return make([]value.Value, n)
	}
	return r.items.take(n)[:n]
}

// errTooDeep is the error of a document nesting deeper than maxDepth.
var errTooDeep = fmt.Errorf("the document nests deeper than %d levels", maxDepth)

func (r goReader) fromGo(x interface{}, depth int) (value.Value, error) {
	if depth > maxDepth {
		return value.Value{}, errTooDeep
	}
	switch t := x.(type) {
	case nil:
		return value.Null, nil
	case string:
		return value.String(t), nil
	case bool:
		return value.Bool(t), nil
	case int64:
		return value.Int(t), nil
	case float64:
		return value.Float(t), nil
	case int:
		return value.Int(int64(t)), nil
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return value.Int(i), nil
		}
		f, err := t.Float64()
		if err != nil {
			return value.Value{}, fmt.Errorf("invalid number %q", string(t))
		}
		return value.Float(f), nil
	case map[string]interface{}:
		fields := r.takeFields(len(t))
		for k, v := range t {
			fv, err := r.fromGo(v, depth+1)
			if err != nil {
				return value.Value{}, err
			}
			fields = append(fields, value.Field{Key: k, Value: fv})
		}
		return sortedMap(fields), nil
	case []interface{}:
		items := r.takeItems(len(t))
		for i, it := range t {
			v, err := r.fromGo(it, depth+1)
			if err != nil {
				return value.Value{}, err
			}
			items[i] = v
		}
		return value.List(items), nil
	}
	return r.fromReflect(reflect.ValueOf(x), depth)
}

// fromReflect converts the other Go types JSON maps hold: named maps and slices (JSONMap), sized numbers.
func (gr goReader) fromReflect(r reflect.Value, depth int) (value.Value, error) {
	switch r.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return value.Int(r.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return value.Int(int64(r.Uint())), nil
	case reflect.Float32, reflect.Float64:
		return value.Float(r.Float()), nil
	case reflect.String:
		return value.String(r.String()), nil
	case reflect.Bool:
		return value.Bool(r.Bool()), nil
	case reflect.Map:
		if r.Type().Key().Kind() == reflect.String {
			fields := make([]value.Field, 0, r.Len())
			for it := r.MapRange(); it.Next(); {
				fv, err := gr.fromGo(it.Value().Interface(), depth+1)
				if err != nil {
					return value.Value{}, err
				}
				fields = append(fields, value.Field{Key: it.Key().String(), Value: fv})
			}
			return sortedMap(fields), nil
		}
	case reflect.Slice, reflect.Array:
		items := make([]value.Value, r.Len())
		for i := range items {
			v, err := gr.fromGo(r.Index(i).Interface(), depth+1)
			if err != nil {
				return value.Value{}, err
			}
			items[i] = v
		}
		return value.List(items), nil
	case reflect.Pointer, reflect.Interface:
		if r.IsNil() {
			return value.Null, nil
		}
		return gr.fromGo(r.Elem().Interface(), depth)
	}
	return value.Value{}, fmt.Errorf("unknown type: %v", r.Type())
}

// sortedMap is the map of fields, whose keys (a Go map's) are distinct: sorted, unless there is one (the patch's maps
// along its path usually hold one field); two (a list item's merge key and one more, often) are swapped if out of
// order.
func sortedMap(fields []value.Field) value.Value {
	switch {
	case len(fields) == 2:
		if fields[1].Key < fields[0].Key {
			fields[0], fields[1] = fields[1], fields[0]
		}
	case len(fields) > 2:
		slices.SortFunc(fields, func(a, b value.Field) int { return strings.Compare(a.Key, b.Key) })
	}
	return value.MapFromSorted(fields)
}

// toMap converts an object into Go values as strategicpatch's JSON decoding gives them: map[string]interface{},
// []interface{}, string, bool, int64, float64 and nil.
func toMap(v value.Value) map[string]interface{} {
	m, _ := toGo(v).(map[string]interface{})
	if m == nil {
		m = map[string]interface{}{}
	}
	return m
}

func toGo(v value.Value) interface{} {
	switch v.Kind() {
	case value.KindBool:
		b, _ := v.AsBool()
		return b
	case value.KindInt:
		i, _ := v.AsInt()
		return i
	case value.KindFloat:
		f, _ := v.AsFloat()
		return f
	case value.KindString:
		s, _ := v.AsString()
		return s
	case value.KindMap:
		fields := v.Fields()
		m := make(map[string]interface{}, len(fields))
		for _, f := range fields {
			m[f.Key] = toGo(f.Value)
		}
		return m
	case value.KindList:
		items := v.Items()
		l := make([]interface{}, len(items))
		for i, it := range items {
			l[i] = toGo(it)
		}
		return l
	}
	return nil
}
