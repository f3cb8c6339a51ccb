package clusterbench_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/cluster"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/clusterbench"
)

// The benchmark's numbers mean "objects written per second" only if the
// set has the announced shape and every object changes between versions.
var _ = Describe("the benchmark's object set", func() {
	read := func(dir string) []cluster.Object {
		GinkgoHelper()
		objs, err := cluster.ReadObjects([]string{dir}, false, nil)
		Expect(err).NotTo(HaveOccurred())
		return objs
	}
	key := func(o cluster.Object) string {
		kind, _ := o.Value.Get("kind")
		md, _ := o.Value.Get("metadata")
		name, _ := md.Get("name")
		k, _ := kind.AsString()
		n, _ := name.AsString()
		return k + "/" + n
	}

	It("has 500 ConfigMaps and 500 Deployments with unique names, each different in the two versions", func() {
		dir := GinkgoT().TempDir()
		v1, v2 := filepath.Join(dir, "v1"), filepath.Join(dir, "v2")
		Expect(clusterbench.WriteDir(v1, clusterbench.Objects, 1)).To(Succeed())
		Expect(clusterbench.WriteDir(v2, clusterbench.Objects, 2)).To(Succeed())
		files, err := os.ReadDir(v1)
		Expect(err).NotTo(HaveOccurred())
		Expect(files).To(HaveLen(20))

		first, second := read(v1), read(v2)
		Expect(first).To(HaveLen(clusterbench.Objects))
		Expect(second).To(HaveLen(clusterbench.Objects))
		kinds := map[string]int{}
		byKey := map[string]value.Value{}
		for _, o := range first {
			k := key(o)
			Expect(byKey).NotTo(HaveKey(k), "duplicate object")
			byKey[k] = o.Value
			kind, _ := o.Value.Get("kind")
			s, _ := kind.AsString()
			kinds[s]++
		}
		Expect(kinds).To(Equal(map[string]int{"ConfigMap": 500, "Deployment": 500}))
		for _, o := range second {
			old, ok := byKey[key(o)]
			Expect(ok).To(BeTrue(), "%s is only in version 2", key(o))
			Expect(value.Equal(old, o.Value)).To(BeFalse(), "%s is the same in both versions", key(o))
		}
	})

	It("rejects a set too small to split", func() {
		_, err := clusterbench.Setup(1, 0, GinkgoWriter)
		Expect(err).To(MatchError(ContainSubstring("at least 2 objects")))
	})
})
