package visitors_test

import (
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/strategy"
	"github.com/plyproject/ply/pkg/value"
)

// fixture is one testdata file: the three inputs and the expected result
// under each ordering (wantKubectl defaults to want).
type fixture struct {
	vals        elements.Values
	want        value.Value
	wantKubectl value.Value
	// hasWant is false for a fixture that states only wantKubectl.
	hasWant bool
	// noOracle, when set, says why the oracle is not consulted.
	noOracle string
}

func loadFixture(name string) fixture {
	data, err := os.ReadFile("testdata/" + name)
	Expect(err).NotTo(HaveOccurred())
	doc, err := parse.Document(data)
	Expect(err).NotTo(HaveOccurred(), name)
	var fx fixture
	fx.vals.Recorded, fx.vals.HasRecorded = doc.Get("recorded")
	fx.vals.Local, fx.vals.HasLocal = doc.Get("local")
	fx.vals.Live, fx.vals.HasLive = doc.Get("live")
	Expect(fx.vals.HasLocal).To(BeTrue(), name+" has no local")
	Expect(fx.vals.HasLive).To(BeTrue(), name+" has no live")
	fx.want, fx.hasWant = doc.Get("want")
	var ok bool
	if fx.wantKubectl, ok = doc.Get("wantKubectl"); !ok {
		fx.wantKubectl = fx.want
	}
	Expect(fx.hasWant || ok).To(BeTrue(), name+" has neither want nor wantKubectl")
	if r, ok := doc.Get("noOracle"); ok {
		fx.noOracle, _ = r.AsString()
	}
	return fx
}

// rootType returns the default schema's type for the kind of obj.
func rootType(obj value.Value) *openapi.Type {
	s, err := openapi.DefaultV2()
	Expect(err).NotTo(HaveOccurred())
	av, _ := obj.Get("apiVersion")
	k, _ := obj.Get("kind")
	apiVersion, _ := av.AsString()
	kind, _ := k.AsString()
	t, ok := s.ForKind(apiVersion, kind)
	Expect(ok).To(BeTrue(), "no schema for "+apiVersion+" "+kind)
	return t
}

// collateVals builds the tree of vals with the default schema.
func collateVals(vals elements.Values) elements.Element {
	tree, err := collate.Collate(vals, rootType(vals.Local), collate.Options{})
	Expect(err).NotTo(HaveOccurred())
	return tree
}

// merge collates vals and walks the tree with ord.
func merge(vals elements.Values, ord order.Ordering) elements.Outcome {
	out, err := strategy.New(strategy.Options{Ordering: ord}).Walk(collateVals(vals))
	Expect(err).NotTo(HaveOccurred())
	return out
}

// expectSame expects got and want to encode to the same JSON.
func expectSame(got, want value.Value, what string) {
	GinkgoHelper()
	Expect(string(got.JSON())).To(Equal(string(want.JSON())), what)
}
