package patchdiff

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
)

// A case file is one YAML document: mode, target, seed, shrunk, the
// inputs of the mode (recorded, local, live; or live and patch), an
// optional expect (the class a corpus case must get), then informational
// fields that are not read back (class, diffPath, both sides' patches,
// objects and errors). A patch holding a decimal number (80.0) is given as
// JSON text too, in patchJSON, which ReadCase prefers: YAML reads 80.0 as
// the number 80, which strategicpatch reads as another Go type.

// ReadCase reads a case file written by WriteCase or by hand.
func ReadCase(path string) (Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Case{}, err
	}
	j, err := sigsyaml.YAMLToJSON(data)
	if err != nil {
		return Case{}, fmt.Errorf("%s: %w", path, err)
	}
	doc, err := jsonv.Decode(j)
	if err != nil {
		return Case{}, fmt.Errorf("%s: %w", path, err)
	}
	str := func(key string) string {
		v, _ := doc.Get(key)
		s, _ := v.AsString()
		return s
	}
	c := Case{Mode: Mode(str("mode")), Target: str("target"), Recorded: value.Null, Local: value.Null, Live: value.Null, Patch: value.Null}
	if !strings.HasPrefix(string(c.Mode), "apply-") && !strings.HasPrefix(string(c.Mode), "gen-") || c.Target == "" {
		return Case{}, fmt.Errorf("%s: a case needs mode (one of %v) and target", path, Modes)
	}
	if s := str("seed"); s != "" {
		if c.Seed, err = strconv.ParseUint(s, 0, 64); err != nil {
			return Case{}, fmt.Errorf("%s: seed: %w", path, err)
		}
	}
	if v, ok := doc.Get("shrunk"); ok {
		c.Shrunk, _ = v.AsBool()
	}
	if s := str("expect"); s != "" {
		if c.Expect, err = ParseClass(s); err != nil {
			return Case{}, fmt.Errorf("%s: expect: %w", path, err)
		}
		c.HasExpect = true
	}
	for _, d := range c.docs() {
		var name string
		switch d {
		case &c.Recorded:
			name = "recorded"
		case &c.Local:
			name = "local"
		case &c.Live:
			name = "live"
		default:
			name = "patch"
		}
		v, ok := doc.Get(name)
		if text, isText := doc.Get(name + "JSON"); isText && name == "patch" {
			// JSON text in a string: a decimal number (80.0) stays one, which YAML loses.
			s, _ := text.AsString()
			if v, err = jsonv.Decode([]byte(s)); err != nil {
				return Case{}, fmt.Errorf("%s: patchJSON: %w", path, err)
			}
			ok = true
		}
		if !ok && name != "recorded" {
			return Case{}, fmt.Errorf("%s: mode %s needs %s", path, c.Mode, name)
		}
		*d = v
	}
	return c, nil
}

// WriteCase writes o as the case file dir/name and returns its path.
func WriteCase(dir, name string, o Outcome) (string, error) {
	fields := []value.Field{
		{Key: "mode", Value: value.String(string(o.Mode))},
		{Key: "target", Value: value.String(o.Target)},
		{Key: "seed", Value: value.String("0x" + strconv.FormatUint(o.Seed, 16))},
		{Key: "shrunk", Value: value.Bool(o.Shrunk)},
		{Key: "class", Value: value.String(o.Class.String())},
	}
	c := o.Case
	for _, d := range c.docs() {
		switch d {
		case &c.Recorded:
			fields = append(fields, value.Field{Key: "recorded", Value: c.Recorded})
		case &c.Local:
			fields = append(fields, value.Field{Key: "local", Value: c.Local})
		case &c.Live:
			fields = append(fields, value.Field{Key: "live", Value: c.Live})
		default:
			fields = append(fields, value.Field{Key: "patch", Value: c.Patch})
			if jsonv.HasDecimal(c.Patch) {
				fields = append(fields, value.Field{Key: "patchJSON", Value: value.String(string(PatchText(c.Patch)))})
			}
		}
	}
	info := func(key string, v value.Value) {
		if !v.IsNull() {
			fields = append(fields, value.Field{Key: key, Value: v})
		}
	}
	info("diffPath", strOrNull(o.DiffPath))
	if o.Mode != ApplyDirectives {
		info("strategicpatchPatch", o.OraclePatch)
	}
	info("plyPatch", o.PlyPatch)
	info("strategicpatchObject", o.OracleObject)
	info("plyObject", o.PlyObject)
	if o.OracleErr != nil {
		info("strategicpatchError", value.String(o.OracleErr.Error()))
	}
	if o.PlyErr != nil {
		info("plyError", value.String(o.PlyErr.Error()))
	}
	doc, dup, ok := value.NewMap(fields)
	if !ok {
		return "", fmt.Errorf("patchdiff: duplicated case file key %q", dup)
	}
	path := filepath.Join(dir, name)
	head := "# ply patch differential case (" + o.Class.String() + "); replay with\n" +
		"# PLY_DIFF_CASE=" + path + " go test ./test/patchdiff -ginkgo.focus=Replay -ginkgo.v\n" +
		"# Read back: mode, target, seed, shrunk, expect and the inputs (recorded, local, live; or live, patch).\n"
	return path, os.WriteFile(path, append([]byte(head), doc.YAML()...), 0o644)
}

func strOrNull(s string) value.Value {
	if s == "" {
		return value.Null
	}
	return value.String(s)
}

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
	sb.WriteString(o.Class.String())
	if o.DiffPath != "" {
		sb.WriteString(" at " + o.DiffPath)
	}
	sb.WriteString(" — case " + o.ID())
	if o.Shrunk {
		sb.WriteString(" (shrunk)")
	}
	sb.WriteByte('\n')
	if file != "" {
		sb.WriteString("  file:                  " + file + "\n")
	}
	c := o.Case
	for _, d := range c.docs() {
		switch d {
		case &c.Recorded:
			sb.WriteString("  recorded:              " + compact(c.Recorded) + "\n")
		case &c.Local:
			sb.WriteString("  local:                 " + compact(c.Local) + "\n")
		case &c.Live:
			sb.WriteString("  live:                  " + compact(c.Live) + "\n")
		default:
			sb.WriteString("  patch:                 " + compact(c.Patch) + "\n")
		}
	}
	line := func(label string, v value.Value, err error) {
		switch {
		case err != nil:
			sb.WriteString("  " + label + " error: " + strings.Repeat(" ", max(0, 15-len(label))) + err.Error() + "\n")
		case !v.IsNull():
			sb.WriteString("  " + label + ": " + strings.Repeat(" ", max(0, 21-len(label))) + compact(v) + "\n")
		}
	}
	if o.Mode != ApplyDirectives {
		line("strategicpatch patch", o.OraclePatch, nil)
	}
	line("ply patch", o.PlyPatch, nil)
	line("strategicpatch", o.OracleObject, o.OracleErr)
	line("ply", o.PlyObject, o.PlyErr)
	if o.OracleConflict {
		sb.WriteString("  strategicpatch: conflict\n")
	}
	if o.PlyConflict {
		sb.WriteString("  ply: conflict\n")
	}
	return sb.String()
}
