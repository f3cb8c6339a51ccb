package patch_test

import (
	"path/filepath"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/util/strategicpatch"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

var _ = Describe("feature gates", func() {
	// Every fixture strategicpatch can run, and those it can only with the
	// gates off (multi-field keys, key defaults), gives with every gate off
	// what strategicpatch gives with the same document (the v3 documents
	// for schema: default, as kubectl reads them from a server), list order
	// included, or an error from both.
	for _, dir := range []string{"seeds", "directives", "reject", "bad"} {
		DescribeTable("every gate off: cross-check with strategicpatch, "+dir,
			func(path string) {
				f := loadFixture(path)
				if !f.oracleGatesOff() || f.str("schema") == "none" || f.has("patches") {
					Skip("not comparable")
				}
				want, werr := strategicPatchV3(f)
				opts := f.options(patch.OrderSeed)
				opts.Gates = features.Kubectl()
				got, err := patch.Apply(f.get("live"), f.get("patch"), opts)
				if werr != nil {
					Expect(err).To(HaveOccurred(), "strategicpatch rejects it: %v", werr)
					return
				}
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(equalValue(want))
			},
			entries(dir),
		)
	}

	// SeedOrdering off orders as OrderKubectl does, whatever Ordering says.
	for _, dir := range []string{"seeds", "directives"} {
		DescribeTable("SeedOrdering off: strategicpatch's order, "+dir,
			func(path string) {
				f := loadFixture(path)
				if f.has("error") || f.has("patches") {
					Skip("no single result")
				}
				for _, o := range []patch.Ordering{patch.OrderSeed, patch.OrderKubectl} {
					opts := f.options(o)
					opts.Gates = features.Gates{}.With(features.SeedOrdering, false)
					got, err := patch.Apply(f.get("live"), f.get("patch"), opts)
					Expect(err).NotTo(HaveOccurred())
					Expect(got).To(equalValue(f.want(patch.OrderKubectl)), orderingName(o))
				}
			},
			entries(dir),
		)
	}

	// A patch whose list names one merge key twice, as kubectl sends for a
	// manifest declaring TCP and UDP on one containerPort: on, refused
	// naming both items; off, each item merges in turn into the first
	// item of its key (appended when live has none), as the API server
	// merges them, which strategicpatch shows, errors included.
	Describe("UniqueMergeKeys, a patch naming one key twice", func() {
		pod := func(ports string) value.Value {
			return jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i","ports":` + ports + `}]}}`)
		}
		ports := func(ports string) value.Value {
			return jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","ports":` + ports + `}]}}`)
		}
		var sp *oracle.Oracle
		BeforeEach(func() {
			var err error
			sp, err = oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
			Expect(err).NotTo(HaveOccurred())
		})

		DescribeTable("off: the API server's result (strategicpatch), or an error where it fails",
			func(live, p value.Value, failsToo bool) {
				expectStrategicPatch(live, p, sp, failsToo, patch.Options{Gates: features.Kubectl()},
					patch.Options{Gates: features.Gates{}.With(features.UniqueMergeKeys, false).With(features.MultiFieldMergeKeys, false).With(features.SeedOrdering, false)})
			},
			Entry("kubectl's patch for TCP and UDP declared on port 53: the TCP port's fields merge last",
				pod(`[{"containerPort":53,"protocol":"TCP","name":"dns-tcp"}]`),
				ports(`[{"containerPort":53,"protocol":"UDP","name":"dns-udp"},{"containerPort":53,"protocol":"TCP","name":"dns-tcp"}]`), false),
			Entry("a key live lacks: the first item appended, the second merged into it",
				pod(`[{"containerPort":80}]`),
				ports(`[{"containerPort":53,"protocol":"UDP","name":"dns-udp"},{"containerPort":53,"protocol":"TCP","name":"dns-tcp","hostPort":5353}]`), false),
			Entry("a delete item of the key first: every live item of it deleted, then the others merged into one",
				pod(`[{"containerPort":53,"protocol":"TCP","name":"dns-tcp"}]`),
				ports(`[{"$patch":"delete","containerPort":53},{"containerPort":53,"protocol":"UDP"},{"containerPort":53,"name":"x"}]`), false),
			Entry("a null in the first item, a field in the second",
				pod(`[{"containerPort":53,"protocol":"TCP","name":"dns-tcp","hostPort":1}]`),
				ports(`[{"containerPort":53,"hostPort":null},{"containerPort":53,"name":"n2"}]`), false),
			Entry("three items of one key",
				pod(`[{"containerPort":80}]`),
				ports(`[{"containerPort":1,"name":"q"},{"containerPort":1,"name":"r"},{"containerPort":1,"protocol":"UDP"}]`), false),
			Entry("live repeating the key too: the patch merges into live's first",
				pod(`[{"containerPort":80},{"containerPort":53,"protocol":"TCP"},{"containerPort":53,"protocol":"UDP"}]`),
				ports(`[{"containerPort":53,"name":"a"},{"containerPort":53,"name":"b"}]`), false),
			Entry("$setElementOrder naming the key twice",
				pod(`[{"containerPort":80},{"containerPort":53,"protocol":"TCP"}]`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","$setElementOrder/ports":[{"containerPort":53},{"containerPort":53},{"containerPort":80}],"ports":[{"containerPort":53,"protocol":"UDP"},{"containerPort":53,"name":"b"}]}]}}`), false),
			Entry("repeated containers whose env lists merge in turn",
				pod(`[{"containerPort":80}]`),
				jsonv.MustDecode(`{"spec":{"$setElementOrder/containers":[{"name":"c"},{"name":"d"},{"name":"d"}],"containers":[{"name":"d","image":"x","env":[{"name":"A","value":"1"}]},{"name":"d","env":[{"name":"B","value":"2"},{"name":"A","value":"3"}]}]}}`), false),
			Entry("a list live lacks: the patch's list taken whole, its items of one key apart",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`),
				ports(`[{"containerPort":53,"protocol":"UDP"},{"containerPort":80},{"containerPort":53,"name":"b","hostPort":null}]`), false),
			Entry("a \"$patch: replace\" list: its items replace live's, those of one key apart",
				pod(`[{"containerPort":80},{"containerPort":53,"protocol":"TCP"}]`),
				ports(`[{"$patch":"replace"},{"containerPort":53,"protocol":"UDP"},{"containerPort":8080},{"containerPort":53,"name":"b"}]`), false),
			Entry("a list live lacks, with $setElementOrder: the items of one key apart, together",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","$setElementOrder/ports":[{"containerPort":53},{"containerPort":80},{"containerPort":53}],"ports":[{"containerPort":53,"protocol":"UDP"},{"containerPort":80},{"containerPort":53,"name":"b"}]}]}}`), false),
			Entry("a \"$patch: replace\" list with $setElementOrder",
				pod(`[{"containerPort":80},{"containerPort":53,"protocol":"TCP"}]`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","$setElementOrder/ports":[{"containerPort":8080},{"containerPort":53},{"containerPort":53}],"ports":[{"$patch":"replace"},{"containerPort":8080},{"containerPort":53,"protocol":"UDP"},{"containerPort":53,"name":"b"}]}]}}`), false),
			Entry("a \"$patch: replace\" list whose order contradicts its $setElementOrder: both fail",
				pod(`[{"containerPort":80},{"containerPort":53,"protocol":"TCP"}]`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","$setElementOrder/ports":[{"containerPort":8080},{"containerPort":53},{"containerPort":53}],"ports":[{"$patch":"replace"},{"containerPort":53,"protocol":"UDP"},{"containerPort":8080},{"containerPort":53,"name":"b"}]}]}}`), true),
			Entry("a \"$patch: replace\" list live lacks: the patch's order",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`),
				ports(`[{"$patch":"replace"},{"containerPort":53,"protocol":"UDP"},{"containerPort":8080},{"containerPort":53,"name":"b"}]`), false),
			Entry("a \"$patch: replace\" list ordered by $setElementOrder onto live's null: both fail",
				pod(`null`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","$setElementOrder/ports":[{"containerPort":80}],"ports":[{"$patch":"replace"},{"containerPort":80}]}]}}`), true),
			Entry("a \"$patch: replace\" list ordered by $setElementOrder onto live's scalar: both fail",
				pod(`5`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","$setElementOrder/ports":[{"containerPort":80}],"ports":[{"$patch":"replace"},{"containerPort":80}]}]}}`), true),
			Entry("a later item's \"$patch: replace\" list ordered by $setElementOrder onto live's null: both fail",
				pod(`null`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"j"},{"name":"c","$setElementOrder/ports":[{"containerPort":80}],"ports":[{"$patch":"replace"},{"containerPort":80}]}]}}`), true),
			Entry("a later item's list ordered by $setElementOrder onto live's scalar: both fail",
				pod(`5`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"j"},{"name":"c","$setElementOrder/ports":[{"containerPort":80}],"ports":[{"containerPort":80}]}]}}`), true),
			Entry("a later item's $setElementOrder alone onto live's null: both fail",
				pod(`null`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"j"},{"name":"c","$setElementOrder/ports":[{"containerPort":80}]}]}}`), true),
			Entry("a later item's list ordered by $setElementOrder where the first item deletes the field: ordered onto none",
				pod(`[{"containerPort":80}]`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","ports":null},{"name":"c","$setElementOrder/ports":[{"containerPort":80}],"ports":[{"containerPort":80}]}]}}`), false),
			Entry("a list ordered by $setElementOrder onto live's null: both fail",
				pod(`null`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","$setElementOrder/ports":[{"containerPort":80}],"ports":[{"containerPort":80}]}]}}`), true),
			Entry("a list ordered by $setElementOrder onto live's scalar: both fail",
				pod(`"x"`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","$setElementOrder/ports":[{"containerPort":80}],"ports":[{"containerPort":80}]}]}}`), true),
			Entry("a keyed list given a scalar item onto live's empty list: both fail",
				pod(`[]`),
				ports(`[0]`), true),
			Entry("an empty list onto live's keyed list holding a scalar item: both fail",
				pod(`[0]`),
				ports(`[]`), true),
			Entry("a keyed list's $setElementOrder naming a null, the list merged: both fail",
				pod(`[{"containerPort":80}]`),
				jsonv.MustDecode(`{"spec":{"$setElementOrder/containers":[{"name":"c"},null],"containers":[{"name":"c","image":"j"}]}}`), true),
			Entry("a keyed list's $setElementOrder alone naming a null: both fail",
				pod(`[{"containerPort":80}]`),
				jsonv.MustDecode(`{"spec":{"$setElementOrder/containers":[null,{"name":"c"}]}}`), true),
			Entry("a keyed list's $setElementOrder alone naming a null where live lacks the list: dropped",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"hostname":"h"}}`),
				jsonv.MustDecode(`{"spec":{"$setElementOrder/containers":[{"name":"c"},null]}}`), false),
			Entry("a set's $setElementOrder naming a null",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","finalizers":["a","b"]}}`),
				jsonv.MustDecode(`{"metadata":{"$setElementOrder/finalizers":["c",null,"a"],"finalizers":["c"]}}`), false),
			Entry("a later item's maps merging onto the first item's outcome, a field nulled, one set that live holds as null",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i","resources":{"requests":{"cpu":"1"}},"workingDir":null}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1","memory":"2"}}},{"name":"c","resources":{"limits":{"memory":null,"pods":"3"}},"image":null,"tty":true}]}}`), false),
			Entry("a later item setting a map the first item deleted, and a map where live holds none",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i","resources":{"requests":{"cpu":"1"}}}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","resources":null},{"name":"c","resources":{"limits":{"cpu":"2"}},"securityContext":{"runAsUser":1}}]}}`), false),
			Entry("a later item replacing maps with \"$patch: replace\", one the first item set, one live holds",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i","resources":{"requests":{"cpu":"1"}}}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"j","securityContext":{"runAsUser":1}},{"name":"c","resources":{"$patch":"replace","limits":{"cpu":"3"}},"securityContext":{"$patch":"replace","runAsGroup":2}}]}}`), false),
			Entry("a later item's \"$retainKeys\" clearing the first item's fields",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}],"volumes":[{"name":"v","configMap":{"name":"m"}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","$retainKeys":["emptyDir","name"],"emptyDir":{}}]}}`), false),
			Entry("three items of one key, each merging onto the outcome of those before",
				pod(`[{"containerPort":53,"protocol":"TCP","name":"dns-tcp","hostPort":1}]`),
				ports(`[{"containerPort":53,"hostPort":2},{"containerPort":53,"hostPort":null,"name":"b"},{"containerPort":53,"hostIP":"h","name":null}]`), false),
			Entry("a later container's env merging onto the first's env: an item merged, one new, one deleted, one kept",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"},{"name":"G","value":"g"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"},{"name":"A","value":"1"}]},{"name":"c","env":[{"$patch":"delete","name":"G"},{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}},{"name":"D","value":"2"},{"name":"A","value":null}]}]}}`), false),
			Entry("a later container's env with $setElementOrder naming the first's items and live's",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"}]},{"name":"c","$setElementOrder/env":[{"name":"D"},{"name":"K"},{"name":"B"},{"name":"A"}],"env":[{"name":"D","value":"2"},{"name":"B","value":"3"}]}]}}`), false),
			Entry("a later container's ports where the first leaves them to live, the order set",
				pod(`[{"containerPort":80},{"containerPort":81,"name":"b"},{"containerPort":82}]`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"j"},{"name":"c","$setElementOrder/ports":[{"containerPort":82},{"containerPort":83},{"containerPort":80},{"containerPort":81}],"ports":[{"containerPort":83},{"containerPort":81,"name":"x"}]}]}}`), false),
			Entry("a later container's \"$patch: replace\" env naming a key twice, onto the first's env: the items replace it, those of one key together",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"G","value":"g"}]},{"name":"c","env":[{"$patch":"replace"},{"name":"B","value":"1"},{"name":"A","value":"1"},{"name":"B","value":"2"},{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}}]}]}}`), false),
			Entry("a later container's \"$patch: replace\" env naming a key twice where the first's outcome lacks env: the patch's order",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"j"},{"name":"c","env":[{"$patch":"replace"},{"name":"B","value":"1"},{"name":"A","value":"1"},{"name":"B","value":"2"}]}]}}`), false),
			Entry("a later container ordering by $setElementOrder alone the env the first's outcome holds, naming an item of neither",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"},{"name":"G","value":"g"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"},{"name":"A","value":"1"}]},{"name":"c","image":"i","$setElementOrder/env":[{"name":"G"},{"name":"X"},{"name":"B"},{"name":"A"}]}]}}`), false),
			Entry("a later container ordering by $setElementOrder alone the env the first leaves to live",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"},{"name":"G","value":"g"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/env":[{"name":"G"},{"name":"X"},{"name":"A"}]}]}}`), false),
			Entry("a later container ordering by $setElementOrder alone the env the first deletes an item of",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"$patch":"delete","name":"A"},{"name":"B","value":"1"}]},{"name":"c","$setElementOrder/env":[{"name":"B"},{"name":"K"}]}]}}`), false),
			Entry("a later container ordering by $setElementOrder alone an env the first's outcome holds empty: both fail",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"$patch":"delete","name":"A"}]},{"name":"c","$setElementOrder/env":[{"name":"B"},{"name":"K"}]}]}}`), true),
			Entry("a later container's env whose $setElementOrder leaves out an item of the first's: both fail",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"}]},{"name":"c","$setElementOrder/env":[{"name":"A"}],"env":[{"name":"D","value":"2"}]}]}}`), true),
			Entry("a key named three times: the third container's env merging onto the outcome of the second's, ordered by $setElementOrder",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"}]},{"name":"c","env":[{"name":"C","value":"2"},{"name":"A","value":"1"}]},{"name":"c","$setElementOrder/env":[{"name":"K"},{"name":"C"},{"name":"B"},{"name":"A"}],"env":[{"name":"C","value":"3"},{"name":"B","valueFrom":{"fieldRef":{"fieldPath":"x"}}}]}]}}`), false),
			Entry("a key named three times: the third container's ports merging onto the second's taken whole, a port of it twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","ports":[{"containerPort":53,"protocol":"UDP"},{"containerPort":80},{"containerPort":53,"name":"b"}]},{"name":"c","ports":[{"containerPort":80,"name":"h"},{"containerPort":53,"hostPort":5},{"containerPort":81}]}]}}`), false),
			Entry("a key named four times: env items deleted, added again and merged, each container onto the outcome before it",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"}]},{"name":"c","env":[{"$patch":"delete","name":"A"},{"name":"C","value":"2"}]},{"name":"c","env":[{"name":"A","value":"3"},{"name":"B","value":null}]},{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"y"}}},{"name":"K","value":"j"}]}]}}`), false),
			Entry("a key named three times: the third container's ports merging onto the second's taken whole and ordered, a port of it twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/ports":[{"containerPort":53},{"containerPort":80},{"containerPort":53}],"ports":[{"containerPort":53,"protocol":"UDP"},{"containerPort":80},{"containerPort":53,"name":"b"}]},{"name":"c","ports":[{"containerPort":53,"hostPort":5},{"containerPort":81}]}]}}`), false),
			Entry("a later container ordering by $setElementOrder an env it sets to null, the first's outcome holding env: both fail",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/env":[{"name":"A"}],"env":null}]}}`), true),
			Entry("a later container ordering by $setElementOrder an env it sets to a string, the first's outcome lacking env: both fail",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/env":[],"env":"x"}]}}`), true),
			Entry("a later volume setting to null finalizers the first's outcome holds, deleting from them by $deleteFromPrimitiveList",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"labels":{"k":"1"}}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"],"finalizers":null}}}}]}}`), false),
			Entry("a later volume deleting by $deleteFromPrimitiveList alone from finalizers the first merged into live's",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","c"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a","d"]}}}}]}}`), false),
			Entry("a later volume's finalizers merging onto those the first deletes from live's by $deleteFromPrimitiveList alone",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","c"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["b","x"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d","a","b"]}}}}]}}`), false),
			Entry("a key named three times: the third volume deleting from and ordering finalizers the second merged onto those the first deletes from live's",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","c"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d","a"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"],"$setElementOrder/finalizers":["d","c","e"],"finalizers":["e"]}}}}]}}`), false),
			Entry("a later volume's finalizers merging onto live's holding a value twice, the first deleting from them",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","c","a","b"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d","a"]}}}}]}}`), false),
			Entry("a later volume deleting by $deleteFromPrimitiveList alone from finalizers the first deletes from live's the same way",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","c"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["c","x"]}}}}]}}`), false),
			Entry("a later volume deleting by $deleteFromPrimitiveList alone from finalizers the first deleted every value of",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a","b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["c"],"labels":{"k":"v"}}}}}]}}`), false),
			Entry("a later volume ordering by $setElementOrder alone finalizers the first deletes from live's by $deleteFromPrimitiveList",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","c"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["c","a"]}}}}]}}`), false),
			Entry("a later volume deleting by $deleteFromPrimitiveList strings from numbers the first's outcome holds: both fail",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":[1,2]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"labels":{"k":"1"}}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]}}}}]}}`), true),
			Entry("a later container holding empty and ordering by $setElementOrder the env the first's outcome holds",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"}]},{"name":"c","$setElementOrder/env":[{"name":"K"},{"name":"B"}],"env":[]}]}}`), false),
			Entry("a later container holding empty and ordering by $setElementOrder ports the first's outcome holds, a third merging onto them",
				pod(`[{"containerPort":80},{"containerPort":81,"name":"b"}]`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"j"},{"name":"c","$setElementOrder/ports":[{"containerPort":81},{"containerPort":80}],"ports":[]},{"name":"c","ports":[{"containerPort":82},{"containerPort":80,"name":"x"}]}]}}`), false),
			Entry("a later container holding empty and ordering by $setElementOrder an env the first's outcome lacks: both fail",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/env":[{"name":"A"}],"env":[]}]}}`), true),
			Entry("a later container's env merging onto the first's \"$patch: replace\" env: live's items gone, the first's merged, one new",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"B","value":"1"},{"name":"A","value":"1"}]},{"name":"c","env":[{"name":"C","value":"2"},{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}},{"name":"K","value":"j"}]}]}}`), false),
			Entry("a later container ordering by $setElementOrder the first's \"$patch: replace\" env",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"B","value":"1"},{"name":"A","value":"1"}]},{"name":"c","$setElementOrder/env":[{"name":"D"},{"name":"A"},{"name":"B"}],"env":[{"name":"D","value":"2"}]}]}}`), false),
			Entry("a later container's env merging onto the first's \"$patch: replace\" env naming a key twice: the first item of the key merged, the second kept",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"B","value":"1"},{"name":"A","value":"1"},{"name":"B","value":"2"}]},{"name":"c","env":[{"name":"C","value":"2"},{"name":"B","valueFrom":{"fieldRef":{"fieldPath":"x"}}},{"name":"A","value":"3"}]}]}}`), false),
			Entry("a later container ordering by $setElementOrder the first's \"$patch: replace\" env naming a key twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"B","value":"1"},{"name":"A","value":"1"},{"name":"B","value":"2"}]},{"name":"c","$setElementOrder/env":[{"name":"D"},{"name":"A"},{"name":"B"}],"env":[{"name":"D","value":"2"},{"name":"B","value":"3"}]}]}}`), false),
			Entry("a key named three times: the third container's env merging onto the second's, merged onto the first's \"$patch: replace\" env naming a key twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"B","value":"1"},{"name":"A","value":"1"},{"name":"B","value":"2"}]},{"name":"c","env":[{"name":"C","value":"2"},{"name":"B","value":"4"}]},{"name":"c","env":[{"$patch":"delete","name":"B"},{"name":"A","value":null,"valueFrom":{"fieldRef":{"fieldPath":"y"}}}]}]}}`), false),
			Entry("a later container's env merging onto the first's \"$patch: replace\" env naming a key twice, over live's env naming keys twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B"},{"name":"A","value":"2"},{"name":"K","value":"k"},{"name":"B","value":"3"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"A","value":"x"},{"name":"B"},{"name":"A","value":"y"}]},{"name":"c","env":[{"name":"K","value":"z"},{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"q"}}}]}]}}`), false),
			Entry("a later container ordering by $setElementOrder the first's \"$patch: replace\" env naming a key twice, over live's env naming keys twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B"},{"name":"A","value":"2"},{"name":"K","value":"k"},{"name":"B","value":"3"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"A","value":"x"},{"name":"B"},{"name":"A","value":"y"}]},{"name":"c","$setElementOrder/env":[{"name":"B"},{"name":"K"},{"name":"A"}],"env":[{"name":"K","value":"z"}]}]}}`), false),
			Entry("a later container's env deleting from the first's \"$patch: replace\" env naming a key twice, over live's env naming keys twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B"},{"name":"A","value":"2"},{"name":"K","value":"k"},{"name":"B","value":"3"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"A","value":"x"},{"name":"B"},{"name":"A","value":"y"}]},{"name":"c","env":[{"$patch":"delete","name":"A"},{"name":"B","value":"n"}]}]}}`), false),
			Entry("a key named three times over the first's \"$patch: replace\" env naming a key twice, over live's env naming keys twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B"},{"name":"A","value":"2"},{"name":"K","value":"k"},{"name":"B","value":"3"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"A","value":"x"},{"name":"B"},{"name":"A","value":"y"}]},{"name":"c","env":[{"name":"B","value":"n"}]},{"name":"c","env":[{"name":"A","value":"m"},{"name":"B","value":null}]}]}}`), false),
			Entry("a key's third item, its lists merged onto an earlier repeat's \"$patch: replace\" map's, naming a key and a value twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["z"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"z","uid":"z"}]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"$patch":"replace","metadata":{"finalizers":["a","b","a"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"a","uid":"a"},{"apiVersion":"v1","kind":"K","name":"b","uid":"a"}]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c","a"],"ownerReferences":[{"uid":"a","name":"x"},{"apiVersion":"v1","kind":"K","name":"b","uid":"b"}]}}}}]}}`), false),
			Entry("a key's third item ordering and deleting from the lists of an earlier repeat's \"$patch: replace\" map",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["z"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"z","uid":"z"}]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"$patch":"replace","metadata":{"finalizers":["a","b"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"a","uid":"a"},{"apiVersion":"v1","kind":"K","name":"b","uid":"b"}]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["b","c","a"],"finalizers":["c"],"$setElementOrder/ownerReferences":[{"uid":"b"},{"uid":"a"}],"ownerReferences":[{"$patch":"delete","uid":"a"}]}}}}]}}`), false),
			Entry("a key's third item deleting by \"$deleteFromPrimitiveList\" alone from a set of an earlier repeat's \"$patch: replace\" map",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["z"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"z","uid":"z"}]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"$patch":"replace","metadata":{"finalizers":["a","b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]}}}}]}}`), false),
			Entry("a key's third item ordering by \"$setElementOrder\" alone a set of an earlier repeat's \"$patch: replace\" map",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["z"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"z","uid":"z"}]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"$patch":"replace","metadata":{"finalizers":["a","b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["b","a"]}}}}]}}`), false),
			Entry("a key named four times, its later items' sets merged in turn onto an earlier repeat's \"$patch: replace\" map's",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["z"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"z","uid":"z"}]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"$patch":"replace","metadata":{"finalizers":["a","b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d","a"]}}}}]}}`), false),
			Entry("a key named four times, its last item's set merged onto the map the third replaced (\"$patch: replace\") after the second",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["z"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"z","uid":"z"}]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"$patch":"replace","metadata":{"finalizers":["a","b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"$patch":"replace","metadata":{"finalizers":["q"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d","q"]}}}}]}}`), false),
			Entry("a later container deleting by \"$deleteFromPrimitiveList\" alone from a list merged by no strategy the first leaves to live",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","args":["a","b","a"],"command":["x"]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$deleteFromPrimitiveList/args":["a","x"]}]}}`), false),
			Entry("a later container deleting by \"$deleteFromPrimitiveList\" alone from a list merged by no strategy the first sets",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","args":["a","b","a"],"command":["x"]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","args":["x","y","x"]},{"name":"c","$deleteFromPrimitiveList/args":["x"],"$deleteFromPrimitiveList/command":[]}]}}`), false),
			Entry("a later container's \"$patch: merge\" map where the first's outcome holds a map: both fail",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"}}}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","resources":{"$patch":"merge","requests":{"cpu":"2"}}}]}}`), true),
			Entry("a later container's \"$patch: merge\" map where the first's outcome lacks it: dropped",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","resources":{"$patch":"merge","requests":{"cpu":"2"}}}]}}`), false),
			Entry("a later container's env merging onto the first's, merged into live's env naming a key twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"A","value":"x"},{"name":"K","value":"k"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"}]},{"name":"c","$setElementOrder/env":[{"name":"K"},{"name":"A"},{"name":"C"}],"env":[{"name":"A","value":"1"},{"name":"C","value":"2"}]}]}}`), false),
			Entry("a later container's env deleting a key the first's outcome holds twice from live",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"},{"name":"A","value":"x"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"}]},{"name":"c","env":[{"$patch":"delete","name":"A"},{"name":"K","value":"j"}]}]}}`), false),
			Entry("a key named three times: the third container's env deleting a key the second merged into live's first item of it, live holding it twice: both gone",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"A","value":"x"},{"name":"K","value":"k"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"}]},{"name":"c","env":[{"name":"A","value":"1"}]},{"name":"c","env":[{"$patch":"delete","name":"A"},{"name":"K","value":"j"}]}]}}`), false),
			Entry("a key named three times: the third container's env merging onto a key the second merged into live's first item of it, live holding it twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"},{"name":"A","value":"x"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"}]},{"name":"c","env":[{"name":"A","value":"1"},{"name":"C","value":"1"}]},{"name":"c","$setElementOrder/env":[{"name":"A"},{"name":"C"},{"name":"K"},{"name":"B"}],"env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"y"}}}]}]}}`), false),
			Entry("a key named three times: an env item merged, deleted, then added again",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"B","value":"b"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"}]},{"name":"c","env":[{"$patch":"delete","name":"A"}]},{"name":"c","env":[{"name":"A","value":"2"}]}]}}`), false),
			Entry("a key named four times: an env item live holds twice deleted, added, deleted and added again",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"A","value":"z"},{"name":"B","value":"b"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"$patch":"delete","name":"A"}]},{"name":"c","env":[{"name":"A","value":"1"}]},{"name":"c","env":[{"$patch":"delete","name":"A"},{"name":"C","value":"c"}]},{"name":"c","env":[{"name":"A","value":"2"}]}]}}`), false),
			Entry("a later container's $setElementOrder naming an env item twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"B","value":"b"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"C","value":"1"}]},{"name":"c","$setElementOrder/env":[{"name":"A"},{"name":"C"},{"name":"A"},{"name":"B"}],"env":[{"name":"A","value":"2"}]}]}}`), false),
			Entry("a later volume deleting by $deleteFromPrimitiveList a value twice from finalizers live holds twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a","c"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d","a"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a","a","d"]}}}}]}}`), false),
			Entry("a later container's env merging onto the empty env of the first",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[]},{"name":"c","env":[{"name":"B","value":"1"}]}]}}`), false),
			Entry("a key named three times: env set, nulled, then set again",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"}]},{"name":"c","env":null},{"name":"c","env":[{"name":"C","value":"1"}]}]}}`), false),
			Entry("a key named three times: two \"$patch: replace\" envs, the second naming a key twice, then a merge",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"B","value":"1"}]},{"name":"c","env":[{"$patch":"replace"},{"name":"C","value":"1"},{"name":"C","value":"2"}]},{"name":"c","env":[{"name":"B","value":"3"},{"name":"C","value":"4"}]}]}}`), false),
			Entry("a key named three times: a \"$patch: replace\" env naming a key twice, the key deleted, then added",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"$patch":"replace"},{"name":"B","value":"1"},{"name":"B","value":"2"},{"name":"A","value":"3"}]},{"name":"c","env":[{"$patch":"delete","name":"B"}]},{"name":"c","env":[{"name":"B","value":"9"}]}]}}`), false),
			Entry("volumes repeated under differing $retainKeys",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","emptyDir":{}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","$retainKeys":["name","hostPath"],"hostPath":{"path":"/x"}},{"name":"v","$retainKeys":["name","configMap"],"configMap":{"name":"m"}}]}}`), false),
			Entry("a key named three times: volumes under $retainKeys, merged, then retaining the name alone",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","hostPath":{"path":"/a"}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","emptyDir":{}},{"name":"v","$retainKeys":["name","emptyDir","hostPath"],"hostPath":{"type":"x"}},{"name":"v","$retainKeys":["name"]}]}}`), false),
			Entry("a later volume's finalizers of mixed kinds (1 and \"1\") merging onto the first's: both fail",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["1","b"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":[1]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["1",1,"c"]}}}}]}}`), true),
			Entry("a later volume's finalizers deleting 1 where live holds \"1\" and 1: both fail",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["1",1]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":[1]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["1",2]}}}}]}}`), true),
			Entry("a later container's ports keyed by \"80\" and 80 merging onto the first's",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","ports":[{"containerPort":80}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","ports":[{"containerPort":81}]},{"name":"c","ports":[{"containerPort":"80","name":"x"},{"containerPort":81,"name":"y"}]}]}}`), false),
			Entry("a later container's env naming a key twice itself, merging onto the first's",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"B","value":"1"}]},{"name":"c","env":[{"name":"A","value":"1"},{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}},{"name":"B","value":null}]}]}}`), false),
			Entry("both containers naming an env key twice, the later deleting it and adding it again",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"A","value":"2"}]},{"name":"c","env":[{"name":"B","value":"1"},{"$patch":"delete","name":"A"},{"name":"A","value":"3"}]}]}}`), false),
			Entry("a later volume's $setElementOrder naming a finalizer twice: both fail",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","c"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["c","d","c","a"],"finalizers":["e"]}}}}]}}`), true),
			Entry("a key named four times: finalizers added and deleted by $deleteFromPrimitiveList in turn",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","c"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["d","a"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d","b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"]}}}}]}}`), false),
			Entry("a key named three times: finalizers live holds twice deleted from, added to, deleted from",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a","c"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["c"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","d"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]}}}}]}}`), false),
			Entry("a later volume deleting by $deleteFromPrimitiveList 1 and 4.0 from 1.0 and the first's 4",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":[1.0,2,3]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":[4]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":[1,4.0]}}}}]}}`), false),
			Entry("a key named three times: an env item live holds twice, one deleted, ordered, then both deleted",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"B","value":"0"},{"name":"A","value":"1"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"$patch":"delete","name":"B"}]},{"name":"c","$setElementOrder/env":[{"name":"B"},{"name":"A"}],"env":[{"name":"B","value":"2"}]},{"name":"c","env":[{"$patch":"delete","name":"A"}]}]}}`), false),
			Entry("a key named four times: env items live holds twice merged, nulled and ordered",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"B","value":"0"},{"name":"A","value":"1"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"2"}]},{"name":"c","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"x"}}}]},{"name":"c","env":[{"name":"A","value":null}]},{"name":"c","$setElementOrder/env":[{"name":"A"},{"name":"B"}],"env":[{"name":"B","value":"3"}]}]}}`), false),
			Entry("a key named three times: ports of one key and two protocols merged, then deleted and added",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","ports":[{"containerPort":80,"protocol":"TCP"},{"containerPort":80,"protocol":"UDP"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","ports":[{"containerPort":80,"name":"a"}]},{"name":"c","ports":[{"containerPort":80,"protocol":"UDP"},{"containerPort":80,"hostPort":1}]},{"name":"c","ports":[{"$patch":"delete","containerPort":80},{"containerPort":80,"name":"z"}]}]}}`), false),
			Entry("a key named three times: an env item live holds twice merged in turn, its other key's items deleted between",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"B"},{"name":"A","value":"1"},{"name":"B","value":"2"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"$patch":"delete","name":"B"}]},{"name":"c","env":[{"name":"A","value":"9"},{"name":"B","value":"3"}]},{"name":"c","env":[{"name":"B","value":"4"},{"name":"A","value":null}]}]}}`), false),
			Entry("a key named three times: the resources map merged, emptied by \"$patch: delete\", merged again",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"}}}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}},{"name":"c","resources":{"$patch":"delete"}},{"name":"c","resources":{"limits":{"memory":"2"}}}]}}`), false),
			Entry("a key named three times: empty maps merged onto the first's outcome",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"}}}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","resources":{}},{"name":"c","resources":{"limits":{}}}]}}`), false),
			Entry("a later container's empty env onto live's env, which the first leaves, naming a key twice: the key's items together",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B"},{"name":"A","value":"2"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[]}]}}`), false),
			Entry("a later container's empty env onto live's env, which the first leaves, holding an object and a string: both fail",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},"x"]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[]}]}}`), true),
			Entry("a later volume's empty lists onto live's inside a map the first leaves, naming a value and a key twice: each value once, the key's items together",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"1","uid":"a"},{"apiVersion":"v1","kind":"K","name":"b","uid":"b"},{"apiVersion":"v1","kind":"K","name":"2","uid":"a"}]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":[],"ownerReferences":[]}}}}]}}`), false),
			Entry("a later volume's finalizers onto live's of mixed kinds inside a map the first leaves: both fail",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a",1]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["b"]}}}}]}}`), true),
			Entry("a later volume's lists merging onto those of the first's \"$patch: replace\" map, ordered, an item deleted",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"$patch":"replace","volumeClaimTemplate":{"metadata":{"finalizers":["b","c"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"a","uid":"a"}]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["c","d","b"],"finalizers":["d"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"b","uid":"b"},{"$patch":"delete","uid":"a"}]}}}}]}}`), false),
			Entry("a later container ordering by $setElementOrder alone an env the first sets empty: both fail",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[]},{"name":"c","$setElementOrder/env":[{"name":"A"}]}]}}`), true),
			Entry("a later container's env where the first leaves live's, naming a key twice: the first item of the key merged, deleted with the other",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B","value":"b"},{"name":"A","value":"2"},{"name":"C"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"D","value":"x"},{"name":"A","value":"y"},{"$patch":"delete","name":"C"}]}]}}`), false),
			Entry("a later container deleting a key of the env the first leaves live's, naming it twice: both gone",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B","value":"b"},{"name":"A","value":"2"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"$patch":"delete","name":"A"},{"name":"E"}]}]}}`), false),
			Entry("a later volume's ownerReferences where the first leaves live's map, naming a uid twice, ordered",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"1","uid":"a"},{"apiVersion":"v1","kind":"K","name":"b","uid":"b"},{"apiVersion":"v1","kind":"K","name":"2","uid":"a"}]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/ownerReferences":[{"uid":"b"},{"uid":"a"},{"uid":"c"}],"ownerReferences":[{"kind":"L","uid":"a"},{"apiVersion":"v1","kind":"K","name":"c","uid":"c"}]}}}}]}}`), false),
			Entry("a later volume's finalizers where the first leaves live's, naming a value twice: the value kept once",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c","a"]}}}}]}}`), false),
			Entry("a later volume's finalizers where the first leaves live's, naming a value twice it does not name: the value kept once",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a","c"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d","b"]}}}}]}}`), false),
			Entry("a later volume's finalizers ordered where the first leaves live's, naming a value twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a","c"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["c","d","a","b"],"finalizers":["d","a"]}}}}]}}`), false),
			Entry("a later volume's finalizers deleting a value live's names twice where the first leaves them",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a","c"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"],"finalizers":["d","c"]}}}}]}}`), false),
			Entry("a third container's env over the second's, merged onto live's naming a key twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B","value":"b"},{"name":"A","value":"2"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"A","value":"x"}]},{"name":"c","env":[{"name":"B","value":"y"},{"name":"D"},{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"p"}}}]}]}}`), false),
			Entry("a third container deleting a key the second merged into live's first item of it: both gone",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B","value":"b"},{"name":"A","value":"2"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"A","value":"x"}]},{"name":"c","env":[{"$patch":"delete","name":"A"},{"name":"E"}]}]}}`), false),
			Entry("a third container ordering the env the second merged onto live's naming a key twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"1"},{"name":"B","value":"b"},{"name":"A","value":"2"},{"name":"C"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","env":[{"name":"B","value":"x"}]},{"name":"c","$setElementOrder/env":[{"name":"D"},{"name":"C"},{"name":"A"},{"name":"B"}],"env":[{"name":"D"}]}]}}`), false),
			Entry("a third volume's finalizers over the second's, merged onto live's naming a value twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c","a"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","d"]}}}}]}}`), false),
			Entry("a third volume ordering the finalizers the second merged onto live's naming a value twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["b","a"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["d","a","b"],"finalizers":["d"]}}}}]}}`), false),
			Entry("a later volume's finalizers repeating a value, over live's: each value once",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c","a","c"]}}}}]}}`), false),
			Entry("a later volume's finalizers repeating a value, deleting another by $deleteFromPrimitiveList",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"],"finalizers":["a","c","a"]}}}}]}}`), false),
			Entry("a later volume's finalizers repeating values live's repeats too where the first leaves it",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c","a","c","a"]}}}}]}}`), false),
			Entry("a third volume's finalizers over the second's repeating a value",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["c","d","c"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","d"]}}}}]}}`), false),
			Entry("a third volume's finalizers repeating a value over the second's",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["b","d"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d","c","d"]}}}}]}}`), false),
			Entry("a later volume's finalizers repeating a value, ordered by $setElementOrder naming it twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["c","b","a","c"],"finalizers":["c","b","c"]}}}}]}}`), false),
			Entry("a later container's \"$patch: replace\" env naming a key twice, ordered by $setElementOrder naming it twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/env":[{"name":"B"},{"name":"A"},{"name":"B"}],"env":[{"$patch":"replace"},{"name":"B","value":"1"},{"name":"A","value":"1"},{"name":"B","value":"2"}]}]}}`), false),
			Entry("a later container's \"$patch: replace\" env naming a key twice, ordered by $setElementOrder naming a live key too",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/env":[{"name":"A"},{"name":"K"},{"name":"B"},{"name":"A"}],"env":[{"$patch":"replace"},{"name":"A","value":"1"},{"name":"B","value":"1"},{"name":"A","value":"2"}]}]}}`), false),
			Entry("a later container's \"$patch: replace\" env naming a key twice and ordered, over the first's env merged onto live's",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","env":[{"name":"C"}]},{"name":"c","$setElementOrder/env":[{"name":"A"},{"name":"K"},{"name":"B"},{"name":"A"}],"env":[{"$patch":"replace"},{"name":"A","value":"1"},{"name":"B","value":"1"},{"name":"A","value":"2"}]}]}}`), false),
			Entry("a later container's \"$patch: replace\" env naming a key twice, ordered by $setElementOrder naming a key it lacks",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"A","value":"0"},{"name":"K","value":"k"}]}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/env":[{"name":"B"},{"name":"A"},{"name":"B"},{"name":"C"}],"env":[{"$patch":"replace"},{"name":"B","value":"1"},{"name":"A","value":"1"},{"name":"B","value":"2"}]}]}}`), false),
			Entry("a later container's \"$patch: replace\" env naming a key twice and ordered, where live and the first lack env",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","$setElementOrder/env":[{"name":"A"},{"name":"K"},{"name":"B"},{"name":"A"}],"env":[{"$patch":"replace"},{"name":"A","value":"1"},{"name":"B","value":"1"},{"name":"A","value":"2"}]}]}}`), false),
			Entry("a later volume deleting by $deleteFromPrimitiveList alone from live's finalizers naming values twice: the others kept twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a","c","b"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["a","c"]}}}}]}}`), false),
			Entry("a later volume ordering by $setElementOrder alone live's finalizers naming a value twice: both kept",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["b","a"]}}}}]}}`), false),
			Entry("a later volume's empty finalizers ordered over live's naming a value twice: the value once",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d","d","c"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["c","d"],"finalizers":[]}}}}]}}`), false),
			Entry("a later volume ordering and deleting from live's finalizers naming a value twice: the value kept twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a","c"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"],"$setElementOrder/finalizers":["c","a"]}}}}]}}`), false),
			Entry("a later volume's finalizers where the first deletes from live's naming a value twice: the value once",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a","c"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["d","a"]}}}}]}}`), false),
			Entry("a later volume deleting from the finalizers the first deletes from, live's naming a value twice: kept twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a","c","c"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["c"]}}}}]}}`), false),
			Entry("a later volume ordering the finalizers the first deletes from, live's naming a value twice: kept twice",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"finalizers":["a","b","a","c"]},"spec":{}}}}]}}`),
				jsonv.MustDecode(`{"spec":{"volumes":[{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"]}}}},{"name":"v","ephemeral":{"volumeClaimTemplate":{"metadata":{"$setElementOrder/finalizers":["c","a"]}}}}]}}`), false),
			Entry("$setElementOrder naming the key once: both reject the patch's order",
				pod(`[{"containerPort":80},{"containerPort":53,"protocol":"TCP"}]`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","$setElementOrder/ports":[{"containerPort":53},{"containerPort":80}],"ports":[{"containerPort":53,"protocol":"UDP"},{"containerPort":53,"name":"b"}]}]}}`), true),
		)

		// (With gate PatchDeleteRemovesMap on, a "$patch: delete" map removes the field: only kubectl's gates compare.)
		It("off, kubectl's gates: a later item's \"$patch: delete\" maps of the first item's outcome and live's empty them, a nested \"$patch: replace\" map replaces live's", func() {
			live := jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i","resources":{"requests":{"cpu":"1"}},"livenessProbe":{"exec":{"command":["a"]},"periodSeconds":3}}]}}`)
			p := jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"j","securityContext":{"runAsUser":1}},{"name":"c","resources":{"$patch":"delete"},"securityContext":{"$patch":"delete"},"livenessProbe":{"exec":{"$patch":"replace","command":["b"]}}}]}}`)
			want, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(live.JSON(), p.JSON(), sp.Meta())
			Expect(err).NotTo(HaveOccurred())
			got, err := patch.Apply(live, p, patch.Options{Gates: features.Kubectl()})
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(equalValue(jsonv.MustDecode(string(want))))
			Expect(got).To(equalValue(jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"image":"j","livenessProbe":{"exec":{"command":["b"]},"periodSeconds":3},"name":"c","resources":{},"securityContext":{}}]}}`)))
		})

		// With gate PatchDeleteRemovesMap on (ply's own behaviour: strategicpatch empties the map), a later item's
		// "$patch: delete" maps remove the fields its first item's outcome holds as maps: what applying the later item
		// alone onto the object the first item gives gives.
		It("off, gate PatchDeleteRemovesMap on: a later item's \"$patch: delete\" maps remove the first item's outcome's maps, as applying it onto that outcome does", func() {
			gates := features.Kubectl().With(features.PatchDeleteRemovesMap, true)
			live := jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i","resources":{"requests":{"cpu":"1"}},"livenessProbe":{"exec":{"command":["a"]},"periodSeconds":3}}]}}`)
			first := `{"name":"c","image":"j","securityContext":{"runAsUser":1}}`
			second := `{"name":"c","resources":{"$patch":"delete"},"securityContext":{"$patch":"delete"},"livenessProbe":{"exec":{"$patch":"delete"},"periodSeconds":4},"startupProbe":{"$patch":"delete"}}`
			outcome, err := patch.Apply(live, jsonv.MustDecode(`{"spec":{"containers":[`+first+`]}}`), patch.Options{Gates: gates})
			Expect(err).NotTo(HaveOccurred())
			want, err := patch.Apply(outcome, jsonv.MustDecode(`{"spec":{"containers":[`+second+`]}}`), patch.Options{Gates: gates})
			Expect(err).NotTo(HaveOccurred())
			got, err := patch.Apply(live, jsonv.MustDecode(`{"spec":{"containers":[`+first+`,`+second+`]}}`), patch.Options{Gates: gates})
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(equalValue(want))
			Expect(got).To(equalValue(jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"image":"j","livenessProbe":{"periodSeconds":4},"name":"c"}]}}`)))
		})

		// A later item's map of strategy replace (testdata/schema.json: Example's containers[].replaced) where the first
		// item's outcome holds a map is the later item's map whole, as strategicpatch gives.
		DescribeTable("off: a later item's map of strategy replace, the API server's result (strategicpatch)",
			func(live, p string) {
				o, err := oracle.OracleInFile(filepath.Join("testdata", "schema.json"), "dev.ply.patch.v1.Example")
				Expect(err).NotTo(HaveOccurred())
				want, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta([]byte(live), []byte(p), o.Meta())
				Expect(err).NotTo(HaveOccurred())
				s, err := testSchema()
				Expect(err).NotTo(HaveOccurred())
				got, err := patch.Apply(jsonv.MustDecode(live), jsonv.MustDecode(p), patch.Options{Schema: s, TypeName: "dev.ply.patch.v1.Example", Gates: features.Kubectl()})
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(equalValue(jsonv.MustDecode(string(want))))
			},
			Entry("onto the first item's map, itself replacing live's",
				`{"apiVersion":"patch.ply.dev/v1","kind":"Example","containers":[{"name":"c","image":"i","replaced":{"maxSurge":"0","maxUnavailable":"1"}}]}`,
				`{"containers":[{"name":"c","replaced":{"maxSurge":"1"}},{"name":"c","image":"j","replaced":{"maxUnavailable":"2"}}]}`),
			Entry("onto live's map the first item leaves",
				`{"apiVersion":"patch.ply.dev/v1","kind":"Example","containers":[{"name":"c","image":"i","replaced":{"maxSurge":"0","maxUnavailable":"1"}}]}`,
				`{"containers":[{"name":"c","image":"k"},{"name":"c","replaced":{"maxSurge":"3"}}]}`),
			Entry("onto a map the first item's outcome lacks",
				`{"apiVersion":"patch.ply.dev/v1","kind":"Example","containers":[{"name":"c","image":"i"}]}`,
				`{"containers":[{"name":"c","image":"k"},{"name":"c","replaced":{"maxSurge":"3"}}]}`),
			Entry("an empty map onto the first item's",
				`{"apiVersion":"patch.ply.dev/v1","kind":"Example","containers":[{"name":"c","image":"i","replaced":{"maxSurge":"0"}}]}`,
				`{"containers":[{"name":"c","replaced":{"maxUnavailable":"1"}},{"name":"c","replaced":{}}]}`),
		)

		It("off: an error in a later item of a key names its place in the object", func() {
			live := jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i","readinessProbe":{"tcpSocket":{"port":80}}}]}}`)
			p := jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"j"},{"name":"c","readinessProbe":{"$patch":"bogus"}}]}}`)
			_, err := patch.Apply(live, p, patch.Options{Gates: features.Kubectl()})
			Expect(err).To(MatchError("patch spec.containers[name=c].readinessProbe: unknown $patch value bogus; expected replace or delete"))
		})

		It("off: a later item's empty map onto a map holding fields is refused at the depth limit where those fields lie beyond it", func() {
			live := jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"}}}]}}`)
			p := jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"i"},{"name":"c","resources":{}}]}}`)
			_, err := patch.Apply(live, p, patch.Options{MaxDepth: 4, Gates: features.Kubectl()})
			Expect(err).To(MatchError("patch spec.containers[name=c].resources.limits: nesting is deeper than the limit of 4 levels of maps and lists"))
			got, err := patch.Apply(live, p, patch.Options{MaxDepth: 5, Gates: features.Kubectl()})
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(equalValue(jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"image":"i","name":"c","resources":{"limits":{"cpu":"1"}}}]}}`)))
		})

		It("off: a later item of a key kept apart is copied as the server copies it: its own lists are not ordered by its $setElementOrder", func() {
			live := jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{}}`)
			p := jsonv.MustDecode(`{"spec":{"containers":[{"name":"c","image":"a"},{"name":"c","$setElementOrder/ports":[{"containerPort":53},{"containerPort":80},{"containerPort":53}],` +
				`"ports":[{"containerPort":53,"name":"a"},{"containerPort":80},{"containerPort":53,"protocol":"UDP"}]}]}}`)
			want, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(live.JSON(), p.JSON(), sp.Meta())
			Expect(err).NotTo(HaveOccurred())
			got, err := patch.Apply(live, p, patch.Options{Gates: features.Kubectl()})
			Expect(err).NotTo(HaveOccurred())
			second := func(v value.Value) value.Value {
				spec, _ := v.Get("spec")
				cs, _ := spec.Get("containers")
				Expect(cs.Len()).To(Equal(2))
				ports, _ := cs.Items()[1].Get("ports")
				return ports
			}
			// (strategicpatch also keeps the item's "$setElementOrder/ports"
			// key: the known oracle-leaks-directive class.)
			Expect(second(got)).To(equalValue(second(jsonv.MustDecode(string(want)))))
			Expect(second(got)).To(equalValue(jsonv.MustDecode(`[{"containerPort":53,"name":"a"},{"containerPort":80},{"containerPort":53,"protocol":"UDP"}]`)))
		})

		It("off: a later item of a key is held to MaxDepth where it stands, as the first is", func() {
			live := jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`)
			deep := `{"name":"c","securityContext":{"seLinuxOptions":{"user":"u"}}}`
			// spec.containers[name=c].securityContext.seLinuxOptions.user is 6 deep.
			for _, p := range []string{`[` + deep + `,{"name":"c"}]`, `[{"name":"c"},` + deep + `]`} {
				_, err := patch.Apply(live, jsonv.MustDecode(`{"spec":{"containers":`+p+`}}`), patch.Options{Gates: features.Kubectl(), MaxDepth: 5})
				Expect(err).To(MatchError("patch spec.containers[name=c].securityContext.seLinuxOptions.user: nesting is deeper than the limit of 5 levels of maps and lists"), p)
			}
			_, err := patch.Apply(live, jsonv.MustDecode(`{"spec":{"containers":[{"name":"c"},`+deep+`]}}`), patch.Options{Gates: features.Kubectl(), MaxDepth: 6})
			Expect(err).NotTo(HaveOccurred())
		})

		It("on: the patch is refused, naming both items", func() {
			_, err := patch.Apply(pod(`[{"containerPort":80}]`), ports(`[{"containerPort":53,"protocol":"UDP"},{"containerPort":53,"protocol":"TCP"}]`),
				patch.Options{Gates: features.Kubectl().With(features.UniqueMergeKeys, true)})
			Expect(err).To(MatchError("patch spec.containers[name=c].ports: items 0 and 1 have the same merge key containerPort; a patch names each item once"))
		})

	})

	// A "$setElementOrder" for a list the schema merges by no strategy (a container's args): strategicpatch orders the
	// list it takes (the patch's, else live's) by it, live-only items merged in by their live position; so does ply
	// with gate MultiFieldMergeKeys off, errors included. On, it is refused, naming the path.
	Describe("MultiFieldMergeKeys, $setElementOrder of a list merged by no strategy", func() {
		args := func(list string) value.Value {
			return jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"a"` + list + `}]}}`)
		}
		ordered := func(order, list string) value.Value {
			return jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","$setElementOrder/args":` + order + list + `}]}}`)
		}
		var sp *oracle.Oracle
		BeforeEach(func() {
			var err error
			sp, err = oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
			Expect(err).NotTo(HaveOccurred())
		})

		// judge applies p to live under each of gates, kubectl's order: strategicpatch's result, or an error where it fails.
		judge := func(live, p value.Value, failsToo bool, gates ...features.Gates) {
			opts := make([]patch.Options, len(gates))
			for i, g := range gates {
				opts[i] = patch.Options{Gates: g, Ordering: patch.OrderKubectl}
			}
			expectStrategicPatch(live, p, sp, failsToo, opts...)
		}

		DescribeTable("off: strategicpatch's result, or an error where it fails",
			func(live, p value.Value, failsToo bool) {
				judge(live, p, failsToo, features.Kubectl(), features.Gates{}.With(features.MultiFieldMergeKeys, false))
			},
			Entry("the patch's list replacing live's, in the order's order",
				args(`,"args":["a","b","c"]`), ordered(`["b","a"]`, `,"args":["b","a"]`), false),
			Entry("live's list reordered: the named items by the order, the others by their live position",
				args(`,"args":["a","b","c"]`), ordered(`["c","a"]`, ``), false),
			Entry("live's list naming a value twice, reordered: both kept, an entry naming a value live lacks",
				args(`,"args":["a","b","a","c"]`), ordered(`["c","x","b"]`, ``), false),
			Entry("the patch's list where live lacks the field",
				args(``), ordered(`["c","a","x"]`, `,"args":["c","a"]`), false),
			Entry("the patch's empty list",
				args(`,"args":["a","b","c"]`), ordered(`["c","a"]`, `,"args":[]`), false),
			Entry("an empty order of live's list",
				args(`,"args":["a","b","c"]`), ordered(`[]`, ``), false),
			Entry("the patch's list contradicting the order: both fail",
				args(`,"args":["a","b","c"]`), ordered(`["b","a"]`, `,"args":["a","b"]`), true),
			Entry("the patch's list holding an item the order lacks: both fail",
				args(`,"args":["a","b","c"]`), ordered(`["a"]`, `,"args":["a","b"]`), true),
			Entry("the patch's numbers onto live's strings: both fail",
				args(`,"args":["a","b","c"]`), ordered(`["c"]`, `,"args":[1]`), true),
			Entry("live's empty list: both fail",
				args(`,"args":[]`), ordered(`["c","a"]`, ``), true),
			Entry("an empty order beside the patch's list: its items by their place in live's, as strategicpatch's comparison sorts them",
				args(`,"args":["a","b","c"]`), ordered(`[]`, `,"args":["b","x","a"]`), false),
			Entry("an empty order beside the patch's list naming a value live lacks first",
				args(`,"args":["a","b","c"]`), ordered(`[]`, `,"args":["x","b","a"]`), false),
			Entry("an empty order beside the patch's list naming a value twice",
				args(`,"args":["a","b","c"]`), ordered(`[]`, `,"args":["b","b","a"]`), false),
			Entry("an empty order beside the patch's list where live lacks the field: every comparison true",
				args(``), ordered(`[]`, `,"args":["x","b","a","y"]`), false),
			Entry("an empty order beside the patch's list and $deleteFromPrimitiveList: sorted, then the values deleted",
				args(`,"args":["a","b","c"]`), ordered(`[]`, `,"args":["b","x","a"],"$deleteFromPrimitiveList/args":["a"]`), false),
			Entry("an empty order beside the patch's list and $deleteFromPrimitiveList of numbers: both fail",
				args(`,"args":["a","b","c"]`), ordered(`[]`, `,"args":["b","x","a"],"$deleteFromPrimitiveList/args":[1]`), true),
			Entry("the patch's empty list ordered beside an empty $deleteFromPrimitiveList",
				args(`,"args":["a","b","c"]`), ordered(`["c"]`, `,"args":[],"$deleteFromPrimitiveList/args":[]`), false),
			Entry("an empty order beside the patch's numbers onto live's strings: both fail",
				args(`,"args":["a"]`), ordered(`[]`, `,"args":[1,2]`), true),
			Entry("an order beside $deleteFromPrimitiveList: live's list reordered, then the values deleted",
				args(`,"args":["a","b","c"]`), ordered(`["c","a"]`, `,"$deleteFromPrimitiveList/args":["a"]`), false),
			Entry("an order beside $deleteFromPrimitiveList and the patch's list: the patch's list less the values deleted",
				args(`,"args":["a","b","c"]`), ordered(`["c","x"]`, `,"$deleteFromPrimitiveList/args":["x"],"args":["c","x"]`), false),
			Entry("an order beside $deleteFromPrimitiveList of live's list naming a value twice",
				args(`,"args":["a","b","a","c"]`), ordered(`["c","a"]`, `,"$deleteFromPrimitiveList/args":["b"]`), false),
			Entry("an order beside $deleteFromPrimitiveList of numbers from strings: both fail",
				args(`,"args":["a","b","c"]`), ordered(`["c","a"]`, `,"$deleteFromPrimitiveList/args":[1]`), true),
			Entry("an order naming a null beside the patch's list",
				args(`,"args":["a"]`), ordered(`[null,"a"]`, `,"args":["a"]`), false),
			Entry("the patch's list holding a null: both fail",
				args(`,"args":["a","b","c"]`), ordered(`[null,"a"]`, `,"args":[null,"a"]`), true),
			Entry("live's list holding a null: both fail",
				args(`,"args":["a",null,"c"]`), ordered(`["c","a"]`, ``), true),
			Entry("live's list of objects ordered: both fail (strategicpatch panics hashing a map)",
				args(`,"args":[{"k":1}]`), ordered(`["a"]`, ``), true),
			Entry("a list of objects (tolerations) ordered by objects: both fail",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"tolerations":[{"key":"a"},{"key":"b"}]}}`),
				jsonv.MustDecode(`{"spec":{"$setElementOrder/tolerations":[{"key":"b"},{"key":"a"}]}}`), true),
			Entry("a list of objects given empty beside an empty order: both fail",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"tolerations":[{"key":"a"}]}}`),
				jsonv.MustDecode(`{"spec":{"$setElementOrder/tolerations":[],"tolerations":[]}}`), true),
		)

		// A patch list naming a key twice (gate UniqueMergeKeys off too): the later item's list is the one strategicpatch
		// orders, whether the item is merged into its key's outcome or taken whole.
		DescribeTable("off, every gate, a later item of a repeated key: strategicpatch's result, or an error where it fails",
			func(live, p value.Value, failsToo bool) { judge(live, p, failsToo, features.Kubectl()) },
			Entry("a later item of a key live lacks, ordering the list it sets in its own order",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"b"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/args":["c","x","a"],"args":["c","a"]}]}}`), false),
			Entry("a later item ordering the list it sets, replacing the first item's",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"b"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","args":["x","y","a"]},{"name":"a","$setElementOrder/args":["c","a"],"args":["c","a"]}]}}`), false),
			Entry("a later item ordering the empty list it sets, onto live's list",
				args(`,"args":["a","b","c"]`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/args":["x","c"],"args":[]}]}}`), false),
			Entry("a later item ordering live's list beside $deleteFromPrimitiveList",
				args(`,"args":["a","b","c"]`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/args":["c","a"],"$deleteFromPrimitiveList/args":["b"]}]}}`), false),
			Entry("a later item's list naming a value twice, sorted by its order as it merges into its key's outcome",
				args(`,"args":["a","b","c"]`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/args":["c","a","c"],"args":["c","a","c"]}]}}`), false),
			Entry("a later item's list contradicting its order, onto the first item's: both fail",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"b"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","args":["x"]},{"name":"a","$setElementOrder/args":["a","x","c"],"args":["c","a"]}]}}`), true),
			Entry("a later item's list sorted by its order, live lacking the key",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"b"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/args":["c","a","c"],"args":["c","a","c"]}]}}`), false),
			Entry("a later item's list beside an empty order, sorted by the first item's list",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"b"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","args":["a","x","c"]},{"name":"a","$setElementOrder/args":[],"args":["c","a"]}]}}`), false),
			Entry("a later item's list of numbers ordered onto the first item's strings: both fail",
				args(`,"args":["a","b","c"]`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","args":[1]},{"name":"a","$setElementOrder/args":["x","c"],"args":["c"]}]}}`), true),
		)

		// live is a Pod of containers; later a patch of container a's first item and a later one, each given its fields.
		live := func(containers string) value.Value {
			return jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[` + containers + `]}}`)
		}
		later := func(first, item string) value.Value {
			return jsonv.MustDecode(`{"spec":{"containers":[{"name":"a"` + first + `},{"name":"a"` + item + `}]}}`)
		}

		// A later item whose list's "$setElementOrder" only its key's outcome decides (beside items empty, or beside
		// "$deleteFromPrimitiveList"; the list left out), merged into that outcome, lacking the list or holding it, its
		// other fields scalars, nulls, maps and lists merged by no strategy: decided in Phase 2 from the patch item and
		// the outcome, as strategicpatch's mergeMap applies it, the front-end applying no repeat again (probe.OnRepeat).
		DescribeTable("off, every gate, a later item of a repeated key onto its key's outcome lacking the list it orders",
			func(live, p value.Value, failsToo bool) {
				var again atomic.Int64
				countRepeats(nil, &again)
				judge(live, p, failsToo, features.Kubectl())
				Expect(again.Load()).To(BeZero(), "repeats the front-end applied again")
			},
			Entry("a later item's list beside an empty order, its key's outcome lacking the list: every comparison true",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"b"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/args":[],"args":["c","a"]}]}}`), false),
			Entry("a later item's longer list beside an empty order, its key's outcome lacking the list",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"b"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/args":[],"args":["c","a","x","b"]}]}}`), false),
			Entry("a later item's list beside an empty order and $deleteFromPrimitiveList, its key's outcome lacking the list",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"b"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/args":[],"args":["c","a"],"$deleteFromPrimitiveList/args":["a"]}]}}`), false),
			Entry("a later item's list ordered beside $deleteFromPrimitiveList, its key's outcome lacking the list",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"b"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/args":["c","a"],"$deleteFromPrimitiveList/args":["x"],"args":["c","a"]}]}}`), false),
			Entry("a later item ordering, and deleting from by $deleteFromPrimitiveList, a list it leaves out that its key's outcome lacks",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"b"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/args":["c","a"],"$deleteFromPrimitiveList/args":["x"]}]}}`), false),
			Entry("a later item's numbers naming a value twice beside an empty order and $deleteFromPrimitiveList, a scalar set over the first item's",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"b"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","tty":false,"$setElementOrder/command":[],"command":["3","1","3","2"],"$deleteFromPrimitiveList/command":["2"]}]}}`), false),
			Entry("a later item's list naming a value twice ordered beside an empty $deleteFromPrimitiveList, its key's outcome lacking the list",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"b"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","image":"i"},{"name":"a","$setElementOrder/args":["c","a","c"],"args":["c","a","c"],"$deleteFromPrimitiveList/args":[]}]}}`), false),
			Entry("a later item's empty list beside an empty order, its key's outcome lacking the list: both fail",
				jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"b"}]}}`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/args":[],"args":[]}]}}`), true),
			// (Its other fields maps, nulls and lists, merged into the outcome's as strategicpatch's mergeMap merges them.)
			Entry("a map of scalars the outcome lacks",
				live(`{"name":"b"}`), later(`,"tty":true`, `,"$setElementOrder/args":[],"args":["c","a"],"securityContext":{"privileged":true,"runAsUser":5}`), false),
			Entry("a map of scalars merged into the first item's, a null deleting one of its fields",
				live(`{"name":"b"}`), later(`,"securityContext":{"runAsUser":1,"runAsGroup":2,"runAsNonRoot":true}`, `,"$setElementOrder/args":[],"args":["c","a"],"securityContext":{"runAsUser":5,"runAsGroup":null,"privileged":true}`), false),
			Entry("a map holding a null where the outcome lacks the map: the null dropped",
				live(`{"name":"b"}`), later(`,"tty":true`, `,"$setElementOrder/args":[],"args":["c","a"],"securityContext":{"runAsGroup":null,"privileged":true}`), false),
			Entry("a map holding nulls alone where the outcome lacks the map: an empty map",
				live(`{"name":"b"}`), later(`,"tty":true`, `,"$setElementOrder/args":[],"args":["c","a"],"securityContext":{"runAsGroup":null}`), false),
			Entry("a map of maps merged into live's item of the key and the first item's",
				live(`{"name":"a","resources":{"limits":{"memory":"1Gi"},"requests":{"cpu":"2"}}}`), later(`,"resources":{"requests":{"memory":"1Gi"}}`, `,"$setElementOrder/args":[],"args":["c","a"],"resources":{"limits":{"cpu":"1","memory":null},"requests":{"cpu":"3"}}`), false),
			Entry("a map of quantities beside $deleteFromPrimitiveList of the list it orders, merged into the first item's",
				live(`{"name":"b"}`), later(`,"resources":{"limits":{"cpu":"1"}}`, `,"$setElementOrder/args":["c","a"],"$deleteFromPrimitiveList/args":["a"],"args":["c","a"],"resources":{"limits":{"memory":"2Gi"}}`), false),
			Entry("a null deleting a scalar field of the first item's",
				live(`{"name":"b"}`), later(`,"image":"i","tty":true`, `,"image":null,"$setElementOrder/args":[],"args":["c","a"]`), false),
			Entry("a null deleting a list of live's item of the key",
				live(`{"name":"a","command":["x"],"ports":[{"containerPort":80}]}`), later(`,"tty":true`, `,"command":null,"ports":null,"$setElementOrder/args":[],"args":["c","a"]`), false),
			Entry("a null of a field the outcome lacks",
				live(`{"name":"b"}`), later(`,"tty":true`, `,"stdin":null,"$setElementOrder/args":[],"args":["c","a"]`), false),
			Entry("a list of scalars merged by no strategy replacing the first item's",
				live(`{"name":"b"}`), later(`,"command":["x","y"]`, `,"command":["z"],"$setElementOrder/args":[],"args":["c","a"]`), false),
			Entry("a map holding a list of scalars merged by no strategy",
				live(`{"name":"b"}`), later(`,"securityContext":{"capabilities":{"add":["A"]}}`, `,"securityContext":{"capabilities":{"drop":["D"]}},"$setElementOrder/args":[],"args":["c","a"]`), false),
			// (Onto an outcome holding the list it orders.)
			Entry("a list beside an empty order, sorted by the first item's list",
				live(`{"name":"b"}`), later(`,"args":["a","x","c"]`, `,"$setElementOrder/args":[],"args":["c","a","y"]`), false),
			Entry("a list beside an empty order and $deleteFromPrimitiveList, sorted by live's list, then the values deleted",
				live(`{"name":"a","args":["a","b","c"]}`), later(`,"tty":true`, `,"$setElementOrder/args":[],"args":["b","c","a"],"$deleteFromPrimitiveList/args":["c"]`), false),
			Entry("a list ordered beside $deleteFromPrimitiveList, replacing the first item's",
				live(`{"name":"b"}`), later(`,"args":["a","b"]`, `,"$setElementOrder/args":["c","a","b"],"args":["c","a","b"],"$deleteFromPrimitiveList/args":["b"]`), false),
			Entry("another list left out, ordered beside $deleteFromPrimitiveList: the first item's list reordered, then the values deleted",
				live(`{"name":"b"}`), later(`,"command":["a","b","c"]`, `,"$setElementOrder/args":[],"args":["c","a"],"$setElementOrder/command":["c","a"],"$deleteFromPrimitiveList/command":["b"]`), false),
			Entry("another list left out, ordered beside $deleteFromPrimitiveList, that the outcome lacks: absent",
				live(`{"name":"b"}`), later(`,"tty":true`, `,"$setElementOrder/args":[],"args":["c","a"],"$setElementOrder/command":["c","a"],"$deleteFromPrimitiveList/command":["b"]`), false),
			// (Collated without error, its tree not merged onto the outcome's in Phase 2: the same reading.)
			Entry("a list left out, ordered beside $deleteFromPrimitiveList, beside another it orders as it follows: live's list reordered, then the values deleted",
				live(`{"name":"a","command":["x","x","a"],"stdin":true}`), later(`,"tty":false`, `,"$setElementOrder/args":["c","a","x"],"args":["c","a"],"$setElementOrder/command":["c","a"],"$deleteFromPrimitiveList/command":["b"],"securityContext":{"runAsUser":1}`), false),
			Entry("a list left out, ordered beside $deleteFromPrimitiveList, beside a map: the first item's list reordered, then the values deleted",
				live(`{"name":"b"}`), later(`,"command":["a","b","c"]`, `,"$setElementOrder/command":["c","a"],"$deleteFromPrimitiveList/command":["b"],"resources":{"limits":{"cpu":"1"}}`), false),
			// (Where strategicpatch fails on a list it orders, the error the collation with the outcome gives there.)
			Entry("numbers beside an empty order onto the first item's strings: both fail",
				live(`{"name":"b"}`), later(`,"args":["a","b"]`, `,"$setElementOrder/args":[],"args":[1,2],"securityContext":{"runAsUser":1}`), true),
			Entry("a list left out and ordered onto the first item's empty list: both fail",
				live(`{"name":"b"}`), later(`,"command":[]`, `,"$setElementOrder/args":[],"args":["c"],"$setElementOrder/command":["c","a"]`), true),
			Entry("a list contradicting its order beside one its outcome decides: both fail",
				live(`{"name":"b"}`), later(`,"tty":true`, `,"$setElementOrder/args":[],"args":["c","a"],"$setElementOrder/command":["a","c"],"command":["c","a"]`), true),
			Entry("an empty list beside an empty order onto the first item's list: an empty list",
				live(`{"name":"b"}`), later(`,"args":["a","b"]`, `,"$setElementOrder/args":[],"args":[]`), false),
			Entry("a list beside an empty order and $deleteFromPrimitiveList deleting every value",
				live(`{"name":"b"}`), later(`,"args":["a","b"]`, `,"$setElementOrder/args":[],"args":["b"],"$deleteFromPrimitiveList/args":["b"]`), false),
		)

		// Those failing fail with the error applying the items one after another gives (each a patch from the root).
		It("off, every gate: a later item failing on a list it orders, onto its key's outcome, fails as its items applied in turn", func() {
			opts := patch.Options{Gates: features.Kubectl()}
			for _, c := range []struct{ first, item string }{
				{`,"args":["a","b"]`, `,"$setElementOrder/args":[],"args":[1,2],"securityContext":{"runAsUser":1}`},
				{`,"command":[]`, `,"$setElementOrder/args":[],"args":["c"],"$setElementOrder/command":["c","a"]`},
				{`,"tty":true`, `,"$setElementOrder/args":[],"args":["c","a"],"$setElementOrder/command":["a","c"],"command":["c","a"]`},
			} {
				_, err := patch.Apply(live(`{"name":"b"}`), later(c.first, c.item), opts)
				step, stepErr := patch.Apply(live(`{"name":"b"}`), jsonv.MustDecode(`{"spec":{"containers":[{"name":"a"`+c.first+`}]}}`), opts)
				Expect(stepErr).NotTo(HaveOccurred())
				_, stepErr = patch.Apply(step, jsonv.MustDecode(`{"spec":{"containers":[{"name":"a"`+c.item+`}]}}`), opts)
				Expect(stepErr).To(HaveOccurred(), c.item)
				Expect(err).To(MatchError(stepErr.Error()), c.item)
			}
		})

		// With gate SeedOrdering on, a list the item leaves out and orders is ordered by ply's seed order, as its items
		// applied in turn order it: Phase 2 reorders it as strategicpatch does only under kubectl's order.
		It("off, SeedOrdering on: a later item reordering a list it leaves out gives what its items applied in turn give", func() {
			opts := patch.Options{Gates: features.Gates{}.With(features.UniqueMergeKeys, false).With(features.MultiFieldMergeKeys, false)}
			first, item := `,"command":["c","b","x"]`, `,"$setElementOrder/args":[],"args":["b","c"],"$setElementOrder/command":["c","a"]`
			got, err := patch.Apply(live(`{"name":"a","args":["a","b","c"]}`), later(first, item), opts)
			Expect(err).NotTo(HaveOccurred())
			step, err := patch.Apply(live(`{"name":"a","args":["a","b","c"]}`), jsonv.MustDecode(`{"spec":{"containers":[{"name":"a"`+first+`}]}}`), opts)
			Expect(err).NotTo(HaveOccurred())
			want, err := patch.Apply(step, jsonv.MustDecode(`{"spec":{"containers":[{"name":"a"`+item+`}]}}`), opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(equalValue(want))
		})

		It("off, every gate: the patch's list naming a value twice keeps its copies together, at the value's first place in the order", func() {
			live, p := args(`,"args":["a","b","c"]`), ordered(`["c","a","c"]`, `,"args":["c","a","c"]`)
			want, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(live.JSON(), p.JSON(), sp.Meta())
			Expect(err).NotTo(HaveOccurred())
			got, err := patch.Apply(live, p, patch.Options{Gates: features.Kubectl()})
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(equalValue(jsonv.MustDecode(string(want))))
			Expect(got).To(equalValue(args(`,"args":["c","c","a"]`)))
			// With gate UniqueMergeKeys on, where a set would hold the value once, refused.
			_, err = patch.Apply(live, p, patch.Options{Gates: features.Kubectl().With(features.UniqueMergeKeys, true)})
			Expect(err).To(MatchError("patch spec.containers[name=a].args: $setElementOrder/args orders lists merged by key or value; the schema does not merge this list"))
		})

		// A repeat kept apart (a "$patch: replace" list's) that orders an empty list: strategicpatch keeps the item as
		// it stands, directive and all, which Phase 1, collating the item alone, refuses, naming the path. (Merged into
		// its key's outcome, a list beside an empty order is sorted by the outcome's list: the entries above.)
		It("off, every gate: a later item of a repeated key kept apart that orders an empty list is refused", func() {
			for _, c := range []struct{ live, patch string }{
				{`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"hostAliases":[{"ip":"c","hostnames":["x"]}]}}`,
					`{"spec":{"hostAliases":[{"$patch":"replace"},{"ip":"c","hostnames":["c"]},{"ip":"c","$setElementOrder/hostnames":["c"],"hostnames":[]}]}}`},
			} {
				live, p := jsonv.MustDecode(c.live), jsonv.MustDecode(c.patch)
				_, werr := strategicMergePatchRecovered(live.JSON(), p.JSON(), sp.Meta())
				Expect(werr).NotTo(HaveOccurred())
				_, err := patch.Apply(live, p, patch.Options{Gates: features.Kubectl()})
				Expect(err).To(MatchError(ContainSubstring("orders lists merged by key or value; the schema does not merge this list")), c.patch)
			}
		})

		It("on: refused, naming the path", func() {
			on := patch.Options{Gates: features.Kubectl().With(features.MultiFieldMergeKeys, true)}
			for _, p := range []value.Value{
				ordered(`["c","a"]`, ``),
				ordered(`[]`, `,"args":["b","x","a"]`),
				ordered(`["c","a"]`, `,"$deleteFromPrimitiveList/args":["a"]`),
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/args":["c","a"],"args":["c","a"]}]}}`),
				// (a later item of the key ordering alone the list its key's outcome holds)
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","tty":true},{"name":"a","$setElementOrder/args":["c","a"]}]}}`),
				// (a later item ordering, beside an empty order, a list its key's outcome holds: the first item's)
				jsonv.MustDecode(`{"spec":{"containers":[{"name":"a","args":["a","c"]},{"name":"a","$setElementOrder/args":[],"args":["c","a"]}]}}`),
			} {
				_, err := patch.Apply(args(`,"args":["a","b","c"]`), p, on)
				Expect(err).To(MatchError("patch spec.containers[name=a].args: $setElementOrder/args orders lists merged by key or value; the schema does not merge this list"), "%s", p.JSON())
			}
		})
	})

	Describe("MultiFieldMergeKeys, a TCP port patched into a Pod whose port 53 is UDP", func() {
		live := mustParse(`
apiVersion: v1
kind: Pod
metadata: {name: dns}
spec:
  containers:
  - name: dns
    ports:
    - {containerPort: 53, protocol: UDP, name: dns-udp}`)
		p := mustParse(`
spec:
  containers:
  - name: dns
    ports:
    - {containerPort: 53, protocol: TCP, name: dns-tcp}`)
		ports := func(v value.Value) value.Value {
			spec, _ := v.Get("spec")
			cs, _ := spec.Get("containers")
			ps, _ := cs.Items()[0].Get("ports")
			return ps
		}

		It("on: ports keyed by containerPort and protocol, the TCP port is added", func() {
			out, err := patch.Apply(live, p, patch.Options{})
			Expect(err).NotTo(HaveOccurred())
			Expect(ports(out)).To(equalValue(mustParse(`
- {containerPort: 53, protocol: UDP, name: dns-udp}
- {containerPort: 53, protocol: TCP, name: dns-tcp}`)))
		})

		It("off: keyed by containerPort alone, the UDP port becomes TCP, as strategicpatch does with the v3 default schema", func() {
			for _, gates := range []features.Gates{features.Gates{}.With(features.MultiFieldMergeKeys, false), features.Kubectl()} {
				out, err := patch.Apply(live, p, patch.Options{Gates: gates})
				Expect(err).NotTo(HaveOccurred())
				Expect(ports(out)).To(equalValue(mustParse(`
- {containerPort: 53, protocol: TCP, name: dns-tcp}`)))

				o, err := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
				Expect(err).NotTo(HaveOccurred())
				sp, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(live.JSON(), p.JSON(), o.Meta())
				Expect(err).NotTo(HaveOccurred())
				Expect(out).To(equalValue(jsonv.MustDecode(string(sp))))
			}
		})
	})
})
