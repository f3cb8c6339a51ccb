package patchgen_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/test/jsonv"
)

var _ = Describe("ThreeWay, a set repeating a value, every gate off", func() {
	// local adds b twice around c: kubectl's delta lists the additions grouped ([b, b, c]), which contradicts
	// $setElementOrder ([b, a, c, b]). kubectl checks that where it merges its halves' maps holding the list: there the
	// deletions hold metadata (the label local dropped), so no patch can be made; without them the patch is made (and
	// the server refuses it when applying it).
	const recorded = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p","finalizers":["a"],"labels":{"x":"y"}}}`
	opts := patchgen.Options{Gates: features.Kubectl(), Overwrite: true}

	It("cannot be made where the deletions hold the list's map, as kubectl's cannot", func() {
		local := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p","finalizers":["b","a","c","b"]}}`
		_, err := patchgen.ThreeWay(jsonv.MustDecode(recorded), jsonv.MustDecode(local), jsonv.MustDecode(recorded), opts)
		Expect(err).To(MatchError("local metadata.finalizers: kubectl's patch for local's repeated set values cannot be made: " +
			"the order of the patch list contradicts $setElementOrder/finalizers: patch list item 2 comes after an item it precedes there"))
	})

	It("is made elsewhere, its additions grouped as kubectl's", func() {
		local := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p","finalizers":["b","a","c","b"],"labels":{"x":"y"}}}`
		p, err := patchgen.ThreeWay(jsonv.MustDecode(recorded), jsonv.MustDecode(local), jsonv.MustDecode(recorded), opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(p.JSON())).To(Equal(`{"metadata":{"$setElementOrder/finalizers":["b","a","c","b"],"finalizers":["b","b","c"]}}`))
	})
})
