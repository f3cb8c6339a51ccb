package parity_test

import (
	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// managedFields returns the managedFields entries of the object ref in ns
// without their times, which no two runs share.
func managedFields(ns string, ref objRef) []metav1.ManagedFieldsEntry {
	GinkgoHelper()
	entries := get(ns, ref).GetManagedFields()
	for i := range entries {
		entries[i].Time = nil
	}
	return entries
}

// expectSameManagers fails unless every ref has the same managedFields in
// ns as in refNS (times aside).
func expectSameManagers(refNS, ns string, refs []objRef) {
	GinkgoHelper()
	for _, r := range refs {
		Expect(cmp.Diff(managedFields(refNS, r), managedFields(ns, r))).To(BeEmpty(),
			"%s %s: the managed fields of namespace %s (-) differ from %s (+)", r.gvr.Resource, r.name, refNS, ns)
	}
}

var _ = Describe("kubectl apply --server-side and ply apply --server-side", Ordered, func() {
	const reference = "ssa-kubectl"
	lanes := []lane{
		{reference, always(kubectlSSATool)},
		{"ssa-ply", always(plySSATool)},
		{"ssa-handover-p", alternate(plySSATool, kubectlSSATool)},
		{"ssa-handover-k", alternate(kubectlSSATool, plySSATool)},
		// From client-side to server-side: the first step client-side,
		// by kubectl in one namespace and ply in the other, then
		// server-side, by the other tool.
		{"ssa-from-csa", func(step int) tool {
			if step == 1 {
				return kubectlTool
			}
			return plySSATool
		}},
		{"ssa-from-csa-ref", func(step int) tool {
			if step == 1 {
				return kubectlTool
			}
			return kubectlSSATool
		}},
	}

	BeforeAll(func() {
		for _, l := range lanes {
			createNamespace(l.ns)
		}
	})

	files, titles := stepFiles()
	for i, file := range files {
		step := i + 1
		It(titles[i], func() {
			reports := map[string][]string{}
			for _, l := range lanes {
				t := l.tool(step)
				reports[l.ns] = apply(t, file, l.ns)
				GinkgoWriter.Printf("step %02d %-16s %-11s %v\n", step, l.ns, t, reports[l.ns])
			}
			pairs := [][2]string{{reference, "ssa-ply"}, {reference, "ssa-handover-p"}, {reference, "ssa-handover-k"}, {"ssa-from-csa-ref", "ssa-from-csa"}}
			for _, p := range pairs {
				Expect(reports[p[1]]).To(Equal(reports[p[0]]), "step %02d: %s reported differently from %s:\n%s", step, p[1], p[0], diffLines(reports[p[0]], reports[p[1]]))
				expectSame(p[0], p[1], stepObjects)
				expectSameManagers(p[0], p[1], stepObjects)
			}
			for _, c := range changesAfter[step] {
				By(c.what)
				for _, l := range lanes {
					update(l.ns, c.ref, c.change)
				}
			}
		})
	}
})
