package engine_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plyproject/ply/pkg/strategicpatch/engine"
)

// FuzzThreeWayCurrentTrimmed builds original, modified and current JSON texts from the fuzz input (threeDocs: one
// tree of fields, each held by some of the three documents, with values that may differ between them, odd JSON
// among them) and checks that ThreeWayJSON, which with overwrite reads current as trimmedCurrent writes it, gives
// the patch or the error text that reading current whole gives (ThreeWayJSONWhole, in the arena original and
// modified were read into) and that reading each document alone without arena gives (ThreeWayJSONAlone), with
// overwrite and without, under a Deployment's schema with retainKeys maps and lists merged by key, and under
// spineSchema, which fails for the keys it does not declare. A non-empty raw is current's text as it is, or, three
// texts split by NUL bytes, original's, modified's and current's.
func FuzzThreeWayCurrentTrimmed(f *testing.F) {
	for _, s := range threeWaySeeds {
		f.Add([]byte(s), "")
	}
	for _, c := range threeWayRawSeeds {
		f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8}, c)
	}
	for _, c := range threeWayTriples {
		f.Add([]byte{}, c)
	}
	f.Fuzz(func(t *testing.T, spec []byte, raw string) {
		docs := newThreeDocs(spec)
		switch parts := strings.Split(raw, "\x00"); {
		case len(parts) == 3:
			docs = [3]string{parts[0], parts[1], parts[2]}
		case raw != "":
			docs[2] = raw
		}
		original, modified, current := []byte(docs[0]), []byte(docs[1]), []byte(docs[2])
		for _, l := range []engine.Lookup{currentSchema, spineSchema} {
			for _, overwrite := range []bool{true, false} {
				got, err := engine.Options{}.ThreeWayJSON(original, modified, current, l, overwrite)
				whole, werr := engine.Options{}.ThreeWayJSONWhole(original, modified, current, l, overwrite)
				alone, aerr := engine.Options{}.ThreeWayJSONAlone(original, modified, current, l, overwrite)
				if conflictText(err) != conflictText(werr) || string(got) != string(whole) {
					trimmed, _ := engine.TrimmedCurrent(original, modified, current)
					t.Fatalf("overwrite %v: trimmed %s %v, whole %s %v\noriginal %s\nmodified %s\ncurrent  %s\ntrimmed  %s",
						overwrite, got, err, whole, werr, original, modified, current, trimmed)
				}
				if conflictText(aerr) != conflictText(werr) || string(alone) != string(whole) {
					t.Fatalf("overwrite %v: shared %s %v, alone %s %v\noriginal %s\nmodified %s\ncurrent  %s",
						overwrite, whole, werr, alone, aerr, original, modified, current)
				}
			}
		}
	})
}

