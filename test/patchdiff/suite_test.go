package patchdiff_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestPatchDiff(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Patch Differential Suite")
}
