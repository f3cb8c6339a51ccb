package elements_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestElements(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "elements")
}
