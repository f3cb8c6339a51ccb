package dropinbench_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestDropInBench(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "pkg/strategicpatch benchmark inputs")
}
