package bench_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/internal/probe"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/benchcase"
	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// Phase 1 builds one tree per operation and Phase 2 only reads it: each front-end collates the benchmark's 10-entry
// Deployment exactly once, the conflict check (Overwrite false) and patch generation included.
var _ = Describe("collations per operation", func() {
	var recorded, local, live value.Value
	var collations atomic.Int64
	BeforeEach(func() {
		in := benchcase.Make(10, "one")
		var err error
		for _, doc := range []struct {
			to   *value.Value
			data []byte
		}{{&recorded, in.Recorded}, {&local, in.Local}, {&live, in.Live}} {
			*doc.to, err = jsonv.Decode(doc.data)
			Expect(err).NotTo(HaveOccurred())
		}
		collations.Store(0)
		DeferCleanup(probe.OnCollation(func() { collations.Add(1) }))
	})

	DescribeTable("apply.Merge",
		func(overwrite bool, ordering apply.Ordering) {
			opts := apply.DefaultOptions()
			opts.Overwrite, opts.Ordering = overwrite, ordering
			res, err := apply.Merge(recorded, local, live, opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Changes).NotTo(BeEmpty(), "the input changes the image")
			Expect(collations.Load()).To(BeEquivalentTo(1))
		},
		Entry("Overwrite false", false, apply.OrderingSeed),
		Entry("Overwrite false, kubectl's order", false, apply.OrderingKubectl),
		Entry("Overwrite true", true, apply.OrderingSeed),
		Entry("Overwrite true, kubectl's order", true, apply.OrderingKubectl),
	)

	DescribeTable("patchgen",
		func(make func() (value.Value, error)) {
			p, err := make()
			Expect(err).NotTo(HaveOccurred())
			Expect(p.Len()).To(BeNumerically(">", 0), "the input changes the image")
			Expect(collations.Load()).To(BeEquivalentTo(1))
		},
		Entry("ThreeWay, Overwrite false", func() (value.Value, error) {
			return patchgen.ThreeWay(recorded, local, live, patchgen.Options{})
		}),
		Entry("ThreeWay, Overwrite true", func() (value.Value, error) {
			return patchgen.ThreeWay(recorded, local, live, patchgen.Options{Overwrite: true})
		}),
		Entry("TwoWay", func() (value.Value, error) { return patchgen.TwoWay(recorded, local, patchgen.Options{}) }),
	)

	// docs/extending.md: a list repeating a merge key (gate UniqueMergeKeys off) merges as kubectl's pipeline does, its
	// outcome its three-way patch entry applied to live's list, collated beside the tree in its one collation
	// (elements.Patched) and walked in Phase 2 with it.
	It("a merge through kubectl's patch (gate UniqueMergeKeys off, a repeated key) collates once", func() {
		doc := func(values ...string) value.Value {
			items := ""
			for i, v := range values {
				if i > 0 {
					items += ","
				}
				items += `{"name":"A","value":"` + v + `"}`
			}
			v, err := jsonv.Decode([]byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":` +
				`{"template":{"spec":{"containers":[{"name":"web","env":[` + items + `]}]}}}}`))
			Expect(err).NotTo(HaveOccurred())
			return v
		}
		opts := apply.DefaultOptions()
		opts.Gates = features.Kubectl()
		res, err := apply.Merge(doc("1"), doc("2", "3"), doc("1"), opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(res.Object.JSON())).To(Equal(string(doc("2").JSON())), "kubectl's result")
		// The tree, the env list's patch entry over live's list beside it (its repeated item collated alone with it,
		// merged onto its key's first item's outcome); the change list compares live with that outcome.
		Expect(collations.Load()).To(BeEquivalentTo(1))
		Expect(changeLines(res.Changes)).To(Equal([]string{"replace spec.template.spec.containers[name=web].env[name=A].value (local)"}))
	})

	It("a merge through kubectl's patch whose deletions have entries merges its two halves and collates once", func() {
		doc := func(env string) value.Value {
			v, err := jsonv.Decode([]byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":` +
				`{"template":{"spec":{"containers":[{"name":"web","env":` + env + `}]}}}}`))
			Expect(err).NotTo(HaveOccurred())
			return v
		}
		opts := apply.DefaultOptions()
		opts.Gates = features.Kubectl()
		recorded := doc(`[{"name":"A","value":"1"},{"name":"B","value":"x"}]`)
		res, err := apply.Merge(recorded, doc(`[{"name":"A","value":"2"},{"name":"A","value":"3"}]`), recorded, opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(res.Object.JSON())).To(Equal(string(doc(`[{"name":"A","value":"2"}]`).JSON())), "kubectl's result")
		// The tree (the patch's halves, B's deletion among them, are values of it, merged as values), the env list's
		// entry applied to live's beside it.
		Expect(collations.Load()).To(BeEquivalentTo(1))
		Expect(changeLines(res.Changes)).To(Equal([]string{
			"replace spec.template.spec.containers[name=web].env[name=A].value (local)",
			"remove spec.template.spec.containers[name=web].env[name=B] (recorded)",
		}))
	})

	It("a merge through kubectl's patch for a set repeating a value (gate UniqueMergeKeys off) collates once", func() {
		doc := func(finalizers string) value.Value {
			v, err := jsonv.Decode([]byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","finalizers":` + finalizers + `}}`))
			Expect(err).NotTo(HaveOccurred())
			return v
		}
		opts := apply.DefaultOptions()
		opts.Gates = features.Kubectl()
		res, err := apply.Merge(doc(`["a"]`), doc(`["a","b","a"]`), doc(`["a","c"]`), opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(res.Object.JSON())).To(Equal(string(doc(`["a","b","c"]`).JSON())), "kubectl's result")
		// The tree, the set's entry applied to live's beside it.
		Expect(collations.Load()).To(BeEquivalentTo(1))
		Expect(changeLines(res.Changes)).To(Equal([]string{"add metadata.finalizers[=b] (local)"}))
	})

	// A repeat of the list's entry in a merge through kubectl's patch is merged onto its key's first item's outcome as
	// patch.Apply merges it: here onto a list that outcome holds a key of twice (live's), laid out from the member's
	// tree, so the front-end applies nothing again (no visitors.InTurn to answer) and the merge collates once.
	It("a merge through kubectl's patch whose repeat merges onto a list holding a key twice collates once", func() {
		doc := func(containers string) value.Value {
			return jsonv.MustDecode(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"template":{"spec":{"containers":` + containers + `}}}}`)
		}
		local := doc(`[{"name":"web","env":[{"name":"A","value":"1"}]},{"name":"web","env":[{"name":"B","value":"2"}]}]`)
		live := doc(`[{"name":"web","env":[{"name":"A","value":"0"},{"name":"A","value":"x"}]}]`)
		var reapplied atomic.Int64
		DeferCleanup(probe.OnRepeat(func(frontEnd bool) {
			if frontEnd {
				reapplied.Add(1)
			}
		}))
		opts := apply.DefaultOptions()
		opts.Gates = features.Kubectl()
		res, err := apply.Merge(value.Null, local, live, opts)
		Expect(err).NotTo(HaveOccurred())
		o, err := oracle.DefaultV3For("io.k8s.api.apps.v1.Deployment")
		Expect(err).NotTo(HaveOccurred())
		want, err := o.Apply(nil, local.JSON(), live.JSON(), true)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(res.Object.JSON())).To(Equal(string(jsonv.MustDecode(string(want.Object)).JSON())), "kubectl's result")
		Expect(reapplied.Load()).To(BeEquivalentTo(0))
		Expect(collations.Load()).To(BeEquivalentTo(1))
	})

	// A patch naming a merge key twice (gate UniqueMergeKeys off) is applied as the API server applies it, each repeat
	// to the outcome of the items of its key before it, or to nothing where the server takes the list whole: the
	// repeats are collated with the patch (elements.Repeat.Element), each repeat's merged lists paired with those of the
	// member's tree or of the key's earlier repeats (elements.Chain), its "$patch" maps given their nodes onto a map
	// (elements.Repeat.Onto); the front-end applies again only what Phase 2 cannot merge onto that outcome
	// (docs/extending.md, "One collation per operation", lists it).
	DescribeTable("patch.Apply of a patch naming a merge key twice",
		func(live, p string, count int) {
			got, err := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(p), patch.Options{Gates: features.Kubectl()})
			Expect(err).NotTo(HaveOccurred())
			Expect(collations.Load()).To(BeEquivalentTo(count))
			sp, err := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
			Expect(err).NotTo(HaveOccurred())
			want, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta([]byte(live), []byte(p), sp.Meta())
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got.JSON())).To(Equal(string(jsonv.MustDecode(string(want)).JSON())), "the API server's result")
		},
		Entry("a repeat of fields decided whole, merged onto its key's first item: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","ports":[{"containerPort":53,"protocol":"TCP"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","ports":[{"containerPort":53,"protocol":"UDP","name":"u"},{"containerPort":53,"name":null,"hostPort":5}]}]}}`, 1),
		Entry("a repeat holding lists of scalars merged by no strategy following their \"$setElementOrder\", replacing lists its key's first item's outcome holds: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","args":["z"],"securityContext":{"capabilities":{"add":["a","d"]}}}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i","command":["q"]},{"name":"c","$setElementOrder/args":["c","x","d"],"args":["c","d"],"$setElementOrder/command":["a","b","a"],"command":["b","a"],"securityContext":{"capabilities":{"$setElementOrder/add":["d","x","e"],"add":["d","e"]}}}]}}`, 1),
		Entry("a repeat whose maps merge onto its key's first item's: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"}}}]}}`,
			`{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}},{"name":"c","resources":{"limits":{"memory":"1Gi"}},"image":"i"}]}}`, 1),
		Entry("a repeat whose empty map and \"$retainKeys\" map merge onto maps holding fields: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"}}}],"volumes":[{"name":"v","secret":{"secretName":"s"}}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","resources":{}}],"volumes":[{"name":"v","configMap":{"name":"m"}},{"name":"v","$retainKeys":["configMap","name"]}]}}`, 1),
		Entry("a repeat's list its key's outcome lacks, naming a key twice, ordered by its \"$setElementOrder\": once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/ports":[{"containerPort":53},{"containerPort":80},{"containerPort":53}],"ports":[{"containerPort":53,"protocol":"UDP"},{"containerPort":80},{"containerPort":53,"name":"b"}]}]}}`, 1),
		Entry("a list live lacks, taken whole with its repeats apart: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}`,
			`{"spec":{"containers":[{"name":"c","ports":[{"containerPort":53,"protocol":"UDP"},{"containerPort":53,"name":"b"}]}]}}`, 1),
		Entry("a repeat holding a merged list its key's first item holds, merged onto that list's outcome: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"}]},{"name":"c","env":[{"name":"B","value":"2"}]}]}}`, 1),
		Entry("a repeat merging into an item of that list, with a repeated key of its own: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"C","value":"0"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"},{"name":"A","value":"1"}]},{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}},{"name":"D","value":"2"},{"name":"A","value":null}]}]}}`, 1),
		Entry("a repeat ordering env its key's first item holds by $setElementOrder, deleting one of its items: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"}]},{"name":"c","$setElementOrder/env":[{"name":"D"},{"name":"B"},{"name":"A"}],"env":[{"name":"D","value":"2"},{"name":"B","value":"3"},{"$patch":"delete","name":"K"}]}]}}`, 1),
		Entry("a repeat replacing and deleting with \"$patch\" maps its key's first item's outcome holds: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"}},"livenessProbe":{"exec":{"command":["a"]},"periodSeconds":3}}]}}`,
			`{"spec":{"containers":[{"name":"c","securityContext":{"runAsUser":1}},{"name":"c","resources":{"$patch":"replace","requests":{"cpu":"2"}},"securityContext":{"$patch":"delete"},"livenessProbe":{"exec":{"$patch":"replace","command":["b"]}}}]}}`, 1),
		Entry("a repeat holding a list its key's first item leaves to live: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","ports":[{"containerPort":80},{"containerPort":81,"name":"b"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","ports":[{"containerPort":82},{"containerPort":81,"name":"x"}]}]}}`, 1),
		Entry("a repeat's \"$patch: replace\" list naming a key twice, onto a list its key's first item's outcome holds: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"$patch":"replace"},{"name":"B","value":"1"},{"name":"A","value":"1"},{"name":"B","value":"2"}]}]}}`, 1),
		Entry("a repeat ordering by \"$setElementOrder\" alone a list its key's first item holds: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","volumeMounts":[{"mountPath":"/a","name":"x"},{"mountPath":"/b","name":"y"},{"mountPath":"/k","name":"k"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","volumeMounts":[{"mountPath":"/b","name":"z"},{"mountPath":"/n","name":"n"}]},{"name":"c","image":"i","$setElementOrder/volumeMounts":[{"mountPath":"/n"},{"mountPath":"/b"},{"mountPath":"/a"}]}]}}`, 1),
		Entry("a repeat ordering by \"$setElementOrder\" alone lists of scalars merged by no strategy its key's first item's outcome holds, a value repeated, the order naming values they lack and one twice: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","args":["z","a","c","a"]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i","command":["x","y","w"]},{"name":"c","$setElementOrder/args":["c","x","a","c"],"$setElementOrder/command":["w","q","y"]}]}}`, 1),
		Entry("a repeat ordering by \"$setElementOrder\" alone args and finalizers its key's first item's outcome holds, the orders naming a null: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","args":["a","b","c"]}],"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","c"]}}}}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/args":["c",null,"a"]}],"volumes":[{"name":"v","secret":{}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["c",null,"a"]}}}}]}}`, 1),
		Entry("a repeat ordering by \"$setElementOrder\" alone a list of scalars merged by no strategy, beside fields decided whole and a map: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","command":["b","a"],"resources":{"limits":{"cpu":"1"}}}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/command":["a","b"],"image":"j","tty":null,"resources":{"requests":{"cpu":"1"}}}]}}`, 1),
		Entry("a key named three times, its later repeat's list merged onto the outcome of the first's: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"}]},{"name":"c","env":[{"name":"C","value":"2"},{"name":"A","value":"1"}]},{"name":"c","$setElementOrder/env":[{"name":"K"},{"name":"C"},{"name":"B"},{"name":"A"}],"env":[{"name":"C","value":"3"},{"name":"B","valueFrom":{"fieldRef":{"fieldPath":"x"}}}]}]}}`, 1),
		Entry("a key named four times, env items deleted, added again and merged, each repeat onto the outcome before it: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"}]},{"name":"c","env":[{"$patch":"delete","name":"A"},{"name":"C","value":"2"}]},{"name":"c","env":[{"name":"A","value":"3"},{"name":"B","value":null}]},{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"y"}}},{"name":"K","value":"j"}]}]}}`, 1),
		Entry("a key named three times, its later repeat's list merged onto a list the first took whole, naming a key twice: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","ports":[{"containerPort":53,"protocol":"UDP"},{"containerPort":80},{"containerPort":53,"name":"b"}]},{"name":"c","ports":[{"containerPort":80,"name":"h"},{"containerPort":53,"hostPort":5},{"containerPort":81}]}]}}`, 1),
		Entry("a key named three times, its later repeat's list merged onto a list the one before took whole and ordered, naming a key twice: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/ports":[{"containerPort":53},{"containerPort":80},{"containerPort":53}],"ports":[{"containerPort":53,"protocol":"UDP"},{"containerPort":80},{"containerPort":53,"name":"b"}]},{"name":"c","ports":[{"containerPort":53,"hostPort":5},{"containerPort":81}]}]}}`, 1),
		Entry("a repeat setting to null a set its key's first item's outcome holds, deleting from it by \"$deleteFromPrimitiveList\": once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"labels":{"k":"1"}}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"],"finalizers":null}}}}]}}`, 1),
		Entry("a repeat deleting by \"$deleteFromPrimitiveList\" alone from a set its key's first item's outcome holds: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","c"]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a","d"]}}}}]}}`, 1),
		Entry("a repeat holding empty and ordering by \"$setElementOrder\" a list its key's first item's outcome holds: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"}]},{"name":"c","$setElementOrder/env":[{"name":"K"},{"name":"B"}],"env":[]}]}}`, 1),
		Entry("a repeat holding a list its key's first item replaces live's with (\"$patch: replace\"): once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"B","value":"1"},{"name":"A","value":"1"}]},{"name":"c","env":[{"name":"C","value":"2"},{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}},{"name":"K","value":"j"}]}]}}`, 1),
		Entry("a repeat holding a set its key's first item deletes from live's by \"$deleteFromPrimitiveList\" alone: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","c"]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["b","x"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d","a","b"]}}}}]}}`, 1),
		Entry("a repeat deleting by \"$deleteFromPrimitiveList\" alone from a set its key's first item deleted every value of: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a","b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["c"],"labels":{"k":"v"}}}}}]}}`, 1),
		Entry("a repeat holding a list its key's first item merges into live's naming a key twice: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"A","value":"x"},{"name":"K","value":"k"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"}]},{"name":"c","$setElementOrder/env":[{"name":"K"},{"name":"A"},{"name":"C"}],"env":[{"name":"A","value":"1"},{"name":"C","value":"2"}]}]}}`, 1),
		Entry("a repeat ordering by \"$setElementOrder\" alone a list its key's first item leaves to live: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","volumeMounts":[{"mountPath":"/a","name":"x"},{"mountPath":"/b","name":"y"},{"mountPath":"/k","name":"k"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/volumeMounts":[{"mountPath":"/k"},{"mountPath":"/n"},{"mountPath":"/a"}]}]}}`, 1),
		Entry("a repeat holding a list its key's first item replaces live's with (\"$patch: replace\"), naming a key twice: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"B","value":"1"},{"name":"A","value":"1"},{"name":"B","value":"2"}]},{"name":"c","env":[{"name":"C","value":"2"},{"name":"B","valueFrom":{"fieldRef":{"fieldPath":"x"}}},{"name":"A","value":"3"}]}]}}`, 1),
		Entry("a repeat's empty list inside a map its key's first item leaves to live: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"a","uid":"a"},{"apiVersion":"v1","kind":"K","name":"b","uid":"b"}]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"ownerReferences":[]}}}}]}}`, 1),
		Entry("a repeat's keyed list and set inside a map its key's first item leaves to live: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"a","uid":"a"},{"apiVersion":"v1","kind":"K","name":"b","uid":"b"}]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/ownerReferences":[{"uid":"c"},{"uid":"b"},{"uid":"a"}],"finalizers":["c","a"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"c","uid":"c"},{"name":"x","uid":"b"}]}}}}]}}`, 1),
		Entry("a repeat's lists inside a map its key's first item replaces (\"$patch: replace\"): once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["z"]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"$patch":"replace","volumeClaimTemplate":{"metadata":{"finalizers":["a","b"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"a","uid":"a"}]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c","a"],"ownerReferences":[]}}}}]}}`, 1),
		Entry("a repeat deleting by \"$deleteFromPrimitiveList\" alone from a set live holds empty, its key's first item leaving it: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":[]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]}}}}]}}`, 1),
		Entry("a repeat holding empty, ordering and deleting from by \"$deleteFromPrimitiveList\" a set its key's first item's outcome holds: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","c"]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"],"$setElementOrder/finalizers":["c","b"],"finalizers":[]}}}}]}}`, 1),
		Entry("a repeat holding a list its key's first item leaves to live, live's naming a key twice: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B","value":"b"},{"name":"A","value":"2"},{"name":"C"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/env":[{"name":"C"},{"name":"A"},{"name":"D"},{"name":"B"}],"env":[{"name":"A","value":"x"},{"name":"D","value":"d"}]}]}}`, 1),
		Entry("a repeat ordering by \"$setElementOrder\" alone a list its key's first item leaves to live, live's naming a key twice: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B","value":"b"},{"name":"A","value":"2"},{"name":"C"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/env":[{"name":"C"},{"name":"B"},{"name":"A"}]}]}}`, 1),
		Entry("a key named three times, the third's empty lists inside a map the second set where the first's outcome lacked it: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}}]}}`,
			`{"spec":{"volumes":[{"name":"v","secret":{"optional":true}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"],"ownerReferences":[]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":[],"ownerReferences":[]}}}}]}}`, 1),
		Entry("a set whose base is live's set the member leaves as it is, naming a value twice (kept once): once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a"]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c","a"]}}}}]}}`, 1),
		Entry("a repeat deleting by \"$deleteFromPrimitiveList\" alone from live's set the member leaves, naming values twice (kept twice): once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a","c","b"]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a","c"]}}}}]}}`, 1),
		Entry("a repeat holding a set its key's first item deletes from live's by \"$deleteFromPrimitiveList\" alone, live's naming a value twice: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a","c"]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d","a"]}}}}]}}`, 1),
		Entry("a key's third item, its list over live's keyed list naming a key twice, merged onto the second's outcome: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B","value":"b"},{"name":"A","value":"2"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"A","value":"x"}]},{"name":"c","env":[{"name":"B","value":"y"},{"name":"D"}]}]}}`, 1),
		Entry("a set whose repeated values stay apart (Ranked without live), onto the outcome's set, each value once: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c","a","c"]}}}}]}}`, 1),
		Entry("a repeat's set merged onto the set its key's first item took whole naming a value twice (Ranked without live): once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c","a"]}}}}]}}`, 1),
		Entry("the same, the repeat naming a value twice and deleting one by \"$deleteFromPrimitiveList\": once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"],"finalizers":["c","a","c"]}}}}]}}`, 1),
		Entry("the same, the repeat deleting by \"$deleteFromPrimitiveList\" alone the value named twice: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]}}}}]}}`, 1),
		Entry("a key's third item, its set over the second's repeating a value (Ranked without live, its later item joined): once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c","d","c"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","d"]}}}}]}}`, 1),
		Entry("a \"$patch: replace\" list naming a key twice ordered by \"$setElementOrder\" onto a list the outcome holds (Phase 2: replacedApart): once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/env":[{"name":"B"},{"name":"A"},{"name":"B"}],"env":[{"$patch":"replace"},{"name":"B","value":"1"},{"name":"A","value":"1"},{"name":"B","value":"2"}]}]}}`, 1),
		Entry("a repeat merging onto its key's first item's \"$patch: replace\" env naming a key twice, over live's env naming keys twice: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B"},{"name":"A","value":"2"},{"name":"K","value":"k"},{"name":"B","value":"3"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"A","value":"x"},{"name":"B"},{"name":"A","value":"y"}]},{"name":"c","env":[{"name":"K","value":"z"},{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"q"}}}]}]}}`, 1),
		Entry("a repeat ordering by \"$setElementOrder\" its key's first item's \"$patch: replace\" env naming a key twice, over live's env naming keys twice: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B"},{"name":"A","value":"2"},{"name":"K","value":"k"},{"name":"B","value":"3"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"A","value":"x"},{"name":"B"},{"name":"A","value":"y"}]},{"name":"c","$setElementOrder/env":[{"name":"B"},{"name":"K"},{"name":"A"}],"env":[{"name":"K","value":"z"}]}]}}`, 1),
		Entry("a repeat deleting from its key's first item's \"$patch: replace\" env naming a key twice, over live's env naming keys twice: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B"},{"name":"A","value":"2"},{"name":"K","value":"k"},{"name":"B","value":"3"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"A","value":"x"},{"name":"B"},{"name":"A","value":"y"}]},{"name":"c","env":[{"$patch":"delete","name":"A"},{"name":"B","value":"n"}]}]}}`, 1),
		Entry("a key named three times over its first item's \"$patch: replace\" env naming a key twice, over live's env naming keys twice: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B"},{"name":"A","value":"2"},{"name":"K","value":"k"},{"name":"B","value":"3"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"A","value":"x"},{"name":"B"},{"name":"A","value":"y"}]},{"name":"c","env":[{"name":"B","value":"n"}]},{"name":"c","env":[{"name":"A","value":"m"},{"name":"B","value":null}]}]}}`, 1),
		Entry("a key's third item, its lists merged onto an earlier repeat's \"$patch: replace\" map's, naming a key and a value twice: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["z"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"z","uid":"z"}]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"$patch":"replace","metadata":{"finalizers":["a","b","a"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"a","uid":"a"},{"apiVersion":"v1","kind":"K","name":"b","uid":"a"}]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c","a"],"ownerReferences":[{"uid":"a","name":"x"},{"apiVersion":"v1","kind":"K","name":"b","uid":"b"}]}}}}]}}`, 1),
		Entry("a key's third item ordering and deleting from the lists of an earlier repeat's \"$patch: replace\" map: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["z"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"z","uid":"z"}]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"$patch":"replace","metadata":{"finalizers":["a","b"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"a","uid":"a"},{"apiVersion":"v1","kind":"K","name":"b","uid":"b"}]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["b","c","a"],"finalizers":["c"],"$setElementOrder/ownerReferences":[{"uid":"b"},{"uid":"a"}],"ownerReferences":[{"$patch":"delete","uid":"a"}]}}}}]}}`, 1),
		Entry("a key's third item deleting by \"$deleteFromPrimitiveList\" alone from a set of an earlier repeat's \"$patch: replace\" map: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["z"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"z","uid":"z"}]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"$patch":"replace","metadata":{"finalizers":["a","b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]}}}}]}}`, 1),
		Entry("a key's third item ordering by \"$setElementOrder\" alone a set of an earlier repeat's \"$patch: replace\" map: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["z"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"z","uid":"z"}]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"$patch":"replace","metadata":{"finalizers":["a","b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["b","a"]}}}}]}}`, 1),
		Entry("a key named four times, its later items' sets merged in turn onto an earlier repeat's \"$patch: replace\" map's: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["z"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"z","uid":"z"}]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"$patch":"replace","metadata":{"finalizers":["a","b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d","a"]}}}}]}}`, 1),
		Entry("a key named four times, its last item's set merged onto the map the third replaced (\"$patch: replace\") after the second: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["z"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"z","uid":"z"}]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"$patch":"replace","metadata":{"finalizers":["a","b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"$patch":"replace","metadata":{"finalizers":["q"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d","q"]}}}}]}}`, 1),
		Entry("a repeat deleting by \"$deleteFromPrimitiveList\" alone from a list merged by no strategy its key's first item leaves to live: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","args":["a","b","a"],"command":["x"]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$deleteFromPrimitiveList/args":["a","x"]}]}}`, 1),
		Entry("a repeat deleting by \"$deleteFromPrimitiveList\" alone from a list merged by no strategy its key's first item sets: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","args":["a","b","a"],"command":["x"]}]}}`,
			`{"spec":{"containers":[{"name":"c","args":["x","y","x"]},{"name":"c","$deleteFromPrimitiveList/args":["x"],"$deleteFromPrimitiveList/command":[]}]}}`, 1),
		// A "$patch: replace" list naming a key twice where the outcome holds another kind there: the patch's items as
		// they stand, walked from the repeat's tree. No class of this table is left to the front-end (docs/extending.md,
		// "One collation per operation", lists those that are: two collations each).
		Entry("a \"$patch: replace\" list naming a key twice where the outcome holds the list null (Phase 2: replacedOntoOther): once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":null}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"$patch":"replace"},{"name":"A","value":"1"},{"name":"B"},{"name":"A","value":"2"}]}]}}`, 1),
		Entry("a \"$patch: replace\" list naming a key twice where the outcome holds a scalar there (Phase 2: replacedOntoOther): once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":"x"}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"$patch":"replace"},{"name":"A","value":"1"},{"name":"B"},{"name":"A","value":"2"}]}]}}`, 1),
		Entry("a \"$patch: replace\" list naming a key twice where the outcome holds a map there (Phase 2: replacedOntoOther): once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":{"a":1}}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"$patch":"replace"},{"name":"A","value":"1"},{"name":"B","valueFrom":{"fieldRef":{"fieldPath":"p"}}},{"name":"A","value":"2"}]}]}}`, 1),
	)

	// With gate PatchDeleteRemovesMap on, a repeat's "$patch: delete" map removes a map its key's first item's outcome
	// holds (elements.Repeat.Onto gives it a null there), as applying the repeat onto that outcome does, from the
	// patch's tree.
	It("patch.Apply of a repeat's \"$patch: delete\" maps with gate PatchDeleteRemovesMap on collates once", func() {
		gates := features.Kubectl().With(features.PatchDeleteRemovesMap, true)
		live := jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}`)
		got, err := patch.Apply(live, jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","securityContext":{"runAsUser":1}},{"name":"c","image":"i","resources":{"$patch":"delete"},"securityContext":{"$patch":"delete"}}]}}`), patch.Options{Gates: gates})
		Expect(err).NotTo(HaveOccurred())
		Expect(collations.Load()).To(BeEquivalentTo(1))
		Expect(string(got.JSON())).To(Equal(string(jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"image":"i","name":"c"}]}}`).JSON())))
	})

	// A repeat's map of strategy replace (pkg/patch's test schema: Example's containers[].replaced) where its key's first
	// item's outcome holds a map, its value plain data, is the repeat's map whole, walked from the patch's tree.
	It("patch.Apply of a repeat's map of strategy replace onto its key's first item's map collates once", func() {
		file := filepath.Join("..", "..", "pkg", "patch", "testdata", "schema.json")
		data, err := os.ReadFile(file)
		Expect(err).NotTo(HaveOccurred())
		s, err := openapi.LoadV2Named("schema.json", data)
		Expect(err).NotTo(HaveOccurred())
		live := `{"apiVersion":"patch.ply.dev/v1","kind":"Example","containers":[{"name":"c","image":"i","replaced":{"maxSurge":"0","maxUnavailable":"1"}}]}`
		p := `{"containers":[{"name":"c","replaced":{"maxSurge":"1"}},{"name":"c","image":"j","replaced":{"maxUnavailable":"2"}}]}`
		got, err := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(p), patch.Options{Schema: s, TypeName: "dev.ply.patch.v1.Example", Gates: features.Kubectl()})
		Expect(err).NotTo(HaveOccurred())
		Expect(collations.Load()).To(BeEquivalentTo(1))
		o, err := oracle.OracleInFile(file, "dev.ply.patch.v1.Example")
		Expect(err).NotTo(HaveOccurred())
		want, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta([]byte(live), []byte(p), o.Meta())
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got.JSON())).To(Equal(string(jsonv.MustDecode(string(want)).JSON())), "the API server's result")
	})

	// A map of strategy replace (pkg/patch's test schema: Example's containers[].replaced) holding a null or a "$" key
	// (at any depth: its undeclared fields) where its key's first item's outcome holds a map: a collation with that
	// outcome takes the patch's map whole, less its null fields, directive keys and maps holding "$patch"
	// (elements.Repeat.Onto holds that node), where strategicpatch keeps them, so the repeat's outcome is judged against
	// its two items applied one after the other. Taken whole, it is not walked against the outcome's fields: an empty
	// one at the depth limit is no error.
	DescribeTable("patch.Apply of a repeat's map of strategy replace, as its items applied in turn",
		func(first, repeat string, maxDepth int) {
			file := filepath.Join("..", "..", "pkg", "patch", "testdata", "schema.json")
			data, err := os.ReadFile(file)
			Expect(err).NotTo(HaveOccurred())
			s, err := openapi.LoadV2Named("schema.json", data)
			Expect(err).NotTo(HaveOccurred())
			live := `{"apiVersion":"patch.ply.dev/v1","kind":"Example","containers":[{"name":"c","image":"i","replaced":{"maxSurge":"0","maxUnavailable":"1"}}]}`
			opts := patch.Options{Schema: s, TypeName: "dev.ply.patch.v1.Example", Gates: features.Kubectl(), MaxDepth: maxDepth}
			got, err := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(`{"containers":[`+first+`,`+repeat+`]}`), opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(collations.Load()).To(BeEquivalentTo(1))
			once, err := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(`{"containers":[`+first+`]}`), opts)
			Expect(err).NotTo(HaveOccurred())
			want, err := patch.Apply(once, jsonv.MustDecode(`{"containers":[`+repeat+`]}`), opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got.JSON())).To(Equal(string(want.JSON())))
		},
		Entry("holding a null: once", `{"name":"c","image":"j"}`, `{"name":"c","replaced":{"maxSurge":null,"maxUnavailable":"2"}}`, 0),
		Entry("holding a \"$\" key: once", `{"name":"c","image":"j"}`, `{"name":"c","replaced":{"$retainKeys":["maxSurge"],"maxSurge":"2"}}`, 0),
		Entry("holding nulls and a \"$patch\" map below it, and a list holding one: once", `{"name":"c","image":"j"}`,
			`{"name":"c","replaced":{"maxSurge":"1","x":{"a":null,"b":"c","$setElementOrder/l":["v"]},"y":{"$patch":"delete"},"z":[{"a":1},{"$patch":"delete","a":2}]}}`, 0),
		Entry("holding \"$retainKeys\" and a null, onto the map its key's first item set: once", `{"name":"c","replaced":{"maxSurge":"5"}}`,
			`{"name":"c","replaced":{"$retainKeys":["maxSurge","maxUnavailable"],"maxUnavailable":null,"maxSurge":"2"}}`, 0),
		Entry("empty at the depth limit, onto a map with fields: replaced, once", `{"name":"c","image":"j"}`, `{"name":"c","replaced":{}}`, 3),
	)

	// A map without fields at the depth limit (elements.Repeat.Limit) onto an outcome's map holding fields: those fields
	// would lie beyond the limit, so the patch is refused at the first of them (a limit of ply's: strategicpatch has
	// none), from the patch's tree; the result or error is that of the repeat applied to its key's first item's outcome.
	DescribeTable("patch.Apply of a repeat holding an empty map at the depth limit, as its items applied in turn",
		func(live, first, repeat string, maxDepth int, wantErr string) {
			opts := patch.Options{Gates: features.Kubectl(), MaxDepth: maxDepth}
			got, err := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(`{"spec":{"containers":[`+first+`,`+repeat+`]}}`), opts)
			Expect(collations.Load()).To(BeEquivalentTo(1))
			once, onceErr := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(`{"spec":{"containers":[`+first+`]}}`), opts)
			Expect(onceErr).NotTo(HaveOccurred())
			want, wantApplyErr := patch.Apply(once, jsonv.MustDecode(`{"spec":{"containers":[`+repeat+`]}}`), opts)
			if wantErr != "" {
				Expect(err).To(MatchError(ContainSubstring(wantErr)))
				Expect(wantApplyErr).To(MatchError(err.Error()))
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(wantApplyErr).NotTo(HaveOccurred())
			Expect(string(got.JSON())).To(Equal(string(want.JSON())))
		},
		Entry("onto a map with fields: refused at its first field, once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"},"requests":{"memory":"1"}}}]}}`, `{"name":"c","image":"i"}`, `{"name":"c","resources":{"limits":{}}}`, 5,
			"spec.containers[name=c].resources.limits.cpu: nesting is deeper than the limit of 5 levels"),
		Entry("two, the first by name onto a map with fields: refused there, once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"},"requests":{"memory":"1"}}}]}}`, `{"name":"c","image":"i"}`, `{"name":"c","resources":{"requests":{},"limits":{}}}`, 5,
			"spec.containers[name=c].resources.limits.cpu: nesting is deeper than the limit of 5 levels"),
		Entry("onto an empty map, and where the outcome lacks the field: merged, once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"limits":{}}}]}}`, `{"name":"c","image":"i"}`, `{"name":"c","resources":{"limits":{}},"securityContext":{"capabilities":{}}}`, 5, ""),
		Entry("inside an env item merged onto the outcome's of its name: refused at that item's field, once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}]}}`, `{"name":"c","image":"i"}`, `{"name":"c","env":[{"name":"B"},{"name":"A","valueFrom":{"fieldRef":{}}}]}`, 7,
			"spec.containers[name=c].env[name=A].valueFrom.fieldRef.fieldPath: nesting is deeper than the limit of 7 levels"),
		Entry("inside an env item the outcome lacks: merged, once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}]}}`, `{"name":"c","image":"i"}`, `{"name":"c","env":[{"name":"B","valueFrom":{"fieldRef":{}}}]}`, 7, ""),
		Entry("holding \"$retainKeys\" alone, onto a map with fields: refused at its first field, once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1","memory":"1"}}}]}}`, `{"name":"c","image":"i"}`, `{"name":"c","resources":{"limits":{"$retainKeys":["memory"]}}}`, 5,
			"spec.containers[name=c].resources.limits.cpu: nesting is deeper than the limit of 5 levels"),
		Entry("holding \"$retainKeys\" alone, inside an env item merged onto the outcome's of its name: refused at that item's field, once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}]}}`, `{"name":"c","image":"i"}`, `{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{"$retainKeys":["apiVersion"]}}}]}`, 7,
			"spec.containers[name=c].env[name=A].valueFrom.fieldRef.fieldPath: nesting is deeper than the limit of 7 levels"),
		Entry("holding \"$retainKeys\" alone, onto an empty map: merged, once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"limits":{}}}]}}`, `{"name":"c","image":"i"}`, `{"name":"c","resources":{"limits":{"$retainKeys":["cpu"]}}}`, 5, ""),
	)

	// A repeat deleting by "$deleteFromPrimitiveList" alone from a list the schema merges by no strategy (a container's
	// args, a capabilities' add) where its key's first item's outcome holds another kind there (kept as it stands), or a
	// list the deletion refuses (items of mixed kinds or null, objects, numbers where strings are deleted: the error a
	// collation with that outcome gives), decided from the patch's tree. Judged against the items applied in turn.
	DescribeTable("patch.Apply of a repeat deleting from a list merged by no strategy, as its items applied in turn",
		func(args, repeat, wantErr string) {
			live := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","args":` + args +
				`,"securityContext":{"capabilities":{"add":` + args + `}}}]}}`
			opts := patch.Options{Gates: features.Kubectl()}
			got, err := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},`+repeat+`]}}`), opts)
			Expect(collations.Load()).To(BeEquivalentTo(1))
			once, onceErr := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"}]}}`), opts)
			Expect(onceErr).NotTo(HaveOccurred())
			want, applyErr := patch.Apply(once, jsonv.MustDecode(`{"spec":{"containers":[`+repeat+`]}}`), opts)
			if wantErr != "" {
				Expect(applyErr).To(MatchError(ContainSubstring(wantErr)))
				Expect(err).To(MatchError(applyErr.Error()))
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(applyErr).NotTo(HaveOccurred())
			Expect(string(got.JSON())).To(Equal(string(want.JSON())))
		},
		Entry("the outcome holding a scalar there: kept, once", `"x"`, `{"name":"c","$deleteFromPrimitiveList/args":["x"]}`, ""),
		Entry("the outcome holding a map there: kept, once", `{"x":"y"}`, `{"name":"c","$deleteFromPrimitiveList/args":["x"]}`, ""),
		Entry("the outcome holding null there: kept, once", `null`, `{"name":"c","$deleteFromPrimitiveList/args":["x"]}`, ""),
		Entry("the outcome holding items of mixed kinds: refused (live's), once", `["x",1]`, `{"name":"c","$deleteFromPrimitiveList/args":["x"]}`,
			"live spec.containers[name=c].args: list items must all be of one kind"),
		Entry("the outcome holding a null item: refused (live's), once", `["x",null]`, `{"name":"c","$deleteFromPrimitiveList/args":["x"]}`,
			"live spec.containers[name=c].args: list items must all be of one kind"),
		Entry("the outcome holding objects: refused, once", `[{"x":1}]`, `{"name":"c","$deleteFromPrimitiveList/args":["x"]}`,
			"patch spec.containers[name=c].args: $deleteFromPrimitiveList/args applies to lists of scalars"),
		Entry("the outcome holding numbers, strings deleted: refused, once", `[1,2]`, `{"name":"c","$deleteFromPrimitiveList/args":["x"]}`,
			"patch spec.containers[name=c].args: $deleteFromPrimitiveList/args: the values to delete are strings but the list holds numbers"),
		Entry("inside a map the outcome holds, after a field set: refused there, once", `["x",1]`,
			`{"name":"c","image":"j","securityContext":{"capabilities":{"$deleteFromPrimitiveList/add":["x"]},"runAsUser":1}}`,
			"live spec.containers[name=c].securityContext.capabilities.add: list items must all be of one kind"),
		Entry("two refused, the first by name failing: once", `[{"x":1}]`,
			`{"name":"c","$deleteFromPrimitiveList/args":["x"],"securityContext":{"capabilities":{"$deleteFromPrimitiveList/add":["x"]}}}`,
			"patch spec.containers[name=c].args: $deleteFromPrimitiveList/args applies to lists of scalars"),
	)

	// A repeat the API server refuses onto any outcome (it orders by "$setElementOrder" a field it sets to other than a
	// list: elements.Repeat.Fails) fails with its own collation's error.
	DescribeTable("patch.Apply of a patch naming a merge key twice that the API server refuses",
		func(live, p string, count int) {
			_, err := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(p), patch.Options{Gates: features.Kubectl()})
			Expect(err).To(HaveOccurred())
			Expect(collations.Load()).To(BeEquivalentTo(count))
			sp, err := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
			Expect(err).NotTo(HaveOccurred())
			_, err = strategicpatch.StrategicMergePatchUsingLookupPatchMeta([]byte(live), []byte(p), sp.Meta())
			Expect(err).To(HaveOccurred(), "the API server refuses it")
		},
		Entry("a repeat holding empty and ordering a list its key's first item's outcome lacks: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/env":[{"name":"A"}],"env":[]}]}}`, 1),
		Entry("a repeat's \"$patch: merge\" map where its key's first item's outcome holds a map: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"}}}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","resources":{"$patch":"merge","requests":{"cpu":"2"}}}]}}`, 1),
		Entry("a repeat ordering a list it sets to null, its key's first item holding that list: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/env":[{"name":"A"}],"env":null}]}}`, 1),
		Entry("a repeat holding empty, ordering and deleting from by \"$deleteFromPrimitiveList\" a set its key's first item's outcome lacks: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":[],"$setElementOrder/finalizers":[],"finalizers":[]}}}}]}}`, 1),
		Entry("a repeat ordering by \"$setElementOrder\" alone a list its key's first item sets empty: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}`,
			`{"spec":{"containers":[{"name":"c","env":[]},{"name":"c","$setElementOrder/env":[]}]}}`, 1),
		Entry("a repeat ordering by \"$setElementOrder\" alone, naming an item, a list live holds empty that its key's first item leaves: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/env":[{"name":"A"}]}]}}`, 1),
		Entry("a repeat ordering by \"$setElementOrder\" and deleting from by \"$deleteFromPrimitiveList\" a set live holds empty, its key's first item leaving it: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":[]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"],"$setElementOrder/finalizers":[]}}}}]}}`, 1),
		Entry("a repeat ordering by \"$setElementOrder\" alone a set inside a map, live holding it empty: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":[]},"spec":{}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["a"]}}}}]}}`, 1),
	)

	// A repeat whose own collation fails (an invalid "$setElementOrder" for a keyed list: it names an item its list
	// lacks, or its items do not follow it): applied to an outcome lacking the field where the fields before that one
	// (by name) are scalars (elements.Repeat.FailsAt), or holding the list as a list of maps with the key, the fields
	// before walked with the outcome's (elements.Repeat.Disordered: the order names the same keys whatever the outcome
	// holds), it fails with that collation's error, decided from the patch's item and the outcome. The error is that of
	// the repeat applied to its key's first item's outcome.
	DescribeTable("patch.Apply of a repeat whose own collation fails, as its items applied in turn",
		func(live, first, repeat string, count int) {
			opts := patch.Options{Gates: features.Kubectl()}
			_, err := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(`{"spec":{"containers":[`+first+`,`+repeat+`]}}`), opts)
			Expect(collations.Load()).To(BeEquivalentTo(count))
			once, onceErr := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(`{"spec":{"containers":[`+first+`]}}`), opts)
			Expect(onceErr).NotTo(HaveOccurred())
			_, wantErr := patch.Apply(once, jsonv.MustDecode(`{"spec":{"containers":[`+repeat+`]}}`), opts)
			Expect(wantErr).To(HaveOccurred())
			Expect(err).To(MatchError(wantErr.Error()))
		},
		Entry("its order naming an env item its list lacks, the outcome lacking env: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}`, `{"name":"c","image":"i"}`,
			`{"name":"c","image":"j","$setElementOrder/env":[{"name":"B"}],"env":[{"name":"A","value":"a"}]}`, 1),
		Entry("the same, the outcome holding env: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"B"}]}]}}`, `{"name":"c","image":"i"}`,
			`{"name":"c","image":"j","$setElementOrder/env":[{"name":"B"}],"env":[{"name":"A","value":"a"}]}`, 1),
		Entry("the same, the outcome holding env naming a key twice, and a map before it: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","args":["x"],"env":[{"name":"B"},{"name":"B","value":"b"}]}]}}`, `{"name":"c","image":"i"}`,
			`{"name":"c","args":["y"],"$setElementOrder/env":[{"name":"B"}],"env":[{"name":"A","value":"a"}]}`, 1),
		Entry("its order contradicting its env items' order, the outcome holding them: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A"},{"name":"B"}]}]}}`, `{"name":"c","image":"i"}`,
			`{"name":"c","$setElementOrder/env":[{"name":"B"},{"name":"A"}],"env":[{"name":"A","value":"a"},{"name":"B","value":"b"}]}`, 1),
		Entry("its order of ports naming a port its list lacks, after env items merged onto the outcome's: once",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A"}],"ports":[{"containerPort":80}]}]}}`, `{"name":"c","image":"i"}`,
			`{"name":"c","env":[{"name":"A","value":"a"}],"$setElementOrder/ports":[{"containerPort":80}],"ports":[{"containerPort":81}]}`, 1),
	)

	// A repeat whose collation fails at a field whatever the outcome holds there (ordering a field it sets to null:
	// elements.Repeat.Fails; holding empty a list it orders where the outcome holds no items: elements.EmptyOrdered)
	// fails first where the collation with its key's first item's outcome meets an error before that field: a field of
	// the outcome's beyond the depth limit, a deletion the outcome's list refuses (decided walking the item and the
	// outcome: limitWalk). The error is that of the repeat applied to that outcome.
	DescribeTable("patch.Apply of a repeat failing at a field, an earlier field failing first onto the outcome, as its items applied in turn",
		func(args, repeat string, maxDepth, count int, wantErr string) {
			live := jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","args":` + args +
				`,"readinessProbe":{"exec":{"command":["x"]}},"volumeMounts":[]}]}}`)
			opts := patch.Options{Gates: features.Kubectl(), MaxDepth: maxDepth}
			_, err := patch.Apply(live, jsonv.MustDecode(`{"spec":{"containers":[{"name":"c"},`+repeat+`]}}`), opts)
			Expect(collations.Load()).To(BeEquivalentTo(count))
			_, applyErr := patch.Apply(live, jsonv.MustDecode(`{"spec":{"containers":[`+repeat+`]}}`), opts)
			Expect(applyErr).To(MatchError(ContainSubstring(wantErr)))
			Expect(err).To(MatchError(applyErr.Error()))
		},
		Entry("ordering a field it sets to null, the outcome's field beyond the limit before it: once", `["x"]`,
			`{"name":"c","readinessProbe":{"exec":{}},"$setElementOrder/workingDir":["a"],"workingDir":null}`, 5, 1,
			"readinessProbe.exec.command: nesting is deeper than the limit"),
		Entry("ordering a field it sets to null, a deletion the outcome refuses before it: once", `[{"a":1}]`,
			`{"name":"c","$deleteFromPrimitiveList/args":["x"],"$setElementOrder/workingDir":["a"],"workingDir":null}`, 0, 1,
			"args: $deleteFromPrimitiveList/args applies to lists of scalars"),
		Entry("holding empty a list it orders, a map at the depth limit before it: once", `["x"]`,
			`{"name":"c","readinessProbe":{"exec":{}},"$setElementOrder/volumeMounts":[{"mountPath":"A"}],"volumeMounts":[]}`, 5, 1,
			"readinessProbe.exec.command: nesting is deeper than the limit"),
		Entry("holding empty a list it orders, a deletion the outcome refuses before it: once", `[{"a":1}]`,
			`{"name":"c","$deleteFromPrimitiveList/args":["x"],"$setElementOrder/volumeMounts":[{"mountPath":"A"}],"volumeMounts":[]}`, 0, 1,
			"args: $deleteFromPrimitiveList/args applies to lists of scalars"),
		Entry("holding empty a list it orders, a map at the depth limit before it, the limit one level deeper: once", `["x"]`,
			`{"name":"c","readinessProbe":{"exec":{}},"$setElementOrder/volumeMounts":[{"mountPath":"A"}],"volumeMounts":[]}`, 6, 1,
			"volumeMounts: $setElementOrder/volumeMounts orders a list that has no items in live or in the patch"),
		Entry("holding empty a list it orders, a deletion the outcome takes before it: once", `["x"]`,
			`{"name":"c","$deleteFromPrimitiveList/args":["x"],"$setElementOrder/volumeMounts":[{"mountPath":"A"}],"volumeMounts":[]}`, 0, 1,
			"volumeMounts: $setElementOrder/volumeMounts orders a list that has no items in live or in the patch"),
		Entry("holding empty a list it orders, a deletion the outcome refuses and a map at the depth limit before it: once", `[{"a":1}]`,
			`{"name":"c","$deleteFromPrimitiveList/args":["x"],"readinessProbe":{"exec":{}},"$setElementOrder/volumeMounts":[{"mountPath":"A"}],"volumeMounts":[]}`, 5, 1,
			"args: $deleteFromPrimitiveList/args applies to lists of scalars"),
	)

	// The same where the earlier field is a merged list whose items the outcome's cannot merge with: the repeat's tree does
	// not fit onto that outcome (ontoFits), and walking the item and the outcome meets that list's error first.
	It("patch.Apply of a repeat holding empty a list it orders, env the outcome holds with a scalar item before it: once", func() {
		live := jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":["x"],"volumeMounts":[]}]}}`)
		repeat := `{"name":"c","env":[{"name":"A","value":"a"}],"$setElementOrder/volumeMounts":[{"mountPath":"A"}],"volumeMounts":[]}`
		opts := patch.Options{Gates: features.Kubectl()}
		_, err := patch.Apply(live, jsonv.MustDecode(`{"spec":{"containers":[{"name":"c"},`+repeat+`]}}`), opts)
		Expect(collations.Load()).To(BeEquivalentTo(1))
		_, applyErr := patch.Apply(live, jsonv.MustDecode(`{"spec":{"containers":[`+repeat+`]}}`), opts)
		Expect(applyErr).To(MatchError(ContainSubstring("spec.containers[name=c].env: the patch's items are objects but live's are strings")))
		Expect(err).To(MatchError(applyErr.Error()))
	})

	// A repeat failing whatever the outcome holds (a list held empty and ordered: elements.EmptyOrdered; a field ordered
	// and set to null: Repeat.Fails) or by the depth limit, env before that field: where the outcome's env and the
	// patch's items cannot merge, the collation with that outcome fails there first (limitWalk: the list's class, as
	// Phase 1 checks it); where they merge, at the repeat's own field. Judged against the repeat applied alone.
	DescribeTable("patch.Apply of a repeat failing at a field, env before it, as the repeat applied to the outcome",
		func(env, repeat string, maxDepth int, wantErr string) {
			live := jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":` + env +
				`,"readinessProbe":{"exec":{}},"volumeMounts":[]}]}}`)
			opts := patch.Options{Gates: features.Kubectl(), MaxDepth: maxDepth}
			_, err := patch.Apply(live, jsonv.MustDecode(`{"spec":{"containers":[{"name":"c"},`+repeat+`]}}`), opts)
			Expect(collations.Load()).To(BeEquivalentTo(1))
			_, applyErr := patch.Apply(live, jsonv.MustDecode(`{"spec":{"containers":[`+repeat+`]}}`), opts)
			Expect(applyErr).To(MatchError(ContainSubstring(wantErr)))
			Expect(err).To(MatchError(applyErr.Error()))
		},
		Entry("holding empty a list it orders, env merging onto the outcome's: once", `[{"name":"A"}]`,
			`{"name":"c","env":[{"name":"A","value":"a"}],"$setElementOrder/volumeMounts":[{"mountPath":"A"}],"volumeMounts":[]}`, 0,
			"volumeMounts: $setElementOrder/volumeMounts orders a list that has no items in live or in the patch"),
		Entry("holding empty a list it orders, the outcome's env holding a null: once", `[null]`,
			`{"name":"c","env":[{"name":"A","value":"a"}],"$setElementOrder/volumeMounts":[{"mountPath":"A"}],"volumeMounts":[]}`, 0,
			"env: the patch's items are objects but live's are nulls"),
		Entry("ordering a field it sets to null, the outcome's env holding a scalar: once", `["x"]`,
			`{"name":"c","env":[{"name":"A","value":"a"}],"$setElementOrder/workingDir":["a"],"workingDir":null}`, 0,
			"env: the patch's items are objects but live's are strings"),
		Entry("failing by the depth limit below a field after env, the outcome's env holding a scalar: once", `["x"]`,
			`{"name":"c","env":[{"name":"A","value":"a"}],"lifecycle":{"postStart":{"exec":{"command":["y"]}}}}`, 6,
			"env: the patch's items are objects but live's are strings"),
		Entry("failing by the depth limit below a field after env, env merging onto the outcome's: once", `[{"name":"A"}]`,
			`{"name":"c","env":[{"name":"A","value":"a"}],"lifecycle":{"postStart":{"exec":{"command":["y"]}}}}`, 6,
			"lifecycle.postStart.exec.command: nesting is deeper than the limit"),
	)

	// A repeat failing by the depth limit that holds empty a list it orders (ports) before the field it fails at: the
	// collation with its key's first item's outcome fails at that list where the outcome holds no items there, and
	// orders the outcome's items and goes on where it holds them, each of the order's entries naming an item by the key
	// (limitWalk), its items' and the order's entries' keys read first (an entry naming no item refused as the order's).
	DescribeTable("patch.Apply of a repeat failing by the depth limit, holding empty a list it orders before that field",
		func(ports, order string, count int, wantErr string) {
			live := jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","ports":` + ports +
				`,"readinessProbe":{"exec":{}}}]}}`)
			repeat := `{"name":"c","$setElementOrder/ports":` + order + `,"ports":[],"readinessProbe":{"exec":{"command":["y"]}}}`
			opts := patch.Options{Gates: features.Kubectl(), MaxDepth: 5}
			_, err := patch.Apply(live, jsonv.MustDecode(`{"spec":{"containers":[{"name":"c"},`+repeat+`]}}`), opts)
			Expect(collations.Load()).To(BeEquivalentTo(count))
			_, applyErr := patch.Apply(live, jsonv.MustDecode(`{"spec":{"containers":[`+repeat+`]}}`), opts)
			Expect(applyErr).To(MatchError(ContainSubstring(wantErr)))
			Expect(err).To(MatchError(applyErr.Error()))
		},
		Entry("the outcome holding ports: once", `[{"containerPort":80}]`, `[{"containerPort":80},{"containerPort":81}]`, 1,
			"readinessProbe.exec.command: nesting is deeper than the limit"),
		Entry("the outcome holding ports empty: once", `[]`, `[{"containerPort":80}]`, 1,
			"ports: $setElementOrder/ports orders a list that has no items in live or in the patch"),
		Entry("the outcome holding ports as a string: once", `"x"`, `[{"containerPort":80}]`, 1,
			"ports: $setElementOrder/ports orders a list, but live's value is string"),
		Entry("the outcome holding ports, an entry of the order without the key: once", `[{"containerPort":80}]`, `[{"name":"x"}]`, 1,
			"$setElementOrder/ports item 0 has no merge key field"),
		Entry("the outcome holding ports, an entry of the order not an object: once", `[{"containerPort":80}]`, `["x"]`, 1,
			"$setElementOrder/ports item 0: expected an object holding the merge key (containerPort), got string"),
		Entry("the outcome holding ports, an entry of the order keyed by a map, which names no item (as strategicpatch's == reads it): once",
			`[{"containerPort":80}]`, `[{"containerPort":{}}]`, 1,
			"readinessProbe.exec.command: nesting is deeper than the limit"),
		Entry("the outcome holding a port without the key: once", `[{"name":"x"}]`, `[{"containerPort":80}]`, 1,
			"ports: item 0 has no merge key field \"containerPort\""),
		Entry("the outcome holding ports as strings: once", `["x"]`, `[{"containerPort":80}]`, 1,
			"ports: a list merged by key holds objects, got strings"),
	)

	// A repeat ordering by "$setElementOrder" alone a list merged by no strategy (a container's args) where its key's
	// first item's outcome holds that field as another kind, or as a list strategicpatch cannot order (no items, items
	// of mixed classes or objects), or the order names an object: the collation with that outcome refuses the order
	// there, decided from the patch's tree. Judged against the repeat applied to that outcome, which the API server
	// refuses too (server: an order naming no object, which strategicpatch cannot hash).
	DescribeTable("patch.Apply of a repeat ordering alone a list merged by no strategy that the outcome holds unorderable",
		func(args, order string, server bool) {
			live := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","args":` + args + `}]}}`
			repeat, first := `{"name":"c","$setElementOrder/args":`+order+`}`, `{"name":"c","image":"i"}`
			once := failsOnceAsInTurn(&collations, live, "containers", first, repeat, patch.Options{Gates: features.Kubectl()}, "")
			if server {
				sp, err := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
				Expect(err).NotTo(HaveOccurred())
				alone := `{"spec":{"containers":[` + repeat + `]}}`
				_, err = strategicpatch.StrategicMergePatchUsingLookupPatchMeta(once.JSON(), []byte(alone), sp.Meta())
				Expect(err).To(HaveOccurred(), "the API server refuses it")
			}
		},
		Entry("the outcome holding args empty: once", `[]`, `["a"]`, true),
		Entry("the outcome holding args empty, the order empty: once", `[]`, `[]`, true),
		Entry("the outcome holding args null: once", `null`, `["a"]`, true),
		Entry("the outcome holding args as a string: once", `"x"`, `["a"]`, true),
		Entry("the outcome holding args as a map: once", `{}`, `["a"]`, true),
		Entry("the outcome holding args of mixed classes: once", `[1,"a"]`, `["a"]`, true),
		Entry("the outcome holding args with a null among strings: once", `["a",null]`, `["a"]`, true),
		Entry("the outcome holding args of objects: once", `[{"a":1}]`, `["a"]`, false),
		Entry("the order naming an object: once", `["a","b"]`, `[{"a":1}]`, false),
	)

	// A repeat ordering by "$setElementOrder" alone a merged list (env, keyed; finalizers, a set) where its key's first
	// item's outcome holds that field as another kind, or as a list the collation refuses to merge or order (items of
	// mixed classes, scalars in a keyed list, an item or entry naming no key): the collation with that outcome fails
	// there, decided from the patch's tree. Judged against the repeat applied to that outcome, which the API server
	// refuses too.
	DescribeTable("patch.Apply of a repeat ordering alone a merged list that the outcome holds unorderable",
		func(list, held, first, repeat, wantErr string) {
			live := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":` + held + `}],` +
				`"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":` + held + `}}}}]}}`
			failsOnceAsInTurn(&collations, live, list, first, repeat, patch.Options{Gates: features.Kubectl()}, wantErr)
			sp, err := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
			Expect(err).NotTo(HaveOccurred())
			_, err = strategicpatch.StrategicMergePatchUsingLookupPatchMeta([]byte(live), []byte(`{"spec":{"`+list+`":[`+repeat+`]}}`), sp.Meta())
			Expect(err).To(HaveOccurred(), "the API server refuses it")
		},
		Entry("env null: once", "containers", `null`, `{"name":"c","image":"i"}`, `{"name":"c","$setElementOrder/env":[{"name":"A"}]}`,
			"env: $setElementOrder/env orders a list, but live's value is null"),
		Entry("env a string: once", "containers", `"x"`, `{"name":"c","image":"i"}`, `{"name":"c","$setElementOrder/env":[{"name":"A"}]}`,
			"env: $setElementOrder/env orders a list, but live's value is string"),
		Entry("env of strings: once", "containers", `["x"]`, `{"name":"c","image":"i"}`,
			`{"name":"c","$setElementOrder/env":[{"name":"A"}]}`, "env: a list merged by key holds objects, got strings"),
		Entry("env of mixed classes: once", "containers", `[1,"a"]`, `{"name":"c","image":"i"}`, `{"name":"c","$setElementOrder/env":[{"name":"A"}]}`,
			"env: list items must all be of one kind"),
		Entry("env's item without the key: once", "containers", `[{"value":"x"}]`, `{"name":"c","image":"i"}`,
			`{"name":"c","$setElementOrder/env":[{"name":"A"}]}`, "env: item 0 has no merge key field \"name\""),
		Entry("the order's entry without the key: once", "containers", `[{"name":"A"}]`, `{"name":"c","image":"i"}`,
			`{"name":"c","$setElementOrder/env":[{"value":1}]}`, "$setElementOrder/env item 0 has no merge key field \"name\""),
		Entry("finalizers a map: once", "volumes", `{}`, `{"name":"v","secret":{}}`,
			`{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["a"]}}}}`,
			"finalizers: $setElementOrder/finalizers orders a list, but live's value is object"),
		Entry("finalizers of mixed classes: once", "volumes", `[1,"a"]`, `{"name":"v","secret":{}}`,
			`{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["a"]}}}}`,
			"finalizers: list items must all be of one kind"),
	)

	// A repeat ordering by "$setElementOrder" a field it sets to null (elements.Repeat.Fails), after a keyed list it
	// only orders (ports) that its key's first item's outcome holds: the collation with that outcome reorders that list
	// once it has read its items' keys and the order's entries, or fails there first (live's refused order of another
	// kind, an order of no items, an item or entry naming no key), decided walking the item with the outcome
	// (limitWalk). Judged against the repeat applied to that outcome, which the API server refuses too.
	DescribeTable("patch.Apply of a repeat ordering a field it sets to null, after a list it only orders that the outcome holds",
		func(ports, order, wantErr string) {
			live := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","ports":` + ports + `}]}}`
			repeat := `{"name":"c","$setElementOrder/ports":` + order + `,"$setElementOrder/volumeDevices":[{"devicePath":"d"}],"volumeDevices":null}`
			failsOnceAsInTurn(&collations, live, "containers", `{"name":"c","image":"i"}`, repeat, patch.Options{Gates: features.Kubectl()}, wantErr)
			sp, err := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
			Expect(err).NotTo(HaveOccurred())
			_, err = strategicpatch.StrategicMergePatchUsingLookupPatchMeta([]byte(live), []byte(`{"spec":{"containers":[`+repeat+`]}}`), sp.Meta())
			Expect(err).To(HaveOccurred(), "the API server refuses it")
		},
		Entry("the outcome's ports reordered, the null refused: once", `[{"containerPort":80},{"containerPort":81}]`, `[{"containerPort":81},{"containerPort":80}]`,
			"volumeDevices: $setElementOrder/volumeDevices orders a list, but the patch sets volumeDevices to null"),
		Entry("the outcome holding ports empty: once", `[]`, `[{"containerPort":80}]`,
			"ports: $setElementOrder/ports orders a list that has no items in live or in the patch"),
		Entry("the outcome holding ports null: once", `null`, `[{"containerPort":80}]`,
			"ports: $setElementOrder/ports orders a list, but live's value is null"),
		Entry("the outcome holding a port without the key: once", `[{"name":"x"}]`, `[{"containerPort":80}]`,
			"ports: item 0 has no merge key field \"containerPort\""),
		Entry("the order's entry without the key: once", `[{"containerPort":80}]`, `[{"name":"x"}]`,
			"$setElementOrder/ports item 0 has no merge key field \"containerPort\""),
	)

	// A repeat holding empty a list it orders (elements.EmptyOrdered) where its key's first item's outcome holds that
	// field as another kind: the collation with that outcome refuses the order of live's value there, before it finds
	// the list without items (limitWalk). Judged against the repeat applied alone.
	DescribeTable("patch.Apply of a repeat holding empty a list it orders, the outcome holding another kind there",
		func(mounts, kind string) {
			live := jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","volumeMounts":` + mounts + `}]}}`)
			repeat := `{"name":"c","$setElementOrder/volumeMounts":[{"mountPath":"A"}],"volumeMounts":[]}`
			opts := patch.Options{Gates: features.Kubectl()}
			_, err := patch.Apply(live, jsonv.MustDecode(`{"spec":{"containers":[{"name":"c"},`+repeat+`]}}`), opts)
			Expect(collations.Load()).To(BeEquivalentTo(1))
			_, applyErr := patch.Apply(live, jsonv.MustDecode(`{"spec":{"containers":[`+repeat+`]}}`), opts)
			Expect(applyErr).To(MatchError(ContainSubstring("volumeMounts: $setElementOrder/volumeMounts orders a list, but live's value is " + kind)))
			Expect(err).To(MatchError(applyErr.Error()))
		},
		Entry("a string: once", `"x"`, "string"),
		Entry("a null: once", `null`, "null"),
		Entry("a map: once", `{}`, "object"),
	)

	// A repeat whose own collation refuses a merged list's "$setElementOrder" (elements.Repeat.Disordered: an entry naming
	// no item, an item it lacks, items out of its order; a keyed list, or a set of scalars naming no value twice) where
	// its key's first item's outcome holds that list, reached through maps it holds too: the order's entries and the
	// patch's items name the same keys or values whatever that outcome holds, so the repeat fails there, decided from
	// the patch's item and the outcome. Judged against the repeat applied to its key's first item's outcome.
	DescribeTable("patch.Apply of a repeat refusing its list's order, the outcome holding the list, as its items applied in turn",
		func(list, first, repeat, wantErr string) {
			live := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A"}]}],` +
				`"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a"],"labels":{"k":"v"}}}}}]}}`
			failsOnceAsInTurn(&collations, live, list, first, repeat, patch.Options{Gates: features.Kubectl()}, wantErr)
		},
		Entry("an env order naming a null: once", "containers", `{"name":"c","image":"i"}`,
			`{"name":"c","$setElementOrder/env":[null],"env":[{"name":"A","value":"a"}]}`, "$setElementOrder/env item 0: expected an object"),
		Entry("an env order entry without the key: once", "containers", `{"name":"c","image":"i"}`,
			`{"name":"c","$setElementOrder/env":[{"value":"x"}],"env":[{"name":"A","value":"a"}]}`, "$setElementOrder/env item 0 has no merge key field"),
		Entry("a set's order its items contradict, inside maps the outcome holds: once", "volumes", `{"name":"v","secret":{}}`,
			`{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["b","a"],"finalizers":["a","b"]}}}}`,
			"finalizers: the order of the patch list contradicts $setElementOrder/finalizers"),
		Entry("a set's order lacking a value it holds, after labels merged onto the outcome's: once", "volumes", `{"name":"v","secret":{}}`,
			`{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["a"],"finalizers":["a","b"],"labels":{"j":"w"}}}}}`,
			"finalizers: patch list item 1 is missing from $setElementOrder/finalizers"),
	)

	// A repeat ordering by "$setElementOrder" alone a set of scalars (finalizers) where its key's first item's outcome
	// holds objects there (a merged list of objects the schema gives no merge key), or the order names an object or a
	// list (no value of a set of scalars): the collation with that outcome fails there, lv's items first, decided from
	// the patch's tree. Judged against the repeat applied to that outcome; strategicpatch cannot hash either (a panic).
	DescribeTable("patch.Apply of a repeat ordering alone a set whose outcome holds objects or whose order names no value",
		func(held, order, wantErr string) {
			live := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":` + held + `}}}}]}}`
			repeat := `{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":` + order + `}}}}`
			failsOnceAsInTurn(&collations, live, "volumes", `{"name":"v","secret":{}}`, repeat, patch.Options{Gates: features.Kubectl()}, wantErr)
			sp, err := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
			Expect(err).NotTo(HaveOccurred())
			Expect(func() {
				_, err = strategicpatch.StrategicMergePatchUsingLookupPatchMeta([]byte(live), []byte(`{"spec":{"volumes":[`+repeat+`]}}`), sp.Meta())
			}).To(Panic(), "strategicpatch cannot hash it")
		},
		Entry("the order naming an object: once", `["a","b"]`, `["b",{"a":1}]`, "$setElementOrder/finalizers item 1: expected a scalar"),
		Entry("the order naming a list: once", `["a","b"]`, `[["a"]]`, "$setElementOrder/finalizers item 0: expected a scalar"),
		Entry("the outcome holding objects: once", `[{"a":1}]`, `["a"]`, "merged list of objects no merge key"),
		Entry("the outcome holding objects, the order naming one: once", `[{"a":1}]`, `[{"a":1}]`, "merged list of objects no merge key"),
	)

	// A repeat whose own collation fails by the depth limit, its fields up to the failing one plain trees (scalars,
	// nulls, maps of such: elements.Repeat.PlainRoom), onto an outcome whose fields up to it are plain trees within the
	// limit, holding the field or not: the collation with the outcome meets the same node beyond the limit first,
	// decided from the patch's tree. Judged against the repeat applied to its key's first item's outcome.
	DescribeTable("patch.Apply under a depth limit of a repeat failing by it, as its items applied in turn",
		func(list, live, first, repeat string, count int) {
			opts := patch.Options{Gates: features.Kubectl(), MaxDepth: 5}
			_, err := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(`{"spec":{"`+list+`":[`+first+`,`+repeat+`]}}`), opts)
			Expect(collations.Load()).To(BeEquivalentTo(count))
			once, onceErr := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(`{"spec":{"`+list+`":[`+first+`]}}`), opts)
			Expect(onceErr).NotTo(HaveOccurred())
			_, wantErr := patch.Apply(once, jsonv.MustDecode(`{"spec":{"`+list+`":[`+repeat+`]}}`), opts)
			Expect(wantErr).To(HaveOccurred())
			Expect(err).To(MatchError(wantErr.Error()))
		},
		Entry("a probe's field beyond the limit, the outcome holding the probe with maps within it: once", "containers",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","readinessProbe":{"exec":{},"httpGet":{}}}]}}`,
			`{"name":"c","image":"i"}`, `{"name":"c","image":"j","readinessProbe":{"exec":{},"httpGet":{"scheme":"d"},"successThreshold":4}}`, 1),
		Entry("the same, the outcome's probe holding a list, beside the field beyond: once", "containers",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","readinessProbe":{"exec":{"command":["x"]}}}]}}`,
			`{"name":"c","image":"i"}`, `{"name":"c","image":"j","readinessProbe":{"exec":{},"httpGet":{"scheme":"d"}}}`, 1),
		Entry("a volume's field beyond the limit after a map, the outcome holding maps of scalars before it: once", "volumes",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","emptyDir":{"medium":"Memory"}}]}}`,
			`{"name":"v","awsElasticBlockStore":{"volumeID":"a"}}`, `{"name":"v","cephfs":null,"emptyDir":{},"ephemeral":{"volumeClaimTemplate":{"metadata":{}}}}`, 1),
		Entry("the same, the outcome holding a list before it: once", "volumes",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","emptyDir":{"medium":"Memory"},"configMap":{"items":[{"key":"k","path":"p"}]}}]}}`,
			`{"name":"v","awsElasticBlockStore":{"volumeID":"a"}}`, `{"name":"v","cephfs":null,"emptyDir":{},"ephemeral":{"volumeClaimTemplate":{"metadata":{}}}}`, 1),
	)

	// The same where lists lie on the way to the failing node and the outcome holds them: a list merged by key is walked
	// item by item onto the outcome's item of its key, a set of scalars is its node alone, and a field the outcome alone
	// holds is a leaf at its level, beyond the limit there, so the error is decided from the patch's item and the
	// outcome (limitWalk). Judged against the repeat applied to its key's first item's outcome.
	DescribeTable("patch.Apply under a depth limit of a repeat failing by it past lists the outcome holds, as its items applied in turn",
		func(list, live, first, repeat string, maxDepth int, wantErr string) {
			failsOnceAsInTurn(&collations, live, list, first, repeat, patch.Options{Gates: features.Kubectl(), MaxDepth: maxDepth}, wantErr)
		},
		Entry("an env item's field beyond the limit, the outcome holding env: once", "containers",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"B"},{"name":"A","value":"0"}]}]}}`,
			`{"name":"c","image":"i"}`, `{"name":"c","env":[{"name":"A","value":"a"}]}`, 5,
			"spec.containers[name=c].env[name=A].name: nesting is deeper"),
		Entry("the outcome's env item holding a field beyond the limit before the patch's: refused there, once", "containers",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}]}}`,
			`{"name":"c","image":"i"}`, `{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{},"secretKeyRef":{"key":"k"}}}]}`, 7,
			"spec.containers[name=c].env[name=A].valueFrom.fieldRef.fieldPath: nesting is deeper"),
		Entry("the same past a \"$patch: delete\" item and a key the outcome names twice: once", "containers",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"B"},{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}]}}`,
			`{"name":"c","env":[{"name":"A","value":"0"}]}`, `{"name":"c","env":[{"$patch":"delete","name":"B"},{"name":"A","valueFrom":{"fieldRef":{},"secretKeyRef":{"key":"k"}}}]}`, 7,
			"spec.containers[name=c].env[name=A].valueFrom.fieldRef.fieldPath: nesting is deeper"),
		Entry("an empty env the outcome holds items of, a field beyond the limit after it: once", "containers",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A"}]}]}}`,
			`{"name":"c","image":"i"}`, `{"name":"c","env":[],"resources":{"limits":{"cpu":"1"}}}`, 5,
			"spec.containers[name=c].resources.limits.cpu: nesting is deeper"),
		Entry("a deletion the outcome's args refuse, before a probe's field beyond the limit: refused there, once", "containers",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","args":[{"a":1}]}]}}`,
			`{"name":"c","image":"i"}`, `{"name":"c","$deleteFromPrimitiveList/args":["x"],"readinessProbe":{"exec":{},"httpGet":{"scheme":"d"}}}`, 5,
			"spec.containers[name=c].args: $deleteFromPrimitiveList/args applies to lists of scalars"),
		Entry("a set of finalizers the outcome holds, a label beyond the limit after it: once", "volumes",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["b","b"]}}}}]}}`,
			`{"name":"v","ephemeral":{"volumeClaimTemplate":{"spec":{}}}}`, `{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a"],"labels":{"k":"x"}}}}}`, 7,
			"spec.volumes[name=v].ephemeral.volumeClaimTemplate.metadata.labels.k: nesting is deeper"),
	)

	// patch.Compose (kubectl's three-way patch's delta merged into its deletions) of a second patch naming a key twice:
	// each repeat merges in turn into its key's item; a repeat of plain fields (scalars, lists of them, maps of such
	// fields, "$retainKeys") is merged onto that item's outcome from the patches' one tree.
	DescribeTable("patch.Compose of a second patch naming a merge key twice",
		func(first, second string, count int) {
			schema, err := openapi.Default()
			Expect(err).NotTo(HaveOccurred())
			pod, ok := schema.Kubectl().ByName("io.k8s.api.core.v1.Pod")
			Expect(ok).To(BeTrue())
			got, err := patch.Compose(jsonv.MustDecode(first), jsonv.MustDecode(second), pod, features.Kubectl())
			Expect(err).NotTo(HaveOccurred())
			Expect(collations.Load()).To(BeEquivalentTo(count))
			sp, err := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
			Expect(err).NotTo(HaveOccurred())
			want, err := sp.MergePatches([]byte(first), []byte(second))
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got.JSON())).To(Equal(string(jsonv.MustDecode(string(want)).JSON())), "strategicpatch's merge of the two")
		},
		Entry("repeats of scalar fields, a null kept, onto an item first holds: once",
			`{"status":{"conditions":[{"type":"Ready","message":null},{"type":"Initialized","reason":null}]}}`,
			`{"status":{"conditions":[{"type":"Ready","status":"True"},{"type":"Ready","message":"m","reason":null},{"type":"New","status":"False"},{"type":"New","status":null}]}}`, 1),
		Entry("a repeat whose maps merge onto the item's, an atomic list replaced: once",
			`{"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"1","memory":"1Gi"}},"args":["x"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","resources":{"limits":{"memory":null},"requests":{"cpu":"2"}},"args":["y"]}]}}`, 1),
		Entry("a repeat holding lists of objects the schema merges by no strategy, onto an item holding one and lacking one: once",
			`{"spec":{"volumes":[{"name":"v","configMap":{"name":"m","items":[{"key":"a","path":"p"}]}}],"containers":[{"name":"a","envFrom":[{"prefix":"x","configMapRef":{"name":"c"}}]}]}}`,
			`{"spec":{"volumes":[{"name":"v","configMap":{"optional":true}},{"name":"v","configMap":{"items":[{"key":"b","path":"q"},{"key":"c","path":"r"}]}}],"containers":[{"name":"a","image":"i"},{"name":"a","envFrom":[{"secretRef":{"name":"s"}}],"volumeDevices":null}]}}`, 1),
		Entry("a repeat holding merged lists of objects its item's outcome lacks or holds null, taken as it holds them: once",
			`{"spec":{"containers":[{"name":"a","ports":null,"args":["x"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"F","value":"2"},{"name":"E","value":null},{"name":"F","value":"3"}],"ports":[{"containerPort":80,"name":"h"}]}]}}`, 1),
		Entry("a repeat ordering a list of objects its item's outcome lacks, copying a directive that outcome holds: once",
			`{"spec":{"containers":[{"name":"a","$deleteFromPrimitiveList/args":["x"],"args":["y"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$deleteFromPrimitiveList/args":["x"],"$setElementOrder/env":[{"name":"G"},{"name":"E"},{"name":"F"}],"env":[{"name":"E","value":"1"},{"name":"F","value":"2"}]}]}}`, 1),
		Entry("a repeat holding a list of scalars merged by no strategy its item's outcome lacks, following its \"$setElementOrder\": once",
			`{"spec":{"containers":[{"name":"a","image":"i"}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"j"},{"name":"a","$setElementOrder/args":["x","c","d"],"args":["c","d"]}]}}`, 1),
		Entry("a repeat holding a list of scalars merged by no strategy its item's outcome lacks, naming a value its \"$setElementOrder\" names twice: once",
			`{"spec":{"containers":[{"name":"a","image":"i"}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"j"},{"name":"a","$setElementOrder/args":["a","b","a"],"args":["b","a"]}]}}`, 1),
		Entry("a repeat holding ordered lists of scalars merged by no strategy in maps its item's outcome holds and lacks: once",
			`{"spec":{"containers":[{"name":"a","image":"i","livenessProbe":{"periodSeconds":1}}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"j"},{"name":"a","livenessProbe":{"exec":{"$setElementOrder/command":["x","c","d"],"command":["c","d"]}},"lifecycle":{"preStop":{"exec":{"$setElementOrder/command":["e","x"],"command":["e"]}}}}]}}`, 1),
		Entry("a repeat ordering by \"$setElementOrder\" alone args and finalizers its item's outcome holds, the orders naming a null: once",
			`{"spec":{"containers":[{"name":"a","args":["a","b","c"]}],"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","c"]}}}}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["c",null,"a"]}],"volumes":[{"name":"v","csi":{"driver":"d"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["c",null,"a"]}}}}]}}`, 1),
		Entry("a repeat holding lists of scalars merged by no strategy following their \"$setElementOrder\", replacing lists its item's outcome holds: once",
			`{"spec":{"containers":[{"name":"a","image":"i","args":["z","c"],"livenessProbe":{"exec":{"command":[]}}}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"j","command":["q"]},{"name":"a","$setElementOrder/args":["c","x","d"],"args":["c","d"],"$setElementOrder/command":["a","b","a"],"command":["b","a"],"livenessProbe":{"exec":{"$setElementOrder/command":["e","x"],"command":["e"]}}}]}}`, 1),
		Entry("a repeat's empty merged list reordering the outcome's, items of a key together, delete items last: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"},{"$patch":"delete","name":"D"},{"name":"F"},{"name":"E","value":"2"}],"ports":[{"containerPort":80}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[],"ports":[]}]}}`, 1),
		Entry("a repeat ordering a merged list of objects it leaves out that its item's outcome holds: once",
			`{"spec":{"containers":[{"name":"a","$setElementOrder/env":[{"name":"G"},{"name":"E"}],"env":[{"name":"E","value":"1"},{"$patch":"delete","name":"D"},{"name":"F"},{"name":"G"},{"name":"E","value":"2"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"G"},{"name":"E"}]}]}}`, 1),
		Entry("a repeat holding merged lists of maps with items its item's outcome holds, merged onto them: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"},{"$patch":"delete","name":"D"},{"name":"F","value":"2"},{"name":"E","value":"3"}],"ports":[{"containerPort":80,"name":"h"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"G","value":"4"},{"name":"E","value":"5"}],"ports":[{"containerPort":81},{"containerPort":80,"protocol":"TCP"}]}]}}`, 1),
		Entry("a repeat holding a merged list of maps naming a key twice, a null kept, onto its item's outcome's: once",
			`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"h"},{"containerPort":82}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","ports":[{"containerPort":84,"hostPort":1},{"containerPort":80,"name":null},{"containerPort":84,"hostPort":null}]}]}}`, 1),
		Entry("a repeat holding a merged list of maps ordered by its \"$setElementOrder\", onto its item's outcome's: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"},{"$patch":"delete","name":"D"},{"name":"F","value":"2"},{"name":"H"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"G"},{"name":"H"},{"name":"D"},{"name":"E"}],"env":[{"name":"G","value":"4"},{"name":"E","value":"5"}]}]}}`, 1),
		Entry("a repeat whose env items hold maps, merged into its item's outcome's items field by field: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","valueFrom":{"secretKeyRef":{"key":"k","name":"s"}}},{"name":"F","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"p"},"secretKeyRef":{"optional":true,"name":null}}},{"name":"G","valueFrom":{"configMapKeyRef":{"key":"c"}}},{"name":"E","value":"2","valueFrom":{"secretKeyRef":{"key":"j"}}}]}]}}`, 1),
		Entry("a repeat whose env items hold maps onto its item's outcome's items holding null or scalars: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","valueFrom":null},{"name":"F","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"p"}}},{"name":"F","valueFrom":{}}]}]}}`, 1),
		Entry("a repeat holding an empty merged list of objects onto its item's outcome's empty list: once",
			`{"spec":{"containers":[{"name":"a","env":[]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[],"tty":true}]}}`, 1),
		Entry("a repeat whose env items merge into its item's outcome's delete item of their key: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"D","$patch":"delete"},{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"D","value":"2"},{"name":"G","value":"3"},{"name":"D","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}]}}`, 1),
		Entry("a repeat's map its item's outcome lacks holding only an order for a list, copied: once",
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"readOnly":true}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["a","b"]}}}}]}}`, 1),
		Entry("a repeat holding \"$retainKeys\", copied: once",
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}}]}}`,
			`{"spec":{"volumes":[{"name":"v","configMap":{"name":"m"}},{"name":"v","$retainKeys":["configMap","name"],"configMap":{"optional":true}}]}}`, 1),
		Entry("a set repeating a value onto the outcome's set, each value at its first place: once",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c","a","c"]}}}}]}}`, 1),
		Entry("a set onto the outcome's set repeating a value, each value at its first place there: once",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a","d","b"]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c","b","e","c"]}}}}]}}`, 1),
		Entry("a merged list whose leaf Phase 1 cleaned of a \"$patch: delete\" item (Repeat.Cleaned), merged as the patch holds it: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"F","value":"2"},{"name":"E","$patch":"delete"}]}]}}`, 1),
		Entry("a merged list of \"$patch: delete\" items alone, onto the outcome's list naming a key twice: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"},{"$patch":"delete","name":"D"},{"name":"F","value":"2"},{"name":"E","value":"3"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"F","$patch":"delete"},{"name":"Q","$patch":"delete"}]}]}}`, 1),
		Entry("a merged list with a \"$patch: replace\" item, its data items the outcome: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"$patch":"replace"},{"name":"F","value":"2"}]}]}}`, 1),
		Entry("a \"$patch: replace\" merged list naming a key twice, with a \"$patch: delete\" item: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"},{"$patch":"delete","name":"D"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"F","value":"2"},{"$patch":"delete","name":"E"},{"name":"G"},{"$patch":"replace"},{"name":"F","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}]}}`, 1),
		Entry("a merged list's item holding a \"$patch\" map, dropped where the outcome's item holds none there: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"$patch":"replace","fieldRef":{"fieldPath":"p"}}}]}]}}`, 1),
		Entry("a merged list's items holding \"$patch\" maps, replacing the outcome's item's map, or appended as they stand: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"$patch":"replace","secretKeyRef":{"key":"k"}}},{"name":"F","valueFrom":{"$patch":"delete"}}]}]}}`, 1),
		Entry("a repeat holding lists merged by no strategy whose items hold \"$patch\" maps or lists, collated onto a skeleton of its maps: once",
			`{"spec":{"containers":[{"name":"a","envFrom":[{"prefix":"x"}],"args":["x"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","envFrom":[{"configMapRef":{"name":"c"},"$patch":"delete"},{"prefix":"p","secretRef":{"$patch":"replace","name":"s"}}],"args":[["y"],"z"],"restartPolicyRules":[{"action":"Restart","exitCodes":{"operator":"In","values":[[1]]}},{"$patch":"delete"}]}]}}`, 1),
		Entry("a merged list with \"$patch: delete\" items ordered by \"$setElementOrder\", ranked by the outcome's list as the merge left it: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"B","value":"2"},{"name":"A","value":"1"},{"name":"C","value":"3"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/env":[{"name":"X"},{"name":"A"}],"env":[{"name":"B","$patch":"delete"},{"name":"X","value":"x"}]}]}}`, 1),
		Entry("a merged list's item holding a \"$retainKeys\" in its map, copied into the outcome's item's map: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"$retainKeys":["secretKeyRef"],"secretKeyRef":{"key":"k"}}}]}]}}`, 1),
		Entry("a merged list's items of a key holding \"$retainKeys\" in their maps, merged in turn: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"$retainKeys":["fieldRef"],"fieldRef":{"fieldPath":"p"}}},{"name":"E","valueFrom":{"$retainKeys":["fieldRef"]}}]}]}}`, 1),
		Entry("the same, onto the outcome's item holding that map: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1","valueFrom":{"fieldRef":{"fieldPath":"q"}}}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"$retainKeys":["fieldRef"],"fieldRef":{"fieldPath":"p"}}},{"name":"E","valueFrom":{"$retainKeys":["fieldRef"]}}]}]}}`, 1),
		Entry("the same, of a key the outcome lacks, appended and merged into: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"D","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"$retainKeys":["fieldRef"],"fieldRef":{"fieldPath":"p"}}},{"name":"F"},{"name":"E","valueFrom":{"$retainKeys":["fieldRef"],"secretKeyRef":{"key":"k"}}}]}]}}`, 1),
		Entry("a merged list's later item of a key holding \"$retainKeys\", copied into its first's map: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"p"}}},{"name":"E","valueFrom":{"$retainKeys":["secretKeyRef"]}}]}]}}`, 1),
		Entry("a merged list's items of a key holding \"$retainKeys\" deeper, the map nulled between them: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"fieldRef":{"$retainKeys":["fieldPath"],"fieldPath":"p"}}},{"name":"E","valueFrom":{"fieldRef":null}},{"name":"E","valueFrom":{"fieldRef":{"$retainKeys":["apiVersion"]}}}]}]}}`, 1),
		Entry("a merged list's item holding \"$retainKeys\" beside its fields, copied into the outcome's item: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","$retainKeys":["name","value"],"value":"2"},{"name":"F","$retainKeys":["name"]},{"name":"F","$retainKeys":["name"],"value":"3"}]}]}}`, 1),
		Entry("a merged list's items holding other \"$\" fields, set over the outcome's item's, in their maps too: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1","$deleteFromPrimitiveList/y":["b"],"$foo":{"a":1},"valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","$foo":"x","$deleteFromPrimitiveList/y":["a"],"valueFrom":{"$foo":"x","$deleteFromPrimitiveList/y":["a",1],"fieldRef":{"$bar":null}}},{"name":"E","$foo":null}]}]}}`, 1),
		Entry("a repeat's \"$patch: merge\" maps where the outcome lacks the field or holds a scalar there: dropped, the field with them, once",
			`{"spec":{"containers":[{"name":"a","lifecycle":"x","env":[{"name":"D","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","lifecycle":{"$patch":"merge","postStart":{"exec":{}}},"resources":{"$patch":"merge","limits":{"cpu":"1"}},"tty":true}]}}`, 1),
		Entry("a repeat's \"$patch: merge\" map in a map the outcome lacks: dropped, once",
			`{"spec":{"containers":[{"name":"a"}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","resources":{"limits":{"$patch":"merge","cpu":"1"},"requests":{"cpu":"2"}}}]}}`, 1),
		Entry("a repeat's set its \"$setElementOrder\" contradicts, in a map the outcome lacks or holds as a scalar: taken as it stands, once",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":"x"}},{"name":"w"}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["b","a"],"finalizers":["a","b"]}}}},{"name":"w","csi":{"driver":"d"}},{"name":"w","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["b"],"finalizers":["a","b"]}}}}]}}`, 1),
		Entry("a repeat's \"$patch: replace\" merged list ordered by its \"$setElementOrder\", ranked by the outcome's list: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"H","$patch":"delete"},{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"G"},{"name":"H"},{"name":"F"},{"name":"E"}],"env":[{"name":"G","value":null},{"name":"H"},{"$patch":"replace"},{"name":"F"}]}]}}`, 1),
		Entry("a merged list's item merged into the outcome's item whose map holds \"$\" fields, data kept: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","valueFrom":{"$retainKeys":["fieldRef"],"$deleteFromPrimitiveList/y":["a"],"fieldRef":{"$patch":"delete"}}}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"$retainKeys":["fieldRef"],"fieldRef":{"fieldPath":"p"}}}]}]}}`, 1),
		Entry("a merged list's item holding a \"$patch: merge\" map where the outcome's item holds none there: dropped, once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1","valueFrom":"x"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"$patch":"merge","secretKeyRef":{"key":"k"}}}]}]}}`, 1),
		Entry("a merged list's item of a key the outcome lacks holding a \"$patch: merge\" map, kept, a later item merged into it: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"D","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"$patch":"merge","secretKeyRef":{"key":"k"}}},{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"x"}}}]}]}}`, 1),
		// A repeat's lists merged by no strategy, ordered by "$setElementOrder": one the repeat leaves out reordered by the
		// directive onto the outcome's list; one beside an empty directive sorted by the outcome's list, or, where the
		// outcome lacks it, as strategicpatch's sort leaves it.
		Entry("a repeat ordering by \"$setElementOrder\" alone lists merged by no strategy its item's outcome holds: once",
			`{"spec":{"containers":[{"name":"a","args":["x","q","y","z"],"command":["b","a","c","a"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["z","w","x"],"$setElementOrder/command":["c","a"]}]}}`, 1),
		Entry("a repeat holding lists merged by no strategy beside an empty \"$setElementOrder\", its item's outcome holding one: once",
			`{"spec":{"containers":[{"name":"a","args":["c","b","a"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":[],"args":["a","q","b","c","q"],"$setElementOrder/command":[],"command":["x","y","z"]}]}}`, 1),
		Entry("a repeat holding empty merged lists of objects it orders by \"$setElementOrder\", its item's outcome holding items: once",
			`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":3},{"containerPort":1,"$patch":"delete"},{"containerPort":2},{"containerPort":4}],"env":[{"name":"E"},{"name":"F"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/ports":[{"containerPort":2},{"containerPort":9},{"containerPort":3}],"ports":[],"$setElementOrder/env":[{"name":"F"},{"name":"E"}],"env":[]}]}}`, 1),
		Entry("a repeat holding empty a merged list beside an empty \"$setElementOrder\", in an ordered list the first patch lacks: taken as it stands, once",
			`{"spec":{"hostname":"h"}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"a"},{"name":"a"}],"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[],"env":[]}]}}`, 1),
		// A repeat's maps holding "$patch" outside lists, collated onto a skeleton of its maps without them (dropped, as
		// where the outcome holds no map there): merged onto a map, a "replace" one is the patch's map less the
		// directive, as it stands, a "delete" one an empty map.
		Entry("a repeat's \"$patch: replace\" maps onto maps the outcome holds, their \"$patch\" maps and nulls kept: once",
			`{"spec":{"containers":[{"name":"a","livenessProbe":{"exec":{"command":["y"]},"periodSeconds":3},"resources":{"limits":{"cpu":"1"}}}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","livenessProbe":{"$patch":"replace","exec":{"$patch":"delete","command":["x"]},"timeoutSeconds":null},"resources":{"limits":{"$patch":"replace","memory":"1Gi"},"requests":{"cpu":"2"}},"tty":true}]}}`, 1),
		Entry("a repeat's \"$patch: delete\" maps onto maps the outcome holds, emptied: once",
			`{"spec":{"containers":[{"name":"a","readinessProbe":{"periodSeconds":1},"lifecycle":{"postStart":{"exec":{"command":["z"]}},"preStop":{"sleep":{"seconds":1}}}}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","readinessProbe":{"$patch":"delete"},"lifecycle":{"postStart":{"$patch":"delete"},"stopSignal":"SIGTERM"}}]}}`, 1),
		Entry("a repeat's \"$patch\" maps, unknown values among them, where the outcome lacks the field or holds another kind: dropped, the field with them, once",
			`{"spec":{"containers":[{"name":"a","resources":"x","securityContext":null,"livenessProbe":{"periodSeconds":3}}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","resources":{"$patch":"replace","limits":{"cpu":"1"}},"securityContext":{"$patch":"delete"},"startupProbe":{"$patch":"bogus"},"livenessProbe":{"exec":{"$patch":"replace","command":["x"]}},"lifecycle":{"postStart":{"$patch":"delete"},"preStop":{"sleep":{"seconds":1}}}}]}}`, 1),
		// Decided from the patches' tree too:
		Entry("a repeat's merged list of objects holding the merge key null, merged into the outcome's item of a null key: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":null,"value":"1"},{"name":"E","value":"2"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"F","value":"4"},{"name":null,"value":"3"},{"name":null,"valueFrom":null}]}]}}`, 1),
		Entry("a repeat holding empty a list of scalars merged by no strategy it orders by \"$setElementOrder\", the outcome holding items there: once",
			`{"spec":{"containers":[{"name":"a","args":["b","b"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["b","x"],"args":[]}]}}`, 1),
		Entry("a repeat's lists merged by no strategy beside an empty \"$setElementOrder\" in maps below its item, sorted by the outcome's or as they stand: once",
			`{"spec":{"containers":[{"name":"a","livenessProbe":{"exec":{"command":["q","c"]}},"readinessProbe":{"exec":{}}}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","livenessProbe":{"exec":{"$setElementOrder/command":[],"command":["c","d","e","q"]}},"readinessProbe":{"exec":{"$setElementOrder/command":[],"command":["x","y"]}},"startupProbe":{"exec":{"$setElementOrder/command":[],"command":["z"]}}}]}}`, 1),
		Entry("a repeat's lists merged by no strategy beside an empty \"$setElementOrder\" in maps its item's outcome lacks, as they stand where a sort would move them: once",
			`{"spec":{"containers":[{"name":"a","tty":true}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","livenessProbe":{"exec":{"$setElementOrder/command":[],"command":["c","a","b"]}},"lifecycle":{"postStart":{"exec":{"$setElementOrder/command":[],"command":["x","y"]}}}}]}}`, 1),
		Entry("a repeat holding empty lists of scalars merged by no strategy it orders in maps below its item, the outcome holding items there or lacking the map: once",
			`{"spec":{"containers":[{"name":"a","livenessProbe":{"exec":{"command":["b","c"]}}}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","livenessProbe":{"exec":{"$setElementOrder/command":["c","x"],"command":[]}},"readinessProbe":{"exec":{"$setElementOrder/command":["c"],"command":[]}}}]}}`, 1),
		Entry("a repeat holding empty a merged set it orders in a map below its item, the outcome holding items there or lacking the map: once",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","c"]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["c","a"],"finalizers":[]}}}},{"name":"w","csi":{"driver":"d"}},{"name":"w","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["c"],"finalizers":[]}}}}]}}`, 1),
	)

	// A repeat holding a merged set of scalars its key's item's outcome holds (the test schema's Widget: parts keyed by
	// name, their aliases merged): the set merged onto that outcome's list from the patches' one tree.
	DescribeTable("patch.Compose of a second patch naming a merge key twice, its repeat merging a set",
		func(first, second string) {
			widget, err := difftest.LoadTarget("widget/" + difftest.Kubectl)
			Expect(err).NotTo(HaveOccurred())
			got, err := patch.Compose(jsonv.MustDecode(first), jsonv.MustDecode(second), widget.Root, features.Kubectl())
			Expect(err).NotTo(HaveOccurred())
			Expect(collations.Load()).To(BeEquivalentTo(1))
			want, err := widget.Oracle.MergePatches([]byte(first), []byte(second))
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got.JSON())).To(Equal(string(jsonv.MustDecode(string(want)).JSON())), "strategicpatch's merge of the two")
		},
		Entry("the outcome's values it lacks interleaved by their place there: once",
			`{"spec":{"parts":[{"name":"a","aliases":["s3","s6","s1"]}]}}`,
			`{"spec":{"parts":[{"name":"a","weight":1},{"name":"a","aliases":["s4","s1","s2","s6"]}]}}`),
		Entry("ordered by its \"$setElementOrder\": once",
			`{"spec":{"parts":[{"name":"a","$setElementOrder/aliases":["s4","s1","s5"],"aliases":["s1","s7","s3"]}]}}`,
			`{"spec":{"parts":[{"name":"a","weight":1},{"name":"a","$setElementOrder/aliases":["s4","s1","s5"],"aliases":["s4","s5"]}]}}`),
		Entry("ordered by its \"$setElementOrder\" naming a value twice, each ranked by its first place there: once",
			`{"spec":{"parts":[{"name":"a","aliases":["s1","s7","s3"]}]}}`,
			`{"spec":{"parts":[{"name":"a","weight":1},{"name":"a","$setElementOrder/aliases":["s4","s1","s5","s4"],"aliases":["s1","s5","s4"]}]}}`),
		Entry("ordered by its \"$setElementOrder\" naming a number and a null among strings, which name no value: once",
			`{"spec":{"parts":[{"name":"a","aliases":["s1","s7","s3"]}]}}`,
			`{"spec":{"parts":[{"name":"a","weight":1},{"name":"a","$setElementOrder/aliases":["s3",1,null,"s4"],"aliases":["s3","s4"]}]}}`),
		Entry("naming a value twice, its \"$setElementOrder\" naming it twice: once",
			`{"spec":{"parts":[{"name":"a","aliases":["s1","s7","s3"]}]}}`,
			`{"spec":{"parts":[{"name":"a","weight":1},{"name":"a","$setElementOrder/aliases":["s3","s4","s3","s1"],"aliases":["s3","s3","s1"]}]}}`),
		Entry("onto an item first lacks, and an empty set: once",
			`{"spec":{"parts":[{"name":"b","aliases":["s1"]}]}}`,
			`{"spec":{"parts":[{"name":"a","aliases":["s2","s1"]},{"name":"a","aliases":["s1","s5"]},{"name":"b","mode":{"type":"x"}},{"name":"b","aliases":[]}]}}`),
	)

	// A schema whose keyed list's items hold a map of strategy replace: strategicpatch takes a second patch's map there
	// whole onto the first's map, "$patch" and all, so a repeat holding a "$patch: merge" map there merges where one
	// merged onto any other map fails; where the item lacks the map (or holds another kind), it takes the map less its
	// maps holding "$patch", inside a map the item lacks too (mergeMap takes that map less its maps holding "$patch").
	// Phase 2 decides each from the one collation.
	It("patch.Compose of a repeat holding \"$patch\" maps in a map of strategy replace: strategicpatch's merge, once", func() {
		swagger := []byte(`{"swagger":"2.0","info":{"title":"t","version":"v"},"paths":{},"definitions":{` +
			`"dev.ply.test.v1.Box":{"type":"object","properties":{"items":{"type":"array","items":{"$ref":"#/definitions/dev.ply.test.v1.Item"},"x-kubernetes-patch-merge-key":"name","x-kubernetes-patch-strategy":"merge"}}},` +
			`"dev.ply.test.v1.Item":{"type":"object","properties":{"name":{"type":"string"},"size":{"type":"integer"},"q":{"$ref":"#/definitions/dev.ply.test.v1.Q","x-kubernetes-patch-strategy":"replace"},"o":{"$ref":"#/definitions/dev.ply.test.v1.O"}}},` +
			`"dev.ply.test.v1.O":{"type":"object","properties":{"q":{"$ref":"#/definitions/dev.ply.test.v1.Q","x-kubernetes-patch-strategy":"replace"}}},` +
			`"dev.ply.test.v1.Q":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}}}}`)
		box, sp := boxOf(swagger)
		for _, c := range []struct {
			first, second string
			collations    int
		}{
			{`{"items":[{"name":"a","q":{"a":"1"}}]}`, `{"items":[{"name":"a","size":1},{"name":"a","q":{"$patch":"merge","b":"2"}}]}`, 1},
			{`{"items":[{"name":"a"}]}`, `{"items":[{"name":"a","size":1},{"name":"a","q":{"a":{"$patch":"merge","b":"2"}}}]}`, 1},
			{`{"items":[{"name":"a","q":{"a":"1"}}]}`, `{"items":[{"name":"a","size":1},{"name":"a","q":{"$patch":"bogus","b":null}}]}`, 1},
			{`{"items":[{"name":"a","q":"s"}]}`, `{"items":[{"name":"a","size":1},{"name":"a","q":{"$patch":"delete","b":"2"}}]}`, 1},
			{`{"items":[{"name":"a","q":{"a":"1"}}]}`, `{"items":[{"name":"a","size":1},{"name":"a","q":{"a":{"$patch":"replace"},"b":"2"}}]}`, 1},
			{`{"items":[{"name":"a","q":null}]}`, `{"items":[{"name":"a","size":1},{"name":"a","q":{"a":{"$patch":"replace"},"b":"2"}}]}`, 1},
			{`{"items":[{"name":"a","o":{}}]}`, `{"items":[{"name":"a","size":1},{"name":"a","o":{"q":{"a":{"$patch":"merge"},"b":"2"}}}]}`, 1},
			{`{"items":[{"name":"a"}]}`, `{"items":[{"name":"a","size":1},{"name":"a","o":{"q":{"$patch":"merge","b":"2"}}}]}`, 1},
			{`{"items":[{"name":"a"}]}`, `{"items":[{"name":"a","size":1},{"name":"a","o":{"q":{"a":{"$patch":"merge"},"b":"2"}}}]}`, 1},
		} {
			collations.Store(0)
			got, err := patch.Compose(jsonv.MustDecode(c.first), jsonv.MustDecode(c.second), box, features.Kubectl())
			Expect(err).NotTo(HaveOccurred())
			Expect(collations.Load()).To(BeEquivalentTo(c.collations), "%s and %s", c.first, c.second)
			want, err := sp.MergePatches([]byte(c.first), []byte(c.second))
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got.JSON())).To(Equal(string(jsonv.MustDecode(string(want)).JSON())), "strategicpatch's merge of %s and %s", c.first, c.second)
		}
	})

	// A repeat nesting at the depth limit (elements.Repeat.Deep: a 997-deep blob beside its fields) holding "$patch"
	// maps where its key's item holds a map: a collation with that outcome builds each as one node (a "replace" map the
	// patch's less the directive, a "delete" one empty, a map of strategy replace "$patch" and all), walking nothing
	// below it, so Phase 2 merges them as within the limit. One level deeper, the blob fails by the limit.
	It("patch.Compose of a repeat at the depth limit holding \"$patch\" maps onto maps: strategicpatch's merge, once", func() {
		swagger := []byte(`{"swagger":"2.0","info":{"title":"t","version":"v"},"paths":{},"definitions":{` +
			`"dev.ply.test.v1.Box":{"type":"object","properties":{"items":{"type":"array","items":{"$ref":"#/definitions/dev.ply.test.v1.Item"},"x-kubernetes-patch-merge-key":"name","x-kubernetes-patch-strategy":"merge"}}},` +
			`"dev.ply.test.v1.Item":{"type":"object","properties":{"name":{"type":"string"},"size":{"type":"integer"},"q":{"$ref":"#/definitions/dev.ply.test.v1.Q","x-kubernetes-patch-strategy":"replace"},"r":{"$ref":"#/definitions/dev.ply.test.v1.Q"},"blob":{"$ref":"#/definitions/dev.ply.test.v1.Blob"}}},` +
			`"dev.ply.test.v1.Blob":{"type":"object","properties":{"x":{"$ref":"#/definitions/dev.ply.test.v1.Blob"}}},` +
			`"dev.ply.test.v1.Q":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}}}}`)
		box, sp := boxOf(swagger)
		blob := func(levels int) string { return strings.Repeat(`{"x":`, levels) + `{}` + strings.Repeat(`}`, levels) }
		for _, c := range []struct{ first, second string }{
			{`{"items":[{"name":"a","r":{"a":"1"}}]}`, `{"items":[{"name":"a","size":1},{"name":"a","r":{"$patch":"replace","b":"2"},"blob":` + blob(997) + `}]}`},
			{`{"items":[{"name":"a","r":{"a":"1"}}]}`, `{"items":[{"name":"a","size":1},{"name":"a","r":{"$patch":"delete","b":"2"},"blob":` + blob(997) + `}]}`},
			{`{"items":[{"name":"a","q":{"a":"1"}}]}`, `{"items":[{"name":"a","size":1},{"name":"a","q":{"a":{"$patch":"merge"},"b":"2"},"blob":` + blob(997) + `}]}`},
		} {
			collations.Store(0)
			got, err := patch.Compose(jsonv.MustDecode(c.first), jsonv.MustDecode(c.second), box, features.Kubectl())
			Expect(err).NotTo(HaveOccurred())
			Expect(collations.Load()).To(BeEquivalentTo(1), "%s and %s", c.first, c.second[:80])
			want, err := sp.MergePatches([]byte(c.first), []byte(c.second))
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got.JSON())).To(Equal(string(jsonv.MustDecode(string(want)).JSON())), "strategicpatch's merge")
		}
		deeper := `{"items":[{"name":"a","size":1},{"name":"a","r":{"$patch":"delete"},"blob":` + blob(998) + `}]}`
		_, err := patch.Compose(jsonv.MustDecode(`{"items":[{"name":"a","r":{"a":"1"}}]}`), jsonv.MustDecode(deeper), box, features.Kubectl())
		Expect(err).To(MatchError(ContainSubstring("nesting is deeper than the limit")))
	})

	// A repeat whose sets in several maps below its item contradict their "$setElementOrder": Phase 1's first collation
	// of its tree gathers them all, and one more leaves their maps out of the skeleton of its maps (taken as the patch
	// holds them): two collations of the repeat's tree, whatever their number.
	It("patch.Compose of a repeat contradicting its sets' orders in three maps: its tree collated twice, strategicpatch's merge, once", func() {
		swagger := []byte(`{"swagger":"2.0","info":{"title":"t","version":"v"},"paths":{},"definitions":{` +
			`"dev.ply.test.v1.Box":{"type":"object","properties":{"items":{"type":"array","items":{"$ref":"#/definitions/dev.ply.test.v1.Item"},"x-kubernetes-patch-merge-key":"name","x-kubernetes-patch-strategy":"merge"}}},` +
			`"dev.ply.test.v1.Item":{"type":"object","properties":{"name":{"type":"string"},"size":{"type":"integer"},"a":{"$ref":"#/definitions/dev.ply.test.v1.Tags"},"b":{"$ref":"#/definitions/dev.ply.test.v1.Tags"},"c":{"$ref":"#/definitions/dev.ply.test.v1.Tags"}}},` +
			`"dev.ply.test.v1.Tags":{"type":"object","properties":{"n":{"type":"string"},"tags":{"type":"array","items":{"type":"string"},"x-kubernetes-patch-strategy":"merge"}}}}}`)
		box, sp := boxOf(swagger)
		var trees atomic.Int64
		DeferCleanup(probe.OnRepeatCollation(func() { trees.Add(1) }))
		first := `{"items":[{"name":"x","size":2}]}`
		second := `{"items":[{"name":"x","size":1},{"name":"x",` +
			`"a":{"$setElementOrder/tags":["q","p"],"tags":["p","q"]},` +
			`"b":{"$setElementOrder/tags":["q","p"],"tags":["p","q"]},` +
			`"c":{"$setElementOrder/tags":["q","p"],"tags":["p","q"],"n":"k"}}]}`
		got, err := patch.Compose(jsonv.MustDecode(first), jsonv.MustDecode(second), box, features.Kubectl())
		Expect(err).NotTo(HaveOccurred())
		Expect(collations.Load()).To(BeEquivalentTo(1))
		Expect(trees.Load()).To(BeEquivalentTo(2))
		want, err := sp.MergePatches([]byte(first), []byte(second))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got.JSON())).To(Equal(string(jsonv.MustDecode(string(want)).JSON())), "strategicpatch's merge")
	})

	DescribeTable("patch.Compose of a second patch whose repeat fails merged into its key's item (the test schema's Widget)",
		func(first, second string) {
			widget, err := difftest.LoadTarget("widget/" + difftest.Kubectl)
			Expect(err).NotTo(HaveOccurred())
			_, err = patch.Compose(jsonv.MustDecode(first), jsonv.MustDecode(second), widget.Root, features.Kubectl())
			Expect(err).To(HaveOccurred())
			Expect(collations.Load()).To(BeEquivalentTo(1))
			_, err = widget.Oracle.MergePatches([]byte(first), []byte(second))
			Expect(err).To(HaveOccurred(), "strategicpatch refuses the merge too")
		},
		Entry("its set ordered by its \"$setElementOrder\", onto the outcome's of mixed classes: once",
			`{"spec":{"parts":[{"name":"a","aliases":["s3",1]}]}}`,
			`{"spec":{"parts":[{"name":"a","weight":1},{"name":"a","$setElementOrder/aliases":["s2","s1"],"aliases":["s2"]}]}}`),
		Entry("its set its \"$setElementOrder\" contradicts: once",
			`{"spec":{"parts":[{"name":"a","aliases":["s3"]}]}}`,
			`{"spec":{"parts":[{"name":"a","weight":1},{"name":"a","$setElementOrder/aliases":["s2","s1"],"aliases":["s1","s2"]}]}}`),
		Entry("holding empty a list it orders by a \"$setElementOrder\" other than the outcome's, which holds items there: once",
			`{"spec":{"parts":[{"name":"b","$setElementOrder/args":["c"],"$setElementOrder/env":[],"args":["b"],"env":[]}]}}`,
			`{"spec":{"parts":[{"name":"b","size":3},{"name":"b","$setElementOrder/args":["c","x"],"$setElementOrder/env":[],"args":[],"env":null}]}}`),
		Entry("its set holding a value its \"$setElementOrder\" lacks, after its \"$retainKeys\" the outcome holds equal: once",
			`{"spec":{"parts":[{"name":"a","$retainKeys":["aliases","name"],"size":2}]}}`,
			`{"spec":{"parts":[{"name":"a","weight":1},{"name":"a","$retainKeys":["aliases","name"],"$setElementOrder/aliases":["s2"],"aliases":["s1","s2"],"enabled":true}]}}`),
		Entry("its set ordered beside a \"$deleteFromPrimitiveList\" (data in a patch), then ordering a list it sets to null: once",
			`{"spec":{"parts":[{"name":"a","aliases":["s2","s6","s1"],"env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"parts":[{"name":"a","weight":1},{"name":"a","$deleteFromPrimitiveList/aliases":[],"$setElementOrder/aliases":["s2","s6","s1"],"aliases":["s2","s6"],"$setElementOrder/env":[{"name":"E"}],"env":null}]}}`),
	)

	DescribeTable("patch.Compose of a second patch whose repeat fails merged into its key's item",
		func(first, second string) {
			schema, err := openapi.Default()
			Expect(err).NotTo(HaveOccurred())
			pod, ok := schema.Kubectl().ByName("io.k8s.api.core.v1.Pod")
			Expect(ok).To(BeTrue())
			_, err = patch.Compose(jsonv.MustDecode(first), jsonv.MustDecode(second), pod, features.Kubectl())
			Expect(err).To(HaveOccurred())
			Expect(collations.Load()).To(BeEquivalentTo(1))
			sp, err := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
			Expect(err).NotTo(HaveOccurred())
			_, err = sp.MergePatches([]byte(first), []byte(second))
			Expect(err).To(HaveOccurred(), "strategicpatch refuses the merge too")
		},
		Entry("its \"$retainKeys\" differing from the outcome's: once",
			`{"spec":{"volumes":[{"name":"v","$retainKeys":["name","secret"],"secret":{"secretName":"s"}}]}}`,
			`{"spec":{"volumes":[{"name":"v","configMap":{"name":"m"}},{"name":"v","$retainKeys":["configMap","name"]}]}}`),
		Entry("holding empty a merged list of objects it orders by \"$setElementOrder\" that the outcome lacks or holds empty: once",
			`{"spec":{"containers":[{"name":"a","env":[]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"E"}],"env":[],"$setElementOrder/ports":[{"containerPort":1}],"ports":[]}]}}`),
		Entry("ordering by \"$setElementOrder\" alone lists the outcome holds empty, merged or not: once",
			`{"spec":{"containers":[{"name":"a","env":[],"args":[]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"E"}],"$setElementOrder/args":["x"]}]}}`),
		Entry("ordering by \"$setElementOrder\" alone a list of scalars the outcome holds empty in a map: once",
			`{"spec":{"containers":[{"name":"a","livenessProbe":{"exec":{"command":[]}}}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","livenessProbe":{"exec":{"$setElementOrder/command":["x"]}}}]}}`),
		Entry("holding empty lists it orders by \"$setElementOrder\" in a map below its item that the outcome holds without items there: once",
			`{"spec":{"containers":[{"name":"a","livenessProbe":{"exec":{}},"readinessProbe":{"exec":{"command":[]}}}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","livenessProbe":{"exec":{"$setElementOrder/command":["c"],"command":[]}}},{"name":"a","readinessProbe":{"exec":{"$setElementOrder/command":["c"],"command":[]}}}]}}`),
		Entry("holding empty a list of scalars merged by no strategy it orders by \"$setElementOrder\" that the outcome lacks: once",
			`{"spec":{"containers":[{"name":"a","image":"j"}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["x"],"args":[]}]}}`),
		Entry("ordering by \"$setElementOrder\" a list it sets to null: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"E"}],"env":null,"tty":true}]}}`),
		Entry("ordering by \"$setElementOrder\" a list it sets to null after a list of scalars taken whole: once",
			`{"spec":{"containers":[{"name":"a","args":["x"],"env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"E"}],"args":["y",null],"env":null}]}}`),
		Entry("ordering by \"$setElementOrder\" a list it sets to null after a list it only orders that the outcome holds: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}],"ports":[{"containerPort":80}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"E"}],"$setElementOrder/ports":[{"containerPort":80}],"ports":null}]}}`),
		Entry("ordering by \"$setElementOrder\" a list it sets to null after a map of maps: once",
			`{"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"1"}},"volumeMounts":[{"mountPath":"/m","name":"v"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/volumeMounts":[{"mountPath":"/m"}],"resources":{"limits":{"cpu":"2","memory":null},"requests":{}},"volumeMounts":null}]}}`),
		Entry("its env ordered by a \"$setElementOrder\" naming a string among maps, the outcome holding env: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"A"},{"name":"B"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"B"},"x",{"name":"A"}],"env":[{"name":"B","value":"1"},{"name":"A","value":"1"}]}]}}`),
		Entry("its env ordered by a \"$setElementOrder\" whose entry lacks the key, or is null, the outcome holding env: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"A"}]},{"name":"b","env":[{"name":"A"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"A"},{"value":"x"}],"env":[{"name":"A","value":"1"}]},{"name":"b","image":"i"},{"name":"b","$setElementOrder/env":[null,{"name":"A"}],"env":[{"name":"A","value":"1"}]}]}}`),
		Entry("its env holding a \"$patch: replace\" item, ordered by a \"$setElementOrder\" its items contradict, the outcome holding env: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"A"},{"name":"C"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"A"},{"name":"B"}],"env":[{"$patch":"replace"},{"name":"B","value":"1"},{"name":"A","value":"1"}]}]}}`),
		Entry("ordering by \"$setElementOrder\" alone args the outcome holds as objects, and as items of mixed classes: once",
			`{"spec":{"containers":[{"name":"a","args":[{"x":1}]},{"name":"b","args":["x",1]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["x"]},{"name":"b","image":"i"},{"name":"b","$setElementOrder/args":["x"]}]}}`),
		Entry("holding empty and ordering by \"$setElementOrder\" args the outcome holds as objects: once",
			`{"spec":{"containers":[{"name":"a","args":[{"x":1}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["x"],"args":[]}]}}`),
		Entry("holding empty and ordering by \"$setElementOrder\" args the outcome holds with a null item: once",
			`{"spec":{"containers":[{"name":"a","args":["x",null]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["x"],"args":[]}]}}`),
		Entry("ordering by \"$setElementOrder\" alone finalizers the outcome holds as objects: once",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":[{"x":1}]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["x"]}}}}]}}`),
		Entry("ordering by \"$setElementOrder\" alone finalizers by an order naming an object: once",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["b",{"x":1}]}}}}]}}`),
		Entry("ordering by \"$setElementOrder\" a list it sets that the outcome holds null: once",
			`{"spec":{"containers":[{"name":"a","ports":null}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/ports":[{"containerPort":80}],"ports":[{"containerPort":80,"protocol":"TCP"}]}]}}`),
		Entry("ordering by \"$setElementOrder\" a list it sets to null after a merged list of objects it orders and merges: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"},{"name":"F","value":"2"}],"ports":[{"containerPort":80}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"F"},{"name":"E"}],"$setElementOrder/ports":[{"containerPort":80}],"env":[{"name":"F","valueFrom":{"fieldRef":{"fieldPath":"p"}}},{"name":"E","value":"3"}],"ports":null}]}}`),
		Entry("ordering by \"$setElementOrder\" a list it sets to null after a list of objects merged by no strategy: once",
			`{"spec":{"containers":[{"name":"a","restartPolicyRules":[{"action":"Restart"}],"volumeDevices":[{"devicePath":"/d","name":"v"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/volumeDevices":[{"devicePath":"/d"}],"restartPolicyRules":[{"action":"Restart","exitCodes":{"operator":"In","values":[1]}}],"volumeDevices":null}]}}`),
		Entry("ordering by \"$setElementOrder\" a list it sets to null after a merged list of objects whose item holds \"$retainKeys\": once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}],"volumeMounts":[{"mountPath":"/m","name":"v"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/volumeMounts":[{"mountPath":"/m"}],"env":[{"name":"E","$retainKeys":["name"]}],"volumeMounts":null}]}}`),
		Entry("a \"$patch\" map of an unknown value the outcome holds a map for: that map's error, once",
			`{"spec":{"containers":[{"name":"a","readinessProbe":{"periodSeconds":1}}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","livenessProbe":{"$patch":"bogus"},"readinessProbe":{"$patch":"bogus"},"tty":true}]}}`),
		Entry("a \"$patch\" map of a value not a string, below a map the outcome holds a map for: once",
			`{"spec":{"containers":[{"name":"a","lifecycle":{"postStart":{"exec":{}}}}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","lifecycle":{"postStart":{"$patch":1},"preStop":{"exec":{}}}}]}}`),
		Entry("ordering by \"$setElementOrder\" a list it sets to null after a \"$patch: merge\" map the outcome holds a map for: that map's error, once",
			`{"spec":{"containers":[{"name":"a","lifecycle":{"postStart":{}},"volumeMounts":[{"mountPath":"/m","name":"v"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/volumeMounts":[{"mountPath":"/m"}],"lifecycle":{"$patch":"merge"},"volumeMounts":null}]}}`),
		Entry("ordering by \"$setElementOrder\" a list it sets to null after a \"$patch: merge\" map the outcome lacks: once",
			`{"spec":{"containers":[{"name":"a","volumeMounts":[{"mountPath":"/m","name":"v"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/volumeMounts":[{"mountPath":"/m"}],"lifecycle":{"$patch":"merge"},"volumeMounts":null}]}}`),
		Entry("ordering by \"$setElementOrder\" a list it sets to null after an ordered \"$patch: replace\" list of objects: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}],"volumeMounts":[{"mountPath":"/m","name":"v"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"F"},{"name":"E"}],"$setElementOrder/volumeMounts":[{"mountPath":"/m"}],"env":[{"$patch":"replace"},{"name":"F"}],"volumeMounts":null}]}}`),
		Entry("ordering by \"$setElementOrder\" a list it sets to null after a merged list of objects whose item holds a \"$patch: merge\" map: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}],"volumeMounts":[{"mountPath":"/m","name":"v"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/volumeMounts":[{"mountPath":"/m"}],"env":[{"name":"F","valueFrom":{"$patch":"merge"}}],"volumeMounts":null}]}}`),
		Entry("ordering by \"$setElementOrder\" a list it sets to null after a map holding a \"$patch: merge\" map the outcome holds a map for: that map's error, once",
			`{"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"1"}},"volumeMounts":[{"mountPath":"/m","name":"v"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/volumeMounts":[{"mountPath":"/m"}],"resources":{"limits":{"$patch":"merge"},"requests":{"cpu":"2"}},"volumeMounts":null}]}}`),
		Entry("ordering by \"$setElementOrder\" a list it sets to a string after a merged list of objects the outcome lacks, naming a key twice: once",
			`{"spec":{"containers":[{"name":"a","volumeMounts":[{"mountPath":"/m","name":"v"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/volumeMounts":[{"mountPath":"/m"}],"env":[{"name":"E","value":"2"},{"name":"E","value":"1"},{"name":"F","valueFrom":{"$patch":"merge"}}],"volumeMounts":"x"}]}}`),
		Entry("ordering by \"$setElementOrder\" alone a list the outcome holds null: once",
			`{"spec":{"containers":[{"name":"a","env":null}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"E"}],"tty":true}]}}`),
		Entry("its set of another class than the outcome's: once",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":[1,2]}}}}]}}`),
		Entry("its merged list of objects holding a \"$patch: merge\" item, onto the outcome's list: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"F","value":"2"},{"$patch":"merge","name":"E"}]}]}}`),
		Entry("its merged list of objects holding an item without the merge key, onto the outcome's list: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"F","value":"2"},{"value":"3"}]}]}}`),
		Entry("its set onto the outcome's of mixed classes: once",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a",1]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c"]}}}}]}}`),
		Entry("its keyed list holding a scalar item, onto the outcome's empty list: once",
			`{"spec":{"containers":[{"name":"a","env":[]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[0]}]}}`),
		Entry("its keyed list holding a scalar item, onto the outcome's list of objects: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":["x"]}]}}`),
		Entry("its keyed list of objects, onto the outcome's list holding scalar items: once",
			`{"spec":{"containers":[{"name":"a","env":["x"]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[{"name":"E","value":"1"}]}]}}`),
		Entry("its keyed list of objects, onto the outcome's list holding a null item: once",
			`{"spec":{"containers":[{"name":"a","env":[null]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[{"name":"E","value":"1"}]}]}}`),
		Entry("its merged list's items of a key holding \"$retainKeys\" that differ in their maps: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"$retainKeys":["fieldRef"],"fieldRef":{"fieldPath":"p"}}},{"name":"E","valueFrom":{"$retainKeys":["secretKeyRef"]}}]}]}}`),
		Entry("the same, of a key the outcome lacks, the later naming another field too: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"D","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"$retainKeys":["fieldRef"],"fieldRef":{"fieldPath":"p"}}},{"name":"F"},{"name":"E","valueFrom":{"$retainKeys":["fieldRef","x"],"secretKeyRef":{"key":"k"}}}]}]}}`),
		Entry("its merged list's item holding \"$retainKeys\" beside its fields, onto the outcome's item holding another: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1","$retainKeys":["name"]}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","$retainKeys":["name","value"],"value":"2"}]}]}}`),
		Entry("its merged list's items of a key holding differing \"$retainKeys\" beside their fields: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"F","$retainKeys":["name","value"],"value":"2"},{"name":"F","$retainKeys":["name"]}]}]}}`),
		Entry("its merged list's item holding \"$retainKeys\" in a map where the outcome's item's holds another, before a later item's failure: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","valueFrom":{"$retainKeys":["secretKeyRef"]}}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"F","valueFrom":{}},{"name":"F","valueFrom":{"$patch":"merge"}},{"name":"E","valueFrom":{"$retainKeys":["fieldRef"],"fieldRef":{"fieldPath":"p"}}}]}]}}`),
		Entry("its \"$patch: merge\" map onto the outcome's map: once",
			`{"spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":"2"}}}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","resources":{"$patch":"merge","limits":{"cpu":"1"}},"tty":true}]}}`),
		Entry("its \"$patch: merge\" map in a map, onto the outcome's map there: once",
			`{"spec":{"containers":[{"name":"a","resources":{"limits":{"memory":"1"}}}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","resources":{"limits":{"$patch":"merge","cpu":"1"}}}]}}`),
		Entry("its keyed list ordered by its \"$setElementOrder\", onto the outcome's list holding scalar items: once",
			`{"spec":{"containers":[{"name":"a","env":["x"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"F"},{"name":"E"}],"env":[{"name":"F","value":"2"}]}]}}`),
		Entry("its set its \"$setElementOrder\" contradicts, in a map the outcome holds: once",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c"],"name":"n"}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["b","a"],"annotations":{"k":"v"},"finalizers":["a","b"]}}}}]}}`),
		Entry("its merged list's item holding a \"$patch: merge\" map onto the outcome's item's map: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"$patch":"merge","secretKeyRef":{"key":"k"}}}]}]}}`),
		Entry("its merged list's later item of a key holding a \"$patch: merge\" map onto an earlier item's map: once",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"D","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"x"}}},{"name":"E","valueFrom":{"$patch":"merge","secretKeyRef":{"key":"k"}}}]}]}}`),
	)

	It("patch.Apply of kubectl's patch collates once", func() {
		p, err := patchgen.ThreeWay(recorded, local, live, patchgen.Options{Overwrite: true})
		Expect(err).NotTo(HaveOccurred())
		collations.Store(0)
		_, err = patch.Apply(live, p, patch.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(collations.Load()).To(BeEquivalentTo(1))
	})
})

// changeLines renders changes as "op path (source)", one a line.
func changeLines(cs []apply.Change) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Op.String() + " " + c.Path().String() + " (" + c.Source.String() + ")"
	}
	return out
}

