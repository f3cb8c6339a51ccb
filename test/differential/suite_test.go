package differential_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestDifferential(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Differential Suite")
}
