package fieldpath_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestFieldpath(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "fieldpath")
}
