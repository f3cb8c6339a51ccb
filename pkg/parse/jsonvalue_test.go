package parse_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
)

var _ = Describe("JSONValueSharedIn", func() {
	DescribeTable("reads the one value at an offset and gives the offset after it, leaving what follows",
		func(text string, start int, want string, wantEnd int) {
			var a parse.Arena
			defer a.Reset()
			v, end, err := parse.Limits{}.JSONValueSharedIn(&a, []byte(text), start)
			if want == "" {
				Expect(err).To(HaveOccurred())
				Expect(err).To(BeAssignableToTypeOf(&parse.Error{}))
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(string(v.JSON())).To(Equal(want))
			Expect(end).To(Equal(wantEnd))
		},
		Entry("an object among fields", `{"a":{"c": [1, "x"], "b":2},"d":3}`, 5, `{"b":2,"c":[1,"x"]}`, 27),
		Entry("a list followed by a brace", `{"a":[1,2]}`, 5, `[1,2]`, 10),
		Entry("a string with an escape", `["a\"b",1]`, 1, `"a\"b"`, 7),
		Entry("a number before a comma", `[12,3]`, 1, `12`, 3),
		Entry("a literal before white space", `[true ]`, 1, `true`, 5),
		Entry("white space before the value", `[  null]`, 1, `null`, 7),
		Entry("text that is not JSON", `{"a":tru}`, 5, ``, 0),
		Entry("an object left open", `{"a":{"b":1`, 5, ``, 0),
		Entry("an offset past the text", `[1]`, 3, ``, 0),
	)

	It("applies MaxDepth to the value as read from its offset", func() {
		text := []byte(`{"a":` + strings.Repeat("[", 3) + strings.Repeat("]", 3) + `}`)
		_, _, err := parse.Limits{MaxDepth: 3}.JSONValueSharedIn(nil, text, 5)
		Expect(err).NotTo(HaveOccurred())
		_, _, err = parse.Limits{MaxDepth: 2}.JSONValueSharedIn(nil, text, 5)
		Expect(err).To(MatchError(ContainSubstring("deeper than the limit of 2")))
	})
})
