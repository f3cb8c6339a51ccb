package cluster

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

func doc(s string) value.Value {
	GinkgoHelper()
	v, err := parse.Document([]byte(s))
	Expect(err).NotTo(HaveOccurred())
	return v
}

var _ = Describe("masking Secrets", func() {
	before := WithLastApplied(doc(`{apiVersion: v1, kind: Secret, metadata: {name: s}, data: {same: c2FtZQ==, old: b2xkdmFs, changed: b25l}, stringData: {pw: hunter2}}`))
	after := WithLastApplied(doc(`{apiVersion: v1, kind: Secret, metadata: {name: s}, data: {same: c2FtZQ==, new: bmV3, changed: dHdv}}`))

	It("masks data and stringData as kubectl's masker: *** and *** (before) / *** (after) where a value changes", func() {
		b, a := MaskSecrets(before, after)
		Expect(string(b.Without("metadata").JSON())).To(Equal(string(doc(`{apiVersion: v1, kind: Secret, data: {same: "***", old: "***", changed: "*** (before)"}, stringData: {pw: "***"}}`).JSON())))
		Expect(string(a.Without("metadata").JSON())).To(Equal(string(doc(`{apiVersion: v1, kind: Secret, data: {same: "***", new: "***", changed: "*** (after)"}}`).JSON())))
	})

	It("masks the last-applied annotation the same way", func() {
		b, a := MaskSecrets(before, after)
		rb, err := RecordedFrom(b)
		Expect(err).NotTo(HaveOccurred())
		ra, err := RecordedFrom(a)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(rb.Without("metadata").JSON())).To(Equal(string(doc(`{apiVersion: v1, kind: Secret, data: {same: "***", old: "***", changed: "*** (before)"}, stringData: {pw: "***"}}`).JSON())))
		Expect(string(ra.Without("metadata").JSON())).To(Equal(string(doc(`{apiVersion: v1, kind: Secret, data: {same: "***", new: "***", changed: "*** (after)"}}`).JSON())))
		for _, v := range []value.Value{b, a} {
			for _, secret := range []string{"c2FtZQ==", "b2xkdmFs", "b25l", "hunter2", "bmV3", "dHdv"} {
				Expect(string(v.JSON())).NotTo(ContainSubstring(secret))
			}
		}
	})

	It("masks an annotation it cannot read whole", func() {
		bad := doc(`{apiVersion: v1, kind: Secret, metadata: {name: s, annotations: {"kubectl.kubernetes.io/last-applied-configuration": "{not json"}}}`)
		m := MaskSecret(bad)
		md, _ := m.Get("metadata")
		ann, _ := md.Get("annotations")
		a, _ := ann.Get(LastAppliedAnnotation)
		Expect(a).To(Equal(value.String(Mask)))
	})

	It("leaves other kinds and absent objects alone", func() {
		cm := WithLastApplied(doc(`{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: b}}`))
		Expect(value.Equal(MaskSecret(cm), cm)).To(BeTrue())
		b, a := MaskSecrets(value.Null, after)
		Expect(b.IsNull()).To(BeTrue())
		Expect(string(a.JSON())).NotTo(ContainSubstring("dHdv"))
	})

	It("redacts the values, encoded and decoded, from messages", func() {
		secrets := SecretValues(before)
		Expect(Redact(`Secret "s" is invalid: data[old]: "b2xkdmFs" (oldval), stringData: hunter2; same`, secrets)).
			To(Equal(`Secret "s" is invalid: data[old]: "***" (***), stringData: ***; ***`))
		Expect(SecretValues(doc(`{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: secretish}}`))).To(BeEmpty())
	})
})
