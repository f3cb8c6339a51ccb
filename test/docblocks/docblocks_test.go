package docblocks_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// goBlocks returns the bodies of the ```go blocks of markdown text.
func goBlocks(text string) []string {
	var blocks []string
	var cur []string
	in := false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case !in && strings.TrimSpace(line) == "```go":
			in, cur = true, nil
		case in && strings.TrimSpace(line) == "```":
			in = false
			blocks = append(blocks, strings.Join(cur, "\n")+"\n")
		case in:
			cur = append(cur, line)
		}
	}
	return blocks
}

var _ = Describe("the documentation's Go blocks", func() {
	It("finds the blocks of a document", func() {
		Expect(goBlocks("a\n```go\npackage x\n```\n```sh\nls\n```\n```go\npackage y\n\nfunc F() {}\n```\n")).To(Equal(
			[]string{"package x\n", "package y\n\nfunc F() {}\n"}))
	})

	DescribeTable("compile and vet, each a package of its own against this checkout",
		func(doc string, atLeast int) {
			root, err := filepath.Abs("../..")
			Expect(err).NotTo(HaveOccurred())
			text, err := os.ReadFile(filepath.Join(root, doc))
			Expect(err).NotTo(HaveOccurred())
			blocks := goBlocks(string(text))
			Expect(len(blocks)).To(BeNumerically(">=", atLeast), "the blocks of %s", doc)

			dir := GinkgoT().TempDir()
			gomod := "module docblocks\n\ngo 1.26\n\nrequire github.com/plyproject/ply v0.0.0\n\nreplace github.com/plyproject/ply => " + root + "\n"
			Expect(os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644)).To(Succeed())
			sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
			Expect(err).NotTo(HaveOccurred())
			Expect(os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644)).To(Succeed())
			for i, b := range blocks {
				Expect(b).To(HavePrefix("// "), "block %d of %s starts with a comment then its package clause, as a file does", i+1, doc)
				sub := filepath.Join(dir, "block"+strconv.Itoa(i+1))
				Expect(os.MkdirAll(sub, 0o755)).To(Succeed())
				Expect(os.WriteFile(filepath.Join(sub, "block.go"), []byte(b), 0o644)).To(Succeed())
			}
			cmd := exec.Command("go", "vet", "./...")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "go vet of %s's blocks:\n%s", doc, out)
		},
		Entry("docs/extending.md", "docs/extending.md", 2),
	)
})
