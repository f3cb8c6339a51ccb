package cluster

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the server's warnings", func() {
	It("join the object whose request heard them, once each; the others go to the handler's function", func() {
		var other []string
		h := serverWarnings{other: func(s string) { other = append(other, s) }}
		ctx, heard := withWarnings(context.Background())
		h.HandleWarningHeaderWithContext(ctx, 299, "-", `unknown field "spec.colour"`)
		h.HandleWarningHeaderWithContext(ctx, 299, "-", `unknown field "spec.colour"`)
		h.HandleWarningHeaderWithContext(ctx, 199, "-", "not the API server's")
		h.HandleWarningHeaderWithContext(context.Background(), 299, "-", "v1 ComponentStatus is deprecated")
		Expect(heard.appendTo([]string{"from the merge"})).To(Equal([]string{"from the merge", `unknown field "spec.colour"`}))
		Expect(other).To(Equal([]string{"v1 ComponentStatus is deprecated"}))
	})
})
