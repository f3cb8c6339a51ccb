package difftest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
)

// caseFile is the replayable part of a case file; the informational
// fields written after it (results, errors) are ignored on reading.
type caseFile struct {
	Target    string          `json:"target"`
	Seed      string          `json:"seed"`
	Shrunk    bool            `json:"shrunk"`
	Overwrite *bool           `json:"overwrite"`
	Recorded  json.RawMessage `json:"recorded"`
	Local     json.RawMessage `json:"local"`
	Live      json.RawMessage `json:"live"`
	Expect    string          `json:"expect"`
}

// ReadCase reads a case file written by WriteCase (or by hand: target,
// overwrite, recorded, local and live are required; recorded null means a
// first apply; seed, shrunk and expect, the class the case must get, are
// optional).
func ReadCase(path string) (Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Case{}, err
	}
	j, err := sigsyaml.YAMLToJSON(data)
	if err != nil {
		return Case{}, fmt.Errorf("%s: %w", path, err)
	}
	var f caseFile
	if err := json.Unmarshal(j, &f); err != nil {
		return Case{}, fmt.Errorf("%s: %w", path, err)
	}
	if f.Target == "" || f.Overwrite == nil || f.Local == nil || f.Live == nil {
		return Case{}, fmt.Errorf("%s: a case needs target, overwrite, recorded, local and live", path)
	}
	c := Case{Target: f.Target, Overwrite: *f.Overwrite, Shrunk: f.Shrunk}
	if f.Expect != "" {
		i := slices.Index(classNames[:], f.Expect)
		if i < 0 {
			return Case{}, fmt.Errorf("%s: expect: unknown class %q, want one of %v", path, f.Expect, classNames)
		}
		c.Expect, c.HasExpect = Class(i), true
	}
	if f.Seed != "" {
		if c.Seed, err = strconv.ParseUint(f.Seed, 0, 64); err != nil {
			return Case{}, fmt.Errorf("%s: seed: %w", path, err)
		}
	}
	for _, d := range []struct {
		name string
		raw  json.RawMessage
		dst  *value.Value
	}{{"recorded", f.Recorded, &c.Recorded}, {"local", f.Local, &c.Local}, {"live", f.Live, &c.Live}} {
		if d.raw == nil {
			*d.dst = value.Null
			continue
		}
		v, err := jsonv.Decode(d.raw)
		if err != nil {
			return Case{}, fmt.Errorf("%s: %s: %w", path, d.name, err)
		}
		*d.dst = v
	}
	return c, nil
}

// WriteCase writes o as a YAML case file named name in dir and returns its
// path. The file holds the inputs first, then, for the reader, the class,
// strategicpatch's patch and result and ply's result and errors.
func WriteCase(dir, name string, o Outcome) (string, error) {
	doc := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v *yaml.Node) *yaml.Node {
		k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}
		doc.Content = append(doc.Content, k, v)
		return k
	}
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	add("target", str(o.Target))
	add("seed", str("0x"+strconv.FormatUint(o.Seed, 16)))
	if o.Shrunk {
		add("shrunk", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	}
	add("overwrite", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(o.Overwrite)})
	add("recorded", node(o.Recorded))
	add("local", node(o.Local))
	add("live", node(o.Live))
	doc.Content[0].HeadComment = "ply differential test case (" + o.Class.String() + "), replay with\n" +
		"PLY_DIFF_CASE=" + filepath.Join(dir, name) + " go test ./test/differential -ginkgo.focus=Replay -ginkgo.v\n" +
		"Only target, seed, shrunk, overwrite, recorded (null = first apply), local and live are read back.\n" +
		"seed is the generator seed of the original case; a shrunk case was reduced from it."
	add("class", str(o.Class.String())).HeadComment = "--- informational, ignored on replay ---"
	if o.OracleNormalized {
		add("strategicpatchResultNormalized", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	}
	if o.DiffPath != "" {
		add("diffPath", str(o.DiffPath))
	}
	if o.OraclePatch != nil {
		if p, err := jsonv.Decode(o.OraclePatch); err == nil {
			add("strategicpatchPatch", node(p))
		}
	}
	if o.OracleConflict {
		add("strategicpatchConflict", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
	}
	if o.OracleErr != nil {
		add("strategicpatchError", str(o.OracleErr.Error()))
	} else if !o.OracleConflict {
		add("strategicpatchResult", node(o.OracleObject))
	}
	if o.PlyErr != nil {
		add("plyError", str(o.PlyErr.Error()))
	} else {
		add("plyResult", node(o.PlyObject))
	}
	out, err := yaml.Marshal(doc)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, name)
	return path, os.WriteFile(path, out, 0o644)
}

// node converts v to a YAML node; scalars carry explicit tags so that
// strings such as "1" or "true" stay strings.
func node(v value.Value) *yaml.Node {
	switch v.Kind() {
	case value.KindNull:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case value.KindBool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: string(v.JSON())}
	case value.KindInt:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: string(v.JSON())}
	case value.KindFloat:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: string(v.JSON())}
	case value.KindString:
		s, _ := v.AsString()
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	case value.KindList:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, it := range v.Items() {
			n.Content = append(n.Content, node(it))
		}
		return n
	}
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, f := range v.Fields() {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: f.Key}, node(f.Value))
	}
	return n
}

// compact renders v as compact JSON for reports ("(none)" for null).
func compact(v value.Value) string {
	if v.IsNull() {
		return "null"
	}
	return string(v.JSON())
}

// Report renders an outcome for a failure message; file is the case file
// holding it ("" when none was written).
func Report(o Outcome, file string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s", o.Class)
	if o.DiffPath != "" {
		fmt.Fprintf(&sb, " at %s", o.DiffPath)
	}
	fmt.Fprintf(&sb, " — target %s, case %s", o.Target, o.ID())
	if o.Shrunk {
		sb.WriteString(" (shrunk)")
	}
	fmt.Fprintf(&sb, ", overwrite=%t, first apply=%t\n", o.Overwrite, o.FirstApply())
	if file != "" {
		fmt.Fprintf(&sb, "  file:     %s\n", file)
	}
	fmt.Fprintf(&sb, "  recorded: %s\n", compact(o.Recorded))
	fmt.Fprintf(&sb, "  local:    %s\n", compact(o.Local))
	fmt.Fprintf(&sb, "  live:     %s\n", compact(o.Live))
	if o.OraclePatch != nil {
		fmt.Fprintf(&sb, "  strategicpatch patch:  %s\n", o.OraclePatch)
	}
	switch {
	case o.OracleErr != nil:
		fmt.Fprintf(&sb, "  strategicpatch error:  %v\n", o.OracleErr)
	case o.OracleConflict:
		sb.WriteString("  strategicpatch: conflict\n")
	case o.OracleNormalized:
		fmt.Fprintf(&sb, "  strategicpatch result: %s (normalized: nulls and directives dropped)\n", compact(o.OracleObject))
	default:
		fmt.Fprintf(&sb, "  strategicpatch result: %s\n", compact(o.OracleObject))
	}
	if o.PlyErr != nil {
		fmt.Fprintf(&sb, "  ply error:             %v\n", o.PlyErr)
	} else {
		fmt.Fprintf(&sb, "  ply result:            %s\n", compact(o.PlyObject))
	}
	return sb.String()
}
