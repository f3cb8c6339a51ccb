package patch_test

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// Compose merges a patch into another as kubectl merges the delta half of
// its three-way patch into the deletions half: strategicpatch's mergeMap
// with MergeParallelList and IgnoreUnmatchedNulls off (oracle.MergePatches),
// list order included, or an error from both. Composing first into {}
// before gives the exported MergeStrategicMergeMapPatchUsingLookupPatchMeta
// (oracle.MergedPatches).
var _ = Describe("Compose, every gate off, against strategicpatch's merge of two patches", func() {
	var sp *oracle.Oracle
	BeforeEach(func() {
		var err error
		sp, err = oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
		Expect(err).NotTo(HaveOccurred())
	})
	compose := func(first, second value.Value) (value.Value, error) {
		schema, err := openapi.Default()
		Expect(err).NotTo(HaveOccurred())
		pod, ok := schema.Kubectl().ByName("io.k8s.api.core.v1.Pod")
		Expect(ok).To(BeTrue())
		return patch.Compose(first, second, pod, features.Kubectl())
	}
	compare := func(got value.Value, err error, want []byte, werr error) {
		if werr != nil {
			Expect(err).To(HaveOccurred(), "strategicpatch fails: %v; ply gives %s", werr, got.JSON())
			var ee *elements.Error
			Expect(errors.As(err, &ee)).To(BeTrue(), "%T %v", err, err)
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(equalValue(jsonv.MustDecode(string(want))))
	}

	It("refuses an empty order naming none of second's items with gate SeedOrdering on, composing and applying", func() {
		schema, err := openapi.Default()
		Expect(err).NotTo(HaveOccurred())
		pod, ok := schema.Kubectl().ByName("io.k8s.api.core.v1.Pod")
		Expect(ok).To(BeTrue())
		first := jsonv.MustDecode(`{"spec":{"containers":[{"name":"a"}]}}`)
		second := jsonv.MustDecode(`{"spec":{"$setElementOrder/containers":[],"containers":[{"name":"c"},{"name":"d"}]}}`)
		const refused = "patch spec.containers: $setElementOrder/containers is empty but the patch list has items; every item of the patch list must be in it"
		_, err = patch.Compose(first, second, pod, features.Kubectl().With(features.SeedOrdering, true))
		Expect(err).To(MatchError(refused))
		_, err = patch.Apply(first, second, patch.Options{Gates: features.Kubectl().With(features.SeedOrdering, true), Ordering: patch.OrderKubectl, TypeName: "io.k8s.api.core.v1.Pod"})
		Expect(err).To(MatchError(ContainSubstring("is empty but the patch list has items")))
		got, err := patch.Compose(first, second, pod, features.Kubectl())
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(equalValue(jsonv.MustDecode(`{"spec":{"$setElementOrder/containers":[],"containers":[{"name":"a"},{"name":"d"},{"name":"c"}]}}`)))
	})

	DescribeTable("mergeMap(first, second)",
		func(first, second string, fails bool) {
			f, s := jsonv.MustDecode(first), jsonv.MustDecode(second)
			want, werr := sp.MergePatches(f.JSON(), s.JSON())
			Expect(werr != nil).To(Equal(fails), "strategicpatch: %v", werr)
			got, err := compose(f, s)
			compare(got, err, want, werr)

			// The exported merge: first composed into {} first.
			want, werr = sp.MergedPatches(f.JSON(), s.JSON())
			if got, err = compose(value.MustMap(), f); err == nil {
				got, err = compose(got, s)
			}
			compare(got, err, want, werr)
		},
		Entry("nulls: kept, also where first lacks the field and in values taken whole",
			`{"spec":{"activeDeadlineSeconds":null,"hostname":"h"}}`,
			`{"spec":{"hostname":null,"subdomain":null,"containers":[{"name":"a","image":null}]}}`, false),
		Entry("nulls merged into first's map and item",
			`{"metadata":{"labels":{"a":"1","c":null}},"spec":{"containers":[{"name":"a","image":"i"}]}}`,
			`{"metadata":{"labels":{"a":null,"b":"2"}},"spec":{"containers":[{"name":"a","image":null,"tty":true}]}}`, false),
		Entry("a delete item in first and a second item of its key: merged into it, \"$patch: delete\" kept",
			`{"spec":{"containers":[{"$patch":"delete","name":"a"},{"name":"b","image":null}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"x"}]}}`, false),
		Entry("a delete item in first, second naming other keys: the delete item last",
			`{"spec":{"containers":[{"$patch":"delete","name":"a"},{"name":"b","image":null},{"name":"c","tty":null}]}}`,
			`{"spec":{"containers":[{"name":"d","image":"x"},{"name":"b","image":"y"}]}}`, false),
		Entry("second's empty list reorders first's: delete items last",
			`{"spec":{"containers":[{"$patch":"delete","name":"a"},{"name":"b","image":null}]}}`,
			`{"spec":{"containers":[]}}`, false),
		// An empty "$setElementOrder" names none of second's items: strategicpatch sorts them all as unnamed, by their
		// index in first's list, with a comparator that answers "less" whenever either lacks one (sort.SliceStable).
		Entry("an empty order, second's items new: after first's, reversed (insertion sort, the comparator always true)",
			`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`,
			`{"spec":{"$setElementOrder/containers":[],"containers":[{"name":"c"},{"name":"d"}]}}`, false),
		Entry("an empty order, second merging into first's b among new items",
			`{"spec":{"containers":[{"name":"a"},{"name":"b"},{"name":"e"}]}}`,
			`{"spec":{"$setElementOrder/containers":[],"containers":[{"name":"c"},{"name":"b","image":"x"},{"name":"d"}]}}`, false),
		Entry("an empty order, first without the list: second's items reversed",
			`{"spec":{"hostname":"h"}}`,
			`{"spec":{"$setElementOrder/containers":[],"containers":[{"name":"c"},{"name":"d"},{"name":"e"}]}}`, false),
		Entry("an empty order, first holding delete items: they stay last",
			`{"spec":{"containers":[{"$patch":"delete","name":"a"},{"name":"b"},{"$patch":"delete","name":"f"},{"name":"g"}]}}`,
			`{"spec":{"$setElementOrder/containers":[],"containers":[{"name":"c"},{"name":"g","image":"x"},{"name":"d"}]}}`, false),
		Entry("an empty order of a set: second's new values after first's, reversed",
			`{"metadata":{"finalizers":["a","b"]}}`,
			`{"metadata":{"$setElementOrder/finalizers":[],"finalizers":["c","d","a"]}}`, false),
		Entry("an empty order over more than 20 items (blocks sorted apart, then merged by the comparator)",
			containers(`{"hostname":"h"}`, 12, "f"), containers(`{"$setElementOrder/containers":[]}`, 31, "s"), false),
		Entry("a repeat whose env holds only a delete item: the item deleted from its member's outcome",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"x"},{"name":"a","env":[{"name":"A","$patch":"delete"}]}]}}`, false),
		Entry("a repeat whose env holds only a delete item, its member's env merged into first's: deleted there",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"B","value":"2"},{"name":"A","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","env":[{"name":"C","value":"3"}]},{"name":"a","env":[{"name":"B","$patch":"delete"}]}]}}`, false),
		Entry("a repeat ordering env and deleting one of its items",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"B","value":"2"},{"name":"A","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/env":[{"name":"A"},{"name":"B"}],"env":[{"name":"B","$patch":"delete"}]}]}}`, false),
		Entry("a repeat ordering env, deleting an item and adding one: the new item ranked by the place it took in first's list",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"A","value":"1"},{"name":"B","value":"2"},{"name":"C","value":"3"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/env":[{"name":"X"}],"env":[{"name":"B","$patch":"delete"},{"name":"X","value":"x"}]}]}}`, false),
		Entry("a repeat ordering env, deleting an item and adding more than it freed: those past first's list's length unranked",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/env":[{"name":"Y"},{"name":"Z"}],"env":[{"name":"A","$patch":"delete"},{"name":"Y","value":"y"},{"name":"Z","value":"z"}]}]}}`, false),
		Entry("a repeat ordering env, deleting items of first's delete item's key and another's, merging into a delete item, adding two",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"A","value":"1"},{"$patch":"delete","name":"D"},{"name":"B","value":"2"},{"$patch":"delete","name":"E"},{"name":"C","value":"3"},{"name":"A","value":"4"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/env":[{"name":"Y"},{"name":"E"},{"name":"C"},{"name":"X"}],"env":[{"name":"A","$patch":"delete"},{"name":"Y","value":"y"},{"name":"D","$patch":"delete"},{"name":"E","value":"e"},{"name":"X"}]}]}}`, false),
		Entry("a repeat's env items holding \"$retainKeys\" in their maps: copied into first's item's map, kept in an appended item's",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"p"}}},{"name":"F","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[{"name":"E","valueFrom":{"$retainKeys":["secretKeyRef"],"secretKeyRef":{"key":"k","$retainKeys":[]}}},{"name":"G","valueFrom":{"$retainKeys":["fieldRef"],"fieldRef":{"fieldPath":"q"}}}]}]}}`, false),
		Entry("a repeat's env items of a key holding equal \"$retainKeys\" in their maps: merged in turn",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[{"name":"E","valueFrom":{"$retainKeys":["fieldRef"],"fieldRef":{"fieldPath":"p"}}},{"name":"E","valueFrom":{"$retainKeys":["fieldRef"]}}]}]}}`, false),
		Entry("a repeat's env items of a key holding differing \"$retainKeys\" in their maps: an error",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[{"name":"E","valueFrom":{"$retainKeys":["fieldRef"],"fieldRef":{"fieldPath":"p"}}},{"name":"E","valueFrom":{"$retainKeys":["secretKeyRef"]}}]}]}}`, true),
		Entry("a repeat's env item holding \"$retainKeys\" in its map onto first's item's holding another: an error",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","valueFrom":{"$retainKeys":["fieldRef"],"fieldRef":{"fieldPath":"p"}}}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[{"name":"E","valueFrom":{"$retainKeys":["secretKeyRef"]}}]}]}}`, true),
		Entry("a repeat's env with a \"$patch: merge\" item after a data item onto first's item's env: an error",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"A","value":"0"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","image":"i","env":[{"name":"B","value":"1"},{"$patch":"merge","name":"A"}]}]}}`, true),
		Entry("a repeat's env with an item of an unknown \"$patch\" onto first's item's empty env: an error",
			`{"spec":{"containers":[{"name":"a","env":[]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[{"$patch":"x","name":"A"}]}]}}`, true),
		Entry("a repeat's env with an item lacking the key onto first's item's env: an error",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"A","value":"0"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[{"name":"B","value":"1"},{"value":"2"}]}]}}`, true),
		Entry("a \"$setElementOrder\" naming a field the object's type does not declare, in a map first holds: an error",
			`{"spec":{"hostname":"h"}}`,
			`{"spec":{"$setElementOrder/sidecars":[{"name":"a"}]}}`, true),
		Entry("a \"$setElementOrder\" naming a field a keyed item's type does not declare: an error",
			`{"spec":{"containers":[{"name":"a","image":"i"}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/sidecars":[{"name":"x"}]}]}}`, true),
		Entry("a \"$setElementOrder\" in a map of values first holds: an error",
			`{"spec":{"nodeSelector":{"a":"b"}}}`,
			`{"spec":{"nodeSelector":{"$setElementOrder/b":["x"]}}}`, true),
		Entry("a \"$setElementOrder\" naming an undeclared field in a map first lacks: taken whole",
			`{"spec":{"hostname":"h"}}`,
			`{"spec":{"securityContext":{"$setElementOrder/sidecars":["x"]},"nodeSelector":{"$setElementOrder/b":["x"]}}}`, false),
		Entry("a \"$setElementOrder\" naming a declared field of another kind: copied (kubectl's OpenAPI v3 look-up finds it)",
			`{"spec":{"subdomain":"h"}}`,
			`{"spec":{"$setElementOrder/hostname":["x"],"$setElementOrder/securityContext":["y"]}}`, false),
		Entry("a \"$patch: replace\" env ordered by its \"$setElementOrder\" onto first's env holding a delete item of a key it names: no delete item left, sorted by the order",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"F","$patch":"delete"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/env":[{"name":"F"},{"name":"G"},{"name":"H"},{"name":"E"}],"env":[{"$patch":"replace"},{"name":"F"},{"name":"G","value":"2"}]}]}}`, false),
		Entry("a repeat's \"$patch: replace\" env ordered by its \"$setElementOrder\" onto first's item's env holding a delete item: ranked by that env",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"H","$patch":"delete"},{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"G"},{"name":"H"},{"name":"F"},{"name":"E"}],"env":[{"name":"G","value":null},{"name":"H"},{"$patch":"replace"},{"name":"F"}]}]}}`, false),
		Entry("a \"$patch: replace\" list's repeat holding a merged list with \"$patch\" items and maps: taken as it stands",
			`{"spec":{"containers":[{"name":"b"}]}}`,
			`{"spec":{"containers":[{"$patch":"replace"},{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","$patch":"delete"},{"name":"F","valueFrom":{"$patch":"replace"}}],"resources":{"limits":{"cpu":"1"}}}]}}`, false),
		Entry("a \"$patch: replace\" list's repeat holding a \"$patch: merge\" map: taken as it stands",
			`{"spec":{"containers":[{"name":"b"}]}}`,
			`{"spec":{"containers":[{"$patch":"replace"},{"name":"a","image":"i"},{"name":"a","resources":{"limits":{"$patch":"merge","cpu":"1"}},"tty":true}]}}`, false),
		Entry("a repeat's env with a \"$patch: merge\" item where first's item lacks env: taken less that item",
			`{"spec":{"containers":[{"name":"a","image":"j"}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[{"name":"B","value":"1"},{"$patch":"merge","name":"A"}]}]}}`, false),
		Entry("a repeat in a list first lacks, ordered naming its key twice: its \"$patch\" maps dropped, so are its lists' items holding \"$patch\"",
			`{"spec":{"hostname":"h"}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"a"},{"name":"a"}],"containers":[{"name":"a","image":"i"},{"name":"a","readinessProbe":{"$patch":"replace","exec":{}},"volumeDevices":[{"$patch":"replace"}]}]}}`, false),
		Entry("a repeat in a \"$patch: replace\" list first lacks, ordered naming its key twice: its \"$patch\" maps dropped",
			`{"spec":{"hostname":"h"}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"a"},{"name":"a"}],"containers":[{"$patch":"replace"},{"name":"a"},{"name":"a","readinessProbe":{"$patch":"replace"},"volumeDevices":[{"$patch":"replace"}]}]}}`, false),
		Entry("a repeat in a \"$patch: replace\" list onto first's list, ordered naming its key twice: its \"$patch\" maps kept",
			`{"spec":{"containers":[{"name":"x"}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"a"},{"name":"a"}],"containers":[{"$patch":"replace"},{"name":"a"},{"name":"a","readinessProbe":{"$patch":"replace"},"volumeDevices":[{"$patch":"replace"}]}]}}`, false),
		Entry("a repeat in a list new to first's item, ordered naming its key twice: its \"$patch: delete\" map dropped",
			`{"spec":{"containers":[{"name":"a"}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/env":[{"name":"d"},{"name":"d"}],"env":[{"name":"d"},{"name":"d","valueFrom":{"$patch":"delete"}}]}]}}`, false),
		Entry("a \"$patch: delete\" item naming again a key of a list first lacks, ordered naming the key twice",
			`{"spec":{"hostname":"h"}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"a"},{"name":"a"}],"containers":[{"name":"a","image":"i"},{"$patch":"delete","name":"a"}]}}`, false),
		Entry("a repeat's set ordered by a \"$setElementOrder\" naming values twice, onto first's set: each ranked by its first place there",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","d","e"]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["d","c","a","d","b","c"],"finalizers":["c","b"]}}}}]}}`, false),
		Entry("a repeat's set ordered by a \"$setElementOrder\" naming a value twice, its values following the order's second place: ranked by the first",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["x","a"]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["b","a","c","b"],"finalizers":["a","c","b"]}}}}]}}`, false),
		Entry("second naming a key twice that first lacks: one item",
			`{"spec":{"containers":[{"name":"b","image":null}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"x"},{"name":"c"},{"name":"a","command":["c"],"image":"y"}]}}`, false),
		Entry("second naming a key twice that first has: both merged into it in turn",
			`{"spec":{"containers":[{"name":"a","image":null},{"name":"b","image":null}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true,"stdin":false},{"name":"a","stdin":true}]}}`, false),
		Entry("second naming a key twice that first deletes",
			`{"spec":{"containers":[{"$patch":"delete","name":"a"},{"name":"b","image":null}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","stdin":true,"tty":null}]}}`, false),
		Entry("second naming a key twice, the repeat's maps merging onto the item's, a null kept, an atomic list replaced",
			`{"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"1","memory":"1Gi"}},"args":["x"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","resources":{"limits":{"memory":null},"requests":{"cpu":"2"}},"args":["y"],"securityContext":{"runAsUser":1}}]}}`, false),
		Entry("second naming a key twice, the repeat's lists of objects merged by no strategy replacing first's item's or new",
			`{"spec":{"volumes":[{"name":"v","configMap":{"name":"m","items":[{"key":"a","path":"p"}]}}],"containers":[{"name":"a","envFrom":[{"prefix":"x","configMapRef":{"name":"c"}}]}]}}`,
			`{"spec":{"volumes":[{"name":"v","configMap":{"optional":true}},{"name":"v","configMap":{"items":[{"key":"b","path":"q"},{"key":"c","path":"r"}]}}],"containers":[{"name":"a","image":"i"},{"name":"a","envFrom":[{"secretRef":{"name":"s"}}],"volumeDevices":null}]}}`, false),
		Entry("second naming a key twice, the repeat's merged lists of objects merged into first's item's: new keys after the keys named before them, delete items last",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"},{"$patch":"delete","name":"D"},{"name":"F","value":"2"},{"name":"E","value":"3"}],"ports":[{"containerPort":80,"name":"h"},{"containerPort":82}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"G","value":"4"},{"name":"E","value":"5"},{"name":"H","value":"6"}],"ports":[{"containerPort":82,"protocol":"UDP"},{"containerPort":81},{"containerPort":80,"protocol":"TCP","hostPort":8080}]}]}}`, false),
		Entry("second naming a key twice, the repeat's merged list of objects naming first's item's second item of a key and its first item's",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"F","value":"0"},{"name":"E","value":"1"},{"name":"F","value":"2"},{"name":"G"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"G","value":"4"},{"name":"X","value":"x"},{"name":"F","value":"5"}]}]}}`, false),
		Entry("second naming a key twice, the repeat's merged list of objects merged into first's item's delete item: an item of that key",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"},{"$patch":"delete","name":"D"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"D","value":"4"},{"name":"E","value":true}]}]}}`, false),
		Entry("second naming a key twice, the repeat's merged list of objects onto first's item's empty list and one of scalars' keys",
			`{"spec":{"containers":[{"name":"a","env":[],"volumeMounts":[{"mountPath":"/m","name":"v"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"A","value":"1"}],"volumeMounts":[{"mountPath":"/n","name":"w"},{"mountPath":"/m","readOnly":true}]}]}}`, false),
		Entry("second naming a key twice, the repeat's merged list of objects naming keys twice, nulls kept: merged in turn into one item of each key",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"},{"$patch":"delete","name":"D"},{"name":"F","value":"2"},{"name":"E","value":"3"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"G","value":"4"},{"name":"E","value":null},{"name":"G","value":"5"},{"name":"F","value":"6"},{"name":"E","value":"7"}]}]}}`, false),
		Entry("second naming a key twice, the repeat's merged list of ports naming a port twice that first's item lacks",
			`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"h"},{"containerPort":82,"hostPort":null}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","ports":[{"containerPort":84,"hostPort":1},{"containerPort":82,"hostPort":2},{"containerPort":84,"hostPort":null,"name":"x"}]}]}}`, false),
		Entry("second naming a key twice, the repeat's merged list of objects ordered by its \"$setElementOrder\", naming first's item's items and new ones",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"},{"$patch":"delete","name":"D"},{"name":"F","value":"2"},{"name":"E","value":"3"},{"name":"H"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"G"},{"name":"H"},{"name":"D"},{"name":"E"}],"env":[{"name":"G","value":"4"},{"name":"E","value":null}]}]}}`, false),
		Entry("second naming a key twice, the repeat's merged list of ports naming a port twice, ordered by its \"$setElementOrder\" naming it twice, first's item holding it",
			`{"spec":{"containers":[{"name":"a","$setElementOrder/ports":[{"containerPort":80},{"containerPort":80},{"containerPort":84},{"containerPort":82}],"ports":[{"containerPort":82},{"containerPort":80,"name":null,"protocol":null},{"containerPort":83}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/ports":[{"containerPort":80},{"containerPort":80},{"containerPort":84},{"containerPort":82}],"ports":[{"containerPort":80,"name":"d"},{"containerPort":80,"name":null},{"containerPort":84,"hostPort":1}]}]}}`, false),
		Entry("second naming a key twice, the repeat's merged list of objects its \"$setElementOrder\" names out of order: an error",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"E"},{"name":"G"}],"env":[{"name":"G","value":"4"},{"name":"E","value":"5"}]}]}}`, true),
		Entry("second naming a key twice, the repeat's \"$retainKeys\" copied, not applied",
			`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}}]}}`,
			`{"spec":{"volumes":[{"name":"v","configMap":{"name":"m"}},{"name":"v","$retainKeys":["configMap","name"],"configMap":{"optional":true}}]}}`, false),
		Entry("second naming a key twice, the repeat's merged lists of objects the item lacks or holds null: as second holds them",
			`{"spec":{"containers":[{"name":"a","ports":null,"args":["x"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"F","value":"2"},{"name":"E","value":null},{"name":"F","value":"3"}],"ports":[{"containerPort":80,"name":"h"}]}]}}`, false),
		Entry("second naming a key twice, the repeat ordering a list of objects the item lacks, copying a directive the item holds",
			`{"spec":{"containers":[{"name":"a","$deleteFromPrimitiveList/args":["x"],"args":["y"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$deleteFromPrimitiveList/args":["x"],"$setElementOrder/env":[{"name":"G"},{"name":"E"},{"name":"F"}],"env":[{"name":"E","value":"1"},{"name":"F","value":"2"}]}]}}`, false),
		Entry("second naming a key twice, the repeat's empty merged lists reordering first's item's: items of a key together, delete items last",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"},{"$patch":"delete","name":"D"},{"name":"F"},{"name":"E","value":"2"}],"ports":[{"containerPort":80}],"volumeMounts":[{"$patch":"delete","mountPath":"/x"},{"mountPath":"/y","name":"v"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[],"ports":[],"volumeMounts":[]}]}}`, false),
		Entry("second naming a key twice, the repeat's empty merged list onto first's item's lacking the key: an error",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"},{"value":"2"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[]}]}}`, true),
		Entry("second naming a key twice, the repeat ordering merged lists of objects it leaves out that first's item holds",
			`{"spec":{"containers":[{"name":"a","$setElementOrder/env":[{"name":"G"},{"name":"E"}],"env":[{"name":"E","value":"1"},{"$patch":"delete","name":"D"},{"name":"F"},{"name":"G"},{"name":"E","value":"2"},{"$patch":"delete","name":"G"}],"ports":[{"containerPort":80},{"containerPort":81},{"containerPort":82}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"G"},{"name":"E"}],"$setElementOrder/ports":[{"containerPort":82},{"containerPort":83},{"containerPort":80}]}]}}`, false),
		Entry("second naming a key twice, the repeat ordering a merged list it leaves out by entries without the key: an error",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"value":"E"}]}]}}`, true),
		Entry("second naming a key twice, the repeat ordering by \"$setElementOrder\" a list it sets to null: an error",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"E"}],"env":null,"tty":true}]}}`, true),
		Entry("second naming a key twice, the repeat ordering by \"$setElementOrder\" a list it sets to null after a list of scalars: an error",
			`{"spec":{"containers":[{"name":"a","args":["x"],"env":[{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"E"}],"args":["y",null],"env":null}]}}`, true),
		Entry("second naming a key twice, the repeat ordering by \"$setElementOrder\" a list it sets to null after a list it only orders that first's item holds: an error",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}],"ports":[{"containerPort":80}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"E"}],"$setElementOrder/ports":[{"containerPort":80}],"ports":null}]}}`, true),
		Entry("second naming a key twice, the repeat ordering by \"$setElementOrder\" a list it sets to null after a map of maps: an error",
			`{"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"1"}},"volumeMounts":[{"mountPath":"/m","name":"v"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/volumeMounts":[{"mountPath":"/m"}],"resources":{"limits":{"cpu":"2","memory":null},"requests":{}},"volumeMounts":null}]}}`, true),
		Entry("second naming a key twice, the repeat ordering by \"$setElementOrder\" a list it sets that first's item holds null: an error",
			`{"spec":{"containers":[{"name":"a","ports":null}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/ports":[{"containerPort":80}],"ports":[{"containerPort":80,"protocol":"TCP"}]}]}}`, true),
		Entry("second naming a key twice, the repeat ordering by \"$setElementOrder\" alone a list first's item holds null: an error",
			`{"spec":{"containers":[{"name":"a","env":null}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"E"}],"tty":true}]}}`, true),
		Entry("second naming a key twice, the repeat's env items holding maps merged into first's item's: maps merged field by field, nulls kept",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","valueFrom":{"secretKeyRef":{"key":"k","name":"s"}}},{"name":"F","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"p"},"secretKeyRef":{"optional":true,"name":null}}},{"name":"G","valueFrom":{"configMapKeyRef":{"key":"c"}}},{"name":"E","value":"2","valueFrom":{"secretKeyRef":{"key":"j"}}}]}]}}`, false),
		Entry("second naming a key twice, the repeat's env items holding maps onto first's item's holding null or scalars: taken as they stand",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","valueFrom":null},{"name":"F","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"p"}}},{"name":"F","valueFrom":{}}]}]}}`, false),
		Entry("second naming a key twice, the repeat's empty env onto first's item's empty env",
			`{"spec":{"containers":[{"name":"a","env":[]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[],"tty":true}]}}`, false),
		Entry("second naming a key twice, the repeat ordering by \"$setElementOrder\" a list it sets to null after a merged list of objects it orders and merges: an error",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"},{"name":"F","value":"2"}],"ports":[{"containerPort":80}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/env":[{"name":"F"},{"name":"E"}],"$setElementOrder/ports":[{"containerPort":80}],"env":[{"name":"F","valueFrom":{"fieldRef":{"fieldPath":"p"}}},{"name":"E","value":"3"}],"ports":null}]}}`, true),
		Entry("second naming a key twice, the repeat ordering by \"$setElementOrder\" a list it sets to null after a list of objects merged by no strategy: an error",
			`{"spec":{"containers":[{"name":"a","restartPolicyRules":[{"action":"Restart"}],"volumeDevices":[{"devicePath":"/d","name":"v"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/volumeDevices":[{"devicePath":"/d"}],"restartPolicyRules":[{"action":"Restart","exitCodes":{"operator":"In","values":[1]}}],"volumeDevices":null}]}}`, true),
		Entry("second naming a key twice, the repeat's env items merged into first's item's delete item of their key: \"$patch: delete\" kept, last",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"D","$patch":"delete"},{"name":"E","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"D","value":"2"},{"name":"G","value":"3"},{"name":"D","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}]}}`, false),
		Entry("second naming a key twice, the repeat's map first's item lacks holding only an order for a list: copied as it stands",
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"readOnly":true}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["a","b"]}}}}]}}`, false),
		Entry("second's list first lacks, ordered, naming a key twice, its repeat's env naming a key twice and ordered: each kept at its place",
			`{"spec":{"hostname":"h"}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"d"},{"name":"d"}],"containers":[{"name":"d","image":"i"},{"name":"d","$setElementOrder/env":[{"name":"c"},{"name":"f"},{"name":"e"},{"name":"f"}],"env":[{"name":"c","value":"a"},{"name":"f","value":"c"},{"name":"e","value":"d"},{"name":"f","value":"a"}]}]}}`, false),
		Entry("second naming a key twice whose repeat's env, ordered, names a key twice, first's item lacking env: each after its key's first",
			`{"spec":{"containers":[{"name":"d","tty":true}]}}`,
			`{"spec":{"containers":[{"name":"d","image":"i"},{"name":"d","$setElementOrder/env":[{"name":"c"},{"name":"f"},{"name":"e"},{"name":"f"}],"env":[{"name":"c","value":"a"},{"name":"f","value":"c"},{"name":"e","value":"d"},{"name":"f","value":"a"}]}]}}`, false),
		Entry("second naming a key twice, the repeat's \"$retainKeys\" differing from first's item's: an error",
			`{"spec":{"volumes":[{"name":"v","$retainKeys":["name","secret"],"secret":{"secretName":"s"}}]}}`,
			`{"spec":{"volumes":[{"name":"v","configMap":{"name":"m"}},{"name":"v","$retainKeys":["configMap","name"]}]}}`, true),
		Entry("second naming a key three times, an env item merged, deleted, then added again",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"B","value":"b"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"}]},{"name":"c","env":[{"$patch":"delete","name":"A"}]},{"name":"c","env":[{"name":"A","value":"2"}]}]}}`, false),
		Entry("second naming a key four times, env items deleted, added, nulled and added again",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"B","value":"0"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","env":[{"$patch":"delete","name":"A"}]},{"name":"c","env":[{"name":"A","value":"1"}]},{"name":"c","env":[{"$patch":"delete","name":"B"},{"name":"A","value":null}]},{"name":"c","env":[{"name":"B","value":"2"}]}]}}`, false),
		Entry("second naming a key twice, the repeat's \"$setElementOrder\" naming an env item twice",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"B","value":"b"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/env":[{"name":"A"},{"name":"C"},{"name":"A"}],"env":[{"name":"C","value":"2"}]}]}}`, false),
		Entry("second naming a key twice, the repeat's set naming a value twice",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"labels":{"x":"y"}}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c","a","c"]}}}}]}}`, false),
		Entry("second naming a key twice, the repeat's set of 1 onto first's \"1\": an error",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["1","b"]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"labels":{"x":"y"}}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":[1,"c"]}}}}]}}`, true),
		Entry("second naming a key twice, the repeat ordering its set by \"$setElementOrder\" naming a value neither holds",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"labels":{"x":"y"}}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["c","b","a","z"],"finalizers":["c"]}}}}]}}`, false),
		Entry("second naming a key twice, the repeat's \"$setElementOrder\" naming a value of its set twice",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"labels":{"x":"y"}}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["c","a","c"],"finalizers":["c"]}}}}]}}`, false),
		Entry("second naming a key twice, the repeat's empty env onto first's repeating a key with a delete item",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"$patch":"delete","name":"Z"},{"name":"B","value":"b"},{"name":"A","value":"1"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[]}]}}`, false),
		Entry("second naming a key twice, env nulled then set",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","env":null},{"name":"c","env":[{"name":"B","value":"1"}]}]}}`, false),
		Entry("second naming a key twice, env replaced by \"$patch: replace\" then merged",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"B","value":"1"}]},{"name":"c","env":[{"name":"C","value":"1"}]}]}}`, false),
		Entry("second naming a key twice, the repeat's \"$retainKeys\" equal to first's",
			`{"spec":{"volumes":[{"name":"v","$retainKeys":["name","emptyDir"],"emptyDir":{}}]}}`,
			`{"spec":{"volumes":[{"name":"v","image":"x"},{"name":"v","$retainKeys":["name","emptyDir"],"emptyDir":{"medium":"M"}}]}}`, false),
		Entry("second naming a key twice, the repeat's \"$retainKeys\" differing from first's in order: an error",
			`{"spec":{"volumes":[{"name":"v","$retainKeys":["emptyDir","name"],"emptyDir":{}}]}}`,
			`{"spec":{"volumes":[{"name":"v","emptyDir":{"sizeLimit":"1"}},{"name":"v","$retainKeys":["name","emptyDir"]}]}}`, true),
		Entry("second naming a key twice, the repeat's env naming a key twice itself",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"A","value":"1"},{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}},{"name":"B","value":null}]}]}}`, false),
		Entry("second naming a key twice, the repeat's ports keyed by \"80\" and 80",
			`{"spec":{"containers":[{"name":"c","ports":[{"containerPort":80}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","ports":[{"containerPort":"80","name":"x"},{"containerPort":80,"name":"y"}]}]}}`, false),
		Entry("second naming a key twice, the repeat's empty ports ordered by \"$setElementOrder\" naming a port twice",
			`{"spec":{"containers":[{"name":"c","ports":[{"containerPort":80},{"containerPort":81}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/ports":[{"containerPort":81},{"containerPort":80},{"containerPort":81}],"ports":[]}]}}`, false),
		Entry("second naming a key twice, the repeat ordering by \"$setElementOrder\" alone an env naming an item neither holds",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"B","value":"0"},{"$patch":"delete","name":"D"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/env":[{"name":"B"},{"name":"Z"},{"name":"A"}]}]}}`, false),
		Entry("second naming a key twice, the repeat's set onto first's naming a value twice",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a"]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"labels":{"x":"y"}}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c","b"]}}}}]}}`, false),
		Entry("second naming a key twice, the repeat's set naming values twice onto first's naming values twice: each once, at its first place",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d","a","b","a","d"]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"labels":{"x":"y"}}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["b","c","b","e","c","a"]}}}}]}}`, false),
		Entry("second naming a key twice, the repeat's env deleting an item first's item holds twice and adding one: the rest in first's order, the new one last",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"B","value":"b"},{"name":"A","value":"1"},{"$patch":"delete","name":"Z"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"N","value":"n"},{"$patch":"delete","name":"A"},{"name":"B","value":"c"}]}]}}`, false),
		Entry("second naming a key twice, the repeat's env deleting a key and naming it again: the item appended anew",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0","valueFrom":{"fieldRef":{"fieldPath":"x"}}},{"name":"B","value":"b"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"A","value":"1"},{"$patch":"delete","name":"A"},{"$patch":"delete","name":"Q"}]}]}}`, false),
		Entry("second naming a key twice, the repeat's env of delete items alone, first's item's env holding a delete item: the rest reordered, delete items last",
			`{"spec":{"containers":[{"name":"c","env":[{"$patch":"delete","name":"Z"},{"name":"A","value":"0"},{"name":"B","value":"b"},{"name":"A","value":"2"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"$patch":"delete","name":"B"}]}]}}`, false),
		Entry("second naming a key twice, the repeat's ports deleting by a key of another type than first's item's: nothing deleted",
			`{"spec":{"containers":[{"name":"c","ports":[{"containerPort":80},{"containerPort":81}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","ports":[{"$patch":"delete","containerPort":"80"},{"containerPort":82}]}]}}`, false),
		Entry("second naming a key twice, the repeat's env replaced by \"$patch: replace\", naming a key twice, a delete item aside: its items as they stand, those of a key together",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"B","value":"1","valueFrom":{"fieldRef":{"fieldPath":"x"}}},{"$patch":"delete","name":"K"},{"name":"A","value":"1"},{"$patch":"replace"},{"name":"B","value":"2"}]}]}}`, false),
		Entry("second naming a key twice, the repeat's env replaced by \"$patch: replace\", an item holding a \"$patch\" map: taken as it stands",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"$patch":"replace"},{"name":"A","valueFrom":{"$patch":"delete"}},{"name":"B","valueFrom":{"$patch":"replace","fieldRef":{"fieldPath":"y"}}}]}]}}`, false),
		Entry("second naming a key twice, the repeat's env of \"$patch: replace\" alone onto first's item's: an empty list",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"$patch":"delete","name":"Z"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"$patch":"replace"}]}]}}`, false),
		Entry("second naming a key twice, the repeat's env replaced onto first's item's holding null: the items as they stand",
			`{"spec":{"containers":[{"name":"c","env":null}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"$patch":"replace"},{"name":"B","value":"1"},{"name":"A"}]}]}}`, false),
		Entry("second naming a key twice, the repeat's env with a \"$patch: merge\" item: an error",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"$patch":"merge"},{"name":"B","value":"1"}]}]}}`, true),
		Entry("second naming a key twice, the repeat's env items holding \"$patch\" maps, merged into first's item's: replaced, emptied, or dropped where it holds none",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0","valueFrom":{"fieldRef":{"fieldPath":"x"},"secretKeyRef":{"key":"k"}}},{"name":"B","valueFrom":{"configMapKeyRef":{"key":"k"}}},{"name":"C","value":"c"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"A","valueFrom":{"$patch":"replace","configMapKeyRef":{"key":"m"}}},{"name":"B","valueFrom":{"$patch":"delete"}},{"name":"C","valueFrom":{"$patch":"replace","fieldRef":{"fieldPath":"y"}}}]}]}}`, false),
		Entry("second naming a key twice, the repeat's env item holding a \"$patch\" map below a map first's item lacks: dropped from it",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{"$patch":"replace","fieldPath":"y"},"secretKeyRef":{"key":"k"}}}]}]}}`, false),
		Entry("second naming a key twice, the repeat's env item holding a \"$patch\" map, first's item lacking its key: appended as it stands",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"N","valueFrom":{"$patch":"replace","fieldRef":{"fieldPath":"y"}}},{"name":"N","valueFrom":{"$patch":"delete"}}]}]}}`, false),
		Entry("second naming a key twice, the repeat's env items merging a \"$patch\" map in turn into one item",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"A","valueFrom":{"$patch":"delete"}},{"name":"A","valueFrom":{"$patch":"replace","secretKeyRef":{"key":"k"}}}]}]}}`, false),
		Entry("second naming a key twice, the repeat holding a list merged by no strategy whose items hold \"$patch\" maps, onto first's item's list: as it stands",
			`{"spec":{"containers":[{"name":"c","envFrom":[{"prefix":"a"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","envFrom":[{"configMapRef":{"name":"x"},"$patch":"delete"},{"prefix":"p","secretRef":{"$patch":"replace","name":"s"}}]}]}}`, false),
		Entry("second naming a key twice, the repeat holding a list merged by no strategy whose items hold \"$patch\" maps, first's item lacking it: less those maps",
			`{"spec":{"containers":[{"name":"c","image":"j"}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","envFrom":[{"configMapRef":{"name":"x"},"$patch":"delete"},{"prefix":"p","secretRef":{"$patch":"replace","name":"s"}}]}]}}`, false),
		Entry("second naming a key twice, the repeat holding lists of lists merged by no strategy: as they stand",
			`{"spec":{"containers":[{"name":"c","args":["a"]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","args":[["b"],"c"],"command":[["d"]]}]}}`, false),
		Entry("second naming a key twice, the repeat holding a list merged by no strategy whose item holds a list of lists: as it stands",
			`{"spec":{"containers":[{"name":"c","restartPolicyRules":[{"action":"Restart"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","restartPolicyRules":[{"action":"Restart","exitCodes":{"operator":"In","values":[[1]]}}]}]}}`, false),
		Entry("second naming a key twice, the repeat's set of numbers onto first's strings, after a map first lacks: an error",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":[1,2]}}},"csi":{"readOnly":true}}]}}`, true),
		Entry("second naming a key twice, the repeat's set onto first's of strings and numbers: an error",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a",1]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c"]}}},"csi":{"readOnly":true}}]}}`, true),
		Entry("second naming a key twice, the repeat's set onto first's list of lists: an error",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":[["x"]]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a"]}}},"csi":{"readOnly":true}}]}}`, true),
		Entry("second naming a key twice, the repeat ordering by \"$setElementOrder\" alone ports keyed by 80 and \"80\"",
			`{"spec":{"containers":[{"name":"c","ports":[{"containerPort":80},{"containerPort":"80","name":"s"},{"containerPort":81}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/ports":[{"containerPort":81},{"containerPort":"80"},{"containerPort":80}]}]}}`, false),
		Entry("second naming a key twice, the repeat's empty ports onto first's keyed by 80, \"80\" and 80 again",
			`{"spec":{"containers":[{"name":"c","ports":[{"containerPort":80},{"containerPort":81},{"containerPort":"80","name":"s"},{"containerPort":80,"name":"t"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","ports":[]}]}}`, false),
		Entry("second naming a key twice, the repeat ordering by \"$setElementOrder\" alone a set of \"1\", 1 and \"a\": an error",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["1",1,"a"]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"labels":{"x":"y"}}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["a",1,"1"]}}}}]}}`, true),
		Entry("second naming a key twice, the repeat's \"$setElementOrder\" alone naming an env item twice",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A"},{"name":"B"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/env":[{"name":"B"},{"name":"A"},{"name":"B"}]}]}}`, false),
		Entry("second naming a key twice, the repeat's \"$setElementOrder\" alone naming a finalizer twice and one neither holds",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","c"]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"labels":{"x":"y"}}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["c","z","c","a"]}}}}]}}`, false),
		Entry("second naming a key twice, the repeat's empty env onto first's naming keys twice with a delete item between",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B"},{"$patch":"delete","name":"A"},{"name":"A","value":"3"},{"name":"C"},{"name":"B","value":"2"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[]}]}}`, false),
		Entry("second naming a key twice, the repeat ordering by \"$setElementOrder\" alone first's env naming keys twice with a delete item between",
			`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B"},{"$patch":"delete","name":"A"},{"name":"A","value":"3"},{"name":"C"},{"name":"B","value":"2"}]}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/env":[{"name":"C"},{"name":"A"}]}]}}`, false),
		Entry("first repeating a key: only its first item receives the merge",
			`{"spec":{"containers":[{"name":"a","image":null},{"name":"b"},{"name":"a","tty":null}]}}`,
			`{"spec":{"containers":[{"name":"a","stdin":true}]}}`, false),
		Entry("second's list where first has none: taken whole, repeats apart, nulls kept",
			`{"spec":{"hostname":null}}`,
			`{"spec":{"containers":[{"name":"a","image":"x","ports":[{"containerPort":1,"hostPort":null}]},{"name":"a","tty":true}]}}`, false),
		Entry("$setElementOrder in both, equal: kept, and orders the merged list",
			`{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"containers":[{"name":"a","image":null},{"$patch":"delete","name":"z"}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"containers":[{"name":"b","image":"y"}]}}`, false),
		Entry("$setElementOrder in both, different: an error",
			`{"spec":{"$setElementOrder/containers":[{"name":"a"},{"name":"b"}],"containers":[{"name":"a","image":null}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"containers":[{"name":"b","image":"y"}]}}`, true),
		Entry("$setElementOrder in second only: copied, and orders first's list it does not patch",
			`{"spec":{"containers":[{"name":"a","image":null},{"$patch":"delete","name":"z"},{"name":"b","image":null}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"hostname":"h"}}`, false),
		Entry("$setElementOrder in second only, with its list",
			`{"spec":{"containers":[{"name":"a","image":null},{"name":"c","image":null},{"name":"b","image":null}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"d"},{"name":"a"}],"containers":[{"name":"d","image":"d"},{"name":"a","tty":true}]}}`, false),
		Entry("$setElementOrder in second, first's delete item among the items it does not name: last of them",
			`{"spec":{"containers":[{"$patch":"delete","name":"z"},{"name":"c","image":null},{"name":"a","image":null},{"name":"d","image":null}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"d"},{"name":"a"}],"containers":[{"name":"a","tty":true}]}}`, false),
		Entry("$setElementOrder in second naming first's delete item's key",
			`{"spec":{"containers":[{"$patch":"delete","name":"z"},{"name":"c","image":null},{"name":"a","image":null}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"z"},{"name":"a"}],"containers":[{"name":"z","tty":true},{"name":"a","tty":true}]}}`, false),
		Entry("$setElementOrder in second naming first's two delete items, one merged: the delete items last in the order second's list left them",
			`{"spec":{"containers":[{"$patch":"delete","name":"b"},{"$patch":"delete","name":"d"},{"name":"f","image":null}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"f"},{"name":"d"}],"containers":[{"name":"d","image":"x"}]}}`, false),
		Entry("$setElementOrder in second for a list first lacks: orders second's items",
			`{"spec":{"hostname":null}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"},{"name":"b"}],"containers":[{"name":"b","image":"y"},{"name":"a"},{"name":"b","tty":true}]}}`, false),
		Entry("$setElementOrder in second for a list first nulls: an error",
			`{"spec":{"containers":null}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"a"}],"containers":[{"name":"a","image":"x"}]}}`, true),
		Entry("$setElementOrder alone in second for a list first nulls: an error",
			`{"spec":{"containers":null}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"a"}]}}`, true),
		Entry("$setElementOrder in first only: data, no order applied",
			`{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"containers":[{"$patch":"delete","name":"z"}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"x"},{"name":"b","image":"y"}]}}`, false),
		Entry("$setElementOrder of a set of scalars in both",
			`{"metadata":{"$setElementOrder/finalizers":["b","a"],"finalizers":["a"]}}`,
			`{"metadata":{"$setElementOrder/finalizers":["b","a"],"finalizers":["b"]}}`, false),
		Entry("$retainKeys in both, equal: copied, not applied",
			`{"spec":{"volumes":[{"name":"v","$retainKeys":["name","secret"],"hostPath":null}]}}`,
			`{"spec":{"volumes":[{"name":"v","$retainKeys":["name","secret"],"secret":{"secretName":"s"}}]}}`, false),
		Entry("$retainKeys in second only: copied, first's fields stay",
			`{"spec":{"volumes":[{"name":"v","hostPath":null,"emptyDir":{"medium":"m"}}]}}`,
			`{"spec":{"volumes":[{"name":"v","$retainKeys":["name","secret"],"secret":{"secretName":"s"}}]}}`, false),
		Entry("$retainKeys in both, different: an error",
			`{"spec":{"volumes":[{"name":"v","$retainKeys":["name","hostPath"]}]}}`,
			`{"spec":{"volumes":[{"name":"v","$retainKeys":["name","secret"],"secret":{"secretName":"s"}}]}}`, true),
		Entry("$deleteFromPrimitiveList: second's copied over first's, not applied",
			`{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"],"finalizers":["c","x"]}}`,
			`{"metadata":{"$deleteFromPrimitiveList/finalizers":["b","x"],"finalizers":["d","c"]}}`, false),
		Entry("$deleteFromPrimitiveList in first only: kept",
			`{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]}}`,
			`{"metadata":{"finalizers":["d"]}}`, false),
		Entry("nested lists inside items: delete items, order and nulls one level down",
			`{"spec":{"containers":[{"name":"a","env":[{"$patch":"delete","name":"X"},{"name":"Z","value":null}],"$setElementOrder/env":[{"name":"Y"},{"name":"Z"}],"ports":[{"containerPort":1,"hostPort":null}]}]}}`,
			`{"spec":{"containers":[{"name":"a","env":[{"name":"Y","value":"1"},{"name":"X","value":"2"}],"$setElementOrder/env":[{"name":"Y"},{"name":"X"},{"name":"Z"}],"ports":[{"containerPort":2},{"containerPort":1,"name":"p"}]}]}}`, true),
		Entry("nested lists inside items, orders agreeing",
			`{"spec":{"containers":[{"name":"a","env":[{"$patch":"delete","name":"X"},{"name":"Z","value":null}],"$setElementOrder/env":[{"name":"Y"},{"name":"Z"}],"ports":[{"containerPort":1,"hostPort":null}]}]}}`,
			`{"spec":{"containers":[{"name":"a","env":[{"name":"Y","value":"1"}],"$setElementOrder/env":[{"name":"Y"},{"name":"Z"}],"ports":[{"containerPort":2},{"containerPort":1,"name":"p"}]}]}}`, false),
		Entry("a value first lacks, taken whole: its maps holding \"$patch\" dropped, other directives kept",
			`{"spec":{"hostname":null}}`,
			`{"spec":{"containers":[{"name":"a","env":[{"$patch":"delete","name":"X"},{"name":"Y","value":null}],"$setElementOrder/env":[{"name":"Y"}]}],"securityContext":{"$patch":"replace","runAsUser":1},"affinity":{"nodeAffinity":{"$patch":"delete"},"podAffinity":{}}}}`, false),
		Entry("a value of another kind than first's: second's whole",
			`{"spec":{"containers":null,"hostname":null}}`,
			`{"spec":{"containers":[{"name":"a","env":[{"$patch":"delete","name":"X"}]}],"hostname":"h"}}`, false),
		Entry("an item first's list lacks: appended as second has it, \"$patch\" maps and all",
			`{"spec":{"containers":[{"name":"b","image":null}]}}`,
			`{"spec":{"containers":[{"name":"a","env":[{"$patch":"delete","name":"X"},{"name":"Y","value":null}]}]}}`, false),
		Entry("a \"$patch: replace\" map over first's: second's map as it is, nulls kept",
			`{"spec":{"securityContext":{"runAsUser":1,"runAsGroup":null}}}`,
			`{"spec":{"securityContext":{"$patch":"replace","fsGroup":2,"runAsNonRoot":null}}}`, false),
		Entry("a \"$patch: delete\" map over first's: an empty map",
			`{"spec":{"securityContext":{"runAsUser":1}}}`,
			`{"spec":{"securityContext":{"$patch":"delete"}}}`, false),
		Entry("a delete item in second deletes first's items of its key",
			`{"spec":{"containers":[{"name":"a","image":null},{"name":"b","image":null}]}}`,
			`{"spec":{"containers":[{"$patch":"delete","name":"a"},{"name":"c"}]}}`, false),
		Entry("a \"$patch: replace\" list over first's holding items without the key",
			`{"spec":{"containers":[{"$patch":"replace"},{"name":"a","image":null}]}}`,
			`{"spec":{"containers":[{"$patch":"replace"},{"name":"b","image":"x"},{"name":"b","tty":true}]}}`, false),
		Entry("first's list holding an item without the key, replaced by second's list its \"$setElementOrder\" orders: an error",
			`{"spec":{"containers":[{"$patch":"replace"},{"name":"a","image":null}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"b"}],"containers":[{"$patch":"replace"},{"name":"b","image":"x"}]}}`, true),
		Entry("first's list holding an item without the key, merged: an error",
			`{"spec":{"containers":[{"$patch":"replace"},{"name":"a","image":null}]}}`,
			`{"spec":{"containers":[{"name":"b","image":"x"}]}}`, true),
		Entry("a repeat's keyed list given a scalar item onto first's empty list of that field: an error",
			`{"spec":{"containers":[{"name":"a","env":[]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","env":[0]}]}}`, true),
		Entry("a keyed list given a scalar item onto first's empty list: an error",
			`{"spec":{"containers":[{"name":"a","env":[]}]}}`,
			`{"spec":{"containers":[{"name":"a","env":[0]}]}}`, true),
		Entry("a keyed list's \"$setElementOrder\" naming a null, onto first's list: an error",
			`{"spec":{"containers":[{"name":"a","image":"i"}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"a"},null]}}`, true),
		Entry("a keyed list's \"$setElementOrder\" naming a null, its list merged onto first's: an error",
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"b"}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"a"},null],"containers":[{"name":"a","image":"j"}]}}`, true),
		Entry("a keyed list's \"$setElementOrder\" naming a null where neither patch holds the list: copied",
			`{"spec":{"hostname":"h"}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"a"},null]}}`, false),
		Entry("a set's \"$setElementOrder\" naming a null: merged",
			`{"metadata":{"finalizers":["a"]}}`,
			`{"metadata":{"$setElementOrder/finalizers":["a",null]}}`, false),
		Entry("a repeat's set ordered by a \"$setElementOrder\" naming a null: merged",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a"]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["a",null]}}}}]}}`, false),
		Entry("a set first names a value twice in, second's empty: first's list as strategicpatch's in-place deduplication rewrites it",
			`{"metadata":{"finalizers":["s3","s3","s1","s2"]}}`,
			`{"metadata":{"finalizers":[]}}`, false),
		Entry("a set first names a value twice in, second's empty and ordered: ranked by first's list as deduplicated in place",
			`{"metadata":{"finalizers":["s3","s3","s1","s2","s4"]}}`,
			`{"metadata":{"$setElementOrder/finalizers":["s1"],"finalizers":[]}}`, false),
		Entry("a set of scalars: merged and ordered as the server merges sets",
			`{"metadata":{"finalizers":["c","a","b"]}}`,
			`{"metadata":{"finalizers":["d","a"]}}`, false),
		Entry("an atomic list: second's as it is",
			`{"spec":{"containers":[{"name":"a","command":["x",null]}]}}`,
			`{"spec":{"containers":[{"name":"a","command":["y"]}]}}`, false),
		Entry("an atomic list ordered by second's \"$setElementOrder\": second's list, the directive kept",
			`{"spec":{"containers":[{"name":"a","args":["a","b","c"]}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":["b","a"],"args":["b","a"]}]}}`, false),
		Entry("an atomic list of first's reordered by second's \"$setElementOrder\" alone: the others by their place in first's",
			`{"spec":{"containers":[{"name":"a","args":["a","b","a","c"]}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":["c","x","b"]}]}}`, false),
		Entry("an atomic list first lacks, ordered by second's \"$setElementOrder\" alone: the directive kept",
			`{"spec":{"containers":[{"name":"a"}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":["c","a"]}]}}`, false),
		Entry("an atomic list ordered by both patches' equal \"$setElementOrder\"",
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":["c","a"],"args":["a","b","c"]}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":["c","a"]}]}}`, false),
		Entry("an atomic list whose second list contradicts its \"$setElementOrder\": an error",
			`{"spec":{"containers":[{"name":"a","args":["a","b"]}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":["c","a"],"args":["a","c"]}]}}`, true),
		Entry("an atomic list of strings, second's of numbers, ordered: an error",
			`{"spec":{"containers":[{"name":"a","args":[1]}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":["c","a"],"args":["a"]}]}}`, true),
		Entry("an atomic list second gives empty beside an empty \"$setElementOrder\": second's, the directive kept",
			`{"spec":{"containers":[{"name":"a","args":["a","b","c"]}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":[],"args":[]}]}}`, false),
		Entry("an atomic list second gives empty, ordered: second's, the directive kept",
			`{"spec":{"containers":[{"name":"a","args":["a","b","c"]}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":["b"],"args":[]}]}}`, false),
		Entry("an atomic list second gives empty, ordered, first lacking it: an error",
			`{"spec":{"containers":[{"name":"a"}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":["b"],"args":[]}]}}`, true),
		Entry("an atomic list second's order and list name a value twice: second's sorted by the order",
			`{"spec":{"containers":[{"name":"a","args":["a","b","c"]}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":["c","a","c"],"args":["c","a","c"]}]}}`, false),
		Entry("an atomic list first lacks, second's naming a value twice in its order's order",
			`{"spec":{"containers":[{"name":"a"}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":["c","c","a"],"args":["c","c","a"]}]}}`, false),
		Entry("an atomic list second's naming a value twice, its order once: an error",
			`{"spec":{"containers":[{"name":"a","args":["a","b","c"]}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":["c","a"],"args":["c","c","a"]}]}}`, true),
		Entry("an atomic list second gives beside an empty \"$setElementOrder\": its items by their place in first's",
			`{"spec":{"containers":[{"name":"a","args":["a","b","c"]}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":[],"args":["b","x","a"]}]}}`, false),
		Entry("an atomic list first lacks, second's beside an empty \"$setElementOrder\"",
			`{"spec":{"containers":[{"name":"a"}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":[],"args":["b","x","a"]}]}}`, false),
		Entry("an atomic list of objects ordered: an error (strategicpatch panics hashing a map)",
			`{"spec":{"containers":[{"name":"a","args":[{"k":1}]}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":[{"k":1}]}]}}`, true),
		Entry("an atomic list a repeat of second's orders, replacing first's item's",
			`{"spec":{"containers":[{"name":"a","args":["a","b","c"]}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/args":["a","c"],"args":["a","c"]}]}}`, false),
		Entry("an atomic list a repeat of second's orders, replacing the list second's first item of the key gives",
			`{"spec":{"containers":[{"name":"a","args":["a","b","c"]}]}}`,
			`{"spec":{"containers":[{"name":"a","args":["x"]},{"name":"a","$setElementOrder/args":["c","a"],"args":["c","a"]}]}}`, false),
		Entry("an atomic list a repeat of second's orders, naming a value twice: sorted",
			`{"spec":{"containers":[{"name":"a","args":["a","b","c"]}]}}`,
			`{"spec":{"containers":[{"name":"a","args":["x"]},{"name":"a","$setElementOrder/args":["c","a","c"],"args":["c","a","c"]}]}}`, false),
		Entry("an atomic list a repeat of second's gives beside an empty \"$setElementOrder\", first lacking it",
			`{"spec":{"containers":[{"name":"a"}]}}`,
			`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/args":[],"args":["c","a"]}]}}`, false),
		Entry("an atomic list neither patch holds, ordered by objects: the directive copied",
			`{"spec":{"containers":[{"name":"a"}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":[{"k":1}]}]}}`, false),
		// Repeats Phase 2 merges onto their member's outcome from the patches' one tree (test/bench pins one collation).
		Entry("second naming a key twice, the repeat's env items holding the merge key null, merged into first's item's item of a null key",
			`{"spec":{"containers":[{"name":"a","env":[{"name":null,"value":"1"},{"name":"E","value":"2"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":"F","value":"4"},{"name":null,"value":"3"},{"name":null,"valueFrom":null}]}]}}`, false),
		Entry("second naming a key twice, the repeat's env items holding the merge key null onto first's item's env without one",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"2"}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","env":[{"name":null,"value":"3"}]}]}}`, false),
		Entry("second naming a key twice, the repeat holding empty a list of scalars merged by no strategy it orders, first's item holding items there: the empty list",
			`{"spec":{"containers":[{"name":"a","args":["b","b"]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["b","x"],"args":[]}]}}`, false),
		Entry("second naming a key twice, the repeat's lists of scalars merged by no strategy beside an empty order in maps first's item holds: sorted by first's list",
			`{"spec":{"containers":[{"name":"a","livenessProbe":{"exec":{"command":["q","c"]}},"readinessProbe":{"exec":{}}}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","livenessProbe":{"exec":{"$setElementOrder/command":[],"command":["c","d","e","q"]}},"readinessProbe":{"exec":{"$setElementOrder/command":[],"command":["x","y"]}}}]}}`, false),
		Entry("second naming a key twice, the repeat's lists beside an empty order in maps first's item lacks: as they stand",
			`{"spec":{"containers":[{"name":"a","tty":true}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","livenessProbe":{"exec":{"$setElementOrder/command":[],"command":["c"]}},"readinessProbe":{"exec":{"$setElementOrder/command":[],"command":["x","y"]}}}]}}`, false),
		Entry("second naming a key twice, the repeat's lists beside an empty order in maps first's item lacks, a sort moving their items: as they stand",
			`{"spec":{"containers":[{"name":"a","tty":true}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","livenessProbe":{"exec":{"$setElementOrder/command":[],"command":["c","a","b"]}},"lifecycle":{"postStart":{"exec":{"$setElementOrder/command":[],"command":["x","y"]}}}}]}}`, false),
		Entry("second naming a key twice, the repeat holding empty lists of scalars it orders in maps first's item holds with items or lacks: the empty lists",
			`{"spec":{"containers":[{"name":"a","livenessProbe":{"exec":{"command":["b","c"]}}}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","livenessProbe":{"exec":{"$setElementOrder/command":["c","x"],"command":[]}},"readinessProbe":{"exec":{"$setElementOrder/command":["c"],"command":[]}}}]}}`, false),
		Entry("second naming a key twice, the repeat holding empty a merged set it orders in a map, first's item holding items there: first's reordered",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","c"]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["c","a"],"finalizers":[]}}}}]}}`, false),
		Entry("second naming a key twice, the repeat holding empty a merged list of objects it orders in a map, first's item holding items there: first's reordered",
			`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"ownerReferences":[{"uid":"1","name":"x"},{"uid":"2"}]}}}}]}}`,
			`{"spec":{"volumes":[{"name":"v","csi":{"driver":"d"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/ownerReferences":[{"uid":"2"},{"uid":"1"}],"ownerReferences":[]}}}}]}}`, false),
		Entry("second naming a key twice, the repeat holding empty a list it orders in a map first's item holds without items there: an error",
			`{"spec":{"containers":[{"name":"a","livenessProbe":{"exec":{"command":[]}}}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","livenessProbe":{"exec":{"$setElementOrder/command":["c","b"],"command":[]}}}]}}`, true),
		Entry("second naming a key twice, the repeat ordering a merged list beside a \"$deleteFromPrimitiveList\" (data in a patch) and one it sets to null: an error",
			`{"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}],"ports":[{"containerPort":1}]}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$deleteFromPrimitiveList/env":["x"],"$setElementOrder/env":[{"name":"E"}],"env":[{"name":"E","value":"2"}],"$setElementOrder/ports":[{"containerPort":1}],"ports":null}]}}`, true),
	)

	It("with gate MultiFieldMergeKeys on, an atomic list ordered by second's \"$setElementOrder\" is refused, naming the path", func() {
		schema, err := openapi.Default()
		Expect(err).NotTo(HaveOccurred())
		pod, ok := schema.Kubectl().ByName("io.k8s.api.core.v1.Pod")
		Expect(ok).To(BeTrue())
		first := jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","args":["a","b","c"]}]}}`)
		for _, second := range []string{
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":["b"],"args":[]}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":["c","a","c"],"args":["c","a","c"]}]}}`,
			`{"spec":{"containers":[{"name":"a","$setElementOrder/args":[],"args":["b","x","a"]}]}}`,
		} {
			_, err := patch.Compose(first, jsonv.MustDecode(second), pod, features.Kubectl().With(features.MultiFieldMergeKeys, true))
			Expect(err).To(MatchError("patch spec.containers[name=a].args: $setElementOrder/args orders lists merged by key or value; the schema does not merge this list"), second)
		}
	})

	// The test schema's Widget holds parts keyed by name whose aliases the schema merges (a set of scalars): a repeat
	// of second's holding aliases merges them onto its key's item's outcome.
	DescribeTable("mergeMap(first, second) of Widgets, second naming a part twice",
		func(first, second string, fails bool) {
			sp, widget := widgets()
			f, s := jsonv.MustDecode(first), jsonv.MustDecode(second)
			want, werr := sp.MergePatches(f.JSON(), s.JSON())
			Expect(werr != nil).To(Equal(fails), "strategicpatch: %v", werr)
			got, err := patch.Compose(f, s, widget, features.Kubectl())
			compare(got, err, want, werr)
		},
		Entry("the repeat's aliases merged onto the outcome's, its values first, the outcome's others by their place there",
			`{"spec":{"parts":[{"name":"a","aliases":["s3","s6","s1"]},{"name":"b","aliases":["s1","s2"]}]}}`,
			`{"spec":{"parts":[{"name":"a","weight":1},{"name":"a","aliases":["s4","s1","s2","s6"]},{"name":"b"},{"name":"b","aliases":["s2"]}]}}`, false),
		Entry("the repeat's aliases onto an outcome holding them from second alone, and an empty set",
			`{"spec":{"parts":[{"name":"b","aliases":["s1"]}]}}`,
			`{"spec":{"parts":[{"name":"a","aliases":["s2","s1"]},{"name":"a","aliases":["s1","s5"]},{"name":"b","mode":{"type":"x"}},{"name":"b","aliases":[]}]}}`, false),
		Entry("the repeat's aliases repeating a value, or the outcome's: merged once",
			`{"spec":{"parts":[{"name":"a","aliases":["s1","s2","s1"]}]}}`,
			`{"spec":{"parts":[{"name":"a","weight":1},{"name":"a","aliases":["s3","s2","s3"]}]}}`, false),
		Entry("the repeat ordering aliases it leaves out that the outcome holds",
			`{"spec":{"parts":[{"name":"a","aliases":["s3","s6","s1","s2"]}]}}`,
			`{"spec":{"parts":[{"name":"a","weight":1},{"name":"a","$setElementOrder/aliases":["s2","s5","s3"]}]}}`, false),
		Entry("the repeat's aliases ordered by its \"$setElementOrder\", the outcome's equal, onto the outcome's aliases",
			`{"spec":{"parts":[{"name":"a","$setElementOrder/aliases":["s4","s1","s5"],"aliases":["s1","s7","s3"]}]}}`,
			`{"spec":{"parts":[{"name":"a","weight":1},{"name":"a","$setElementOrder/aliases":["s4","s1","s5"],"aliases":["s4","s5"]},{"name":"b","aliases":["s1"]},{"name":"b","$setElementOrder/aliases":["s2","s1"],"aliases":["s2"]}]}}`, false),
		Entry("the repeat's aliases not in its \"$setElementOrder\"'s order: an error",
			`{"spec":{"parts":[{"name":"a","aliases":["s1"]}]}}`,
			`{"spec":{"parts":[{"name":"a","weight":1},{"name":"a","$setElementOrder/aliases":["s4","s5"],"aliases":["s5","s4"]}]}}`, true),
		Entry("a \"$setElementOrder\" naming a field the type does not declare: an error (OpenAPI v2's look-up fails too)",
			`{"spec":{"parts":[{"name":"a"}]}}`,
			`{"spec":{"$setElementOrder/zzz":["x"],"parts":[{"name":"a","$setElementOrder/zzz":["y"]}]}}`, true),
		Entry("the repeat's aliases numbers, the outcome's strings: an error",
			`{"spec":{"parts":[{"name":"a","aliases":["s1"]}]}}`,
			`{"spec":{"parts":[{"name":"a","weight":1},{"name":"a","aliases":[1,2]}]}}`, true),
	)

	// Class oracle-aliases-first: strategicpatch's merge of a set appends second's list to first's and deduplicates
	// the result in place; when first's array has room (len 3, cap 4, as JSON decoding and the exported merge's copy
	// make it), the append writes into it and the deduplication rewrites first's list to s3, s1, s2, by which
	// strategicpatch then ranks the values the order leaves out: s3 before s1. Without room, its result is ply's.
	It("ranks a set by the first patch's list as given, where strategicpatch's in-place deduplication rewrote it (oracle-aliases-first)", func() {
		sp, widget := widgets()
		first := jsonv.MustDecode(`{"spec":{"parts":[{"name":"a","aliases":["s3","s3","s2"]}]}}`)
		second := jsonv.MustDecode(`{"spec":{"parts":[{"name":"a","$setElementOrder/aliases":["s1","s2"],"aliases":["s1"]}]}}`)
		rewritten := `{"spec":{"parts":[{"$setElementOrder/aliases":["s1","s2"],"aliases":["s3","s1","s2"],"name":"a"}]}}`
		asGiven := `{"spec":{"parts":[{"$setElementOrder/aliases":["s1","s2"],"aliases":["s1","s3","s2"],"name":"a"}]}}`
		expectRankedAsGiven(sp, widget, first, second, rewritten, asGiven)
	})

	// The same class where the set is the second patch's: its first item of key a, new to the first patch, is
	// appended to the first's list as it stands, its aliases s1, s1, s2 an array JSON decoding left room in (len 3,
	// cap 4); merging the later item of a into it appends s3 there and the deduplication rewrites the list to s1, s3,
	// s2, by which strategicpatch ranks s3 (the later item's value, found there after s1): s1, s3, s2. Without room
	// s3 is in neither list it ranks by and goes first, ply's result; four values (no room after decoding) give it too.
	It("ranks a set of the second patch's item, new to the first, by its list as given when a later item of the key merges a set into it (oracle-aliases-first)", func() {
		sp, widget := widgets()
		for _, c := range []struct{ aliases, rewritten, asGiven string }{
			{`"s1","s1","s2"`, `"s1","s3","s2"`, `"s3","s1","s2"`},
			{`"s1","s1","s2","s4"`, `"s3","s1","s2","s4"`, `"s3","s1","s2","s4"`},
		} {
			first := jsonv.MustDecode(`{"spec":{"parts":[{"name":"b"}]}}`)
			second := jsonv.MustDecode(`{"spec":{"parts":[{"name":"a","aliases":[` + c.aliases + `]},{"name":"a","aliases":["s3"]}]}}`)
			rewritten := `{"spec":{"parts":[{"aliases":[` + c.rewritten + `],"name":"a"},{"name":"b"}]}}`
			asGiven := `{"spec":{"parts":[{"aliases":[` + c.asGiven + `],"name":"a"},{"name":"b"}]}}`
			expectRankedAsGiven(sp, widget, first, second, rewritten, asGiven)
		}
	})

	It("refuses a second patch that is not an object, and a first that is neither an object nor null", func() {
		_, err := compose(value.MustMap(), value.List(nil))
		var ee *elements.Error
		Expect(errors.As(err, &ee)).To(BeTrue())
		_, err = compose(value.List(nil), value.MustMap())
		Expect(errors.As(err, &ee)).To(BeTrue())
	})
})

// widgets returns strategicpatch's and ply's kubectl view of the test schema's Widget (test/testdata/schema).
func widgets() (*oracle.Oracle, *openapi.Type) {
	GinkgoHelper()
	data := mustRead(filepath.Join("..", "..", "test", "testdata", "schema", "swagger.json"))
	models, err := oracle.Load(data)
	Expect(err).NotTo(HaveOccurred())
	sp, err := models.Oracle("dev.ply.test.v1.Widget")
	Expect(err).NotTo(HaveOccurred())
	schema, err := openapi.LoadV2Named("swagger.json", data)
	Expect(err).NotTo(HaveOccurred())
	widget, ok := schema.Kubectl().ByName("dev.ply.test.v1.Widget")
	Expect(ok).To(BeTrue())
	return sp, widget
}

// expectRankedAsGiven checks a case of class oracle-aliases-first: strategicpatch's merges of first and second (the
// exported one and mergeMap) give rewritten, ranked by a list its in-place deduplication rewrote, and give asGiven with
// both patches' lists clipped to their length (no room to append into), which is patch.Compose's result.
func expectRankedAsGiven(sp *oracle.Oracle, widget *openapi.Type, first, second value.Value, rewritten, asGiven string) {
	GinkgoHelper()
	for _, merge := range []func(f, s []byte) ([]byte, error){sp.MergePatches, sp.MergedPatches} {
		want, err := merge(first.JSON(), second.JSON())
		Expect(err).NotTo(HaveOccurred())
		Expect(string(want)).To(Equal(rewritten))
	}
	want, err := sp.MergePatchesWithoutRoom(first.JSON(), second.JSON())
	Expect(err).NotTo(HaveOccurred())
	Expect(string(want)).To(Equal(asGiven))
	got, err := patch.Compose(first, second, widget, features.Kubectl())
	Expect(err).NotTo(HaveOccurred())
	Expect(got).To(equalValue(jsonv.MustDecode(asGiven)))
}

// containers is a Pod patch whose spec holds fields and n containers, named prefix0, prefix1, ..., interleaved with
// first's names where prefix is "s" (every third one named "f<i>" after one of first's, some with an image).
func containers(fields string, n int, prefix string) string {
	var items []string
	for i := range n {
		name := prefix + strconv.Itoa(i)
		if prefix == "s" && i%3 == 0 {
			name = "f" + strconv.Itoa(i/3)
		}
		item := `{"name":"` + name + `"}`
		if i%4 == 1 {
			item = `{"name":"` + name + `","image":"i` + strconv.Itoa(i) + `"}`
		}
		items = append(items, item)
	}
	spec := strings.TrimSuffix(fields, "}")
	if spec != "{" {
		spec += ","
	}
	return `{"spec":` + spec + `"containers":[` + strings.Join(items, ",") + `]}}`
}
