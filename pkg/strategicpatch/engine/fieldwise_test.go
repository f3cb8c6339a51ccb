package engine_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/strategicpatch/engine"
)

// fieldwiseCase is one case of testdata/fieldwise.yaml.
type fieldwiseCase struct {
	scopedCase `json:",inline"`
	// Fieldwise says whether, with every gate off, ApplyMap merges the patch's spec fieldwise.
	Fieldwise bool `json:"fieldwise"`
}

// fieldwiseCases are testdata/fieldwise.yaml's cases.
func fieldwiseCases() []fieldwiseCase {
	var cases []fieldwiseCase
	readYAML("testdata/fieldwise.yaml", &cases)
	return cases
}

// specOf returns doc's field spec, a map.
func specOf(doc map[string]interface{}) map[string]interface{} {
	return doc["spec"].(map[string]interface{})
}

var _ = Describe("ApplyMap merging lists by key fieldwise", func() {
	on := features.Gates{}
	specSchema, _, _ := listSchema.Struct("spec")
	for _, c := range fieldwiseCases() {
		It("gives the result of converting the documents whole and of the engine's run: "+c.Name, func() {
			for _, o := range []engine.Options{{}, {Gates: &on}} {
				expectWhole(o, c.Original, c.Patch, listSchema)
			}
		})
		It("merges fieldwise only where every gate is off and the shape allows: "+c.Name, func() {
			Expect(engine.Options{}.MergesFieldwise(specOf(c.Original), specOf(c.Patch), specSchema)).To(Equal(c.Fieldwise))
			kubectl := features.Kubectl()
			Expect(engine.Options{Gates: &kubectl}.MergesFieldwise(specOf(c.Original), specOf(c.Patch), specSchema)).To(Equal(c.Fieldwise))
			Expect(engine.Options{Gates: &on}.MergesFieldwise(specOf(c.Original), specOf(c.Patch), specSchema)).To(BeFalse(),
				"with ply's gates, SeedOrdering orders merged lists otherwise")
		})
	}
})

// expectJSONEngine expects ApplyJSON, every gate off, of original (a field "kind" added, which the patch leaves
// alone, so that the object is trimmed) and patch under l, as JSON text, to give the bytes and error of the engine's run
// on the whole documents, and returns whether it merges fieldwise (MergesFieldwiseJSON).
func expectJSONEngine(original, patch map[string]interface{}, l engine.Lookup) bool {
	GinkgoHelper()
	doc := map[string]interface{}{"kind": "X"}
	for k, v := range original {
		doc[k] = v
	}
	o, err := json.Marshal(doc)
	Expect(err).NotTo(HaveOccurred())
	p, err := json.Marshal(patch)
	Expect(err).NotTo(HaveOccurred())
	got, err := engine.Options{}.ApplyJSON(o, p, l)
	want, wantErr := engine.Options{}.ApplyJSONEngine(o, p, l)
	Expect(errText(err)).To(Equal(errText(wantErr)), "on %s %s", o, p)
	Expect(string(got)).To(Equal(string(want)), "on %s %s", o, p)
	return engine.MergesFieldwiseJSON(o, p, l)
}

var _ = Describe("ApplyJSON merging lists by key fieldwise", func() {
	for _, c := range fieldwiseCases() {
		It("gives the bytes of the engine's run on the whole documents, fieldwise where ApplyMap is: "+c.Name, func() {
			Expect(expectJSONEngine(c.Original, c.Patch, listSchema)).To(Equal(c.Fieldwise))
		})
	}
})
