package kubeflags

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestKubeflags(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Kubeflags Suite")
}
