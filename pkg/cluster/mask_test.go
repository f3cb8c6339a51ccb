package cluster

import (
	"context"
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	clienttesting "k8s.io/client-go/testing"

	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/secrets"
	"github.com/plyproject/ply/pkg/value"
)

var secretGVR = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}

// unstructuredOf converts a value to an object of the fake client.
func unstructuredOf(v value.Value) *unstructured.Unstructured {
	GinkgoHelper()
	u := &unstructured.Unstructured{}
	Expect(u.UnmarshalJSON(v.JSON())).To(Succeed())
	return u
}

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

	It("leaves the conflicts of other kinds, and other fields of a Secret, unmarked", func() {
		Expect(secrets.HoldsValues(fieldpath.Path{fieldpath.Field("type")})).To(BeFalse())
		Expect(secrets.HoldsValues(fieldpath.Path{fieldpath.Field("metadata"), fieldpath.Field("labels"), fieldpath.Field("a")})).To(BeFalse())
		for _, p := range []fieldpath.Path{nil, {fieldpath.Field("data")}, {fieldpath.Field("stringData"), fieldpath.Field("pw")},
			{fieldpath.Field("metadata")}, {fieldpath.Field("metadata"), fieldpath.Field("annotations")},
			{fieldpath.Field("metadata"), fieldpath.Field("annotations"), fieldpath.Field(LastAppliedAnnotation)}} {
			Expect(secrets.HoldsValues(p)).To(BeTrue(), p.String())
		}
	})
})

// refusal is the server's refusal of a write of the Secret "s", quoting,
// as an admission policy or validation can, a value of stringData as the
// API holds it (base64), a value only live holds, and a value of 3 digits.
func refusal(verb string) func(clienttesting.Action) (bool, runtime.Object, error) {
	return func(clienttesting.Action) (bool, runtime.Object, error) {
		err := apierrors.NewInvalid(schema.GroupKind{Kind: "Secret"}, "s", field.ErrorList{
			field.Invalid(field.NewPath("data").Key("pw"), "UzNjcjN0LVBXLTQyNDI=", "quoted by the server"),
			field.Invalid(field.NewPath("data").Key("old"), "T0xELWxpdmUtb25seQ==", "quoted by the server"),
		})
		err.ErrStatus.Message += "; " + verb + " refused: S3cr3t-PW-4242 OLD-live-only 443 https://127.0.0.1:36443/"
		return true, nil, err
	}
}

var _ = Describe("the server's refusal of a Secret", func() {
	ctx := context.Background()
	secret := `{apiVersion: v1, kind: Secret, metadata: {name: s, namespace: default}, stringData: {pw: S3cr3t-PW-4242}, data: {n: NDQz}}`
	live := `{apiVersion: v1, kind: Secret, metadata: {name: s, namespace: default}, data: {old: T0xELWxpdmUtb25seQ==}}`
	values := []string{"UzNjcjN0LVBXLTQyNDI=", "S3cr3t-PW-4242", "T0xELWxpdmUtb25seQ==", "OLD-live-only", "443", "NDQz"}
	want := `the server refused Secret "s": Invalid (422) at data[pw] (FieldValueInvalid), data[old] (FieldValueInvalid); ` +
		`its message is not shown, as it can quote the Secret's values (--show-secrets shows it)`

	setup := func(opts Options) *fakeCluster {
		f := newFakeCluster(opts, "default", false)
		_, err := f.fake.Resource(secretGVR).Namespace("default").Create(ctx, unstructuredOf(doc(live)), metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		f.fake.PrependReactor("update", "secrets", refusal("update"))
		return f
	}

	It("is rendered from the Status's reason, code and causes' fields, in apply and diff, whatever the values", func() {
		f := setup(Options{Overwrite: true, DryRun: DryRunServer})
		outs := f.c.Apply(ctx, objects(secret))
		Expect(outs[0].Action).To(Equal(Failed))
		Expect(outs[0].Err.Error()).To(Equal(want))
		var se *apierrors.StatusError
		Expect(errors.As(outs[0].Err, &se)).To(BeTrue(), "the server's error is still found")
		diffs, err := f.c.Diff(ctx, objects(secret))
		Expect(err).NotTo(HaveOccurred())
		Expect(diffs[0].Err.Error()).To(Equal(want))
		for _, v := range values {
			Expect(outs[0].Err.Error() + diffs[0].Err.Error()).NotTo(ContainSubstring(v))
		}
	})

	It("is the server's own with ShowSecrets", func() {
		f := setup(Options{Overwrite: true, ShowSecrets: true})
		outs := f.c.Apply(ctx, objects(secret))
		Expect(outs[0].Err.Error()).To(ContainSubstring("update refused: S3cr3t-PW-4242 OLD-live-only 443 https://127.0.0.1:36443/"))
	})

	It("is the server's own for other kinds", func() {
		f := newFakeCluster(Options{Overwrite: true}, "default", false)
		f.fake.PrependReactor("create", "configmaps", refusal("create"))
		outs := f.c.Apply(ctx, objects(`{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: "443"}}`))
		Expect(outs[0].Err.Error()).To(ContainSubstring("create refused: S3cr3t-PW-4242 OLD-live-only 443 https://127.0.0.1:36443/"))
	})
})
