package openapi

import (
	"errors"
	"fmt"
	"math"

	yaml "go.yaml.in/yaml/v3"

	"github.com/plyproject/ply/pkg/value"
)

// maxValueDepth bounds the nesting of a default or extension value.
const maxValueDepth = 100

// yamlValue converts the JSON text the v3 loader keeps for a default or a
// vendor extension (read as YAML, a superset) into a value.Value: integers
// stay exact int64, mapping keys must be strings and unique, and
// anchors/aliases, infinities and NaN (which JSON cannot write) are
// rejected.
func yamlValue(text string) (value.Value, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return value.Value{}, fmt.Errorf("unreadable value: %v", err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return value.Null, nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return value.Value{}, errors.New("unreadable value: not a single YAML document")
	}
	return nodeValue(doc.Content[0], 0)
}

func nodeValue(n *yaml.Node, depth int) (value.Value, error) {
	if depth > maxValueDepth {
		return value.Value{}, fmt.Errorf("value nests deeper than %d levels", maxValueDepth)
	}
	switch n.Kind {
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return value.Null, nil
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err != nil {
				return value.Value{}, fmt.Errorf("boolean %q: %v", n.Value, err)
			}
			return value.Bool(b), nil
		case "!!int":
			var i int64
			if err := n.Decode(&i); err != nil {
				return value.Value{}, fmt.Errorf("integer %s does not fit in 64 bits", n.Value)
			}
			return value.Int(i), nil
		case "!!float":
			var f float64
			if err := n.Decode(&f); err != nil {
				return value.Value{}, fmt.Errorf("number %q: %v", n.Value, err)
			}
			if math.IsInf(f, 0) || math.IsNaN(f) {
				return value.Value{}, fmt.Errorf("number %s is not a JSON number", n.Value)
			}
			return value.Float(f), nil
		default: // !!str, and tags a JSON string can resolve to (!!timestamp)
			return value.String(n.Value), nil
		}
	case yaml.SequenceNode:
		items := make([]value.Value, len(n.Content))
		for i, c := range n.Content {
			v, err := nodeValue(c, depth+1)
			if err != nil {
				return value.Value{}, err
			}
			items[i] = v
		}
		return value.List(items), nil
	case yaml.MappingNode:
		fields := make([]value.Field, 0, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return value.Value{}, errors.New("object key is not a string")
			}
			v, err := nodeValue(n.Content[i+1], depth+1)
			if err != nil {
				return value.Value{}, err
			}
			fields = append(fields, value.Field{Key: k.Value, Value: v})
		}
		m, dup, ok := value.NewMap(fields)
		if !ok {
			return value.Value{}, fmt.Errorf("object key %q appears twice", dup)
		}
		return m, nil
	case yaml.AliasNode:
		return value.Value{}, errors.New("YAML aliases are not allowed in a schema value")
	}
	return value.Value{}, fmt.Errorf("unsupported YAML node kind %d", n.Kind)
}
