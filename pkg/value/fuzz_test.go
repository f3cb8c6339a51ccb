package value_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"testing"

	"github.com/plyproject/ply/pkg/value"
)

// valueFromJSON converts what encoding/json decodes (with UseNumber) into a
// Value: integers that fit int64 become Int, other numbers Float. ok is
// false for numbers float64 cannot hold (out of range).
func valueFromJSON(x any) (value.Value, bool) {
	switch x := x.(type) {
	case nil:
		return value.Null, true
	case bool:
		return value.Bool(x), true
	case string:
		return value.String(x), true
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return value.Int(i), true
		}
		fl, err := strconv.ParseFloat(string(x), 64)
		if err != nil || math.IsInf(fl, 0) {
			return value.Value{}, false
		}
		return value.Float(fl), true
	case []any:
		items := make([]value.Value, len(x))
		for i, it := range x {
			v, ok := valueFromJSON(it)
			if !ok {
				return value.Value{}, false
			}
			items[i] = v
		}
		return value.List(items), true
	case map[string]any:
		fs := make([]value.Field, 0, len(x))
		for k, it := range x {
			v, ok := valueFromJSON(it)
			if !ok {
				return value.Value{}, false
			}
			fs = append(fs, value.Field{Key: k, Value: v})
		}
		v, dup, ok := value.NewMap(fs)
		if !ok {
			panic("duplicate key " + dup + " from a Go map")
		}
		return v, true
	}
	panic("unexpected decoded type")
}

// decodeOneJSON reads exactly one JSON document with UseNumber.
func decodeOneJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data")
	}
	return x, nil
}

// FuzzJSONRoundTrip checks that JSON() writes valid JSON that decodes back
// to an Equal value, that its output is stable (encoding the decoded
// value again gives the same bytes), and that IndentJSON holds the same
// document.
func FuzzJSONRoundTrip(f *testing.F) {
	for _, s := range []string{
		`null`, `true`, `0`, `-0`, `1.0`, `1e21`, `1e-7`, `-0.0`, `123456789012345678901234`,
		`9223372036854775807`, `9223372036854775808`, `-9223372036854775809`, `0.1`, `5e-324`,
		`"a<b>&c"`, `"\u2028\u2029"`, `"\b\f\n\r\t\u0000\u001f"`, `"\ud800"`, `"é世😀"`,
		`{"b":1,"a":[1,2,{"c":null}],"":{}}`, `{"a":1,"a":2}`, `[[],{},"",0,false]`,
		"\"\xff\x80\"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := decodeOneJSON(data)
		if err != nil {
			return
		}
		v, ok := valueFromJSON(x)
		if !ok {
			return
		}
		out := v.JSON()
		if !json.Valid(out) {
			t.Fatalf("JSON() wrote invalid JSON %q for input %q", out, data)
		}
		y, err := decodeOneJSON(out)
		if err != nil {
			t.Fatalf("JSON() output %q does not decodeOneJSON: %v", out, err)
		}
		w, ok := valueFromJSON(y)
		if !ok {
			t.Fatalf("JSON() output %q holds a number float64 cannot", out)
		}
		if !value.Equal(v, w) {
			t.Fatalf("round trip changed the value:\ninput  %q\nfirst  %s\nsecond %s", data, out, w.JSON())
		}
		// One round may turn an integral float into an int ("-0" into
		// "0"); after that the text is a fixed point.
		second := w.JSON()
		z, err := decodeOneJSON(second)
		if err != nil {
			t.Fatalf("JSON() output %q does not decode: %v", second, err)
		}
		u, _ := valueFromJSON(z)
		if third := u.JSON(); !bytes.Equal(third, second) {
			t.Fatalf("encoding is not stable:\nsecond %s\nthird  %s", second, third)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, v.IndentJSON("  ")); err != nil {
			t.Fatalf("IndentJSON wrote invalid JSON: %v", err)
		}
		if !bytes.Equal(compact.Bytes(), out) {
			t.Fatalf("IndentJSON holds another document:\nindent %s\njson   %s", compact.Bytes(), out)
		}
	})
}
