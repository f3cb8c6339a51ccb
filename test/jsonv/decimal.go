package jsonv

import (
	"math"
	"strconv"

	"github.com/plyproject/ply/pkg/value"
)

// DecimalJSON is v's compact JSON (as v.JSON() writes it) but for whole
// numbers held as value.Float (a decimal Decode read, such as 80.0 or 8e1),
// which it writes with a fraction: "80.0". v.JSON() writes them as integers,
// which a decoder that types numbers by their text (apimachinery's
// util/json: int64 without a fraction, float64 with one) reads as another
// Go type.
func DecimalJSON(v value.Value) []byte {
	return appendDecimal(nil, v)
}

func appendDecimal(dst []byte, v value.Value) []byte {
	switch v.Kind() {
	case value.KindFloat:
		if f, _ := v.AsFloat(); f == math.Trunc(f) && math.Abs(f) < 1e15 {
			return append(strconv.AppendFloat(dst, f, 'f', -1, 64), ".0"...)
		}
	case value.KindMap:
		dst = append(dst, '{')
		for i, f := range v.Fields() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(append(dst, value.String(f.Key).JSON()...), ':')
			dst = appendDecimal(dst, f.Value)
		}
		return append(dst, '}')
	case value.KindList:
		dst = append(dst, '[')
		for i, it := range v.Items() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendDecimal(dst, it)
		}
		return append(dst, ']')
	}
	return append(dst, v.JSON()...)
}

// HasDecimal reports whether v holds a whole number as value.Float anywhere (DecimalJSON writes it with a fraction).
func HasDecimal(v value.Value) bool {
	switch v.Kind() {
	case value.KindFloat:
		f, _ := v.AsFloat()
		return f == math.Trunc(f) && math.Abs(f) < 1e15
	case value.KindMap:
		for _, f := range v.Fields() {
			if HasDecimal(f.Value) {
				return true
			}
		}
	case value.KindList:
		for _, it := range v.Items() {
			if HasDecimal(it) {
				return true
			}
		}
	}
	return false
}

// WholeNumbers is v with every whole number held as value.Float (HasDecimal) held as value.Int: the same JSON values,
// each written as an integer by any encoder.
func WholeNumbers(v value.Value) value.Value {
	switch v.Kind() {
	case value.KindFloat:
		if HasDecimal(v) {
			f, _ := v.AsFloat()
			return value.Int(int64(f))
		}
	case value.KindMap:
		fs := make([]value.Field, len(v.Fields()))
		for i, f := range v.Fields() {
			fs[i] = value.Field{Key: f.Key, Value: WholeNumbers(f.Value)}
		}
		return value.MapFromSorted(fs)
	case value.KindList:
		items := make([]value.Value, len(v.Items()))
		for i, it := range v.Items() {
			items[i] = WholeNumbers(it)
		}
		return value.List(items)
	}
	return v
}
