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

// BenchmarkPatch's long-list set means "1,000 entries, every value changed"
// only if the versions have that shape.
var _ = Describe("the long-list Deployments of BenchmarkPatch", func() {
	It("hold the same names and env names in both versions, every env value different", func() {
		v1, v2 := clusterbench.LongLists(3, 1000, 1), clusterbench.LongLists(3, 1000, 2)
		Expect(v1).To(HaveLen(3))
		for i := range v1 {
			Expect(v1[i]["metadata"].(map[string]any)["name"]).To(Equal(v2[i]["metadata"].(map[string]any)["name"]))
			env1, env2 := envOf(v1[i]), envOf(v2[i])
			Expect(env1).To(HaveLen(1000))
			Expect(env2).To(HaveLen(1000))
			for j := range env1 {
				Expect(env1[j]["name"]).To(Equal(env2[j]["name"]))
				Expect(env1[j]["value"]).NotTo(Equal(env2[j]["value"]))
			}
		}
	})

	It("make a patch set only of two objects or more", func() {
		_, err := clusterbench.NewPatchSet(func(v int) []map[string]any { return clusterbench.LongLists(1, 10, v) })
		Expect(err).To(MatchError(ContainSubstring("at least 2 objects")))
		set, err := clusterbench.NewPatchSet(func(v int) []map[string]any { return clusterbench.LongLists(2, 10, v) })
		Expect(err).NotTo(HaveOccurred())
		Expect(set.N).To(Equal(2))
	})
})

// envOf is the env list of a LongLists Deployment's one container.
func envOf(d map[string]any) []map[string]any {
	c := d["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
	var out []map[string]any
	for _, e := range c["env"].([]any) {
		out = append(out, e.(map[string]any))
	}
	return out
}
