package patchgen_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestPatchgen(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "patchgen")
}
