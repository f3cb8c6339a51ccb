package cluster

import (
	"math/rand/v2"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/value"
)

// configMap returns a ConfigMap with n data entries of size bytes each
// (text that compresses as manifests do, or random base64 that does not).
func configMap(n, size int, random bool) value.Value {
	rng := rand.New(rand.NewPCG(1, 2))
	fields := make([]value.Field, n)
	for i := range fields {
		var sb strings.Builder
		for sb.Len() < size {
			if random {
				sb.WriteByte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[rng.IntN(64)])
			} else {
				sb.WriteString("line " + strconv.Itoa(sb.Len()) + ": key=value setting\n")
			}
		}
		fields[i] = value.Field{Key: "k" + strconv.Itoa(1000+i), Value: value.String(sb.String())}
	}
	return value.MustMap(
		value.Field{Key: "apiVersion", Value: value.String("v1")},
		value.Field{Key: "kind", Value: value.String("ConfigMap")},
		value.Field{Key: "metadata", Value: value.MustMap(value.Field{Key: "name", Value: value.String("big")},
			value.Field{Key: "annotations", Value: value.MustMap(value.Field{Key: "team", Value: value.String("a")})})},
		value.Field{Key: "data", Value: value.MustMap(fields...)},
	)
}

func annotations(v value.Value) value.Value {
	md, _ := v.Get("metadata")
	ann, _ := md.Get("annotations")
	return ann
}

var _ = Describe("Record", func() {
	It("records as kubectl does whenever the annotation fits", func() {
		local := configMap(10, 1000, false)
		got, warning, err := Record(local)
		Expect(err).NotTo(HaveOccurred())
		Expect(warning).To(BeEmpty())
		Expect(value.Equal(got, WithLastApplied(local))).To(BeTrue())
	})

	It("records compressed, with a warning, what would push the annotations over the limit, and reads it back", func() {
		local := configMap(600, 1000, false) // 600 KB of text
		got, warning, err := Record(local)
		Expect(err).NotTo(HaveOccurred())
		Expect(warning).To(ContainSubstring("recorded compressed in " + CompressedLastAppliedAnnotation))
		ann := annotations(got)
		_, hasKubectl := ann.Get(LastAppliedAnnotation)
		Expect(hasKubectl).To(BeFalse())
		z, _ := ann.Get(CompressedLastAppliedAnnotation)
		zs, _ := z.AsString()
		Expect(len(zs)).To(BeNumerically("<", AnnotationsLimit))
		team, _ := ann.Get("team")
		Expect(value.Equal(team, value.String("a"))).To(BeTrue(), "other annotations stay")
		rec, err := RecordedFrom(got)
		Expect(err).NotTo(HaveOccurred())
		Expect(LastAppliedConfiguration(rec)).To(Equal(LastAppliedConfiguration(local)))
	})

	It("refuses a configuration that does not fit even compressed", func() {
		_, _, err := Record(configMap(300, 1000, true)) // 300 KB of random base64
		Expect(err).To(MatchError(ContainSubstring("does not fit the server's limit of 262144 bytes of annotations, even compressed")))
	})

	It("counts the other annotations against the limit", func() {
		local := configMap(1, 200<<10, false)
		md, _ := local.Get("metadata")
		big := strings.Repeat("x", 60<<10)
		local = local.With("metadata", md.With("annotations", value.MustMap(value.Field{Key: "big", Value: value.String(big)})))
		_, warning, err := Record(local)
		Expect(err).NotTo(HaveOccurred())
		Expect(warning).NotTo(BeEmpty(), "200 KiB recorded plus 60 KiB of another annotation is over 256 KiB")
	})

	It("reads kubectl's annotation before the compressed one, and names the annotation at fault", func() {
		small, _, _ := Record(configMap(1, 10, false))
		big, _, _ := Record(configMap(600, 1000, false))
		both := big.With("metadata", value.MustMap(value.Field{Key: "annotations", Value: value.MustMap(
			value.Field{Key: LastAppliedAnnotation, Value: mustGet(annotations(small), LastAppliedAnnotation)},
			value.Field{Key: CompressedLastAppliedAnnotation, Value: mustGet(annotations(big), CompressedLastAppliedAnnotation)},
		)}))
		rec, err := RecordedFrom(both)
		Expect(err).NotTo(HaveOccurred())
		data, _ := rec.Get("data")
		Expect(data.Len()).To(Equal(1))
		for _, bad := range []struct{ value, msg string }{
			{"not base64!", "not base64"},
			{"aGVsbG8=", "not gzip-compressed"},
		} {
			v := value.MustMap(value.Field{Key: "metadata", Value: value.MustMap(value.Field{Key: "annotations",
				Value: value.MustMap(value.Field{Key: CompressedLastAppliedAnnotation, Value: value.String(bad.value)})})})
			_, err := RecordedFrom(v)
			Expect(err).To(MatchError(ContainSubstring("metadata.annotations." + CompressedLastAppliedAnnotation + ": " + bad.msg)))
		}
	})
})

func mustGet(v value.Value, key string) value.Value {
	got, ok := v.Get(key)
	Expect(ok).To(BeTrue(), key)
	return got
}
