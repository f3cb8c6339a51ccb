package patchgen_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/test/jsonv"
)

// A two-way patch without orders is strategicpatch's diff with SetElementOrder false, the changes kubectl's conflict
// check compares: a list's order is no change, a "$setElementOrder/<f>" key a document holds is data like any field.
var _ = DescribeTable("a two-way patch without $setElementOrder directives",
	func(original, modified, want string) {
		opts := patchgen.Options{TypeName: "io.k8s.api.core.v1.Pod", Gates: features.Kubectl(), WithoutOrders: true}
		p, err := patchgen.TwoWay(jsonv.MustDecode(original), jsonv.MustDecode(modified), opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(p.JSON())).To(Equal(want))
	},
	Entry("a keyed list reordered is no change",
		`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`,
		`{"spec":{"containers":[{"name":"b"},{"name":"a"}]}}`,
		`{}`),
	Entry("an item whose list alone was reordered is left out",
		`{"spec":{"containers":[{"name":"a","env":[{"name":"x"},{"name":"y"}]},{"name":"b","image":"i"}]}}`,
		`{"spec":{"containers":[{"name":"a","env":[{"name":"y"},{"name":"x"}]},{"name":"b","image":"j"}]}}`,
		`{"spec":{"containers":[{"image":"j","name":"b"}]}}`),
	Entry("a deleted item is a delete directive, the list unordered",
		`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`,
		`{"spec":{"containers":[{"name":"b"}]}}`,
		`{"spec":{"containers":[{"$patch":"delete","name":"a"}]}}`),
	Entry("a $setElementOrder/<f> key held differently is data beside the list's change",
		`{"spec":{"containers":[{"name":"a"}],"$setElementOrder/containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"b"},{"name":"a"}],"$setElementOrder/containers":[{"name":"b"}]}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":"b"}],"containers":[{"name":"b"}]}}`),
	Entry("a $setElementOrder/<f> key held alike is no change, the list reordered",
		`{"spec":{"containers":[{"name":"a"},{"name":"b"}],"$setElementOrder/containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"b"},{"name":"a"}],"$setElementOrder/containers":[{"name":"a"}]}}`,
		`{}`),
)
