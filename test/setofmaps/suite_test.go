package setofmaps_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestSetOfMaps(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "sets of maps")
}
