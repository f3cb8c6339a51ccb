package apply_test

import (
	"fmt"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/value"
)

// Merge reuses the storage of its trees (collate.CountIn): the changes it
// returns must stay right whatever later merges do with that storage.
var _ = Describe("merges that reuse the storage of earlier trees", func() {
	// configMap is a ConfigMap named name whose data (binaryData for
	// names starting with "o") holds n keys named by name's first letter
	// and i, each valued prefix+i.
	field := func(name string) string {
		if name[0] == 'o' {
			return "binaryData"
		}
		return "data"
	}
	configMap := func(name string, n int, prefix string) value.Value {
		var sb strings.Builder
		sb.WriteString(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "` + name + `"}, "` + field(name) + `": {`)
		for i := range n {
			if i > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, `"%s%03d": "%s%d"`, name[:1], i, prefix, i)
		}
		sb.WriteString("}}")
		return mustParse(sb.String())
	}
	// merge changes every value of a ConfigMap of n keys and returns the
	// result with its change paths, rendered.
	merge := func(name string, n int) (string, []string) {
		old, next := configMap(name, n, "old-"), configMap(name, n, "new-")
		res, err := apply.Merge(old, next, old, apply.DefaultOptions())
		Expect(err).NotTo(HaveOccurred())
		paths := make([]string, len(res.Changes))
		for i, c := range res.Changes {
			paths[i] = c.Op.String() + " " + c.Path().String()
		}
		return string(res.Object.JSON()), paths
	}
	wantPaths := func(name string, n int) []string {
		out := make([]string, n)
		for i := range n {
			out[i] = fmt.Sprintf("replace %s.%s%03d", field(name), name[:1], i)
		}
		return out
	}

	DescribeTable("keep their change paths after later merges reuse the storage",
		func(n int) {
			res, err := apply.Merge(configMap("first", n, "a"), configMap("first", n, "b"), configMap("first", n, "a"), apply.DefaultOptions())
			Expect(err).NotTo(HaveOccurred())
			// Later merges of other objects, of every size, reuse the pool.
			for _, m := range []int{1, 5, 70, 200} {
				merge(fmt.Sprintf("other-%d", m), m)
			}
			got := make([]string, len(res.Changes))
			for i, c := range res.Changes {
				got[i] = c.Op.String() + " " + c.Path().String()
			}
			Expect(got).To(Equal(wantPaths("first", n)))
			Expect(string(res.Object.JSON())).To(Equal(string(configMap("first", n, "b").JSON())))
		},
		Entry("a few changes (paths taken at once, storage reused)", 3),
		Entry("many changes (lazy paths, the tree kept)", 100),
	)

	It("give every goroutine its own storage (run with -race)", func() {
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				defer GinkgoRecover()
				for round := range 20 {
					n := 1 + (g*7+round*3)%80
					name := fmt.Sprintf("g%d-r%d", g, round)
					obj, paths := merge(name, n)
					Expect(obj).To(Equal(string(configMap(name, n, "new-").JSON())))
					Expect(paths).To(Equal(wantPaths(name, n)))
				}
			})
		}
		wg.Wait()
	})
})

// Merge takes a few changes' paths at once, each sharing with the one
// before it what their paths have in common: every path must still be its
// own change's, whether it shares the whole parent, part of it or nothing.
var _ = It("gives changes at every depth and in sibling and cousin items their own paths", func() {
	deployment := func(label, replicas, envX, envY, imageB string) value.Value {
		return mustParse(`{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d", "labels": {"a": "` + label + `", "b": "1"}},
			"spec": {"replicas": ` + replicas + `, "selector": {"matchLabels": {"app": "d"}}, "template": {"metadata": {"labels": {"app": "d"}}, "spec": {"containers": [
				{"name": "a", "image": "i", "env": [{"name": "x", "value": "` + envX + `"}, {"name": "y", "value": "` + envY + `"}, {"name": "z", "value": "1"}]},
				{"name": "b", "image": "` + imageB + `", "env": [{"name": "x", "value": "` + envX + `"}]}]}}}}`)
	}
	old, next := deployment("1", "1", "1", "1", "1"), deployment("2", "2", "2", "2", "2")
	res, err := apply.Merge(old, next, old, apply.DefaultOptions())
	Expect(err).NotTo(HaveOccurred())
	var got []string
	for _, c := range res.Changes {
		got = append(got, c.Op.String()+" "+c.Path().String())
	}
	Expect(got).To(Equal([]string{
		"replace metadata.labels.a",
		"replace spec.replicas",
		"replace spec.template.spec.containers[name=a].env[name=x].value",
		"replace spec.template.spec.containers[name=a].env[name=y].value",
		"replace spec.template.spec.containers[name=b].env[name=x].value",
		"replace spec.template.spec.containers[name=b].image",
	}))
})
