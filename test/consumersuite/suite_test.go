package consumersuite_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestConsumerSuite(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Helm's pkg/kube tests on ply's strategicpatch")
}
