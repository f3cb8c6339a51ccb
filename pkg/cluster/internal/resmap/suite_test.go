package resmap

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestResmap(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Resmap Suite")
}
