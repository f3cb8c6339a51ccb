package value_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
)

// kubectlReadsYAML reads a YAML document the way kubectl does, as an oracle:
// sigs.k8s.io/yaml.YAMLToJSON, then encoding/json keeping integers that
// fit int64 as integers.
func kubectlReadsYAML(doc []byte) (v value.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = value.Null, fmt.Errorf("sigs.k8s.io/yaml panicked: %v", r)
		}
	}()
	j, err := sigsyaml.YAMLToJSON(doc)
	if err != nil {
		return value.Null, err
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return value.Null, err
	}
	return jsonv.FromAny(x)
}

// expectYAMLRoundTrip checks that v.YAML() reads back Equal to v with ply's
// parser and with kubectl's reader, keeping integers and floats apart, and
// the same for v inside a map and inside a list.
func expectYAMLRoundTrip(v value.Value) {
	GinkgoHelper()
	expectYAMLDocRoundTrip(v)
	expectYAMLDocRoundTrip(value.MustMap(value.Field{Key: "k", Value: v}))
	expectYAMLDocRoundTrip(value.List([]value.Value{v, value.Int(1)}))
}

func expectYAMLDocRoundTrip(v value.Value) {
	GinkgoHelper()
	out := v.YAML()
	docs, err := parse.Documents(out)
	Expect(err).NotTo(HaveOccurred(), "parse of:\n%s", out)
	if v.IsNull() {
		// A null document is left out by parse, as kubectl does.
		Expect(docs).To(BeEmpty(), "parse of:\n%s", out)
	} else {
		Expect(docs).To(HaveLen(1), "parse of:\n%s", out)
		got := docs[0]
		Expect(value.Equal(got, v)).To(BeTrue(), "parse of:\n%s\ngives %s, want %s", out, got.JSON(), v.JSON())
		Expect(sameNumberKinds(got, v)).To(BeTrue(), "parse of:\n%s\ngives %s, want %s (number kinds differ)", out, got.JSON(), v.JSON())
	}
	k, err := kubectlReadsYAML(out)
	Expect(err).NotTo(HaveOccurred(), "sigs.k8s.io/yaml of:\n%s", out)
	Expect(jsonEqual(k, v)).To(BeTrue(), "sigs.k8s.io/yaml of:\n%s\ngives %s, want %s", out, k.JSON(), v.JSON())
}

// jsonEqual is value.Equal with an integer and a float compared as float64
// values: kubectl's reader passes numbers through JSON text, where a float
// such as 2738668281809612288.0 is written in the shortest form that reads
// back as that float64 (2738668281809612300), which an int64 reader then
// takes for a different integer.
func jsonEqual(a, b value.Value) bool {
	if a.Kind() != b.Kind() {
		fa, okA := a.AsFloat()
		fb, okB := b.AsFloat()
		return okA && okB && fa == fb
	}
	switch a.Kind() {
	case value.KindMap:
		if a.Len() != b.Len() {
			return false
		}
		for i, f := range a.Fields() {
			g := b.Fields()[i]
			if f.Key != g.Key || !jsonEqual(f.Value, g.Value) {
				return false
			}
		}
		return true
	case value.KindList:
		if a.Len() != b.Len() {
			return false
		}
		for i, it := range a.Items() {
			if !jsonEqual(it, b.Items()[i]) {
				return false
			}
		}
		return true
	}
	return value.Equal(a, b)
}

// sameNumberKinds reports whether a and b (Equal values) have the same kind at
// every node, so that integers stay integers and floats stay floats.
func sameNumberKinds(a, b value.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case value.KindMap:
		for i, f := range a.Fields() {
			if !sameNumberKinds(f.Value, b.Fields()[i].Value) {
				return false
			}
		}
	case value.KindList:
		for i, it := range a.Items() {
			if !sameNumberKinds(it, b.Items()[i]) {
				return false
			}
		}
	}
	return true
}

func mustParseYAML(s string) value.Value {
	GinkgoHelper()
	v, err := parse.Document([]byte(s))
	Expect(err).NotTo(HaveOccurred())
	return v
}

