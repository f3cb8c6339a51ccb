package visitors_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/strategy"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/pkg/visitors"
)

// containerType names the type the repeats below are items of: a Pod's containers, merged by name.
const containerType = "io.k8s.api.core.v1.Container"

// ontoAgrees decides patch item p (JSON) collated alone, as Phase 1 collates a repeat, merged onto the member outcome v
// (JSON) by visitors.Ordered, and compares it with p applied to v as the front-end applies a patch (pkg/patch, every
// gate off): the result and the failure must be the same wherever the merge takes the repeat. It returns whether it did;
// a p or v that is not an object, or a p holding a list repeating a key of its own, is no case (false, nil).
func ontoAgrees(vDoc, pDoc []byte) (fits bool, mismatch string) {
	limits := parse.Limits{MaxBytes: 1 << 14}
	v, err := limits.Document(vDoc)
	if err != nil || !v.IsMap() {
		return false, ""
	}
	p, err := limits.Document(pDoc)
	if err != nil || !p.IsMap() {
		return false, ""
	}
	s, err := openapi.Default()
	if err != nil {
		return false, err.Error()
	}
	t, ok := s.Kubectl().ByName(containerType) // (the schema as every gate off reads it)
	if !ok {
		return false, "no type " + containerType
	}
	gates := features.Kubectl()
	repeat, err := collate.Collate(elements.Values{Local: p, HasLocal: true}, t,
		collate.Options{Patch: true, MaxDepth: parse.DefaultMaxDepth, Gates: gates})
	if err != nil || holdsRepeats(repeat) {
		return false, "" // (Phase 2 applies such a repeat to a member's outcome by the front-end)
	}
	w := strategy.New(strategy.Options{Patch: true, Gates: gates, Ordering: order.OrderKubectl})
	got, fits, err := visitors.Onto(visitors.Ordered{Walker: w, Ordering: order.OrderKubectl, Patch: true}, repeat, v)
	if !fits {
		return false, ""
	}
	want, wantErr := patch.Apply(v, p, patch.Options{Schema: s, TypeName: containerType, Gates: gates})
	switch {
	case (err == nil) != (wantErr == nil):
		return true, "merged onto v: " + errString(err) + "; applied to v: " + errString(wantErr)
	case err == nil && !value.Equal(got.Value, want):
		return true, "merged onto v: " + string(got.Value.JSON()) + "; applied to v: " + string(want.JSON())
	}
	return true, ""
}

func errString(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

// holdsRepeats reports whether a list of e's tree names a key twice.
func holdsRepeats(e elements.Element) bool {
	switch e := e.(type) {
	case *elements.MapElement:
		for _, f := range e.Fields {
			if holdsRepeats(f.Element) {
				return true
			}
		}
	case *elements.ListElement:
		if len(e.Repeats) > 0 {
			return true
		}
		for _, it := range e.Items {
			if holdsRepeats(it.Element) {
				return true
			}
		}
	}
	return false
}

var _ = Describe("a repeat of a patch's list merged onto its member's outcome (repeat.go)", func() {
	DescribeTable("gives what applying it to that outcome gives, where it takes the repeat",
		func(v, p string, fits bool) {
			got, mismatch := ontoAgrees([]byte(v), []byte(p))
			Expect(mismatch).To(BeEmpty())
			Expect(got).To(Equal(fits))
		},
		Entry("fields decided whole: set, nulled, a list without merge strategy",
			`{"name":"c","image":"i","args":["a"],"tty":true}`, `{"name":"c","image":"j","tty":null,"command":["x"],"args":["b"]}`, true),
		Entry("maps merging onto the outcome's, a map the outcome lacks, a field only the outcome has",
			`{"name":"c","resources":{"limits":{"cpu":"1"}},"workingDir":"w"}`,
			`{"name":"c","resources":{"limits":{"memory":"1Gi","cpu":null},"requests":{"cpu":"1"}},"securityContext":{"runAsUser":1}}`, true),
		Entry("a map where the outcome holds another kind",
			`{"name":"c","resources":"odd"}`, `{"name":"c","resources":{"limits":{"cpu":"1"}}}`, true),
		Entry("a merged list the outcome lacks",
			`{"name":"c"}`, `{"name":"c","env":[{"name":"A","value":"1"}],"ports":[{"containerPort":80}]}`, true),
		Entry("live's null kept",
			`{"name":"c","image":null}`, `{"name":"c","tty":true}`, true),
		Entry("\"$retainKeys\" clearing the outcome's fields it does not name, at the item and in a map",
			`{"name":"c","image":"i","workingDir":"w","resources":{"limits":{"cpu":"1"},"requests":{"cpu":"1"}}}`,
			`{"name":"c","$retainKeys":["name","resources","tty"],"tty":true,"resources":{"$retainKeys":["limits"],"limits":{"memory":"1"}}}`, true),
		Entry("\"$retainKeys\" of a map the outcome holds as another kind",
			`{"name":"c","resources":"odd"}`, `{"name":"c","resources":{"$retainKeys":["limits"],"limits":{"memory":"1"}}}`, true),
		Entry("a merged list the outcome holds: not taken",
			`{"name":"c","env":[{"name":"A"}]}`, `{"name":"c","env":[{"name":"B"}]}`, false),
		Entry("a \"$patch: replace\" map the outcome holds: not taken",
			`{"name":"c","resources":{"limits":{"cpu":"1"}}}`, `{"name":"c","resources":{"$patch":"replace","requests":{"cpu":"2"}}}`, false),
		Entry("a \"$patch: delete\" map the outcome holds (without live, a null): not taken",
			`{"name":"c","resources":{"limits":{"cpu":"1"}}}`, `{"name":"c","resources":{"$patch":"delete"}}`, false),
		Entry("a \"$patch: delete\" map the outcome lacks",
			`{"name":"c"}`, `{"name":"c","resources":{"$patch":"delete"}}`, true),
		Entry("\"$setElementOrder\" of a list the outcome holds: not taken",
			`{"name":"c","env":[{"name":"A"},{"name":"B"}]}`, `{"name":"c","$setElementOrder/env":[{"name":"B"},{"name":"A"}]}`, false),
	)
})

// FuzzOnto checks ontoAgrees on arbitrary outcomes and repeats of a Pod's containers.
func FuzzOnto(f *testing.F) {
	for _, c := range [][2]string{
		{`{"name":"c","image":"i","args":["a"],"tty":true}`, `{"name":"c","image":"j","tty":null,"command":["x"]}`},
		{`{"name":"c","resources":{"limits":{"cpu":"1"}}}`, `{"name":"c","resources":{"limits":{"memory":"1Gi","cpu":null}},"securityContext":{"runAsUser":1}}`},
		{`{"name":"c","resources":"odd","env":[]}`, `{"name":"c","resources":{"limits":{"cpu":"1"}},"ports":[{"containerPort":80}]}`},
	} {
		f.Add([]byte(c[0]), []byte(c[1]))
	}
	f.Fuzz(func(t *testing.T, v, p []byte) {
		if _, mismatch := ontoAgrees(v, p); mismatch != "" {
			t.Fatalf("outcome %s, repeat %s: %s", v, p, mismatch)
		}
	})
}
