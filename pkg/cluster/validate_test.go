package cluster

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var _ = Describe("field validation", func() {
	DescribeTable("ParseValidate reads --validate as kubectl 1.32 does",
		func(in string, want FieldValidation) {
			got, err := ParseValidate(in)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		},
		Entry("strict", "strict", FieldValidationStrict),
		Entry("true", "true", FieldValidationStrict),
		Entry("1", "1", FieldValidationStrict),
		Entry("warn", "warn", FieldValidationWarn),
		Entry("ignore", "ignore", FieldValidationIgnore),
		Entry("false", "false", FieldValidationIgnore),
		Entry("0", "0", FieldValidationIgnore),
	)

	It("ParseValidate refuses other values, naming the accepted ones", func() {
		_, err := ParseValidate("Strict")
		Expect(err).To(MatchError(`invalid --validate value "Strict": want strict (or true), warn or ignore (or false)`))
	})

	DescribeTable("the server's strict refusal becomes a *FieldValidationError naming each field",
		func(msg string, fields []string) {
			err := fieldValidationError(apierrors.NewBadRequest(msg))
			var fe *FieldValidationError
			Expect(errors.As(err, &fe)).To(BeTrue())
			Expect(fe.Fields).To(Equal(fields))
			Expect(apierrors.IsBadRequest(err)).To(BeTrue(), "the server's error stays reachable")
		},
		Entry("a built-in kind", `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replcas"`,
			[]string{`unknown field "spec.replcas"`}),
		Entry("several, one with a comma and a quote in its key",
			`strict decoding error: unknown field "metadata.labels.a, \"b\"", duplicate field "replicas", unknown field "spec.template.spec.containers[0].foo"`,
			[]string{`unknown field "metadata.labels.a, \"b\""`, `duplicate field "replicas"`, `unknown field "spec.template.spec.containers[0].foo"`}),
	)

	It("leaves other errors as they are", func() {
		Expect(fieldValidationError(nil)).To(BeNil())
		for _, err := range []error{
			apierrors.NewBadRequest("the object is too big"),
			apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, "a", errors.New(`strict decoding error: unknown field "x"`)),
		} {
			Expect(fieldValidationError(err)).To(BeIdenticalTo(err))
		}
	})
})
