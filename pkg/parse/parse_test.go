package parse_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

func fixture(name string) []byte {
	GinkgoHelper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	Expect(err).NotTo(HaveOccurred())
	return data
}

// render writes documents as one JSON array.
func render(docs []value.Value) string {
	var sb strings.Builder
	sb.WriteByte('[')
	for i, d := range docs {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.Write(d.JSON())
	}
	sb.WriteByte(']')
	return sb.String()
}

// parseError asserts that err is a *parse.Error and returns it.
func parseError(err error) *parse.Error {
	GinkgoHelper()
	var pe *parse.Error
	Expect(errors.As(err, &pe)).To(BeTrue(), "error %v (%T) is not a *parse.Error", err, err)
	return pe
}

var _ = Describe("Documents", func() {
	DescribeTable("reads the fixtures",
		func(file, want string) {
			docs, err := parse.Documents(fixture(file))
			Expect(err).NotTo(HaveOccurred())
			Expect(render(docs)).To(Equal(want))
		},
		Entry("ints, floats, strings, bools and nulls as kubectl reads them", "ok/scalars.yaml",
			`[{"bool":true,"date":"2001-12-14","empty":null,"exponent":1000,"float":1.5,"hex":31,"int":42,"leadingDot":0.5,"negative":-7,"nullValue":null,"octal":15,"octal2":15,"offValue":false,"onValue":true,"quotedInt":"1","singleQuotedBool":"true","string":"hello world","tilde":null,"time":"12:30","underscored":1000,"version":"1.20.3"}]`),
		Entry("integers beyond int64 as float64", "ok/bigints.yaml",
			`[{"belowInt64":-9223372036854776000,"beyondInt64":9223372036854776000,"beyondUint64":18446744073709552000,"maxInt64":9223372036854775807,"maxUint64":18446744073709552000,"minInt64":-9223372036854775808,"quoted":"18446744073709551616"}]`),
		Entry("several documents, leaving out empty and null ones", "ok/multidoc.yaml",
			`[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"first"}},{"apiVersion":"v1","kind":"Secret","metadata":{"name":"second"}}]`),
		Entry("a stream of comments only", "ok/only_comments.yaml", `[]`),
		Entry("JSON with escapes YAML lacks (\\/ and surrogate pairs)", "ok/object.json",
			`[{"apiVersion":"v1","data":{"big":18446744073709552000,"emoji":"😀","exp":100,"float":2.5,"int":-12,"list":[true,false,[],{}],"null":null,"slash":"a/b","tab":"x\ty"},"kind":"ConfigMap","metadata":{"labels":{"a":"b"},"name":"json"}}]`),
		Entry("a stream of JSON values", "ok/stream.json", `[{"kind":"A"},{"kind":"B"}]`),
		Entry("a JSON array", "ok/array.json", `[[1,"two",3.5,null,{"k":[true]}]]`),
		Entry("anchors, aliases and merge keys", "ok/anchors.yaml",
			`[{"base":{"image":"nginx","ports":[80,443]},"copy":"text","extra":{"image":"other","replicas":2},"first":{"image":"nginx","name":"first","ports":[80,443]},"scalar":"text","second":{"image":"other","name":"second","ports":[80,443],"replicas":2},"third":{"image":"override","inline":true,"ports":[80,443]}}]`),
		Entry("non-string keys in the form kubectl gives them", "ok/keys.yaml",
			`[{".inf":"inf","1":"int","1.5":"float","16":"hex","1e+10":"exponent","2001-01-01":"date","3.1415927":"pi","explicit":"key","false":"bool off","quoted":"str","true":"bool"}]`),
		Entry("block scalars as strings", "ok/block_scalars.yaml",
			`[{"folded":"folded text\n","keep":"kept\n\n","literal":"line one\nline two\n","number":"123\n","strip":"stripped"}]`),
		Entry("explicit tags", "ok/tags.yaml",
			`[{"binary":"hello","bool":true,"custom":"42","float":1,"int":12,"map":{"a":1},"nothing":null,"str":"123","timestamp":"2001-12-14","verbatim":"true"}]`),
		Entry("a YAML flow map, which is not JSON", "ok/flow.yaml",
			`[{"a":1,"b":["x",true,{"c":"d"}],"e":"f","g":null,"h":null}]`),
		Entry("a Deployment", "ok/deployment.yaml",
			`[{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{"note":"on"},"labels":{"app":"web"},"name":"web"},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"args":["--port","8080"],"env":[{"name":"DEBUG","value":"false"},{"name":"RATIO","value":"0.5"}],"image":"nginx:1.25","name":"web","ports":[{"containerPort":8080,"protocol":"TCP"},{"containerPort":8080,"protocol":"UDP"}],"resources":{"limits":{"cpu":"500m","memory":"128Mi"}}}]}}}}]`),
	)

	It("keeps integers exact and apart from floats", func() {
		doc, err := parse.Document([]byte("a: 9007199254740993\nb: 2.0\nc: \"3\"\n"))
		Expect(err).NotTo(HaveOccurred())
		a, _ := doc.Get("a")
		i, ok := a.AsInt()
		Expect(ok).To(BeTrue())
		Expect(i).To(Equal(int64(9007199254740993)))
		b, _ := doc.Get("b")
		Expect(b.Kind()).To(Equal(value.KindFloat))
		c, _ := doc.Get("c")
		Expect(c.Kind()).To(Equal(value.KindString))
	})

	DescribeTable("rejects the fixtures with a located error",
		func(file, want string) {
			docs, err := parse.Documents(fixture(file))
			Expect(err).To(HaveOccurred())
			Expect(docs).To(BeNil())
			Expect(err.Error()).To(Equal(want))
			pe := parseError(err)
			Expect(pe.Line).To(BeNumerically(">", 0))
		},
		Entry("a duplicate key, naming both lines", "error/duplicate_key.yaml",
			`line 7, column 3: duplicate key "name" (first at line 3)`),
		Entry("a duplicate key in JSON", "error/duplicate_key.json",
			`line 4, column 22: duplicate key "a" (first at line 3)`),
		Entry("a duplicate key in the second document", "error/duplicate_key_multidoc.yaml",
			`document 2: line 7, column 3: duplicate key "x" (first at line 5)`),
		Entry("a duplicate key in the first of several documents", "error/duplicate_key_first_of_many.yaml",
			`document 1: line 2, column 1: duplicate key "kind" (first at line 1)`),
		Entry("keys that are equal once rendered as strings", "error/duplicate_number_key.yaml",
			`line 3, column 3: duplicate key "80" (first at line 2)`),
		Entry("bad indentation, at the offending line", "error/bad_indentation.yaml",
			`line 5: invalid YAML: did not find expected key`),
		Entry("tab indentation", "error/tab_indentation.yaml",
			`line 2: invalid YAML: found character that cannot start any token`),
		Entry("an unclosed flow list", "error/unclosed_flow.yaml",
			`line 2: invalid YAML: did not find expected ',' or ']'`),
		Entry("a bad escape", "error/bad_escape.yaml",
			`line 2: invalid YAML: found unknown escape character`),
		Entry("a syntax error in the second document", "error/syntax_in_second_doc.yaml",
			`document 2: line 4: invalid YAML: mapping values are not allowed in this context`),
		Entry("malformed JSON", "error/malformed.json",
			`line 4, column 14: invalid JSON: invalid character ',' looking for beginning of object key string`),
		Entry("truncated JSON", "error/truncated.json",
			`line 4, column 13: invalid JSON: unexpected end of input`),
		Entry("an alias bomb (billion laughs)", "error/billion_laughs.yaml",
			`line 7, column 26: aliases expand the input beyond the limit of 16777216, all its documents together (each use of an alias copies the whole value of its anchor)`),
		Entry("an alias inside its own anchor", "error/recursive_alias.yaml",
			`line 2, column 10: alias *loop refers to the map or list that contains it`),
		Entry("an alias of an anchor in another document", "error/alias_other_document.yaml",
			`document 2: line 3, column 4: alias *x refers to an anchor outside this document`),
		Entry("an unknown anchor", "error/unknown_anchor.yaml",
			`line 2: invalid YAML: unknown anchor 'nowhere' referenced`),
		Entry("a merge key after a key it overrides", "error/merge_conflict.yaml",
			`line 4, column 3: merge key "<<" would override "a" set above it at line 3; kubectl and YAML disagree on which wins, so put "<<" before "a"`),
		Entry("a merge of a list", "error/merge_not_map.yaml",
			`line 3, column 7: the value of merge key "<<" must be a map, an alias of a map, or a list of those`),
		Entry("two merge keys in one map", "error/merge_twice.yaml",
			`line 4, column 3: duplicate key "<<" (first at line 2)`),
		Entry("a list as a key", "error/complex_key.yaml",
			`line 2, column 3: a map key must be a string, number or boolean, not a list`),
		Entry("a null key", "error/null_key.yaml",
			`line 2, column 1: a map key must be a string, number or boolean, not null`),
		Entry("an integer key beyond int64", "error/big_key.yaml",
			`line 1, column 1: map key 18446744073709551615 is an integer beyond the 64-bit range`),
		Entry("infinity", "error/infinity.yaml",
			`line 2, column 10: .inf is not a finite number, which JSON cannot hold (quote it to keep it as a string)`),
		Entry("NaN", "error/nan.yaml",
			`line 1, column 3: .NaN is not a finite number, which JSON cannot hold (quote it to keep it as a string)`),
		Entry("a !!int tag on a word", "error/bad_int_tag.yaml",
			`line 1, column 11: the value is not a valid !!int`),
		Entry("bad !!binary data", "error/bad_binary.yaml",
			`line 1, column 7: !!binary value is not valid base64`),
	)

	DescribeTable("rejects bad characters at their position",
		func(input, want string) {
			_, err := parse.Documents([]byte(input))
			Expect(err).To(MatchError(want))
		},
		Entry("a control character", "a: 1\nb: x\x01y\n", "line 2, column 5: invalid YAML: control characters are not allowed"),
		Entry("invalid UTF-8", "a: 1\nbé: \xff\n", "line 2, column 5: invalid YAML: invalid leading UTF-8 octet"),
		Entry("after CR, CR LF and LS line breaks", "a: 1\rb: 2\r\nc: 3\u2028d: \x01", "line 4, column 4: invalid YAML: control characters are not allowed"),
		// Columns count after a leading byte order mark, as the YAML library's own positions do.
		Entry("invalid UTF-8 after a byte order mark", "\ufeff\xff", "line 1, column 1: invalid YAML: invalid leading UTF-8 octet"),
		Entry("a control character after a byte order mark", "\ufeff\"x\"\v", "line 1, column 4: invalid YAML: control characters are not allowed"),
	)

	Describe("encodings", func() {
		utf16 := func(s string, bigEndian bool) []byte {
			out := []byte{0xff, 0xfe}
			if bigEndian {
				out = []byte{0xfe, 0xff}
			}
			for _, u := range utf16.Encode([]rune(s)) {
				if bigEndian {
					out = append(out, byte(u>>8), byte(u))
				} else {
					out = append(out, byte(u), byte(u>>8))
				}
			}
			return out
		}
		const text = "a: ! 12\nb: yes\nc: \U0001F600\n"
		const want = `[{"a":"12","b":true,"c":"😀"}]`

		DescribeTable("reads UTF-16 and UTF-8 with a byte order mark",
			func(data []byte) {
				docs, err := parse.Documents(data)
				Expect(err).NotTo(HaveOccurred())
				Expect(render(docs)).To(Equal(want))
			},
			Entry("UTF-16LE", utf16(text, false)),
			Entry("UTF-16BE", utf16(text, true)),
			Entry("UTF-8", append([]byte("\xef\xbb\xbf"), text...)),
		)

		It("rejects broken UTF-16", func() {
			_, err := parse.Documents(append(utf16("a: 1\nb: ", false), 0x00, 0xd8, 'x', 0))
			Expect(err).To(MatchError("line 2, column 4: invalid UTF-16: unpaired surrogate"))
			_, err = parse.Documents(append(utf16("a: 1", false), 'x'))
			Expect(err).To(MatchError("line 1, column 5: invalid UTF-16: incomplete character at the end"))
		})
	})

	Describe("nesting", func() {
		deep := func(n int, open, close string) []byte {
			return []byte(strings.Repeat(open, n) + strings.Repeat(close, n))
		}
		DescribeTable("fails fast, without exhausting the stack",
			func(input []byte, want string) {
				start := time.Now()
				_, err := parse.Documents(input)
				Expect(err).To(MatchError(ContainSubstring(want)))
				parseError(err)
				Expect(time.Since(start)).To(BeNumerically("<", 5*time.Second))
			},
			Entry("a 10,000-level JSON array", deep(10000, "[", "]"),
				"line 1, column 1001: nesting is deeper than the limit of 1000 levels of maps and lists"),
			Entry("a 10,000-level JSON object", deep(10000, `{"a":`, "}"),
				"line 1, column 5001: nesting is deeper than the limit of 1000 levels of maps and lists"),
			Entry("a 1,000,000-level JSON array", deep(1000000, "[", "]"),
				"nesting is deeper than the limit of 1000 levels"),
			Entry("a 10,000-level YAML flow list", append([]byte("a: "), deep(9999, "[", "]")...),
				"line 1, column 1003: nesting is deeper than the limit of 1000 levels"),
			Entry("a 100,000-level YAML flow list", append([]byte("a: "), deep(100000, "[", "]")...),
				"line 1: invalid YAML: exceeded max depth of 10000"),
			Entry("a 5,000-level YAML block list", []byte(strings.Repeat("- ", 5000)+"x\n"),
				"line 1, column 2001: nesting is deeper than the limit of 1000 levels"),
		)

		It("accepts nesting up to the limit", func() {
			docs, err := parse.Limits{MaxDepth: 3}.Documents([]byte(`{"a": [{"b": 1}]}`))
			Expect(err).NotTo(HaveOccurred())
			Expect(render(docs)).To(Equal(`[{"a":[{"b":1}]}]`))
			_, err = parse.Limits{MaxDepth: 2}.Documents([]byte(`{"a": [{"b": 1}]}`))
			Expect(err).To(MatchError("line 1, column 8: nesting is deeper than the limit of 2 levels of maps and lists"))
		})

		It("marks each document with the limit, so that value.Deeper answers as it would by descending", func() {
			// JSON and YAML, maps and lists, nesting 1 to 6, under limits
			// from the nesting up: Deeper on the document (marked) and on
			// its rebuilt top (unmarked) agree at every limit around it.
			for nest := 1; nest <= 6; nest++ {
				var js, ys strings.Builder
				for i := range nest {
					if i%2 == 0 {
						js.WriteString(`{"a":`)
						ys.WriteString(strings.Repeat("  ", i) + "a:\n")
					} else {
						js.WriteString(`[`)
						ys.WriteString(strings.Repeat("  ", i) + "- \n")
					}
				}
				js.WriteString("1")
				for i := nest - 1; i >= 0; i-- {
					js.WriteString(map[bool]string{true: "}", false: "]"}[i%2 == 0])
				}
				for limit := nest; limit <= nest+2; limit++ {
					for _, input := range []string{js.String(), ys.String() + strings.Repeat("  ", nest) + "x\n"} {
						docs, err := parse.Limits{MaxDepth: limit}.Documents([]byte(input))
						Expect(err).NotTo(HaveOccurred(), input)
						doc := docs[0]
						plain := value.MapFromSorted(doc.Fields())
						for m := 0; m <= limit+1; m++ {
							Expect(value.Deeper(doc, m)).To(Equal(value.Deeper(plain, m)), "%q limit %d, Deeper(%d)", input, limit, m)
						}
						Expect(value.Deeper(doc, nest)).To(BeFalse())
						Expect(value.Deeper(doc, nest-1)).To(BeTrue())
					}
				}
			}
		})

		It("counts the nesting that aliases bring in", func() {
			// The map, the list of b, and the two lists of a.
			input := []byte("a: &a [[1]]\nb: [*a]\n")
			_, err := parse.Limits{MaxDepth: 4}.Documents(input)
			Expect(err).NotTo(HaveOccurred())
			_, err = parse.Limits{MaxDepth: 3}.Documents(input)
			Expect(err).To(MatchError("line 2, column 5: nesting is deeper than the limit of 3 levels of maps and lists"))
		})
	})

	Describe("limits", func() {
		It("rejects input above MaxBytes", func() {
			_, err := parse.Limits{MaxBytes: 10}.Documents([]byte("a: 12345678901"))
			Expect(err).To(MatchError("input is 14 bytes, more than the limit of 10"))
			Expect(parseError(err).Line).To(Equal(0))
		})

		It("bounds what aliases add, counting each use", func() {
			// [a, b, c] has size 7: one per node plus one per byte.
			input := []byte("a: &a [a, b, c]\nb: [*a, *a, *a]\n")
			docs, err := parse.Limits{MaxAliasExpansion: 21}.Documents(input)
			Expect(err).NotTo(HaveOccurred())
			Expect(render(docs)).To(Equal(`[{"a":["a","b","c"],"b":[["a","b","c"],["a","b","c"],["a","b","c"]]}]`))
			_, err = parse.Limits{MaxAliasExpansion: 20}.Documents(input)
			Expect(err).To(MatchError(HavePrefix("line 2, column 13: aliases expand the input beyond the limit of 20")))
		})

		It("detects a billion laughs in time linear in its size", func() {
			var sb strings.Builder
			sb.WriteString("l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
			for i := 1; i <= 30; i++ {
				prev := "*l" + strconv.Itoa(i-1)
				sb.WriteString("l" + strconv.Itoa(i) + ": &l" + strconv.Itoa(i) + " [" + strings.Repeat(prev+", ", 9) + prev + "]\n")
			}
			start := time.Now()
			_, err := parse.Documents([]byte(sb.String()))
			Expect(err).To(MatchError(ContainSubstring("aliases expand the input beyond the limit")))
			Expect(time.Since(start)).To(BeNumerically("<", 2*time.Second))
		})
	})
})

var _ = Describe("Document", func() {
	It("returns the one document", func() {
		doc, err := parse.Document([]byte("---\n# nothing\n---\nkind: A\n---\n~\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(doc.JSON())).To(Equal(`{"kind":"A"}`))
	})

	It("rejects input without a document", func() {
		_, err := parse.Document([]byte("# nothing\n---\nnull\n"))
		Expect(err).To(MatchError("no document: the input is empty or holds only comments and null documents"))
		Expect(parseError(err).NoDocument()).To(BeTrue())
	})

	DescribeTable("marks only that error as NoDocument",
		func(input string, none bool) {
			_, err := parse.Document([]byte(input))
			Expect(parseError(err).NoDocument()).To(Equal(none))
		},
		Entry("empty", "", true),
		Entry("JSON null", "null", true),
		Entry("white space", " \n ", true),
		Entry("a separator", "---\n", true),
		Entry("bad JSON", `{"a": `, false),
		Entry("two documents", "a: 1\n---\nb: 2\n", false),
		Entry("a duplicate key", `{"a": 1, "a": 2}`, false),
	)

	It("rejects a second document, naming it", func() {
		_, err := parse.Document([]byte("kind: A\n---\n\nkind: B\n"))
		Expect(err).To(MatchError("document 2: line 2: expected exactly one document, found a second one here"))
		_, err = parse.Document([]byte(`{"kind": "A"}` + "\n" + `{"kind": "B"}`))
		Expect(err).To(MatchError("document 2: line 2: expected exactly one document, found a second one here"))
	})
})

var _ = Describe("Error", func() {
	DescribeTable("renders what is known",
		func(e parse.Error, want string) {
			Expect(e.Error()).To(Equal(want))
		},
		Entry("all", parse.Error{Doc: 2, Line: 7, Column: 3, Msg: "bad"}, "document 2: line 7, column 3: bad"),
		Entry("no column", parse.Error{Doc: 3, Line: 7, Msg: "bad"}, "document 3: line 7: bad"),
		Entry("the only document", parse.Error{Doc: 1, Line: 7, Column: 3, Msg: "bad"}, "line 7, column 3: bad"),
		Entry("no position", parse.Error{Msg: "bad"}, "bad"),
	)
})
