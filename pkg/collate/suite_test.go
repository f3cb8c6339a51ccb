package collate_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestCollate(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "collate")
}
