package smp_test

import (
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
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

func yamlValue(y string) value.Value {
	if y == "null" {
		return value.Null
	}
	v, err := parse.Document([]byte(y))
	Expect(err).NotTo(HaveOccurred(), y)
	return v
}
