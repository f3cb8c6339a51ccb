package value

import (
	"math"
	"sort"
	"strings"
)

// Kind is the JSON kind of a Value.
type Kind uint8

// The kinds a Value can have. The zero Value is KindNull.
const (
	KindNull Kind = iota
	KindBool
	KindInt
	KindFloat
	KindString
	KindMap
	KindList
)

var kindNames = [...]string{"null", "boolean", "integer", "number", "string", "object", "array"}

// String returns the JSON-schema name of the kind ("object", "array", ...).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// Field is one key/value pair of a map Value.
type Field struct {
	Key   string
	Value Value
}

// Value is one node of a parsed JSON/YAML document.
//
// Invariants: a Value of KindMap holds its fields sorted by Key, with unique
// keys, so that lookups are binary searches and every traversal (and so every
// output and every error list) has one deterministic order. A Value of KindInt
// holds an exact int64; floats are never used for integers. Values are
// immutable by convention: functions in ply build new Values instead of
// modifying those they are given, so subtrees may be shared.
type Value struct {
	kind   Kind
	bits   uint64 // bool (0/1), int64, or float64 bits
	str    string
	fields []Field
	items  []Value
}

// Null is the explicit JSON null.
var Null = Value{}

// Bool returns a boolean Value.
func Bool(b bool) Value {
	v := Value{kind: KindBool}
	if b {
		v.bits = 1
	}
	return v
}

// Int returns an integer Value.
func Int(i int64) Value { return Value{kind: KindInt, bits: uint64(i)} }

// Float returns a floating point Value.
func Float(f float64) Value { return Value{kind: KindFloat, bits: math.Float64bits(f)} }

// String returns a string Value.
func String(s string) Value { return Value{kind: KindString, str: s} }

// List returns a list Value holding items (not copied). A nil slice gives an
// empty list, never null.
func List(items []Value) Value {
	if items == nil {
		items = []Value{}
	}
	return Value{kind: KindList, items: items}
}

// MapFromSorted returns a map Value over fields, which the caller guarantees
// to be sorted by key with unique keys (not copied, not checked).
func MapFromSorted(fields []Field) Value {
	if fields == nil {
		fields = []Field{}
	}
	return Value{kind: KindMap, fields: fields}
}

// NewMap returns a map Value over fields in any order. It sorts them (in
// place) and returns the first duplicated key, if any, with ok=false.
func NewMap(fields []Field) (v Value, dup string, ok bool) {
	if !sort.SliceIsSorted(fields, func(i, j int) bool { return fields[i].Key < fields[j].Key }) {
		sort.SliceStable(fields, func(i, j int) bool { return fields[i].Key < fields[j].Key })
	}
	for i := 1; i < len(fields); i++ {
		if fields[i].Key == fields[i-1].Key {
			return Value{}, fields[i].Key, false
		}
	}
	return MapFromSorted(fields), "", true
}

// MustMap is NewMap for literal maps built by ply itself: a duplicated key
// keeps the last value instead of failing.
func MustMap(fields ...Field) Value {
	sort.SliceStable(fields, func(i, j int) bool { return fields[i].Key < fields[j].Key })
	out := fields[:0]
	for _, f := range fields {
		if len(out) > 0 && out[len(out)-1].Key == f.Key {
			out[len(out)-1] = f
			continue
		}
		out = append(out, f)
	}
	return MapFromSorted(out)
}

// Kind returns the kind of v.
func (v Value) Kind() Kind { return v.kind }

// IsNull reports whether v is the explicit null.
func (v Value) IsNull() bool { return v.kind == KindNull }

// IsMap reports whether v is an object.
func (v Value) IsMap() bool { return v.kind == KindMap }

// IsList reports whether v is an array.
func (v Value) IsList() bool { return v.kind == KindList }

// IsScalar reports whether v is a string, number or boolean.
func (v Value) IsScalar() bool {
	return v.kind == KindBool || v.kind == KindInt || v.kind == KindFloat || v.kind == KindString
}

// AsBool returns the boolean held by v; ok is false for another kind.
func (v Value) AsBool() (b bool, ok bool) { return v.bits == 1, v.kind == KindBool }

// AsInt returns the integer held by v; ok is false for another kind.
func (v Value) AsInt() (i int64, ok bool) { return int64(v.bits), v.kind == KindInt }

// AsFloat returns the number held by v as a float64 (integers convert); ok
// is false for a kind that is not a number.
func (v Value) AsFloat() (f float64, ok bool) {
	switch v.kind {
	case KindFloat:
		return math.Float64frombits(v.bits), true
	case KindInt:
		return float64(int64(v.bits)), true
	}
	return 0, false
}

