package strategicpatch_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"
	"sigs.k8s.io/yaml"

	ply "github.com/plyproject/ply/pkg/strategicpatch"
)

// trimCase is a case of testdata/trim.yaml.
type trimCase struct {
	Name     string `json:"name"`
	Original string `json:"original"`
	Patch    string `json:"patch"`
	// DuplicateKey marks an original naming a key twice in a map: ply refuses it, encoding/json keeps the last.
	DuplicateKey bool `json:"duplicateKey"`
	// PlyMessage marks an error both give, ply's in words of its own.
	PlyMessage bool `json:"plyMessage"`
}

// trimCases are testdata/trim.yaml's cases.
var trimCases = func() []trimCase {
	var cases []trimCase
	readYAMLCases("testdata/trim.yaml", yaml.UnmarshalStrict, &cases)
	return cases
}()

var _ = Describe("StrategicMergePatch leaving out of the merge the fields the patch does not reach", func() {
	entries := []TableEntry{}
	for _, c := range trimCases {
		entries = append(entries, Entry(c.Name, c))
	}
	DescribeTable("gives apimachinery's bytes or error, and those of merging the whole original",
		func(c trimCase) {
			got, err := ply.StrategicMergePatch([]byte(c.Original), []byte(c.Patch), &appsv1.Deployment{})
			whole, wholeErr := ply.StrategicMergePatchWhole([]byte(c.Original), []byte(c.Patch), &appsv1.Deployment{})
			Expect(string(got)).To(Equal(string(whole)))
			Expect(errText(err)).To(Equal(errText(wholeErr)))
			if c.DuplicateKey {
				Expect(err).To(BeIdenticalTo(mergepatch.ErrBadJSONDoc))
				return
			}
			want, wantErr := sp.StrategicMergePatch([]byte(c.Original), []byte(c.Patch), &appsv1.Deployment{})
			Expect(string(got)).To(Equal(string(want)))
			if c.PlyMessage {
				Expect(err).To(HaveOccurred())
				Expect(wantErr).To(HaveOccurred())
				return
			}
			Expect(errText(err)).To(Equal(errText(wantErr)))
		}, entries)
})
