package strategicpatch_test

import (
	"encoding/json"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/format"
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"
	"sigs.k8s.io/yaml"

	ply "github.com/plyproject/ply/pkg/strategicpatch"
)

// mixedDoc is the schema of testdata/mixedkinds.yaml: containers merged by name, their env and resources.items by k.
type mixedDoc struct {
	Spec struct {
		Containers []mixedContainer `json:"containers" patchStrategy:"merge" patchMergeKey:"name"`
	} `json:"spec"`
}

type mixedContainer struct {
	Name      string         `json:"name"`
	Image     string         `json:"image"`
	Env       []mixedItem    `json:"env" patchStrategy:"merge" patchMergeKey:"k"`
	Resources mixedResources `json:"resources"`
}

type mixedResources struct {
	Items []mixedItem `json:"items" patchStrategy:"merge" patchMergeKey:"k"`
}

type mixedItem struct {
	K   string          `json:"k"`
	V   string          `json:"v"`
	W   string          `json:"w"`
	Sub *mixedResources `json:"sub"`
}

// mixedCase is one case of testdata/mixedkinds.yaml.
type mixedCase struct {
	Name     string                 `json:"name"`
	Original map[string]interface{} `json:"original"`
	Patch    map[string]interface{} `json:"patch"`
	Modified map[string]interface{} `json:"modified"`
	Current  map[string]interface{} `json:"current"`
}

func mixedCases() []mixedCase {
	var cases []mixedCase
	readYAMLCases("testdata/mixedkinds.yaml", yaml.Unmarshal, &cases)
	return cases
}

// readYAMLCases reads the YAML file at path into cases with unmarshal (yaml.Unmarshal, or yaml.UnmarshalStrict).
func readYAMLCases(path string, unmarshal func([]byte, interface{}, ...yaml.JSONOpt) error, cases interface{}) {
	data, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	if err := unmarshal(data, cases); err != nil {
		panic(err)
	}
}

// outcome is a call's result as text, or its error's message.
func outcome(out []byte, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return string(out)
}

// mapOutcome is a map call's result encoded, or its error's message.
func mapOutcome(out map[string]interface{}, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	data, err := json.Marshal(out)
	Expect(err).NotTo(HaveOccurred())
	return string(data)
}

func encode(m map[string]interface{}) []byte {
	GinkgoHelper()
	data, err := json.Marshal(m)
	Expect(err).NotTo(HaveOccurred())
	return data
}

// copyOf is m decoded afresh: apimachinery's map calls may modify their arguments.
func copyOf(m map[string]interface{}) map[string]interface{} {
	GinkgoHelper()
	var out map[string]interface{}
	Expect(json.Unmarshal(encode(m), &out)).To(Succeed())
	return out
}

var _ = Describe("documents holding an object at a place in one item and another kind in another", func() {
	BeforeEach(func() { format.TruncatedDiff = false })
	mixedSchema, err := sp.NewPatchMetaFromStruct(&mixedDoc{})
	if err != nil {
		panic(err)
	}
	for _, c := range mixedCases() {
		It("applies and merges a patch as apimachinery does: "+c.Name, func() {
			original, patch := encode(c.Original), encode(c.Patch)
			Expect(outcome(ply.StrategicMergePatch(original, patch, &mixedDoc{}))).To(
				Equal(outcome(sp.StrategicMergePatch(original, patch, &mixedDoc{}))), "StrategicMergePatch")
			Expect(mapOutcome(ply.StrategicMergeMapPatch(copyOf(c.Original), copyOf(c.Patch), &mixedDoc{}))).To(
				Equal(mapOutcome(sp.StrategicMergeMapPatch(copyOf(c.Original), copyOf(c.Patch), &mixedDoc{}))),
				"StrategicMergeMapPatch")
			Expect(mapOutcome(ply.MergeStrategicMergeMapPatchUsingLookupPatchMeta(mixedSchema, copyOf(c.Original), copyOf(c.Patch)))).To(
				Equal(mapOutcome(sp.MergeStrategicMergeMapPatchUsingLookupPatchMeta(mixedSchema, copyOf(c.Original), copyOf(c.Patch)))),
				"MergeStrategicMergeMapPatchUsingLookupPatchMeta, original taken as the first patch")
		})
		if c.Modified == nil {
			continue
		}
		It("creates patches as apimachinery does: "+c.Name, func() {
			original, modified, current := encode(c.Original), encode(c.Modified), encode(c.Original)
			if c.Current != nil {
				current = encode(c.Current)
			}
			Expect(outcome(ply.CreateTwoWayMergePatch(original, modified, &mixedDoc{}))).To(
				Equal(outcome(sp.CreateTwoWayMergePatch(original, modified, &mixedDoc{}))), "CreateTwoWayMergePatch")
			for _, overwrite := range []bool{false, true} {
				Expect(outcome(ply.CreateThreeWayMergePatch(original, modified, current, mixedSchema, overwrite))).To(
					Equal(outcome(sp.CreateThreeWayMergePatch(original, modified, current, mixedSchema, overwrite))),
					"CreateThreeWayMergePatch, overwrite %v", overwrite)
			}
		})
	}
})
