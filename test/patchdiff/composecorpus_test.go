package patchdiff_test

import (
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/patchdiff"
)

// testdata/compose holds reduced compose cases that random runs found: each
// file a target (a kubectl one), the patches first and second and the
// result, which strategicpatch's merge of second into first gives and
// pkg/patch.Compose must give too; or, with class, a known class of
// composeCase's (oracle-aliases-first), result then ply's.
var _ = Describe("the compose regression corpus", func() {
	_, entries := corpusFiles("compose")
	DescribeTable("case",
		func(path string) {
			data, err := os.ReadFile(path)
			Expect(err).NotTo(HaveOccurred())
			j, err := sigsyaml.YAMLToJSON(data)
			Expect(err).NotTo(HaveOccurred(), path)
			doc := jsonv.MustDecode(string(j))
			field := func(key string) value.Value {
				v, ok := doc.Get(key)
				Expect(ok).To(BeTrue(), "%s: no %s", path, key)
				return v
			}
			target, _ := field("target").AsString()
			t, err := difftest.LoadTarget(target)
			Expect(err).NotTo(HaveOccurred())
			c := patchdiff.Case{Mode: patchdiff.ApplyDirectives, Target: target}
			class, got, fail := composeCase(t, c, field("first"), field("second"))
			wantClass := "agree"
			if v, ok := doc.Get("class"); ok {
				wantClass, _ = v.AsString()
			}
			Expect(class).To(Equal(wantClass), "%s: %s", path, fail)
			want := field("result")
			Expect(value.Equal(got, want)).To(BeTrue(), "%s: ply %s, the file's result %s", path, got.JSON(), want.JSON())
		},
		entries,
	)
})
