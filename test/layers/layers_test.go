package layers_test

import (
	"os/exec"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

const module = "github.com/plyproject/ply/"

// floors maps each folder prefix of the module to its floor (doc.go); the longest prefix wins.
var floors = map[string]int{
	"pkg/value": 0, "pkg/fieldpath": 0, "pkg/features": 0, "pkg/parse": 0,
	"openapi":      1,
	"pkg/elements": 2, "pkg/collate": 2, "pkg/visitors": 2, "pkg/strategy": 2, "internal": 2,
	"pkg/apply": 3, "pkg/patch": 3, "pkg/patchgen": 3, "pkg/strategicpatch": 3, "pkg/secrets": 3, "pkg/lastapplied": 3,
	"pkg/cluster": 4,
	"cmd":         5,
}

var floorNames = []string{"value and parsing", "schemas", "engine", "front-ends", "cluster client", "commands"}

// floorOf returns the floor of a package path inside the module (no module prefix), -1 for none.
func floorOf(pkg string) int {
	best, floor := -1, -1
	for prefix, f := range floors {
		if (pkg == prefix || strings.HasPrefix(pkg, prefix+"/")) && len(prefix) > best {
			best, floor = len(prefix), f
		}
	}
	return floor
}

// imports lists the module's non-test packages and the module packages each imports (go list, production files).
func imports() map[string][]string {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, module+"...").CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), string(out))
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		if strings.HasPrefix(pkg, "test/") || pkg == "test" {
			continue
		}
		deps[pkg] = nil
		for _, imp := range fields[1:] {
			if strings.HasPrefix(imp, module) {
				deps[pkg] = append(deps[pkg], strings.TrimPrefix(imp, module))
			}
		}
	}
	return deps
}

var _ = Describe("the package floors", func() {
	deps := imports()

	It("assign every package of the module to a floor", func() {
		var unassigned []string
		for pkg := range deps {
			if floorOf(pkg) < 0 {
				unassigned = append(unassigned, pkg)
			}
		}
		Expect(unassigned).To(BeEmpty(), "add them to floors (and doc.go)")
		Expect(len(deps)).To(BeNumerically(">", 20))
	})

	It("have no import running up a floor", func() {
		var up []string
		for pkg, imps := range deps {
			for _, imp := range imps {
				if floorOf(imp) > floorOf(pkg) {
					up = append(up, pkg+" ("+floorNames[floorOf(pkg)]+") imports "+imp+" ("+floorNames[floorOf(imp)]+")")
				}
			}
		}
		sort.Strings(up)
		Expect(up).To(BeEmpty())
	})

	DescribeTable("place the engine's packages where an embedder reaches them",
		func(pkg string, floor int) {
			Expect(deps).To(HaveKey(pkg))
			Expect(floorOf(pkg)).To(Equal(floor))
		},
		Entry(nil, "pkg/elements", 2), Entry(nil, "pkg/collate", 2), Entry(nil, "pkg/visitors", 2), Entry(nil, "pkg/strategy", 2),
		Entry(nil, "pkg/parse", 0), Entry(nil, "openapi", 1),
	)

	It("detect an import running up (the check can fail)", func() {
		Expect(floorOf("pkg/value")).To(BeNumerically("<", floorOf("pkg/apply")))
		Expect(floorOf("pkg/collate/internal/format")).To(Equal(2))
		Expect(floorOf("cmd/internal/cli")).To(Equal(5))
		Expect(floorOf("pkg/valuex")).To(Equal(-1))
	})
})
