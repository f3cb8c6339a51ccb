package carve_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestCarve(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "carve")
}
