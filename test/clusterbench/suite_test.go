package clusterbench_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestClusterbench(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Clusterbench Suite")
}
