package changes_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestChanges(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "changes")
}
