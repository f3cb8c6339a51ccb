package engine_test

import (
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
