package cluster

import (
	"errors"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// yamlCases reads the table of a spec: the items of the YAML list in the
// file at path, read when the spec tree is built.
func yamlCases(path string) []value.Value {
	data, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	cases, err := parse.Document(data)
	if err != nil {
		panic(path + ": " + err.Error())
	}
	return cases.Items()
}

// laneDoc parses a YAML document for a spec.
func laneDoc(yaml string) value.Value {
	GinkgoHelper()
	v, err := parse.Document([]byte(yaml))
	Expect(err).NotTo(HaveOccurred())
	return v
}

var _ = Describe("recordedFromManager", func() {
	for _, c := range yamlCases("testdata/lane/recorded.yaml") {
		live, _ := c.Get("live")
		want, _ := c.Get("want")
		It(stringAt(c, "name"), func() {
			got := recordedFromManager(live, stringAt(c, "manager"))
			Expect(string(got.YAML())).To(Equal(string(want.YAML())))
		})
	}
})

var _ = Describe("lastLane", func() {
	entry := func(manager, op, at string, annotation bool) string {
		f := `{"f:data": {"f:a": {}}}`
		if annotation {
			f = `{"f:metadata": {"f:annotations": {"f:` + LastAppliedAnnotation + `": {}}}}`
		}
		return `{"manager": "` + manager + `", "operation": "` + op + `", "time": "` + at + `", "fieldsV1": ` + f + `}`
	}
	DescribeTable("is the lane of the last apply",
		func(want Lane, entries ...string) {
			live := laneDoc(`{"metadata": {"managedFields": [` + join(entries) + `]}}`)
			Expect(lastLane(live, "kubectl")).To(Equal(want))
		},
		Entry("nothing recorded: client-side", LaneClientSide),
		Entry("only a client-side apply", LaneClientSide, entry("kubectl-client-side-apply", "Update", "2026-01-01T00:00:00Z", true)),
		Entry("only the server-side manager", LaneServerSide, entry("kubectl", "Apply", "2026-01-01T00:00:00Z", false)),
		Entry("another Apply manager", LaneClientSide, entry("helm", "Apply", "2026-01-01T00:00:00Z", false)),
		Entry("an Update owning no annotation does not count", LaneServerSide,
			entry("kubectl", "Apply", "2026-01-01T00:00:00Z", false), entry("hpa", "Update", "2026-01-02T00:00:00Z", false)),
		Entry("a client-side apply after the server-side one", LaneClientSide,
			entry("kubectl", "Apply", "2026-01-01T00:00:00Z", false), entry("kubectl-client-side-apply", "Update", "2026-01-02T00:00:00Z", true)),
		Entry("in the same second: client-side (the time says nothing)", LaneClientSide,
			entry("kubectl", "Apply", "2026-01-01T00:00:00Z", false), entry("kubectl-client-side-apply", "Update", "2026-01-01T00:00:00Z", true)),
		Entry("a server-side apply after the client-side one", LaneServerSide,
			entry("kubectl-client-side-apply", "Update", "2026-01-01T00:00:00Z", true), entry("kubectl", "Apply", "2026-01-02T00:00:00Z", false)),
	)
})

// join joins JSON texts with commas.
func join(items []string) string {
	out := ""
	for i, s := range items {
		if i > 0 {
			out += ", "
		}
		out += s
	}
	return out
}

var _ = Describe("ManagerConflictError", func() {
	conflict := func(causes ...metav1.StatusCause) error {
		return apierrors.NewApplyConflict(causes, "Apply failed with conflicts: the server's text, which may quote values")
	}
	cause := func(field, msg string) metav1.StatusCause {
		return metav1.StatusCause{Type: metav1.CauseTypeFieldManagerConflict, Field: field, Message: msg}
	}
	c := &Client{}
	secret := Ref{Name: "creds"}
	secret.Kind = "Secret"

	DescribeTable("names each field and its manager from the causes alone, for a Secret too",
		func(err error, want string) {
			for _, ref := range []Ref{{Name: "x"}, secret} {
				got := c.ssaError(ref, err)
				var mce *ManagerConflictError
				Expect(errors.As(got, &mce)).To(BeTrue())
				Expect(got.Error()).To(Equal(want))
				Expect(got.Error()).NotTo(ContainSubstring("quote values"))
				Expect(apierrors.IsConflict(got)).To(BeTrue(), "the server's error is wrapped")
			}
		},
		Entry("one field of an Apply manager", conflict(cause(".data.a", `conflict with "deployer"`)),
			`server-side apply conflicts with another field manager: .data.a (owned by "deployer"); `+
				`to take them over, apply again with --force-conflicts; to leave them to their managers, remove them from the manifest, or set them to the live values to share them`),
		Entry("fields of an Update manager and another", conflict(cause(".spec.replicas", `conflict with "hpa" using apps/v1 at 2026-01-01T00:00:00Z`),
			cause(`.spec.template.spec.containers[name="web"].image`, `conflict with "ci"`)),
			`server-side apply conflicts with other field managers on 2 fields: .spec.replicas (owned by "hpa" (client-side, apps/v1 at 2026-01-01T00:00:00Z)), `+
				`.spec.template.spec.containers[name="web"].image (owned by "ci"); `+
				`to take them over, apply again with --force-conflicts; to leave them to their managers, remove them from the manifest, or set them to the live values to share them`),
		Entry("a message of another shape", conflict(cause(".data.a", "something else")),
			`server-side apply conflicts with another field manager: .data.a (owned by another manager); `+
				`to take them over, apply again with --force-conflicts; to leave them to their managers, remove them from the manifest, or set them to the live values to share them`),
	)

	It("masks other refusals of a Secret", func() {
		err := apierrors.NewConflict(schema.GroupResource{Resource: "secrets"}, "creds", errors.New("the object has been modified: value s3cr3t"))
		got := c.ssaError(secret, err)
		var masked *SecretStatusError
		Expect(errors.As(got, &masked)).To(BeTrue())
		Expect(got.Error()).NotTo(ContainSubstring("s3cr3t"))
	})
})

var _ = DescribeTable("ParseLane and ParseLargeObjects take the flags' values",
	func(s string, lane Lane, ok bool) {
		got, err := ParseLane(s)
		Expect(err == nil).To(Equal(ok))
		if ok {
			Expect(got).To(Equal(lane))
			Expect(got.String()).To(Equal(s))
		}
	},
	Entry(nil, "true", LaneServerSide, true),
	Entry(nil, "false", LaneClientSide, true),
	Entry(nil, "auto", LaneAuto, true),
	Entry(nil, "yes", LaneClientSide, false),
)
