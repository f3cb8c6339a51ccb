package value

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unsafe"
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
//
// A Value is two words, p and n; merging works on millions of these, so
// their size matters. A string, map or list has p pointing to its data and
// n holding its length in the low bits and its Kind in the top ones
// (kindShift); a map or list marked by Bounded holds its bound in the bits
// between (boundShift), which only Deeper reads, and one marked by
// DollarFree the bit above them (dollarFreeBit), which only IsDollarFree
// reads. A bool, int64 or float64
// has n holding its bits and p pointing to the element of scalarTags its
// Kind indexes, which tells the kind, since no data of a string, map or
// list lies within scalarTags. The zero Value (p nil, n 0) is null.
type Value struct {
	p unsafe.Pointer
	n uint64
}

// kindShift places a string's, map's or list's Kind in the top bits of n;
// dollarFreeBit, just below it, is DollarFree's mark; boundShift places
// Bounded's mark below that, above the length (lengths stay far below
// 1<<boundShift).
const (
	kindShift     = 60
	dollarFreeBit = 1 << (kindShift - 1)
	boundShift    = 48
	lenMask       = 1<<boundShift - 1
	boundMask     = 1<<(kindShift-1-boundShift) - 1
)

// scalarTags gives the scalar kinds their p: &scalarTags[k] marks kind k.
var scalarTags [KindString]byte

// kind returns v's Kind. Only the tags of bool, int and float are
// recognised: a zero-length string or slice whose data pointer happened to
// be &scalarTags[KindNull] is still a string or slice.
func (v Value) kind() Kind {
	if d := uintptr(v.p) - uintptr(unsafe.Pointer(&scalarTags[KindBool])); d <= uintptr(KindFloat-KindBool) {
		return KindBool + Kind(d)
	}
	return Kind(v.n >> kindShift)
}

// length returns the length of a string, map or list.
func (v Value) length() int { return int(v.n & lenMask) }

// scalar returns the Value of scalar kind k with bits n.
func scalar(k Kind, n uint64) Value { return Value{p: unsafe.Pointer(&scalarTags[k]), n: n} }

// container returns the Value of kind k (string, map or list) over n
// elements at p.
func container(k Kind, p unsafe.Pointer, n int) Value {
	return Value{p: p, n: uint64(n) | uint64(k)<<kindShift}
}

// str returns the string of a KindString Value.
func (v Value) str() string {
	if v.kind() != KindString {
		return ""
	}
	return unsafe.String((*byte)(v.p), v.length())
}

// fields returns the fields of a KindMap Value.
func (v Value) fields() []Field {
	if v.kind() != KindMap {
		return nil
	}
	return unsafe.Slice((*Field)(v.p), v.length())
}

// items returns the items of a KindList Value.
func (v Value) items() []Value {
	if v.kind() != KindList {
		return nil
	}
	return unsafe.Slice((*Value)(v.p), v.length())
}

// Null is the explicit JSON null.
var Null = Value{}

// Bool returns a boolean Value.
func Bool(b bool) Value {
	if b {
		return scalar(KindBool, 1)
	}
	return scalar(KindBool, 0)
}

// Int returns an integer Value.
func Int(i int64) Value { return scalar(KindInt, uint64(i)) }

// Float returns a floating point Value.
func Float(f float64) Value { return scalar(KindFloat, math.Float64bits(f)) }

// String returns a string Value.
func String(s string) Value {
	return container(KindString, unsafe.Pointer(unsafe.StringData(s)), len(s))
}

// List returns a list Value holding items (not copied). A nil slice gives an
// empty list, never null.
func List(items []Value) Value {
	return container(KindList, unsafe.Pointer(unsafe.SliceData(items)), len(items))
}

// MapFromSorted returns a map Value over fields, which the caller guarantees
// to be sorted by key with unique keys (not copied, not checked).
func MapFromSorted(fields []Field) Value {
	return container(KindMap, unsafe.Pointer(unsafe.SliceData(fields)), len(fields))
}

// NewMap returns a map Value over fields in any order. It sorts them (in
// place) and returns the first duplicated key, if any, with ok=false.
func NewMap(fields []Field) (v Value, dup string, ok bool) {
	if !slices.IsSortedFunc(fields, compareKeys) {
		slices.SortStableFunc(fields, compareKeys)
	}
	for i := 1; i < len(fields); i++ {
		if fields[i].Key == fields[i-1].Key {
			return Value{}, fields[i].Key, false
		}
	}
	return MapFromSorted(fields), "", true
}

// compareKeys orders fields by key (sorting costs no allocation, as sort.Slice's reflection would).
func compareKeys(a, b Field) int { return strings.Compare(a.Key, b.Key) }

