package smpsuite_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestSMPSuite(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "apimachinery strategicpatch tests against ply")
}