// failsOnceAsInTurn applies to Pod live, under opts, the patch whose spec's list holds items first and repeat (naming
// first's key again), expecting one collation (counted in collations) and the error of repeat applied to the outcome of
// first, which holds wantErr (any error for ""); it returns that outcome.
func failsOnceAsInTurn(collations *atomic.Int64, live, list, first, repeat string, opts patch.Options, wantErr string) value.Value {
	GinkgoHelper()
	_, err := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(`{"spec":{"`+list+`":[`+first+`,`+repeat+`]}}`), opts)
	Expect(collations.Load()).To(BeEquivalentTo(1))
	once, onceErr := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(`{"spec":{"`+list+`":[`+first+`]}}`), opts)
	Expect(onceErr).NotTo(HaveOccurred())
	_, applyErr := patch.Apply(once, jsonv.MustDecode(`{"spec":{"`+list+`":[`+repeat+`]}}`), opts)
	Expect(applyErr).To(MatchError(ContainSubstring(wantErr)))
	Expect(err).To(MatchError(applyErr.Error()))
	return once
}

// boxOf reads swagger, an OpenAPI v2 document defining dev.ply.test.v1.Box, as ply's kubectl view and as
// strategicpatch's schema: the Box type and its oracle.
func boxOf(swagger []byte) (*openapi.Type, *oracle.Oracle) {
	schema, err := openapi.LoadV2(swagger)
	Expect(err).NotTo(HaveOccurred())
	box, ok := schema.Kubectl().ByName("dev.ply.test.v1.Box")
	Expect(ok).To(BeTrue())
	models, err := oracle.Load(swagger)
	Expect(err).NotTo(HaveOccurred())
	sp, err := models.Oracle("dev.ply.test.v1.Box")
	Expect(err).NotTo(HaveOccurred())
	return box, sp
}