var _ = Describe("YAML", func() {
	DescribeTable("writes scalars",
		func(v value.Value, want string) {
			Expect(string(v.YAML())).To(Equal(want + "\n"))
			expectYAMLRoundTrip(v)
		},
		Entry("null", value.Null, "null"),
		Entry("true", value.Bool(true), "true"),
		Entry("false", value.Bool(false), "false"),
		Entry("integer", value.Int(-42), "-42"),
		Entry("min int64", value.Int(math.MinInt64), "-9223372036854775808"),
		Entry("integral float", value.Float(3), "3.0"),
		Entry("fraction", value.Float(0.25), "0.25"),
		Entry("large float", value.Float(1e21), "1.0e+21"),
		Entry("small float", value.Float(1.5e-7), "1.5e-07"),
		Entry("negative zero", value.Float(math.Copysign(0, -1)), "-0.0"),
		Entry("plain string", value.String("nginx:1.27"), "nginx:1.27"),
		Entry("flag", value.String("--port=8080"), "--port=8080"),
		Entry("inner quotes", value.String(`it's "x"`), `it's "x"`),
		Entry("empty string", value.String(""), `""`),
		Entry("YAML 1.1 boolean", value.String("yes"), `"yes"`),
		Entry("YAML 1.1 boolean, one letter", value.String("N"), `"N"`),
		Entry("null word", value.String("Null"), `"Null"`),
		Entry("tilde", value.String("~"), `"~"`),
		Entry("number", value.String("1.0"), `"1.0"`),
		Entry("hex", value.String("0x1F"), `"0x1F"`),
		Entry("octal 1.2", value.String("0o17"), `"0o17"`),
		Entry("sexagesimal", value.String("12:30"), `"12:30"`),
		Entry("date", value.String("2001-12-14"), `"2001-12-14"`),
		Entry("infinity", value.String(".inf"), `".inf"`),
		Entry("signed", value.String("+1"), `"+1"`),
		Entry("signed, with underscores", value.String("+_1"), `"+_1"`),
		Entry("signed point, with underscores", value.String("+__.5"), `"+__.5"`),
		Entry("leading dash and space", value.String("- x"), `"- x"`),
		Entry("lone dash", value.String("-"), `"-"`),
		Entry("document marker", value.String("---"), `"---"`),
		Entry("document end", value.String("..."), `"..."`),
		Entry("comment", value.String("#x"), `"#x"`),
		Entry("inner comment", value.String("a #x"), `"a #x"`),
		Entry("colon space", value.String("a: b"), `"a: b"`),
		Entry("trailing colon", value.String("a:"), `"a:"`),
		Entry("leading space", value.String(" a"), `" a"`),
		Entry("trailing space", value.String("a "), `"a "`),
		Entry("merge key", value.String("<<"), `"<<"`),
		Entry("flow indicator", value.String("[a]"), `"[a]"`),
		Entry("alias", value.String("*a"), `"*a"`),
		Entry("multi-line", value.String("a\nb\tc"), `"a\nb\tc"`),
		Entry("backslash plain", value.String(`c:\dir "x"`), `c:\dir "x"`),
		Entry("backslash quoted", value.String("\\\n"), `"\\\n"`),
		Entry("control", value.String("a\x00\x7f"), `"a\u0000\u007f"`),
		Entry("line separator", value.String("a\u2028"), `"a\u2028"`),
		Entry("byte order mark", value.String("\ufeffa"), `"\ufeffa"`),
		Entry("non-breaking space", value.String("a\u00a0b"), `"a\u00a0b"`),
		Entry("unicode letters", value.String("日本語 é"), "日本語 é"),
		Entry("empty map", value.MustMap(), "{}"),
		Entry("empty list", value.List(nil), "[]"),
	)

	It("writes every short string of the characters YAML resolution turns on so that ply and kubectl read it back", func() {
		// Every string of one to four of these, as a list item and as a
		// key: numbers with signs, points, exponents and "_"s, comments,
		// indicators and quotes.
		const alphabet = "+-._01ex: #'!"
		s := make([]byte, 0, 4)
		var each func()
		each = func() {
			if len(s) > 0 {
				expectYAMLDocRoundTrip(value.List([]value.Value{value.String(string(s))}))
				expectYAMLDocRoundTrip(value.MustMap(value.Field{Key: string(s), Value: value.Int(1)}))
			}
			if len(s) == cap(s) {
				return
			}
			for i := range len(alphabet) {
				s = append(s, alphabet[i])
				each()
				s = s[:len(s)-1]
			}
		}
		each()
	})

	DescribeTable("writes collections in kubectl's block style",
		func(in, want string) {
			v := mustParseYAML(in)
			Expect(string(v.YAML())).To(Equal(want))
			expectYAMLRoundTrip(v)
		},
		Entry("nested maps, sorted keys",
			`{"b": {"d": 1, "c": "x"}, "a": {}}`,
			"a: {}\nb:\n  c: x\n  d: 1\n"),
		Entry("list under a key at the key's indentation",
			`{"spec": {"list": ["a", 1, null, [], {}]}}`,
			"spec:\n  list:\n  - a\n  - 1\n  - null\n  - []\n  - {}\n"),
		Entry("list of maps",
			`{"env": [{"name": "A", "value": "1"}, {"name": "B", "valueFrom": {"x": [true]}}]}`,
			"env:\n- name: A\n  value: \"1\"\n- name: B\n  valueFrom:\n    x:\n    - true\n"),
		Entry("list of lists",
			`[[1, [2, 3]], [{"a": 1, "b": 2}]]`,
			"- - 1\n  - - 2\n    - 3\n- - a: 1\n    b: 2\n"),
		Entry("quoted keys",
			`{"yes": 1, "": 2, "a: b": 3, "80": 4, "x\ny": 5}`,
			"\"\": 2\n\"80\": 4\n\"a: b\": 3\n\"x\\ny\": 5\n\"yes\": 1\n"),
	)

	It("writes keys too long to be implicit as explicit keys", func() {
		long := strings.Repeat("k", 1500)
		quoted := strings.Repeat("\n", 600) // 1200 bytes once escaped
		for _, v := range []value.Value{
			value.MustMap(value.Field{Key: long, Value: value.Int(1)}),
			value.MustMap(value.Field{Key: long, Value: value.MustMap(value.Field{Key: "a", Value: value.Int(1)})}, value.Field{Key: "z", Value: value.Int(2)}),
			value.MustMap(value.Field{Key: quoted, Value: value.List([]value.Value{value.Int(1), value.MustMap(value.Field{Key: long, Value: value.Null})})}),
			value.List([]value.Value{value.MustMap(value.Field{Key: long, Value: value.String("x")}, value.Field{Key: "a", Value: value.Int(1)})}),
		} {
			Expect(string(v.YAML())).To(ContainSubstring("? "))
			expectYAMLRoundTrip(v)
		}
	})

	It("round-trips the fixtures", func() {
		files, err := filepath.Glob(filepath.Join("testdata", "yaml", "*"))
		Expect(err).NotTo(HaveOccurred())
		Expect(files).NotTo(BeEmpty())
		for _, file := range files {
			data, err := os.ReadFile(file)
			Expect(err).NotTo(HaveOccurred())
			v, err := parse.Document(data)
			Expect(err).NotTo(HaveOccurred(), file)
			By(file)
			expectYAMLRoundTrip(v)
		}
	})

	It("round-trips random values", func() {
		r := rand.New(rand.NewPCG(1, 2))
		for range 3000 {
			expectYAMLRoundTrip(randomYAMLValue(r, 4))
		}
	})

	It("writes invalid UTF-8 as U+FFFD, as the JSON encoder does", func() {
		Expect(string(value.String("a\xffb").YAML())).To(Equal("\"a\uFFFDb\"\n"))
		Expect(value.Equal(mustParseYAML(string(value.String("a\xffb").YAML())), value.String("a\uFFFDb"))).To(BeTrue())
	})

	It("is deterministic", func() {
		v := mustParseYAML(`{"b": [1, {"d": 2, "c": 1}], "a": "s"}`)
		Expect(v.YAML()).To(Equal(v.YAML()))
		Expect(string(v.YAML())).To(Equal("a: s\nb:\n- 1\n- c: 1\n  d: 2\n"))
	})
})

