package patchbench_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestPatchBench(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Patch Bench Suite")
}
