package engine_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/strategicpatch/engine"
)

// keysText is an object's text of n keys "k000" ..., in decreasing order where !increasing, the key of index repeat
// (>= 0) written a second time at the end.
func keysText(n int, increasing bool, repeat int) string {
	keys := make([]string, 0, n+1)
	for i := range n {
		k := i
		if !increasing {
			k = n - 1 - i
		}
		keys = append(keys, fmt.Sprintf(`"k%03d":"v"`, k))
	}
	if repeat >= 0 {
		keys = append(keys, fmt.Sprintf(`"k%03d":"w"`, repeat))
	}
	return "{" + strings.Join(keys, ",") + "}"
}

// With overwrite, the drop-in reads of current the fields modified holds and stands in for the others, after checking
// the text it stands in for reads as parse and encoding/json read it: keys escaped only as \" or \\, not beginning
// with '$', each once (in increasing order, or up to 32 out of order, compared pairwise), strings' escapes JSON's but
// surrogates'. Where a check fails, current is read as it is.
var _ = DescribeTable("current's text, read down or stood in for",
	func(current string, trimmed bool) {
		original, modified := `{"data":{"k000":"x"}}`, `{"data":{"k000":"y"}}`
		_, got := engine.TrimmedCurrent([]byte(original), []byte(modified), []byte(current))
		Expect(got).To(Equal(trimmed))
	},
	Entry("a map modified holds, 32 keys in decreasing order", `{"data":`+keysText(32, false, -1)+`}`, true),
	Entry("a map modified lacks, 32 keys in decreasing order", `{"data":{},"other":`+keysText(32, false, -1)+`}`, true),
	Entry("a map modified holds, 33 keys in decreasing order", `{"data":`+keysText(33, false, -1)+`}`, false),
	Entry("a map modified lacks, 33 keys in decreasing order", `{"data":{},"other":`+keysText(33, false, -1)+`}`, false),
	Entry("a map modified lacks, 1,000 keys in increasing order", `{"data":{},"other":`+keysText(1000, true, -1)+`}`, true),
	Entry("a map modified holds, 20 keys, one twice", `{"data":`+keysText(20, false, 7)+`}`, false),
	Entry("a map modified holds, 40 keys, one twice", `{"data":`+keysText(40, false, 7)+`}`, false),
	Entry("a map modified lacks, 40 keys, one twice", `{"data":{},"other":`+keysText(40, false, 7)+`}`, false),
	Entry("a map modified lacks, 40 keys in increasing order, one twice", `{"data":{},"other":`+keysText(40, true, 39)+`}`, false),
	Entry("a key modified lacks escaped otherwise than \\\" and \\\\", `{"data":{},"other":{"a\nb":1}}`, false),
	Entry("a key modified lacks escaped as \\\" and \\\\", `{"data":{},"other":{"a\"b\\c":1}}`, true),
	Entry("a key modified lacks beginning with '$'", `{"data":{},"other":{"$patch":"x"}}`, false),
	Entry("a value modified lacks holding JSON's escapes", `{"data":{},"other":{"a":"x\n\t\u00e9\/"}}`, true),
	Entry("a value modified lacks holding a surrogate's escape", `{"data":{},"other":{"a":"\ud800"}}`, false),
)