// AsString returns the string held by v; ok is false for another kind.
func (v Value) AsString() (s string, ok bool) { return v.str, v.kind == KindString }

// Fields returns the fields of a map, sorted by key (nil for other kinds).
// The slice must not be modified.
func (v Value) Fields() []Field { return v.fields }

// Items returns the items of a list (nil for other kinds). The slice must not
// be modified.
func (v Value) Items() []Value { return v.items }

// Len returns the number of fields of a map or items of a list, else 0.
func (v Value) Len() int {
	switch v.kind {
	case KindMap:
		return len(v.fields)
	case KindList:
		return len(v.items)
	}
	return 0
}

// Get returns the value of key in a map Value by binary search; ok is false
// when v is not a map or lacks the key.
func (v Value) Get(key string) (Value, bool) {
	fs := v.fields
	lo, hi := 0, len(fs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if fs[m].Key < key {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(fs) && fs[lo].Key == key {
		return fs[lo].Value, true
	}
	return Value{}, false
}

// With returns a copy of map v with key set to val (v itself is unchanged).
// A non-map v is treated as an empty map.
func (v Value) With(key string, val Value) Value {
	fs := v.fields
	i := sort.Search(len(fs), func(i int) bool { return fs[i].Key >= key })
	out := make([]Field, 0, len(fs)+1)
	out = append(out, fs[:i]...)
	out = append(out, Field{Key: key, Value: val})
	if i < len(fs) && fs[i].Key == key {
		i++
	}
	out = append(out, fs[i:]...)
	return MapFromSorted(out)
}

// Without returns a copy of map v lacking key (v itself is unchanged).
func (v Value) Without(key string) Value {
	if _, ok := v.Get(key); !ok {
		return v
	}
	out := make([]Field, 0, len(v.fields)-1)
	for _, f := range v.fields {
		if f.Key != key {
			out = append(out, f)
		}
	}
	return MapFromSorted(out)
}

// Equal reports whether a and b are the same JSON value. Numbers compare by
// exact value across integer and float (1 equals 1.0; 2^53+1 does not equal
// the float 2^53); maps compare as sets of fields; lists compare item by
// item in order.
func Equal(a, b Value) bool {
	if a.kind != b.kind {
		if a.kind == KindFloat && b.kind == KindInt {
			a, b = b, a
		}
		if a.kind == KindInt && b.kind == KindFloat {
			// Exact: the float must be a whole number in int64's range
			// equal to the integer (no rounding of the integer to float64).
			f := math.Float64frombits(b.bits)
			return f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 && int64(f) == int64(a.bits)
		}
		return false
	}
	switch a.kind {
	case KindNull:
		return true
	case KindBool, KindInt:
		return a.bits == b.bits
	case KindFloat:
		return math.Float64frombits(a.bits) == math.Float64frombits(b.bits)
	case KindString:
		return a.str == b.str
	case KindMap:
		if len(a.fields) != len(b.fields) {
			return false
		}
		for i := range a.fields {
			if a.fields[i].Key != b.fields[i].Key || !Equal(a.fields[i].Value, b.fields[i].Value) {
				return false
			}
		}
		return true
	case KindList:
		if len(a.items) != len(b.items) {
			return false
		}
		for i := range a.items {
			if !Equal(a.items[i], b.items[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// ScalarKey is a comparable identity for a scalar Value, used to index list
// items and merge keys in hash maps without formatting strings. Two scalars
// have equal keys exactly when Equal holds for them (integral floats key as
// integers).
type ScalarKey struct {
	Kind Kind
	Bits uint64
	Str  string
}

// Key returns the ScalarKey of v. Non-scalar values (maps, lists) are not
// keys; for them ok is false.
func (v Value) Key() (k ScalarKey, ok bool) {
	switch v.kind {
	case KindNull:
		return ScalarKey{Kind: KindNull}, true
	case KindBool, KindInt, KindString:
		return ScalarKey{Kind: v.kind, Bits: v.bits, Str: v.str}, true
	case KindFloat:
		f := math.Float64frombits(v.bits)
		if f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 {
			return ScalarKey{Kind: KindInt, Bits: uint64(int64(f))}, true
		}
		return ScalarKey{Kind: KindFloat, Bits: v.bits}, true
	}
	return ScalarKey{}, false
}

// Short renders a scalar for messages: strings as written, numbers and
// booleans in JSON form, other kinds by their kind name.
func (v Value) Short() string {
	switch v.kind {
	case KindString:
		return v.str
	case KindMap, KindList:
		return v.kind.String()
	}
	var sb strings.Builder
	writeJSON(&sb, v, "", "")
	return sb.String()
}
