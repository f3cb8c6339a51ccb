package value_test

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	yaml "go.yaml.in/yaml/v3"

	"github.com/plyproject/ply/pkg/value"
)

type scalarCase struct {
	Name  string `yaml:"name"`
	Input string `yaml:"input"`
	Want  string `yaml:"want"`
}

type scalarCases struct {
	Strings []scalarCase `yaml:"strings"`
	Floats  []scalarCase `yaml:"floats"`
}

// loadScalarCases reads testdata/json.yaml at tree construction time.
func loadScalarCases() scalarCases {
	data, err := os.ReadFile("testdata/json.yaml")
	if err != nil {
		panic(err)
	}
	var c scalarCases
	if err := yaml.Unmarshal(data, &c); err != nil {
		panic(err)
	}
	if len(c.Strings) == 0 || len(c.Floats) == 0 {
		panic("testdata/json.yaml has no cases")
	}
	return c
}

// oracle is encoding/json's encoding of x.
func stdJSON(x any) string {
	b, err := json.Marshal(x)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

var _ = Describe("JSON", func() {
	cases := loadScalarCases()

	stringEntries := []TableEntry{}
	for _, c := range cases.Strings {
		stringEntries = append(stringEntries, Entry(c.Name, c))
	}
	DescribeTable("escapes strings like encoding/json",
		func(c scalarCase) {
			got := string(value.String(c.Input).JSON())
			Expect(got).To(Equal(c.Want))
			Expect(got).To(Equal(stdJSON(c.Input)), "encoding/json differs")
		},
		stringEntries,
	)

	floatEntries := []TableEntry{}
	for _, c := range cases.Floats {
		floatEntries = append(floatEntries, Entry(c.Name, c))
	}
	DescribeTable("formats floats like encoding/json",
		func(c scalarCase) {
			fl, err := strconv.ParseFloat(c.Input, 64)
			Expect(err).NotTo(HaveOccurred())
			got := string(value.Float(fl).JSON())
			Expect(got).To(Equal(c.Want))
			Expect(got).To(Equal(stdJSON(fl)), "encoding/json differs")
		},
		floatEntries,
	)

	DescribeTable("replaces invalid UTF-8 with U+FFFD",
		func(in, want string) {
			got := string(value.String(in).JSON())
			Expect(got).To(Equal(want))
			Expect(got).To(Equal(stdJSON(in)))
		},
		Entry("lone continuation byte", "a\x80b", `"a\ufffdb"`),
		Entry("0xff", "\xff", `"\ufffd"`),
		Entry("truncated sequence", "x\xe2\x82", `"x\ufffd\ufffd"`),
		Entry("surrogate half encoded", "\xed\xa0\x80", `"\ufffd\ufffd\ufffd"`),
		Entry("overlong encoding", "\xc0\xaf", `"\ufffd\ufffd"`),
		Entry("valid then invalid", "é\xffé", `"é\ufffdé"`),
	)

	It("escapes a byte to escape at any place of a string of up to 17 bytes like encoding/json", func() {
		// Strings are tested a word of eight bytes at a time, their last bytes as one word or two half words: each
		// place of each length falls in a different one.
		for n := 1; n <= 17; n++ {
			for at := range n {
				for _, c := range []byte{'"', '\\', '<', '>', '&', '\n', 0x1f, 0x7f, 0xc3} {
					b := []byte(strings.Repeat("a", n))
					b[at] = c
					Expect(string(value.String(string(b)).JSON())).To(Equal(stdJSON(string(b))), "%q", b)
				}
			}
		}
	})

	It("writes integers exactly", func() {
		for _, i := range []int64{0, -1, 42, math.MaxInt64, math.MinInt64, 1<<53 + 1} {
			Expect(string(value.Int(i).JSON())).To(Equal(strconv.FormatInt(i, 10)))
		}
	})

	It("writes null and booleans", func() {
		Expect(string(value.Null.JSON())).To(Equal("null"))
		Expect(string(value.Bool(true).JSON())).To(Equal("true"))
		Expect(string(value.Bool(false).JSON())).To(Equal("false"))
	})

	It("writes NaN and infinities, which JSON cannot carry, as null", func() {
		for _, fl := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			Expect(string(value.Float(fl).JSON())).To(Equal("null"))
		}
	})

	It("writes map keys sorted and escaped", func() {
		v := value.MustMap(
			fld("z", value.Int(1)),
			fld("<a>", value.Null),
			fld("A", value.List([]value.Value{value.Bool(true), value.MustMap()})),
			fld("m", value.MustMap(fld("y", value.String("&")), fld("x", value.List(nil)))),
		)
		want := `{"\u003ca\u003e":null,"A":[true,{}],"m":{"x":[],"y":"\u0026"},"z":1}`
		Expect(string(v.JSON())).To(Equal(want))
	})

	It("IndentJSON indents like json.MarshalIndent and ends with a newline", func() {
		v := value.MustMap(
			fld("b", value.List([]value.Value{value.Int(1), value.MustMap(fld("k", value.String("v"))), value.List(nil)})),
			fld("a", value.MustMap()),
			fld("c", value.MustMap(fld("d", value.Float(0.5)))),
		)
		x := map[string]any{
			"b": []any{int64(1), map[string]any{"k": "v"}, []any{}},
			"a": map[string]any{},
			"c": map[string]any{"d": 0.5},
		}
		for _, indent := range []string{"  ", "\t", "    "} {
			want, err := json.MarshalIndent(x, "", indent)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(v.IndentJSON(indent))).To(Equal(string(want) + "\n"))
		}
		Expect(string(value.Int(3).IndentJSON("  "))).To(Equal("3\n"))
		Expect(string(value.MustMap().IndentJSON("  "))).To(Equal("{}\n"))
		Expect(string(value.List(nil).IndentJSON("  "))).To(Equal("[]\n"))
	})

	It("IndentJSON and JSON hold the same document", func() {
		v := value.MustMap(fld("a", value.List([]value.Value{value.String("x\ny"), value.Float(1e-9)})))
		var compact bytes.Buffer
		Expect(json.Compact(&compact, v.IndentJSON("  "))).To(Succeed())
		Expect(compact.String()).To(Equal(string(v.JSON())))
	})
})
