package parse

import (
	"bytes"
	"encoding/json"
	"fmt"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
)

// KubectlReadsYAML reads one YAML document the way kubectl does, as a test
// oracle: through sigs.k8s.io/yaml.YAMLToJSON, then KubectlReadsJSON. A
// panic of the YAML library is returned as an error.
func KubectlReadsYAML(doc []byte) (v value.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = value.Null, fmt.Errorf("sigs.k8s.io/yaml panicked: %v", r)
		}
	}()
	j, err := sigsyaml.YAMLToJSON(doc)
	if err != nil {
		return value.Null, err
	}
	return KubectlReadsJSON(j)
}

// KubectlReadsJSON reads one JSON document the way kubectl's JSON path
// does, as a test oracle: integers that fit int64 stay integers, any other
// number is a float64.
func KubectlReadsJSON(j []byte) (value.Value, error) {
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return value.Null, err
	}
	return jsonv.FromAny(x)
}

// SameAfterJSON reports whether b, read back from the JSON encoding of a,
// is a: value.Equal, except that a float may come back as the integer that
// encoding/json style output writes for it (kubectl reads YAML through
// such a JSON encoding, so the oracle tests compare with this too). value.JSON writes a float by
// its shortest round-tripping decimal, so the float 20000000000000808
// (the float64 nearest 20000000000000807) is written 20000000000000810,
// which reads back as that int64: a different integer that converts to the
// same float64. kubectl has the same drift.
func SameAfterJSON(a, b value.Value) bool {
	if a.Kind() == value.KindFloat && b.Kind() == value.KindInt {
		f, _ := a.AsFloat()
		i, _ := b.AsInt()
		return float64(i) == f
	}
	if a.Kind() != b.Kind() || a.Len() != b.Len() {
		return value.Equal(a, b)
	}
	switch a.Kind() {
	case value.KindMap:
		af, bf := a.Fields(), b.Fields()
		for i := range af {
			if af[i].Key != bf[i].Key || !SameAfterJSON(af[i].Value, bf[i].Value) {
				return false
			}
		}
		return true
	case value.KindList:
		ai, bi := a.Items(), b.Items()
		for i := range ai {
			if !SameAfterJSON(ai[i], bi[i]) {
				return false
			}
		}
		return true
	}
	return value.Equal(a, b)
}