// yamlTrickyStrings are texts near the boundaries of what plain scalars may
// hold.
var yamlTrickyStrings = []string{
	"", " ", "a", "yes", "No", "ON", "off", "y", "N", "~", "null", "NULL", "true", "False",
	"<<", "=", ".inf", "-.Inf", "+.NAN", ".nan", ".5", "-1", "+1", "1_000", "0o17", "0b101", "0x1F",
	"1e3", "1E3", "12:30", "2001-12-14", "2001-12-14T21:59:43Z", "---", "...", "- x", "-", "-a", "--",
	"--port=80", "?", "? x", "?x", ":", ":x", "x:", "a:b", "a: b", "a #b", "a#b", "#", "@x", "`x`",
	"%x", "!x", "!!str", "&x", "*x", "|", ">", "'", `"`, "[a]", "{a}", ",", "a,b", "a\tb", "a\nb",
	"a\r\nb", "\x00", "\x7f", "\u00a0", "\u0085", "\u2028", "\u2029", "\ufeff", "é", "日本", "😀",
	"a ", " a", `\`, `c:\dir`, "0", "-0", "+", ".", "-.", "+.", "e", "E1", "inf", "nan", "Infinity",
	"1.", "0.", ".e1", "1e", "a'b", "'a'", "\\n",
}

// yamlAlphabet is what random strings are made of.
var yamlAlphabet = []rune("ab: #-?.,[]{}&*!|>'\"%@`\\\t\n\r01eE+_~\x00\x7f\u00a0\u0085\u2028\ufeff\ue000é日😀\U0010FFFF")

func randomYAMLString(r *rand.Rand) string {
	if r.IntN(2) == 0 {
		return yamlTrickyStrings[r.IntN(len(yamlTrickyStrings))]
	}
	n := r.IntN(8)
	var sb strings.Builder
	for range n {
		sb.WriteRune(yamlAlphabet[r.IntN(len(yamlAlphabet))])
	}
	return sb.String()
}

var yamlFloats = []float64{0, 1, -1, 0.5, 1e21, 1e20, 1e-6, 1e-7, 5e-324, math.MaxFloat64, -math.MaxFloat64, 1 << 53, 123456.789}

func randomYAMLValue(r *rand.Rand, depth int) value.Value {
	kinds := 6
	if depth > 0 {
		kinds = 8
	}
	switch r.IntN(kinds) {
	case 0:
		return value.Null
	case 1:
		return value.Bool(r.IntN(2) == 0)
	case 2:
		switch r.IntN(3) {
		case 0:
			return value.Int(int64(r.Uint64()))
		case 1:
			return value.Int([]int64{0, 1, -1, math.MaxInt64, math.MinInt64}[r.IntN(5)])
		}
		return value.Int(int64(r.IntN(2000) - 1000))
	case 3:
		switch r.IntN(3) {
		case 0:
			return value.Float(yamlFloats[r.IntN(len(yamlFloats))])
		case 1:
			f := math.Float64frombits(r.Uint64())
			if math.IsNaN(f) || math.IsInf(f, 0) {
				f = 2.5
			}
			return value.Float(f)
		}
		return value.Float(r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20)))
	case 4, 5:
		return value.String(randomYAMLString(r))
	case 6:
		n := r.IntN(4)
		fields := make([]value.Field, 0, n)
		for range n {
			fields = append(fields, value.Field{Key: randomYAMLString(r), Value: randomYAMLValue(r, depth-1)})
		}
		return value.MustMap(fields...)
	}
	n := r.IntN(4)
	items := make([]value.Value, n)
	for i := range items {
		items[i] = randomYAMLValue(r, depth-1)
	}
	return value.List(items)
}
