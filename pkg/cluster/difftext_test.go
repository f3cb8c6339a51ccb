package cluster

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// diffGolden returns testdata/difftext/name; with PLY_UPDATE_GOLDEN set,
// it writes got there first.
func diffGolden(name, got string) string {
	GinkgoHelper()
	path := filepath.Join("testdata", "difftext", name)
	if os.Getenv("PLY_UPDATE_GOLDEN") != "" {
		Expect(os.WriteFile(path, []byte(got), 0o644)).To(Succeed())
	}
	data, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	return string(data)
}

var _ = Describe("the last-applied annotation in diffs", func() {
	doc := func(y string) value.Value {
		GinkgoHelper()
		v, err := parse.Document([]byte(y))
		Expect(err).NotTo(HaveOccurred())
		return v
	}
	before := doc("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {colour: blue, size: large, tier: front}")
	after := doc("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {colour: green, size: large}")

	It("shows kubectl's annotation decoded: the diff names the fields that changed", func() {
		got := unifiedDiff("live/web", "merged/web", diffText(WithLastApplied(before)), diffText(WithLastApplied(after)))
		Expect(got).To(Equal(diffGolden("kubectl-annotation.diff", got)))
		Expect(got).To(ContainSubstring("\n-#     tier: front\n"))
	})

	It("shows ply's compressed annotation decompressed, never its base64", func() {
		big := configMap(300, 1000, false) // over the annotation limit: recorded compressed
		live, _, err := Record(big)
		Expect(err).NotTo(HaveOccurred())
		md, _ := big.Get("metadata")
		smaller := big.With("metadata", md.With("labels", value.MustMap(value.Field{Key: "app", Value: value.String("web")})))
		data, _ := smaller.Get("data")
		smaller = smaller.With("data", data.Without("k1000"))
		merged, _, err := Record(smaller)
		Expect(err).NotTo(HaveOccurred())
		enc, _ := mustAnnotations(live).Get(CompressedLastAppliedAnnotation)
		s, _ := enc.AsString()
		Expect(s).NotTo(BeEmpty(), "recorded compressed")

		got := unifiedDiff("live/big", "merged/big", diffText(live), diffText(merged))
		Expect(got).NotTo(ContainSubstring(s[:40]), "no base64")
		Expect(got).To(ContainSubstring("\n-#     k1000: \"line 0: key=value setting\\n"))
		Expect(got).To(ContainSubstring("\n+#       app: web\n"))
		for _, l := range strings.Split(got, "\n") {
			Expect(len(l)).To(BeNumerically("<", 2000), "no one-line annotation in the diff")
		}
	})

	It("leaves a Secret's annotation masked whole as it is", func() {
		secret := doc("apiVersion: v1\nkind: Secret\nmetadata: {name: s, annotations: {" + CompressedLastAppliedAnnotation + ": '***'}}")
		Expect(diffText(secret)).To(ContainSubstring(CompressedLastAppliedAnnotation + `: "***"`))
	})
})

// mustAnnotations returns v's metadata.annotations.
func mustAnnotations(v value.Value) value.Value {
	md, _ := v.Get("metadata")
	ann, _ := md.Get("annotations")
	return ann
}
