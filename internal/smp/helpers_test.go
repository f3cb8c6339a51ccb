package smp_test

import (
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
)

const absent = "<absent>"

// rootType returns the type of a Deployment in the swagger kubectl reads.
func rootType() *openapi.Type {
	s, err := openapi.DefaultV2()
	Expect(err).NotTo(HaveOccurred())
	t, ok := s.ForKind("apps/v1", "Deployment")
	Expect(ok).To(BeTrue())
	return t
}
