package reduce_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestReduce(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "openapi/internal/reduce")
}
