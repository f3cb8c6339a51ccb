package strategicpatch_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestStrategicPatch(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "strategicpatch (apimachinery's API on ply) Suite")
}
