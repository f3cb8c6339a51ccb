package parse_test

import (
	"bytes"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// expectSameAsKubectl asserts that ply reads doc as kubectl does: to an
// Equal value when kubectl reads it (to none when that is null), to an error
// when kubectl fails.
func expectSameAsKubectl(doc string) {
	GinkgoHelper()
	want, kerr := parse.KubectlReadsYAML([]byte(doc))
	got, err := parse.Documents([]byte(doc))
	if kerr != nil {
		Expect(err).To(HaveOccurred(), "kubectl rejects %q (%v), ply reads %d documents", doc, kerr, len(got))
		return
	}
	Expect(err).NotTo(HaveOccurred(), "kubectl reads %q as %s", doc, want.JSON())
	if want.IsNull() {
		// kubectl skips null documents, and so does ply.
		Expect(got).To(BeEmpty())
		return
	}
	Expect(got).To(HaveLen(1))
	Expect(parse.SameAfterJSON(got[0], want)).To(BeTrue(), "%q: ply reads %s, kubectl %s", doc, got[0].JSON(), want.JSON())
}

var _ = Describe("reading YAML like kubectl (sigs.k8s.io/yaml as the oracle)", func() {
	DescribeTable("a plain or tagged scalar, as a value, a list item and a key",
		func(scalar string) {
			expectSameAsKubectl("v: " + scalar + "\n")
			expectSameAsKubectl("- " + scalar + "\n")
			expectSameAsKubectl(scalar + ": v\n")
		},
		// YAML 1.1 booleans.
		Entry(nil, "yes"), Entry(nil, "Yes"), Entry(nil, "YES"), Entry(nil, "yEs"),
		Entry(nil, "no"), Entry(nil, "No"), Entry(nil, "NO"),
		Entry(nil, "on"), Entry(nil, "On"), Entry(nil, "ON"),
		Entry(nil, "off"), Entry(nil, "Off"), Entry(nil, "OFF"),
		Entry(nil, "y"), Entry(nil, "Y"), Entry(nil, "n"), Entry(nil, "N"),
		Entry(nil, "true"), Entry(nil, "True"), Entry(nil, "TRUE"), Entry(nil, "tRue"),
		Entry(nil, "false"), Entry(nil, "False"), Entry(nil, "FALSE"),
		// Nulls.
		Entry(nil, "~"), Entry(nil, "null"), Entry(nil, "Null"), Entry(nil, "NULL"), Entry(nil, "nULL"), Entry(nil, "''"),
		// Integers.
		Entry(nil, "0"), Entry(nil, "-0"), Entry(nil, "+12"), Entry(nil, "42"), Entry(nil, "-7"),
		Entry(nil, "0x1F"), Entry(nil, "0X1F"), Entry(nil, "-0x1F"), Entry(nil, "0x_1F"),
		Entry(nil, "0o17"), Entry(nil, "0O17"), Entry(nil, "017"), Entry(nil, "0777"), Entry(nil, "00"), Entry(nil, "08"), Entry(nil, "09.5"),
		Entry(nil, "0b101"), Entry(nil, "-0b101"), Entry(nil, "0B11"),
		Entry(nil, "1_000"), Entry(nil, "1__0"), Entry(nil, "_1"), Entry(nil, "1_0.5"),
		Entry(nil, "9223372036854775807"), Entry(nil, "-9223372036854775808"),
		Entry(nil, "9223372036854775808"), Entry(nil, "18446744073709551615"), Entry(nil, "18446744073709551616"),
		Entry(nil, "-9223372036854775809"), Entry(nil, "0xFFFFFFFFFFFFFFFF"), Entry(nil, "0x10000000000000000"),
		Entry(nil, "0020000000000000807"), Entry(nil, "20000000000000807.0"),
		// Floats.
		Entry(nil, "1.5"), Entry(nil, "1."), Entry(nil, "0."), Entry(nil, ".5"), Entry(nil, "+.5"), Entry(nil, "-.5"), Entry(nil, "-0.0"),
		Entry(nil, "1e3"), Entry(nil, "1E3"), Entry(nil, "1e+3"), Entry(nil, "1e-3"), Entry(nil, "6.02e+23"), Entry(nil, ".5e1"),
		Entry(nil, "1e400"), Entry(nil, "-1e400"), Entry(nil, "1e-400"), Entry(nil, "4.9e-324"), Entry(nil, "3.14159265358979323846"),
		Entry(nil, "1.0"), Entry(nil, "1e21"), Entry(nil, "1e"), Entry(nil, "0x1p-2"), Entry(nil, "1,000"),
		Entry(nil, ".inf"), Entry(nil, ".Inf"), Entry(nil, "-.inf"), Entry(nil, "+.INF"), Entry(nil, ".nan"), Entry(nil, ".NaN"),
		Entry(nil, ".iNf"), Entry(nil, "inf"), Entry(nil, "NaN"), Entry(nil, "+inf"), Entry(nil, "."), Entry(nil, "+"),
		// Times and versions stay strings.
		Entry(nil, "12:30"), Entry(nil, "12:30:45"), Entry(nil, "190:20:30"), Entry(nil, "2001-12-14"),
		Entry(nil, "2001-12-14t21:59:43.10-05:00"), Entry(nil, "2001-12-14 21:59:43.10 -5"), Entry(nil, "1.20.3"),
		// Strings.
		Entry(nil, "hello"), Entry(nil, "'1'"), Entry(nil, `"yes"`), Entry(nil, `"0x1F"`), Entry(nil, "500m"), Entry(nil, "128Mi"),
		Entry(nil, "<<x"), Entry(nil, "a b"), Entry(nil, `"\u00e9"`),
		// Tags.
		Entry(nil, "!!str 1"), Entry(nil, "!!str yes"), Entry(nil, `!!int "12"`), Entry(nil, "!!int 0x10"), Entry(nil, "!!float 1"),
		Entry(nil, "!!bool yes"), Entry(nil, `!!null ""`), Entry(nil, "!!binary aGVsbG8="), Entry(nil, "!!binary /w=="),
		Entry(nil, "!foo bar"), Entry(nil, "!foo 12"), Entry(nil, "!!timestamp 2001-01-01"), Entry(nil, "!!merge x"),
		Entry(nil, "!<tag:yaml.org,2002:str> 1"), Entry(nil, "!"), Entry(nil, "! 12"), Entry(nil, "! yes"),
		Entry(nil, "&a ! 1"), Entry(nil, "! &a ~"), Entry(nil, "&a 1"), Entry(nil, "&b yes!"),
		Entry(nil, "!!int 1.5"), Entry(nil, "!!float abc"), Entry(nil, "!!bool 1"), Entry(nil, "!!null x"),
		Entry(nil, "!!float 18446744073709551615"), Entry(nil, "!!int 18446744073709551616"), Entry(nil, "!!float 1e400"),
		Entry(nil, "!!timestamp yes"), Entry(nil, "!!binary ???"),
	)

	DescribeTable("a document",
		expectSameAsKubectl,
		Entry("aliases", "a: &x 1\nb: *x\nc: &m {k: v}\nd: *m\n"),
		Entry("a merge", "base: &b {a: 1, b: 2}\nm:\n  <<: *b\n  c: 3\n"),
		Entry("a merge overridden after it", "base: &b {a: 1, b: 2}\nm:\n  <<: *b\n  a: 9\n"),
		Entry("a merge of several maps", "m:\n  <<: [{a: 1}, {a: 2, b: 3}]\n"),
		Entry("a merge of aliases", "x: &x {a: 1}\ny: &y {a: 2, b: 2}\nm:\n  <<: [*x, *y]\n  c: 3\n"),
		Entry("a nested merge", "x: &x {a: 1, <<: {b: 2}}\nm: {<<: *x, c: 3}\n"),
		Entry("a quoted merge key", "m:\n  '<<': {a: 1}\n"),
		Entry("a tagged merge key", "m:\n  !!merge <<: {a: 1}\n"),
		Entry("a merge of a scalar", "m:\n  <<: 1\n"),
		Entry("a merge of a list alias", "l: &l [1]\nm:\n  <<: *l\n"),
		Entry("an alias as a key", "a: &k key\n*k : 2\n"),
		Entry("an alias of a merged list", "x: &x {a: 1}\ny: &y {b: 2}\nm:\n  <<: &l [*x, *y]\nn: *l\n"),
		Entry("an alias of a merge key", "m:\n  &k <<: {a: 1}\nn: *k\n"),
		Entry("an alias of a key used as a value", "&k key: 1\nx: *k\n"),
		Entry("a recursive alias", "a: &a [*a]\n"),
		Entry("a list key", "[1]: a\n"),
		Entry("a map key", "{a: 1}: b\n"),
		Entry("block scalars", "a: |\n  x\n  y\nb: >-\n  folded\n  text\n"),
		Entry("an empty document", "# nothing\n"),
		Entry("flow style", "{a: [1, b, {c: yes}], d: ~}\n"),
		Entry("an anchored empty value, then a key tagged !", "a: &x\n! 00: 1\n"),
		Entry("an anchored empty value, then an outer key tagged !", "a:\n  b: &x\n! 00: 1\n"),
		Entry("an anchor, and its tag ! on the next line", "a: &x\n  !\nb: 1\n"),
		Entry("an anchor, and its tag ! on the next line before a value", "a: &x\n  ! 12\nb: 1\n"),
		Entry("an anchored empty item, then an item tagged !", "- &x\n- ! 1\n"),
		Entry("two byte order marks, then a value tagged !", "\ufeff\ufeff! 12"),
		Entry("three byte order marks, then a value tagged !", "\ufeff\ufeff\ufeff! 12"),
		Entry("a byte order mark, then JSON", "\ufeff{\"a\": [1, \"b\"]}"),
		Entry("UTF-16 with a byte order mark as its first character, then !", "\xff\xfe\xff\xfe!\x00"),
		Entry("UTF-16, then two byte order marks as characters", "\xff\xfe\xff\xfe\xff\xfe"),
		Entry("the deployment fixture", string(fixture("ok/deployment.yaml"))),
	)

	It("agrees on every single-document YAML fixture", func() {
		files, err := filepath.Glob(filepath.Join("testdata", "*", "*.yaml"))
		Expect(err).NotTo(HaveOccurred())
		Expect(files).NotTo(BeEmpty())
		for _, f := range files {
			data, err := os.ReadFile(f)
			Expect(err).NotTo(HaveOccurred())
			docs, err := parse.Documents(data)
			if err != nil || len(docs) != 1 || bytes.Contains(data, []byte("\n---")) {
				continue
			}
			By(f)
			expectSameAsKubectl(string(data))
		}
	})

	DescribeTable("deliberate differences: ply rejects what kubectl reads ambiguously",
		func(doc, want string) {
			_, kerr := parse.KubectlReadsYAML([]byte(doc))
			Expect(kerr).NotTo(HaveOccurred())
			_, err := parse.Document([]byte(doc))
			Expect(err).To(MatchError(want))
		},
		Entry("a duplicate key (kubectl keeps one of them)", "a: 1\na: 2\n",
			`line 2, column 1: duplicate key "a" (first at line 1)`),
		Entry("keys equal as strings (kubectl keeps either at random)", "1: a\n\"1\": b\n",
			`line 2, column 1: duplicate key "1" (first at line 1)`),
		Entry("a merge key after a key it sets (kubectl lets the merge win, YAML the key)",
			"base: &b {a: 1}\nm:\n  a: 9\n  <<: *b\n",
			`line 4, column 3: merge key "<<" would override "a" set above it at line 3; kubectl and YAML disagree on which wins, so put "<<" before "a"`),
		Entry("two merge keys", "m:\n  <<: {a: 1}\n  <<: {b: 2}\n", `line 3, column 3: duplicate key "<<" (first at line 2)`),
	)
})

var _ = Describe("reading JSON like kubectl (encoding/json as the oracle)", func() {
	DescribeTable("a JSON document",
		func(doc string) {
			want, kerr := parse.KubectlReadsJSON([]byte(doc))
			Expect(kerr).NotTo(HaveOccurred())
			got, err := parse.Document([]byte(doc))
			Expect(err).NotTo(HaveOccurred())
			Expect(value.Equal(got, want)).To(BeTrue(), "ply reads %s, kubectl %s", got.JSON(), want.JSON())
			Expect(got.JSON()).To(Equal(want.JSON()))
		},
		Entry("numbers", `{"i": 1, "n": -0, "f": 1.0, "e": 1e2, "big": 9223372036854775808, "small": -9223372036854775808}`),
		Entry("escapes", `{"s": "\/\b\f\n\r\t\"\\ \u00e9 \ud83d\ude00 \u2028"}`),
		Entry("control characters YAML forbids", "{\"s\": \"\u007f\u0085\u009f\"}"),
		Entry("nesting", `{"a": [{"b": [[], {}]}, null, true, false]}`),
		Entry("white space", "\n\t{ \"a\" :\r\n\t[ 1 , 2 ] }\n"),
	)

	It("falls back to YAML, as kubectl does, when the input is not JSON", func() {
		got, err := parse.Document([]byte(`{"a": 1e400, b: yes,}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got.JSON())).To(Equal(`{"a":"1e400","b":true}`))
		want, kerr := parse.KubectlReadsYAML([]byte(`{"a": 1e400, b: yes,}`))
		Expect(kerr).NotTo(HaveOccurred())
		Expect(value.Equal(got, want)).To(BeTrue())
	})
})