// conflictText is err's text, its lines sorted and without their trailing commas where it holds a value mergepatch.ToYAMLOrError could not write as YAML
// (a key with a control byte): it dumps the Go map then, in Go's map order, which differs call after call.
func conflictText(err error) string {
	text := errText(err)
	if !strings.Contains(text, "yaml marshal failed") {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		lines[i] = strings.TrimSuffix(line, ",") // (every entry of the dump but its last ends so)
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// currentSchema is a Deployment's shape in look-ups that never fail: spec.strategy and r of strategy retainKeys,
// containers (at the top and in spec and spec.template.spec) and their env merged by name, selector replaced.
var currentSchema = func() lookup {
	env := node{sub: lookup{}, meta: engine.Meta{Strategies: []string{"merge"}, MergeKey: "name"}}
	containers := node{sub: lookup{"env": env, "ports": {sub: lookup{},
		meta: engine.Meta{Strategies: []string{"merge"}, MergeKey: "containerPort"}}},
		meta: engine.Meta{Strategies: []string{"merge"}, MergeKey: "name"}}
	retain := node{sub: lookup{"rollingUpdate": {sub: lookup{}}}, meta: engine.Meta{Strategies: []string{"retainKeys"}}}
	podSpec := lookup{"containers": containers, "r": retain}
	return lookup{
		"containers": containers,
		"r":          retain,
		"spec": {sub: lookup{
			"strategy":   retain,
			"r":          retain,
			"containers": containers,
			"selector":   {sub: lookup{}, meta: engine.Meta{Strategies: []string{"replace"}}},
			"template":   {sub: lookup{"spec": {sub: podSpec}}},
		}},
	}
}()

// threeKeys are the keys threeDocs writes: the schemas', others, keys escaped, beginning with '$', not UTF-8.
var threeKeys = []string{
	"kind", "metadata", "spec", "strategy", "type", "rollingUpdate", "containers", "name", "env", "value",
	"template", "r", "status", "x", "y", "replicas", "selector", "image", "ports", "containerPort",
	"$patch", "$retainKeys", `a\"b`, `\u0061`, `a\\`, "é", "\xff", "$setElementOrder/containers", "", "managedFields",
}

// threePaths are the keys threeKey favours at each depth: the schemas' paths.
var threePaths = [][]string{
	{"spec", "r", "containers", "metadata", "status", "kind"},
	{"strategy", "r", "containers", "template", "selector", "replicas", "name"},
	{"type", "rollingUpdate", "spec", "name", "env", "x", "containers"},
}

// threeKey is the key b chooses at depth: one of threePaths' for depth for b below 128, else one of threeKeys.
func threeKey(b, depth int) string {
	if b < 128 && depth < len(threePaths) {
		return threePaths[depth][b%len(threePaths[depth])]
	}
	return threeKeys[b%len(threeKeys)]
}

// threeScalars are the scalars threeDocs writes, JSON's and not.
var threeScalars = []string{
	`"x"`, `""`, `1`, `-5`, `0`, `true`, `false`, `null`, `"RollingUpdate"`, `"Recreate"`, `123456789012345`,
	`1234567890123456`, `-123456789012345`, `1e400`, `-0`, `0.5`, `1E2`, `01`, `"\u00e9\n"`, `"\ud83d\ude00"`,
	`"\ud800"`, "\"\xff\"", `"a\/b\t"`, `"\q"`, "\"a\x01\"", `tru`, `"unterminated`, `9007199254740993`,
	`-1.5e-7`, `"delete"`, `"replace"`, `"merge"`, `"{\"k\":1}"`, `[]`, `{}`, `{"$patch":"delete"}`, `nul`,
}

// threeDocs writes three JSON texts from a fuzz input, read byte by byte (zero once it is used up).
type threeDocs struct {
	in    []byte
	space [3]string // the white space each document writes between tokens
	extra string    // a field current's every object holds last, as a server adds them
}

// threeExtras are the fields threeDocs adds to current's objects.
var threeExtras = []string{
	"", `"zz":"s"`, `"zz":{"a":1}`, `"zz":[1]`, `"zz":1`, `"zz":null`, `"zz":"\ud800"`, `"zz":{"$p":1}`, `"zz":""`,
	`"zz":{"a":{"b":[{"c":"\u00e9"}]}}`, `"zz":1.5`, `"zz":true`,
}

// newThreeDocs returns original, modified and current as the input describes them: a top-level object of fields,
// each in some of the documents, whose values are objects, lists (of objects named as merge keys name them, long
// ones among them) or scalars that differ between the documents or not; current's objects may end with a field of
// threeExtras.
func newThreeDocs(in []byte) [3]string {
	g := &threeDocs{in: in}
	spaces := []string{"", "", " ", "\n  "}
	for k := range g.space {
		b := g.next()
		g.space[k] = spaces[b%4]
		if k == 0 {
			g.extra = threeExtras[b/4%len(threeExtras)]
		}
	}
	var out [3]strings.Builder
	g.object(&out, 7, 0)
	return [3]string{out[0].String(), out[1].String(), out[2].String()}
}

func (g *threeDocs) next() int {
	if len(g.in) == 0 {
		return 0
	}
	b := g.in[0]
	g.in = g.in[1:]
	return int(b)
}

// write writes s to the documents of mask, each with its white space after.
func (g *threeDocs) write(out *[3]strings.Builder, mask int, s string) {
	for k := range out {
		if mask&(1<<k) != 0 {
			out[k].WriteString(s)
			out[k].WriteString(g.space[k])
		}
	}
}

// object writes an object to the documents of mask, its fields each in some of them.
func (g *threeDocs) object(out *[3]strings.Builder, mask, depth int) {
	g.write(out, mask, "{")
	n := g.next() % 6
	if depth > 4 {
		n = 0
	}
	first := [3]bool{true, true, true}
	used := map[string]bool{}
	for range n {
		b := g.next()
		in := mask
		if b&0x80 != 0 {
			in &= b & 7 // a field some of the documents hold (0: none)
		}
		key := threeKey(g.next(), depth)
		if used[key] && b&0x40 == 0 {
			continue // (a key twice where b says so)
		}
		used[key] = true
		for k := range out {
			if in&(1<<k) != 0 {
				if !first[k] {
					g.write(out, 1<<k, ",")
				}
				first[k] = false
			}
		}
		g.write(out, in, `"`+key+`":`)
		g.value(out, in, depth+1)
	}
	if mask&4 != 0 && g.extra != "" {
		if !first[2] {
			g.write(out, 4, ",")
		}
		g.write(out, 4, g.extra)
	}
	g.write(out, mask, "}")
}

// value writes a value to the documents of mask: the same in each, or (by the input) a different scalar in each.
func (g *threeDocs) value(out *[3]strings.Builder, mask, depth int) {
	if mask == 0 {
		return
	}
	switch b := g.next(); {
	case b < 80:
		g.object(out, mask, depth)
	case b < 110:
		g.list(out, mask, depth, b%3 == 0)
	case b < 130 && b%8 == 7:
		g.write(out, mask, deep(60)) // (nested beyond trimmedCurrent's check)
	case b < 130:
		g.write(out, mask, deep(b%8+1))
	case b < 160:
		for k := range out {
			if mask&(1<<k) != 0 {
				g.write(out, 1<<k, threeScalars[g.next()%len(threeScalars)])
			}
		}
	default:
		g.write(out, mask, threeScalars[b%len(threeScalars)])
	}
}

// list writes a list of objects to the documents of mask, named "c<i>" and padded when long (of over 512 bytes, as
// package parse shares between documents).
func (g *threeDocs) list(out *[3]strings.Builder, mask, depth int, long bool) {
	if long {
		items := make([]string, 12+g.next()%8)
		for i := range items {
			items[i] = `{"image":"` + strings.Repeat("p", 40) + `","name":"c` + strconv.Itoa(i) + `"}`
		}
		g.write(out, mask, "["+strings.Join(items, ",")+"]")
		return
	}
	g.write(out, mask, "[")
	for i := range g.next() % 4 {
		if i > 0 {
			g.write(out, mask, ",")
		}
		if g.next()%4 == 0 {
			g.value(out, mask, depth+1)
			continue
		}
		g.write(out, mask, `{"name":"c`+strconv.Itoa(g.next()%3)+`",`)
		g.write(out, mask, `"image":`)
		g.value(out, mask, depth+1)
		g.write(out, mask, "}")
	}
	g.write(out, mask, "]")
}

// deep is a value nested n levels, alternating lists and objects.
func deep(n int) string {
	if n == 1 {
		return `[{"a":[1]}]`
	}
	return `{"d":[` + deep(n-1) + `]}`
}

// threeWaySeeds are inputs of newThreeDocs.
var threeWaySeeds = []string{
	"\x00\x00\x00\x04\x80\x01\x01\x00\x02\x80\x00\x02\x00\x03\x80\x01\x6e\x03\xa1\x80\x04\x40\x80\x02\x00\x02\x83\x08\x00\x02\x05\x86\x07\xf0\x87\x1d\x5f\x00\x84\x00\x9c\x10\x2a",
	"\x00\x00\x00\x03\x85\x02\x00\x03\x00",
	"\x00\x01\x02\x03\x04\x81\x02\x10\x02\x82\x07\x00\x05\x86\x03\xa0",
	"\x02\x00\x00\x03\x05\x82\x02\x00\x04\x87\x06\x00\x02\x83\x05\x60\x87\x0d\x60\x03\x9c\x10\x2a\x03\x80",
	"\x00\x00\x00\x04\x07\x02\x00\x03\x07\x03\x00\x02\x06\x0e\x00\x02\x07\x17\x9c\x03",
	"\x01\x02\x03\x00\x05\x87\x0d\x00\x02\x87\x14\xa0\x81\x15\x00\x00\x86\x16\x9d\x01\x02\x03\x87\x1d\x5f",
	"\x00\x00\x00\x02\x07\x02\x00\x03\x07\x06\x5d\x04\x07\x1c\x66",
}

// threeWayRawSeeds are currents written as they are (with the spec of seed 1,2,...).
var threeWayRawSeeds = []string{
	`{"kind":"Deployment","metadata":{"name":"web","uid":"u"},"spec":{"replicas":2,"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%"}}},"status":{"a":[1]}}`,
	`{"kind":"Deployment","metadata":{"uid":"\ud800"}}`,
	"{\"kind\":\"Deployment\",\"metadata\":{\"uid\":\"\xff\"}}",
	`{"kind":"Deployment","status":{"a":1,"a":2}}`,
	`{"kind":"Deployment","status":{"$patch":"delete"}}`,
	`{"kind":"Deployment","status":{"n":1e400,"m":-0,"o":12345678901234567}}`,
	` { "kind" : "Deployment" , "status" : { "a" : [ 1 , true , null ] } } `,
	`{"kind":"Deployment","status":{"a":"b}}`,
	`null`,
}

// threeWayTriples are original, modified and current, split by NUL bytes: a Deployment as kubectl apply records it,
// wants it and the server serves it (defaults, status, managedFields, a retainKeys strategy with another field, a
// long container list written alike in the three).
var threeWayTriples = func() []string {
	var items []string
	for i := range 10 {
		items = append(items, `{"env":[{"name":"A","value":"1"}],"image":"`+strings.Repeat("i", 30)+`","name":"c`+strconv.Itoa(i)+`"}`)
	}
	containers := "[" + strings.Join(items, ",") + "]"
	doc := func(replicas, strategy, extra, status string) string {
		return `{"kind":"Deployment","metadata":{"name":"web"` + extra + `},"spec":{"replicas":` + replicas +
			`,"strategy":` + strategy + `,"template":{"spec":{"containers":` + containers + `}}}` + status + `}`
	}
	served := `,"annotations":{"a":"{\"k\":\"\u00e9\n\"}"},"managedFields":[{"fieldsV1":{"f:spec":{".":{}}}}],"uid":"u"`
	return []string{
		doc("2", `{"type":"RollingUpdate"}`, "", "") + "\x00" + doc("3", `{"type":"Recreate"}`, "", "") + "\x00" +
			doc("2", `{"rollingUpdate":{"maxSurge":"25%"},"type":"RollingUpdate"}`, served, `,"status":{"replicas":2}`),
		doc("2", `{"type":"RollingUpdate"}`, "", "") + "\x00" + doc("2", `{"type":"RollingUpdate"}`, "", "") + "\x00" +
			doc("2", `{"rollingUpdate":null,"type":"RollingUpdate"}`, served, `,"status":{"a":[1e400]}`),
		`{"r":{"a":1}}` + "\x00" + `{"r":{"b":1}}` + "\x00" + `{"r":{"a":1,"c":"\ud800"}}`,
		`{"r":{"a":1}}` + "\x00" + `{"r":{"a":1}}` + "\x00" + `{"r":{"a":1,"c":"x"}}`,
		`{"r":{"a":1}}` + "\x00" + `{"r":{"b":1}}` + "\x00" + `{"r":{"a":1,"c":{"$patch":"delete"}}}`,
	}
}()