// MustMap is NewMap for literal maps built by ply itself: a duplicated key
// keeps the last value instead of failing.
func MustMap(fields ...Field) Value {
	slices.SortStableFunc(fields, compareKeys)
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
func (v Value) Kind() Kind { return v.kind() }

// IsNull reports whether v is the explicit null.
func (v Value) IsNull() bool { return v == Value{} }

// IsMap reports whether v is an object.
func (v Value) IsMap() bool { return v.kind() == KindMap }

// IsList reports whether v is an array.
func (v Value) IsList() bool { return v.kind() == KindList }

// IsScalar reports whether v is a string, number or boolean.
func (v Value) IsScalar() bool {
	k := v.kind()
	return k >= KindBool && k <= KindString
}

// AsBool returns the boolean held by v; ok is false for another kind.
func (v Value) AsBool() (b bool, ok bool) {
	ok = v.kind() == KindBool
	return ok && v.n == 1, ok
}

// AsInt returns the integer held by v; ok is false for another kind.
func (v Value) AsInt() (i int64, ok bool) {
	if v.kind() != KindInt {
		return 0, false
	}
	return int64(v.n), true
}

// AsFloat returns the number held by v as a float64 (integers convert); ok
// is false for a kind that is not a number.
func (v Value) AsFloat() (f float64, ok bool) {
	switch v.kind() {
	case KindFloat:
		return math.Float64frombits(v.n), true
	case KindInt:
		return float64(int64(v.n)), true
	}
	return 0, false
}

// AsString returns the string held by v; ok is false for another kind.
func (v Value) AsString() (s string, ok bool) { return v.str(), v.kind() == KindString }

// Fields returns the fields of a map, sorted by key (nil for other kinds).
// The slice must not be modified.
func (v Value) Fields() []Field { return v.fields() }

// Items returns the items of a list (nil for other kinds). The slice must not
// be modified.
func (v Value) Items() []Value { return v.items() }

// Len returns the number of fields of a map or items of a list, else 0.
func (v Value) Len() int {
	if k := v.kind(); k == KindMap || k == KindList {
		return v.length()
	}
	return 0
}

// Get returns the value of key in a map Value, by binary search but in a
// small map (where comparing lengths rules most keys out without a call);
// ok is false when v is not a map or lacks the key.
func (v Value) Get(key string) (Value, bool) {
	fs := v.fields()
	if len(fs) <= 8 {
		for i := range fs {
			if fs[i].Key == key {
				return fs[i].Value, true
			}
		}
		return Value{}, false
	}
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
	fs := v.fields()
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
	out := make([]Field, 0, v.Len()-1)
	for _, f := range v.fields() {
		if f.Key != key {
			out = append(out, f)
		}
	}
	return MapFromSorted(out)
}

// Identical reports whether a and b print as the same JSON: the same kinds
// all the way down (1 and 1.0 differ, and so do 0 and -0), equal strings
// and numbers, maps with the same fields, lists with the same items in
// order. Values that are one (a == b) are identical without a look below.
func Identical(a, b Value) bool {
	if a == b {
		return true
	}
	switch k := a.kind(); {
	case k != b.kind():
		return false
	case k == KindNull:
		return true
	case k == KindString:
		return a.str() == b.str()
	case k == KindMap:
		af, bf := a.fields(), b.fields()
		if len(af) != len(bf) {
			return false
		}
		for i := range af {
			if af[i].Key != bf[i].Key || !Identical(af[i].Value, bf[i].Value) {
				return false
			}
		}
		return true
	case k == KindList:
		ai, bi := a.items(), b.items()
		if len(ai) != len(bi) {
			return false
		}
		for i := range ai {
			if !Identical(ai[i], bi[i]) {
				return false
			}
		}
		return true
	}
	return false // scalars of one kind are identical only as one Value (a == b)
}

// Equal reports whether a and b are the same JSON value. Numbers compare by
// exact value across integer and float (1 equals 1.0; 2^53+1 does not equal
// the float 2^53); maps compare as sets of fields; lists compare item by
// item in order.
func Equal(a, b Value) bool {
	ka, kb := a.kind(), b.kind()
	if ka != kb {
		if ka == KindFloat && kb == KindInt {
			a, b, ka, kb = b, a, kb, ka
		}
		if ka == KindInt && kb == KindFloat {
			// Exact: the float must be a whole number in int64's range
			// equal to the integer (no rounding of the integer to float64).
			f := math.Float64frombits(b.n)
			return f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 && int64(f) == int64(a.n)
		}
		return false
	}
	switch ka {
	case KindNull:
		return true
	case KindBool, KindInt:
		return a.n == b.n
	case KindFloat:
		return math.Float64frombits(a.n) == math.Float64frombits(b.n)
	case KindString:
		return a.str() == b.str()
	case KindMap:
		if a.length() != b.length() {
			return false
		}
		af, bf := a.fields(), b.fields()
		for i := range af {
			if af[i].Key != bf[i].Key {
				return false
			}
			// Strings, most values, are compared here rather than in a call.
			x, y := af[i].Value, bf[i].Value
			if x.kind() == KindString && y.kind() == KindString {
				if x.str() != y.str() {
					return false
				}
			} else if !Equal(x, y) {
				return false
			}
		}
		return true
	case KindList:
		if a.length() != b.length() {
			return false
		}
		ai, bi := a.items(), b.items()
		for i := range ai {
			if !Equal(ai[i], bi[i]) {
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

// Same reports *k == *o, telling most unequal string keys apart by their length or last byte before comparing them
// whole (keys of a list's items often differ only at their end: "VAR_00001", "VAR_00002").
func (k *ScalarKey) Same(o *ScalarKey) bool {
	if k.Kind != o.Kind || k.Bits != o.Bits || len(k.Str) != len(o.Str) {
		return false
	}
	if n := len(k.Str); n > 0 && k.Str[n-1] != o.Str[n-1] {
		return false
	}
	return k.Str == o.Str
}

// Key returns the ScalarKey of v. Non-scalar values (maps, lists) are not
// keys; for them ok is false.
func (v Value) Key() (k ScalarKey, ok bool) {
	switch v.kind() {
	case KindNull:
		return ScalarKey{Kind: KindNull}, true
	case KindBool, KindInt:
		return ScalarKey{Kind: v.kind(), Bits: v.n}, true
	case KindString:
		return ScalarKey{Kind: KindString, Str: v.str()}, true
	case KindFloat:
		f := math.Float64frombits(v.n)
		if f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 {
			return ScalarKey{Kind: KindInt, Bits: uint64(int64(f))}, true
		}
		return ScalarKey{Kind: KindFloat, Bits: v.n}, true
	}
	return ScalarKey{}, false
}

// Short renders a scalar for messages: strings as written, numbers and
// booleans in JSON form, other kinds by their kind name.
func (v Value) Short() string {
	switch v.kind() {
	case KindString:
		return v.str()
	case KindMap, KindList:
		return v.kind().String()
	}
	return string(appendCompact(nil, v))
}

// Bounded returns v marked as nesting at most depth levels of maps and
// lists (as Deeper counts them), which the caller vouches for: pkg/parse
// marks each document it reads with the limit it enforced. Deeper(v, max)
// with max >= depth then answers without descending. The mark changes
// nothing else: v holds the same value, and Equal, Identical and every
// accessor ignore it. A scalar, or a depth outside 0 to 2046, is returned
// unmarked.
func Bounded(v Value, depth int) Value {
	if k := v.kind(); (k == KindMap || k == KindList) && depth >= 0 && depth < boundMask {
		v.n = v.n&^(boundMask<<boundShift) | uint64(depth+1)<<boundShift
	}
	return v
}

// DollarFree returns v marked as holding no map, at any depth, with a key
// that begins with '$', which the caller vouches for: pkg/parse marks each
// document it reads that holds none. IsDollarFree(v) then answers without
// descending. As Bounded's, the mark changes nothing else, and a value
// built from v (a field of it, a map holding it) does not carry it. A
// scalar is returned unmarked.
func DollarFree(v Value) Value {
	if k := v.kind(); k == KindMap || k == KindList {
		v.n |= dollarFreeBit
	}
	return v
}

// IsDollarFree reports whether v carries DollarFree's mark: true says no
// map in v has a key beginning with '$'; false says nothing (the caller
// looks).
func IsDollarFree(v Value) bool {
	k := v.kind()
	return (k == KindMap || k == KindList) && v.n&dollarFreeBit != 0
}

// FlatMapFromSorted is MapFromSorted over fields none of whose values is a
// map or a list, which the caller guarantees too: the map is marked as
// Bounded(v, 1) marks it, so that Deeper and MarkedFlat answer without
// reading its fields.
func FlatMapFromSorted(fields []Field) Value {
	return Value{p: unsafe.Pointer(unsafe.SliceData(fields)), n: uint64(len(fields)) | 2<<boundShift | uint64(KindMap)<<kindShift}
}

// MarkedFlat reports whether v is a map marked as nesting one level
// (FlatMapFromSorted, Bounded(v, 1)): none of its values is a map or a
// list. An unmarked map reports false, whatever it holds.
func MarkedFlat(v Value) bool {
	return v.kind() == KindMap && v.n>>boundShift&boundMask == 2
}

// Deeper reports whether v nests maps and lists more than max levels: a
// scalar nests 0 levels, {"a": [1]} nests 2. It descends at most max+1
// levels, so its own recursion is bounded by max whatever v holds: callers
// use it to refuse values built in memory that would exhaust the stack of
// the recursive algorithms that follow.
func Deeper(v Value, max int) bool {
	if v.kind() != KindMap && v.kind() != KindList {
		return false
	}
	if b := int(v.n >> boundShift & boundMask); b > 0 && b-1 <= max {
		return false
	}
	if max <= 0 {
		return true
	}
	// Scalars are tested here rather than in a call each: most values are.
	if v.kind() == KindMap {
		for _, f := range v.fields() {
			if k := f.Value.kind(); (k == KindMap || k == KindList) && Deeper(f.Value, max-1) {
				return true
			}
		}
		return false
	}
	for _, x := range v.items() {
		if k := x.kind(); (k == KindMap || k == KindList) && Deeper(x, max-1) {
			return true
		}
	}
	return false
}
