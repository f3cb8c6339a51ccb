package strategicpatch_test

import (
	"encoding/json"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	appsv1 "k8s.io/api/apps/v1"
	sp "k8s.io/apimachinery/pkg/util/strategicpatch"

	ply "github.com/plyproject/ply/pkg/strategicpatch"
)

var _ = Describe("the look-ups of a Go type and the types of its objects, cached once per type", func() {
	// Keys of other case match a field as encoding/json matches them; an unknown field fails the look-up each time.
	patches := []string{
		`{"spec":{"replicas":4,"template":{"spec":{"containers":[{"name":"web","image":"x"}]}}}}`,
		`{"Spec":{"Replicas":4,"TEMPLATE":{"spec":{"Containers":[{"name":"web","image":"y"}]}}}}`,
		`{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"side"},{"name":"web"}],"containers":[{"name":"side","image":"s"}]}}}}`,
		`{"spec":{"unknownField":{"a":1},"template":{"spec":{"containers":[{"name":"web","image":"z"}]}}}}`,
		`{"spec":{"template":{"spec":{"containers":{"name":"web"}}}}}`,
		`{"spec":{"template":{"spec":{"containers":[{"name":"web","env":[{"name":"A","value":"9"}],"ports":null}]}}}}`,
		`{"spec":{"template":{"spec":{"containers":[{"name":"web","env":[{"name":"A","value":"9"}],"ports":[{"containerPort":81}]}]}}}}`,
		`{"metadata":{"labels":{"app":"x"}},"spec":{"replicas":1}}`,
		`{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"web"}]}}}}`,
		`{"spec":{"template":{"spec":{"containers":[{"name":"web","$deleteFromPrimitiveList/args":["a"]}]}}}}`,
		`{"spec":{"template":{"spec":{"containers":null}}}}`,
	}
	type result struct{ Out, Err string }
	// calls applies each patch to two objects and creates the three-way patch to it, the schema given by schemaOf.
	calls := func(schemaOf func() sp.LookupPatchMeta) []result {
		var out []result
		for _, p := range patches {
			// (Objects of other shapes where the patches reach: the types of the documents differ.)
			for _, live := range []string{current, `{"spec":{"unknownField":{"b":2}}}`, `{"spec":{"template":{"spec":{"containers":"text","volumes":[]}}}}`,
				`{"spec":{"template":{"spec":{"containers":[{"name":"web","args":"a","env":{"A":"b"}},"x"]}}}}`} {
				b, err := ply.StrategicMergePatchUsingLookupPatchMeta([]byte(live), []byte(p), schemaOf())
				out = append(out, result{string(b), errText(err)})
			}
			b, err := ply.CreateThreeWayMergePatch([]byte(original), []byte(p), []byte(current), schemaOf(), true)
			out = append(out, result{string(b), errText(err)})
		}
		return out
	}

	It("give the results of the same schema walked key by key, from many goroutines at once", func() {
		var asked []string
		want := calls(func() sp.LookupPatchMeta { return countingLookup{schema, &asked} })
		Expect(want).To(ContainElement(HaveField("Err", ContainSubstring(`unable to find api field in struct DeploymentSpec for the json field "unknownField"`))),
			"a failed look-up is the schema's error")
		Expect(want).To(ContainElement(HaveField("Out", ContainSubstring(`"Spec":{"Replicas":4`))))

		got := make([][]result, 8)
		var wg sync.WaitGroup
		for i := range got {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				for range 5 {
					got[i] = calls(func() sp.LookupPatchMeta {
						s, err := ply.NewPatchMetaFromStruct(&appsv1.Deployment{})
						Expect(err).NotTo(HaveOccurred())
						return s
					})
				}
			}()
		}
		wg.Wait()
		for _, g := range got {
			Expect(g).To(Equal(want))
		}
	})
})

var _ = Describe("a Go type's caches, filled from many goroutines at once", func() {
	// A type no other spec asks about (StatefulSet), so that the goroutines' first calls all find its caches empty and
	// add look-ups, kept types and merge keys at once; each patch reaches keys of its own besides the shared ones.
	const live = `{"spec":{"replicas":1,"template":{"spec":{"containers":[{"name":"web","image":"a","ports":[{"containerPort":80}]}],` +
		`"volumes":[{"name":"v","emptyDir":{}}]}},"volumeClaimTemplates":[{"metadata":{"name":"d"}}]}}`
	patches := []string{
		`{"spec":{"replicas":3}}`,
		`{"spec":{"template":{"spec":{"containers":[{"name":"web","env":[{"name":"A","value":"1"}]}]}}}}`,
		`{"spec":{"template":{"spec":{"containers":[{"name":"web","ports":[{"containerPort":81}]}]}}}}`,
		`{"spec":{"template":{"spec":{"volumes":[{"name":"v","$retainKeys":["name","configMap"],"configMap":{"name":"c"}}]}}}}`,
		`{"spec":{"template":{"spec":{"initContainers":[{"name":"i","image":"i"}],"tolerations":[{"key":"k"}]}}}}`,
		`{"metadata":{"labels":{"a":"b"},"finalizers":["f"]},"spec":{"updateStrategy":{"type":"OnDelete"}}}`,
	}

	It("gives apimachinery's results in every goroutine", func() {
		want := make([]string, len(patches))
		for i, p := range patches {
			b, err := sp.StrategicMergePatch([]byte(live), []byte(p), appsv1.StatefulSet{})
			Expect(err).NotTo(HaveOccurred())
			want[i] = string(b)
		}
		got := make([][]string, 16)
		atOnce(len(got), func(g int) {
			got[g] = make([]string, len(patches))
			for k := range patches {
				i := (k + g) % len(patches) // (each goroutine starts at another patch)
				b, err := ply.StrategicMergePatch([]byte(live), []byte(patches[i]), appsv1.StatefulSet{})
				Expect(err).NotTo(HaveOccurred())
				got[g][i] = string(b)
			}
		})
		for g := range got {
			for i := range patches {
				Expect(got[g][i]).To(MatchJSON(want[i]), "goroutine %d, patch %s", g, patches[i])
			}
		}
	})
})

