package jsonv

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/plyproject/ply/pkg/value"
)

// Decode parses one JSON document into a value.Value. Trailing data after
// the document is an error, and so is a duplicated object key.
func Decode(data []byte) (value.Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return value.Null, fmt.Errorf("jsonv: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return value.Null, errors.New("jsonv: trailing data after the JSON document")
	}
	return FromAny(x)
}

// MustDecode is Decode for literals in tests: it panics on bad input.
func MustDecode(data string) value.Value {
	v, err := Decode([]byte(data))
	if err != nil {
		panic(err)
	}
	return v
}

// FromAny converts the result of encoding/json decoding (nil, bool,
// json.Number, float64, string, []any, map[string]any) into a Value.
// float64 numbers (decoded without UseNumber) become Int when integral and
// in int64 range, Float otherwise.
func FromAny(x any) (value.Value, error) {
	switch t := x.(type) {
	case nil:
		return value.Null, nil
	case bool:
		return value.Bool(t), nil
	case string:
		return value.String(t), nil
	case json.Number:
		return number(string(t))
	case float64:
		if t == float64(int64(t)) && t >= -(1<<63) && t < 1<<63 {
			return value.Int(int64(t)), nil
		}
		return value.Float(t), nil
	case int:
		return value.Int(int64(t)), nil
	case int64:
		return value.Int(t), nil
	case []any:
		items := make([]value.Value, len(t))
		for i, it := range t {
			v, err := FromAny(it)
			if err != nil {
				return value.Null, err
			}
			items[i] = v
		}
		return value.List(items), nil
	case map[string]any:
		fields := make([]value.Field, 0, len(t))
		for k, it := range t {
			v, err := FromAny(it)
			if err != nil {
				return value.Null, err
			}
			fields = append(fields, value.Field{Key: k, Value: v})
		}
		m, dup, ok := value.NewMap(fields)
		if !ok {
			return value.Null, fmt.Errorf("jsonv: duplicated key %q", dup)
		}
		return m, nil
	}
	return value.Null, fmt.Errorf("jsonv: unsupported Go type %T", x)
}

func number(s string) (value.Value, error) {
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return value.Int(i), nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return value.Null, fmt.Errorf("jsonv: bad number %q: %w", s, err)
	}
	return value.Float(f), nil
}

// Size is the length of v's compact JSON encoding; used to rank failing
// cases so the smallest are reported first.
func Size(v value.Value) int { return len(v.JSON()) }
