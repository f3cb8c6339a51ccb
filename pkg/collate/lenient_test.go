package collate_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/plyproject/ply/test/treetest"

	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
)

var _ = Describe("Lenient", func() {
	// members lists the Items of a keyed list or set with their local
	// positions.
	members := func(e elements.Element) []idx {
		switch e := e.(type) {
		case *elements.ListElement:
			return indexes(e.Items)
		case *elements.SetElement:
			return indexes(e.Items)
		}
		return nil
	}

	DescribeTable("accepts what kubectl's diff accepts where Collate blames local",
		func(local, path, kind string, items []idx) {
			_, err := collate.Collate(three(absent, local, absent), widget(), collate.Options{})
			Expect(err).To(HaveOccurred(), "Collate blames local")
			root, err := collate.Collate(three(absent, local, absent), widget(), collate.Options{Lenient: true})
			Expect(err).NotTo(HaveOccurred())
			e, ok := treetest.ByPath(root)[path]
			Expect(ok).To(BeTrue(), "no node at "+path)
			Expect(typeName(e)).To(Equal(kind))
			Expect(members(e)).To(Equal(items))
		},
		Entry("a list where a map is expected: atomic",
			`{metadata: {labels: [a]}}`, "metadata.labels", "AtomicElement", nil),
		Entry("an object where a list is expected: atomic",
			wrapSpec(`{ports: {port: 80}}`), "spec.ports", "AtomicElement", nil),
		Entry("a list where a scalar is expected: atomic",
			wrapSpec(`{replicas: [1]}`), "spec.replicas", "AtomicElement", nil),
		Entry("a repeated key: the first item is matched, the others left out",
			wrapSpec(`{containers: [{name: a, image: one}, {name: b}, {name: a, image: two}, {name: b}]}`), "spec.containers", "ListElement",
			[]idx{{-1, 0, -1}, {-1, 1, -1}}),
		Entry("a repeated key through the key default",
			wrapSpec(`{ports: [{port: 80}, {port: 80, protocol: TCP}]}`), "spec.ports", "ListElement",
			[]idx{{-1, 0, -1}}),
	)

	DescribeTable("refuses what kubectl's diff fails on too, as Collate does",
		func(local, msg string) {
			_, strict := collate.Collate(three(absent, local, absent), widget(), collate.Options{})
			Expect(strict).To(HaveOccurred())
			_, err := collate.Collate(three(absent, local, absent), widget(), collate.Options{Lenient: true})
			Expect(err).To(MatchError(strict.Error()))
			Expect(err).To(MatchError(ContainSubstring(msg)))
		},
		Entry("a keyed item that is not an object", wrapSpec(`{containers: [{name: a}, b]}`), "expected an object with merge key name"),
		Entry("a keyed item without its key", wrapSpec(`{containers: [{name: a}, {image: i}]}`), `has no merge key field "name"`),
		Entry("a set value that is not a scalar", wrapSpec(`{tags: [a, {x: 1}]}`), "expected a scalar in a set list"),
		Entry("a merge key of more than MaxKeyFields fields (a fault of the schema)",
			wrapSpec(`{wide: [{a: "1", b: "2", c: "3", d: "4", e: "5"}]}`), "at most 4 are supported"),
	)
})
