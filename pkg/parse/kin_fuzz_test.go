package parse_test

import (
	"strings"
	"testing"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// kinLong is a list long enough (over 512 bytes) for JSONDocumentSharingIn to share it below the top level.
var kinLong = "[" + strings.Repeat(`{"name":"n","v":"`+strings.Repeat("x", 40)+`"},`, 12) + `{"$k":1},[[{}]]]`

// kinTexts are what kinDocument writes for "@" (kinLong), "%" (kinLong with its last item another), "~" (the start of
// kinLong, cut inside it) and "^" (kinLong with a key twice in its last item).
var kinTexts = strings.NewReplacer(
	"@", kinLong,
	"%", strings.TrimSuffix(kinLong, "[[{}]]]")+"[[{\"a\":1}]]]",
	"~", kinLong[:400],
	"^", strings.TrimSuffix(kinLong, "[[{}]]]")+`{"a":1,"a":2}]`,
)

// FuzzSharedNestedLists reads three documents (each fuzz text with "@", "%", "~" and "^" written as long lists,
// kinTexts) into one Arena with JSONDocumentSharingIn, each under the default Limits or small ones as limits' bits say,
// and checks that each reads as it reads alone (JSONDocumentSharedIn without arena): the same error text, or an equal
// value, written alike, with the same marks (value.IsDollarFree, value.MarkedFlat, value.Deeper) at every map and
// list.
func FuzzSharedNestedLists(f *testing.F) {
	for _, s := range [][3]string{
		{`{"spec":{"env":@}}`, `{"spec":{"env":@,"x":1}}`, `{"status":{"env":@}}`},
		{`{"a":{"b":{"l":@}}}`, `{"a":{"b":{"l":%}}}`, `{"a":{"c":{"l":@}}}`},
		{`{"a":{"l":@}}`, `{"a":{"l":~}}`, `{"a":{"l":@},"a":1}`},
		{`{"a":{"l":^}}`, `{"a":{"l":@}}`, `{"a":{"l":^}}`},
		{`{"a":[{"l":@}]}`, `{"a":{"l":@}}`, `{"a":[{"l":@}]}`},
		{`{"a":{"l":@}} x`, `{"a":{"l":@}}`, `{"b":{"a":{"l":@}}}`},
		{`{"l":@}`, `{"m":{"l":@}}`, `{"l":@,"m":{"l":@,"l":@}}`},
		{`{"m":{"l":@}}`, `{"a":{"b":{"l":@}}}`, `{"a":[[{"l":@}]]}`},
	} {
		for _, limits := range []uint8{0, 2, 5, 7} {
			f.Add(s[0], s[1], s[2], limits)
		}
	}
	f.Fuzz(func(t *testing.T, a, b, c string, limits uint8) {
		var arena parse.Arena
		defer arena.Reset()
		for k, text := range []string{a, b, c} {
			l := parse.Limits{}
			if limits&(1<<k) != 0 {
				l = parse.Limits{MaxDepth: 6, MaxListItems: 14}
			}
			data := []byte(kinTexts.Replace(text))
			want, werr := l.JSONDocumentSharedIn(nil, data)
			got, err := l.JSONDocumentSharingIn(&arena, data)
			if kinErr(err) != kinErr(werr) {
				t.Fatalf("document %d: error %v, alone %v\n%s", k, err, werr, data)
			}
			if err != nil {
				continue
			}
			if !value.Equal(got, want) || string(got.JSON()) != string(want.JSON()) {
				t.Fatalf("document %d: %s, alone %s", k, got.JSON(), want.JSON())
			}
			if at, ok := sameMarks(got, want, "$"); !ok {
				t.Fatalf("document %d: marks differ at %s\n%s", k, at, data)
			}
		}
	})
}

// sameMarks reports whether a and b, equal values, carry the same marks at every map and list, and where not.
func sameMarks(a, b value.Value, at string) (string, bool) {
	if value.IsDollarFree(a) != value.IsDollarFree(b) || value.MarkedFlat(a) != value.MarkedFlat(b) {
		return at, false
	}
	for _, m := range []int{0, 1, 2, 3, 6, 1000} {
		if value.Deeper(a, m) != value.Deeper(b, m) {
			return at, false
		}
	}
	switch {
	case a.IsMap():
		for i, f := range a.Fields() {
			if where, ok := sameMarks(f.Value, b.Fields()[i].Value, at+"."+f.Key); !ok {
				return where, false
			}
		}
	case a.IsList():
		for i, v := range a.Items() {
			if where, ok := sameMarks(v, b.Items()[i], at+"[]"); !ok {
				return where, false
			}
		}
	}
	return at, true
}

func kinErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
