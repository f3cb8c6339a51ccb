package strategicpatch_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	sp "k8s.io/apimachinery/pkg/util/strategicpatch"

	ply "github.com/plyproject/ply/pkg/strategicpatch"
)

// The three-way patch with overwrite reads of current only the fields modified holds, and whether a map with the
// retainKeys strategy holds another that is not null (engine's trimmedCurrent): current's other fields are checked and
// stood in for. These are current's fields modified lacks, written every way the check admits or passes on.
var _ = Describe("CreateThreeWayMergePatch with current's fields modified lacks", func() {
	const (
		recorded = `{"kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2,"strategy":{"type":"RollingUpdate"}}}`
		local    = `{"kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":3,"strategy":{"type":"RollingUpdate"}}}`
	)
	served := func(spec, rest string) string {
		return `{"kind":"Deployment","metadata":{"name":"web"` + rest + `},"spec":{"replicas":2,` + spec + `}}`
	}
	DescribeTable("give apimachinery's patch or error",
		func(current string) {
			for _, overwrite := range []bool{true, false} {
				want, werr := sp.CreateThreeWayMergePatch([]byte(recorded), []byte(local), []byte(current), schema, overwrite)
				got, gerr := ply.CreateThreeWayMergePatch([]byte(recorded), []byte(local), []byte(current), schema, overwrite)
				if werr != nil {
					Expect(gerr).To(MatchError(werr.Error()), "overwrite %v", overwrite)
					continue
				}
				Expect(gerr).NotTo(HaveOccurred(), "overwrite %v", overwrite)
				Expect(string(got)).To(Equal(string(want)), "overwrite %v", overwrite)
			}
		},
		Entry("another field of a retainKeys map (the patch retains strategy's keys)",
			served(`"strategy":{"rollingUpdate":{"maxSurge":"25%"},"type":"RollingUpdate"}`, "")),
		Entry("another field of a retainKeys map, null (no $retainKeys)",
			served(`"strategy":{"rollingUpdate":null,"type":"RollingUpdate"}`, "")),
		Entry("another field of a retainKeys map, a string",
			served(`"strategy":{"type":"RollingUpdate","x":"y"}`, "")),
		Entry("server metadata, defaults and status",
			served(`"progressDeadlineSeconds":600,"strategy":{"type":"RollingUpdate"}`,
				`,"annotations":{"a":"{\"k\":\"\\u00e9\\n\"}"},"managedFields":[{"fieldsV1":{"f:spec":{"k:{\"name\":\"a\"}":{".":{}}}}}],"uid":"u"`)+
				`,"status":{"conditions":[{"type":"Available"}],"replicas":3}`),
		Entry("white space throughout", " { \"kind\" : \"Deployment\" , \"metadata\" : { \"name\" : \"web\" , \"uid\" : \"u\" } ,"+
			" \"spec\" : { \"replicas\" : 2 , \"strategy\" : { \"type\" : \"RollingUpdate\" } } , \"status\" : { \"a\" : [ 1 , true , null ] } } "),
		Entry("a syntax error in a field modified lacks", served(`"strategy":{"type":"RollingUpdate"}`, `,"uid":tru`)),
		Entry("an unterminated string in a field modified lacks", `{"kind":"Deployment","status":{"a":"b}}`),
		Entry("an unterminated string in a field modified holds, at the end", `{"kind":"Deployment`),
		Entry("an unterminated string in a field modified holds, at the end of a map read down", `{"spec":{"replicas":"2`),
		Entry("a control byte in a string modified lacks", served(`"strategy":{"type":"RollingUpdate"}`, ",\"uid\":\"a\x01b\"")),
		Entry("a bad escape in a string modified lacks", served(`"strategy":{"type":"RollingUpdate"}`, `,"uid":"a\qb"`)),
		Entry("a number beyond float64 in a field modified lacks", served(`"strategy":{"type":"RollingUpdate"}`, `,"generation":1e400`)),
		Entry("a number of 16 digits and a fraction", served(`"strategy":{"type":"RollingUpdate"}`, `,"generation":1234567890123456,"f":0.5`)),
		Entry("a surrogate escaped alone", served(`"strategy":{"type":"RollingUpdate"}`, `,"uid":"\ud800"`)),
		Entry("invalid UTF-8", served(`"strategy":{"type":"RollingUpdate"}`, ",\"uid\":\"\xff\"")),
		Entry("a key beginning with $", served(`"strategy":{"type":"RollingUpdate"}`, `,"x":{"$patch":"replace"}`)),
		Entry("a key escaped otherwise", served(`"strategy":{"type":"RollingUpdate"}`, `,"x":{"\u0061":1,"b":2}`)),
		Entry("trailing text", served(`"strategy":{"type":"RollingUpdate"}`, "")+`x`),
		Entry("a list for a map", served(`"strategy":{"type":"RollingUpdate"}`, `,"annotations":[1]`)),
		Entry("null", `null`),
	)

	// A key twice in current fails ply's reading (strategicpatch takes the last): the check of a field modified lacks
	// passes such text on to be read whole, so that the call fails as it does on reading current whole.
	DescribeTable("fail as reading current whole fails",
		func(current string) {
			_, err := ply.CreateThreeWayMergePatch([]byte(recorded), []byte(local), []byte(current), schema, true)
			Expect(err).To(HaveOccurred())
		},
		Entry("a key twice in a map modified lacks", served(`"strategy":{"type":"RollingUpdate"}`, `,"x":{"b":1,"a":2,"b":3}`)),
		Entry("a key twice in a map modified holds", served(`"strategy":{"type":"RollingUpdate"}`, `,"uid":"a","uid":"b"`)),
		Entry("an escaped key twice", served(`"strategy":{"type":"RollingUpdate"}`, `,"x":{"k\"":1,"k\"":2}`)),
	)
})
