package k8sspecs_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestK8sSpecs(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Kubernetes releases' OpenAPI documents read by ply")
}
