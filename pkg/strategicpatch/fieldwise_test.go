package strategicpatch_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"
	"sigs.k8s.io/yaml"

	ply "github.com/plyproject/ply/pkg/strategicpatch"
)

// fieldwiseDoc is the Go struct schema of engine/testdata/fieldwise.yaml's documents: spec.containers merged by
// name, their env by name and ports by containerPort (corev1.Container's tags).
type fieldwiseDoc struct {
	Spec fieldwiseSpec `json:"spec"`
}

type fieldwiseSpec struct {
	Replicas   *int32             `json:"replicas,omitempty"`
	Containers []corev1.Container `json:"containers" patchStrategy:"merge" patchMergeKey:"name"`
}

// fieldwiseCase is one case of engine/testdata/fieldwise.yaml.
type fieldwiseCase struct {
	Name     string                 `json:"name"`
	Original map[string]interface{} `json:"original"`
	Patch    map[string]interface{} `json:"patch"`
	// Malformed says the patch is malformed input, which both refuse, ply with its own message naming the path.
	Malformed bool `json:"malformed"`
	// Cleaned says the patch adds content holding a null or a directive, which ply adds cleaned of them and
	// strategicpatch as it stands.
	Cleaned bool `json:"cleaned"`
}

var _ = Describe("StrategicMergeMapPatch on the shapes its map form merges fieldwise, or leaves to the engine", func() {
	var cases []fieldwiseCase
	readYAMLCases("engine/testdata/fieldwise.yaml", yaml.Unmarshal, &cases)
	for _, c := range cases {
		It("gives apimachinery's result or error: "+c.Name, func() {
			want, wantErr := sp.StrategicMergeMapPatch(runtime.DeepCopyJSON(c.Original), runtime.DeepCopyJSON(c.Patch), fieldwiseDoc{})
			got, err := ply.StrategicMergeMapPatch(c.Original, c.Patch, fieldwiseDoc{})
			if c.Malformed {
				Expect(wantErr).To(HaveOccurred())
				Expect(err).To(MatchError(ContainSubstring("patch spec.containers")))
				return
			}
			Expect(errText(err)).To(Equal(errText(wantErr)), "ply %q\napimachinery %q", errText(err), errText(wantErr))
			wantJSON, _ := json.Marshal(want)
			gotJSON, _ := json.Marshal(got)
			if c.Cleaned {
				Expect(string(gotJSON)).NotTo(Equal(string(wantJSON)), "the content added cleaned")
				return
			}
			Expect(string(gotJSON)).To(Equal(string(wantJSON)))
		})
	}
})