var _ = Describe("a Go type's types kept by skeleton, filled from many goroutines at once", func() {
	// A type no other spec applies maps of (ReplicaSet), so that the goroutines' first calls all find its types by
	// skeleton empty and add to them at once; each patch has a skeleton of its own.
	const live = `{"spec":{"replicas":1,"template":{"spec":{"containers":[{"name":"web","image":"a","ports":[{"containerPort":80}]}]}}}}`
	patches := []string{
		`{"spec":{"replicas":3}}`,
		`{"spec":{"template":{"spec":{"containers":[{"name":"web","env":[{"name":"A","value":"1"}]}]}}}}`,
		`{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"b"}]}}}}`,
		`{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"x"},{"name":"web"}],"containers":[{"name":"x","image":"x"}]}}}}`,
		`{"metadata":{"labels":{"a":"b"},"finalizers":["f"]},"spec":{"minReadySeconds":4}}`,
	}
	decode := func(text string) map[string]interface{} {
		var m map[string]interface{}
		Expect(json.Unmarshal([]byte(text), &m)).To(Succeed())
		return m
	}

	It("gives apimachinery's results in every goroutine", func() {
		want := make([]map[string]interface{}, len(patches))
		for i, p := range patches {
			out, err := sp.StrategicMergeMapPatch(decode(live), decode(p), &appsv1.ReplicaSet{})
			Expect(err).NotTo(HaveOccurred())
			want[i] = out
		}
		got := make([][]map[string]interface{}, 16)
		atOnce(len(got), func(g int) {
			got[g] = make([]map[string]interface{}, len(patches))
			for k := range 3 * len(patches) {
				i := (k + g) % len(patches) // (each goroutine starts at another patch)
				out, err := ply.StrategicMergeMapPatch(decode(live), decode(patches[i]), &appsv1.ReplicaSet{})
				Expect(err).NotTo(HaveOccurred())
				got[g][i] = out
			}
		})
		for g := range got {
			for i := range patches {
				gotJSON, err := json.Marshal(got[g][i])
				Expect(err).NotTo(HaveOccurred())
				wantJSON, err := json.Marshal(want[i])
				Expect(err).NotTo(HaveOccurred())
				Expect(string(gotJSON)).To(Equal(string(wantJSON)), "goroutine %d, patch %s", g, patches[i])
			}
		}
	})
})

var _ = Describe("the types cached for a Go type's objects", func() {
	// Both lists of a pod's containers, and both lists of scalars of a container: directives naming one or the other
	// are the patches' only difference.
	const live = `{"spec":{"template":{"spec":{` +
		`"containers":[{"name":"a","args":["x","y"],"command":["x","y"]},{"name":"b"}],` +
		`"initContainers":[{"name":"a","args":["x","y"],"command":["x","y"]},{"name":"b"}]}}}}`
	pod := func(fields string) string { return `{"spec":{"template":{"spec":{` + fields + `}}}}` }
	patches := []string{
		pod(`"$setElementOrder/containers":[{"name":"b"},{"name":"a"}]`),
		pod(`"$setElementOrder/initContainers":[{"name":"b"},{"name":"a"}]`),
		pod(`"containers":[{"name":"a","$deleteFromPrimitiveList/args":["x"]}]`),
		pod(`"containers":[{"name":"a","$deleteFromPrimitiveList/command":["x"]}]`),
		pod(`"initContainers":[{"name":"a","$deleteFromPrimitiveList/args":["x"]}]`),
	}

	It("tell patches apart by the names their directives give, as apimachinery does", func() {
		seen := map[string]bool{}
		for round := range 3 {
			for _, p := range patches {
				want, err := sp.StrategicMergePatch([]byte(live), []byte(p), appsv1.Deployment{})
				Expect(err).NotTo(HaveOccurred())
				got, err := ply.StrategicMergePatch([]byte(live), []byte(p), appsv1.Deployment{})
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(MatchJSON(want), "round %d, patch %s", round, p)
				seen[string(want)] = true
			}
		}
		Expect(seen).To(HaveLen(len(patches)), "each patch changes the object in its own way")
	})
})

// atOnce runs call(g) for g from 0 to n-1, each in a goroutine of its own, all started at once, and waits for them.
func atOnce(n int, call func(g int)) {
	start := make(chan struct{})
	var wg sync.WaitGroup
	for g := range n {
		wg.Add(1)
		go func() {
			defer GinkgoRecover()
			defer wg.Done()
			<-start
			call(g)
		}()
	}
	close(start)
	wg.Wait()
}
