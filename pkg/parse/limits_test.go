package parse_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
)

// allocated returns the bytes f allocates on the heap (runtime.MemStats
// TotalAlloc, which counts every allocation whether freed or not).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// list renders a list of n items of text: a JSON array, a YAML flow list
// or a YAML block list.
func list(n int, item, style string) []byte {
	var b bytes.Buffer
	switch style {
	case "json", "flow":
		if style == "flow" {
			b.WriteString("items: ")
		}
		b.WriteByte('[')
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(item)
		}
		b.WriteString("]\n")
	case "block":
		b.WriteString("items:\n")
		for range n {
			b.WriteString("- " + item + "\n")
		}
	}
	return b.Bytes()
}

var _ = Describe("Limits", func() {
	It("has the documented defaults", func() {
		Expect(parse.DefaultMaxBytes).To(Equal(32 << 20))
		Expect(parse.DefaultMaxDepth).To(Equal(1000))
		Expect(parse.DefaultMaxAliasExpansion).To(Equal(16 << 20))
		Expect(parse.DefaultMaxListItems).To(Equal(1_000_000))
	})

	Describe("MaxBytes", func() {
		It("rejects a 100 MB input at once, without copying it", func() {
			big := bytes.Repeat([]byte("a: b\n"), 20_000_000) // 100,000,000 bytes
			var err error
			var took time.Duration
			alloc := allocated(func() {
				start := time.Now()
				_, err = parse.Documents(big)
				took = time.Since(start)
			})
			Expect(err).To(MatchError("input is 100000000 bytes, more than the limit of 33554432"))
			Expect(parseError(err).Doc).To(Equal(0))
			Expect(took).To(BeNumerically("<", 100*time.Millisecond))
			// Not one copy of the document: the error message only.
			Expect(alloc).To(BeNumerically("<", 64<<10))
			AddReportEntry("reject 100 MB", took.String()+", "+strconv.FormatUint(alloc, 10)+" bytes allocated")
		})

		It("accepts input at the limit and rejects one byte more", func() {
			input := []byte(`{"a": "` + strings.Repeat("x", 100) + `"}`)
			_, err := parse.Limits{MaxBytes: len(input)}.Documents(input)
			Expect(err).NotTo(HaveOccurred())
			_, err = parse.Limits{MaxBytes: len(input) - 1}.Documents(input)
			Expect(err).To(MatchError("input is 109 bytes, more than the limit of 108"))
		})
	})

	Describe("MaxListItems", func() {
		DescribeTable("accepts a list at the limit and rejects one item more, at that item",
			func(style string, line, column int) {
				lim := parse.Limits{MaxListItems: 3}
				_, err := lim.Documents(list(3, "1", style))
				Expect(err).NotTo(HaveOccurred())
				_, err = lim.Documents(list(4, "1", style))
				Expect(err).To(MatchError("line " + strconv.Itoa(line) + ", column " + strconv.Itoa(column) + ": list has more than the limit of 3 items"))
			},
			Entry("a JSON array", "json", 1, 11),
			Entry("a YAML flow list", "flow", 1, 18),
			Entry("a YAML block list", "block", 5, 3),
		)

		It("rejects a nested JSON list beyond the limit, naming the document", func() {
			input := []byte("{\"a\": 1}\n{\"spec\": {\"ports\": [\n 1,\n 2,\n 3]}}\n")
			_, err := parse.Limits{MaxListItems: 2}.Documents(input)
			Expect(err).To(MatchError("document 2: line 5, column 2: list has more than the limit of 2 items"))
		})

		It("counts the items of an aliased list where it is used", func() {
			input := []byte("a: &a [1, 2]\nb: [*a, *a]\nc: [*a, 3, 4]\n")
			_, err := parse.Limits{MaxListItems: 3}.Documents(input)
			Expect(err).NotTo(HaveOccurred())
			_, err = parse.Limits{MaxListItems: 2}.Documents(input)
			Expect(err).To(MatchError("line 3, column 12: list has more than the limit of 2 items"))
		})

		It("bounds the maps a merge key lists", func() {
			input := []byte("a: &a {x: 1}\nb: &b {y: 2}\nc: &c {z: 3}\nd:\n  <<: [*a, *b, *c]\n")
			_, err := parse.Limits{MaxListItems: 3}.Documents(input)
			Expect(err).NotTo(HaveOccurred())
			_, err = parse.Limits{MaxListItems: 2}.Documents(input)
			Expect(err).To(MatchError("line 5, column 16: list has more than the limit of 2 items"))
		})

		DescribeTable("rejects a list beyond the default limit fast",
			func(style string, within time.Duration) {
				input := list(parse.DefaultMaxListItems+1, "0", style)
				var err error
				var took time.Duration
				alloc := allocated(func() {
					start := time.Now()
					_, err = parse.Documents(input)
					took = time.Since(start)
				})
				Expect(err).To(MatchError(ContainSubstring("list has more than the limit of 1000000 items")))
				Expect(took).To(BeNumerically("<", within))
				AddReportEntry("reject a list of 1,000,001 items ("+style+")",
					took.String()+", "+strconv.FormatUint(alloc>>20, 10)+" MiB allocated for "+strconv.Itoa(len(input)>>20)+" MiB of input")
			},
			// About 0.1 s (1 s under the race detector). YAML is left out:
			// the YAML library builds the whole node tree of a document
			// before it is converted, about 2 s for this list (10 s under
			// the race detector); docs/limits.md has the figures.
			Entry("JSON", "json", 5*time.Second),
		)
	})

	Describe("MaxYAMLSeparators", func() {
		It("has the documented default", func() {
			Expect(parse.DefaultMaxYAMLSeparators).To(Equal(500_000))
		})

		DescribeTable("refuses a YAML document of millions of tiny items before the YAML library builds it",
			func(style string) {
				input := list(parse.DefaultMaxListItems+1, "0", style) // 2-4 MiB
				var err error
				var took time.Duration
				alloc := allocated(func() {
					start := time.Now()
					_, err = parse.Documents(input)
					took = time.Since(start)
				})
				Expect(err).To(MatchError(MatchRegexp(`^line 1: the YAML document starting here has \d+ line breaks and flow separators \(, \[ \{\), more than the limit of 500000`)))
				Expect(took).To(BeNumerically("<", 200*time.Millisecond))
				Expect(alloc).To(BeNumerically("<", 1<<20), "the input is only counted")
				AddReportEntry("refuse 1,000,001 YAML items ("+style+")", took.String()+", "+strconv.FormatUint(alloc, 10)+" bytes allocated")
			},
			Entry("flow list", "flow"),
			Entry("block list", "block"),
		)

		It("counts per document of a stream, naming the line the document starts on", func() {
			small := "a: [1, 2]\n"
			big := string(list(10, "0", "block"))
			input := []byte(small + "---\n" + small + "---\n" + big)
			_, err := parse.Limits{MaxYAMLSeparators: 11}.Documents(input)
			Expect(err).To(MatchError(HavePrefix("line 4: the YAML document starting here has 12 line breaks")))
			docs, err := parse.Limits{MaxYAMLSeparators: 12}.Documents(input)
			Expect(err).NotTo(HaveOccurred())
			Expect(docs).To(HaveLen(3))
		})

		It("does not bound JSON, which ply's own scanner reads", func() {
			docs, err := parse.Limits{MaxYAMLSeparators: 1, MaxYAMLStreamSeparators: 1}.Documents([]byte(`{"a": [1, 2, 3]}`))
			Expect(err).NotTo(HaveOccurred())
			Expect(docs).To(HaveLen(1))
		})
	})

	Describe("MaxYAMLStreamSeparators", func() {
		It("has the documented default", func() {
			Expect(parse.DefaultMaxYAMLStreamSeparators).To(Equal(2_000_000))
		})

		It("refuses a stream of documents each just under the per-document limit before building any", func() {
			// Five documents of 499,990 items (499,992 separators with the "---"
			// line), each admitted alone: the
			// YAML library would take seconds and a gigabyte for them all.
			doc := list(499_990, "0", "block")
			var input bytes.Buffer
			for range 5 {
				input.WriteString("---\n")
				input.Write(doc)
			}
			var err error
			var took time.Duration
			alloc := allocated(func() {
				start := time.Now()
				_, err = parse.Documents(input.Bytes())
				took = time.Since(start)
			})
			Expect(err).To(MatchError(MatchRegexp(`^line 1999969: the YAML stream has 2499960 line breaks and flow separators \(, \[ \{\) up to the end of the document starting here, more than the limit of 2000000 for a whole input`)))
			Expect(took).To(BeNumerically("<", 200*time.Millisecond))
			Expect(alloc).To(BeNumerically("<", 1<<20), "the input is only counted")
			AddReportEntry("refuse 5 YAML documents of 499,990 items", took.String()+", "+strconv.FormatUint(alloc, 10)+" bytes allocated")
		})

		It("counts all documents together, up to the limit exactly", func() {
			input := []byte("a: [1, 2]\n---\nb: [1, 2]\n---\nc: 1\n")
			// 3 + 4 + 2: a "---" line counts with the document it starts.
			_, err := parse.Limits{MaxYAMLStreamSeparators: 8}.Documents(input)
			Expect(err).To(MatchError(HavePrefix("line 4: the YAML stream has 9 line breaks")))
			docs, err := parse.Limits{MaxYAMLStreamSeparators: 9}.Documents(input)
			Expect(err).NotTo(HaveOccurred())
			Expect(docs).To(HaveLen(3))
		})
	})

	Describe("nesting", func() {
		DescribeTable("rejects 10,000 levels fast, at the level beyond the limit",
			func(input []byte, want string) {
				start := time.Now()
				_, err := parse.Documents(input)
				took := time.Since(start)
				Expect(err).To(MatchError(want))
				Expect(took).To(BeNumerically("<", 2*time.Second))
				AddReportEntry("reject 10,000 levels", took.String())
			},
			Entry("JSON arrays and objects", []byte(strings.Repeat(`[{"a":`, 5000)+strings.Repeat("}]", 5000)),
				"line 1, column 3001: nesting is deeper than the limit of 1000 levels of maps and lists"),
			Entry("YAML flow maps", []byte("a: "+strings.Repeat("{a: ", 9999)+strings.Repeat("}", 9999)),
				"line 1, column 4000: nesting is deeper than the limit of 1000 levels of maps and lists"),
		)
	})

	Describe("MaxAliasExpansion", func() {
		It("bounds the aliases of all documents of an input together: the spread-alias input fails at its second document", func() {
			one := fixture("spread_alias.yaml")
			_, err := parse.Documents(one)
			Expect(err).NotTo(HaveOccurred(), "one document is within the bound")
			_, err = parse.Documents(spreadAliases())
			Expect(err).To(MatchError("document 2: line 34, column 22: aliases expand the input beyond the limit of 16777216, " +
				"all its documents together (each use of an alias copies the whole value of its anchor)"))
			AddReportEntry("spread-alias input", strconv.Itoa(len(spreadAliases()))+" bytes; BenchmarkSpreadAliases measures the refusal")
		})

		It("reads a stream of many documents whose aliases stay within the bound, expanded", func() {
			doc := "kind: Deployment\nmetadata: {labels: &l {app: web, tier: front}}\nspec: {selector: {matchLabels: *l}, template: {metadata: {labels: *l}}}\n"
			docs, err := parse.Documents([]byte(strings.Repeat(doc+"---\n", 2000)))
			Expect(err).NotTo(HaveOccurred())
			Expect(docs).To(HaveLen(2000))
			Expect(string(docs[1999].JSON())).To(Equal(`{"kind":"Deployment","metadata":{"labels":{"app":"web","tier":"front"}},` +
				`"spec":{"selector":{"matchLabels":{"app":"web","tier":"front"}},"template":{"metadata":{"labels":{"app":"web","tier":"front"}}}}}`))
		})

		It("rejects the classic billion laughs with little memory", func() {
			// Nine levels of ten aliases each: 10^9 "lol"s once expanded.
			var sb strings.Builder
			sb.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
			prev := "a"
			for _, name := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
				sb.WriteString(name + ": &" + name + " [" + strings.Repeat("*"+prev+",", 8) + "*" + prev + "]\n")
				prev = name
			}
			var err error
			var took time.Duration
			alloc := allocated(func() {
				start := time.Now()
				_, err = parse.Documents([]byte(sb.String()))
				took = time.Since(start)
			})
			Expect(err).To(MatchError(ContainSubstring("aliases expand the input beyond the limit of 16777216")))
			Expect(parseError(err).Line).To(BeNumerically(">", 1))
			Expect(took).To(BeNumerically("<", time.Second))
			Expect(alloc).To(BeNumerically("<", 1<<20))
			AddReportEntry("reject billion laughs", took.String()+", "+strconv.FormatUint(alloc, 10)+" bytes allocated")
		})
	})
})

// spreadAliases is the spread-alias input of issue 37: 400 copies of
// testdata/spread_alias.yaml, each within the alias bound alone.
// It panics when the fixture cannot be read (it serves benchmarks too).
func spreadAliases() []byte {
	one, err := os.ReadFile(filepath.Join("testdata", "spread_alias.yaml"))
	if err != nil {
		panic(err)
	}
	return []byte(strings.Repeat(string(one)+"---\n", 400))
}
