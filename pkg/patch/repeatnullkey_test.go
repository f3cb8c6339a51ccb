package patch_test

import (
	"strings"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// Later items of a repeated key holding a keyed list whose merge key field may be null (gate MultiFieldMergeKeys off),
// merged onto their key's outcome holding that list (with items or empty): an item naming a null key a second time
// would merge into the first, its null deleting the field, leaving an item without its merge key; an item merging
// onto an outcome's list holding an item without the key (an earlier item's null key, dropped where the outcome
// lacked the list) finds that item's key missing, the later item's list with items or empty. Applied one after another, the items fail there (the collation's
// errors), as strategicpatch does (it finds an item without the merge key); Phase 2 decides them (visitors' keysOnto),
// the front-end applying no repeat again.
var _ = DescribeTable("Apply of later items of a repeated key meeting a null merge key in a list their outcome holds",
	func(liveItem string, later []string, wantErr string) {
		var again atomic.Int64
		countRepeats(nil, &again)
		opts := patch.Options{Gates: features.Kubectl(), Ordering: patch.OrderKubectl}
		wrap := func(items string) string { return `{"spec":{"containers":[` + items + `]}}` }
		live := jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[` + liveItem + `]}}`)
		items := []string{`{"name":"a","image":"i"}`}
		for _, l := range later {
			items = append(items, `{"name":"a"`+l+`}`)
		}
		p := jsonv.MustDecode(wrap(strings.Join(items, ",")))
		got, err := patch.Apply(live, p, opts)
		Expect(again.Load()).To(BeZero(), "repeats the front-end applied again")
		want, stepErr := live, error(nil)
		for _, it := range items {
			if want, stepErr = patch.Apply(want, jsonv.MustDecode(wrap(it)), opts); stepErr != nil {
				break
			}
		}
		expectInTurn(got, err, want, stepErr, wantErr)

		models, oerr := oracle.Default()
		Expect(oerr).NotTo(HaveOccurred())
		sp, oerr := models.Oracle("io.k8s.api.core.v1.Pod")
		Expect(oerr).NotTo(HaveOccurred())
		_, spErr := strategicMergePatchRecovered(live.JSON(), p.JSON(), sp.Meta())
		Expect(spErr).To(MatchError(ContainSubstring("does not contain declared merge key: mountPath")))
	},
	Entry("two null-keyed items onto the outcome's keyed items",
		`{"name":"a","volumeMounts":[{"mountPath":"m","name":"x"}]}`,
		[]string{`,"volumeMounts":[{"mountPath":null,"readOnly":true},{"mountPath":null,"name":"y"}]`},
		`spec.containers[name=a].volumeMounts: item 1: its merge key field "mountPath" is null, naming the patch's item 0 too`),
	Entry("two null-keyed items onto the outcome's empty list",
		`{"name":"a","volumeMounts":[]}`,
		[]string{`,"volumeMounts":[{"mountPath":null,"readOnly":true},{"mountPath":null,"name":"y"}]`},
		`spec.containers[name=a].volumeMounts: item 1: its merge key field "mountPath" is null, naming the patch's item 0 too`),
	Entry("two null-keyed items after a key named twice, onto the outcome's keyed items",
		`{"name":"a","volumeMounts":[{"mountPath":"m","name":"x"}]}`,
		[]string{`,"volumeMounts":[{"mountPath":"m","readOnly":true},{"mountPath":"m","name":"z"},{"mountPath":null,"readOnly":true},{"mountPath":null,"name":"y"}]`},
		`spec.containers[name=a].volumeMounts: item 3: its merge key field "mountPath" is null, naming the patch's item 2 too`),
	Entry("two null-keyed items after a map merging onto the outcome's",
		`{"name":"a","livenessProbe":{"periodSeconds":1},"volumeMounts":[{"mountPath":"m","name":"x"}]}`,
		[]string{`,"livenessProbe":{"timeoutSeconds":2},"volumeMounts":[{"mountPath":null,"readOnly":true},{"mountPath":null,"name":"y"}]`},
		`spec.containers[name=a].volumeMounts: item 1: its merge key field "mountPath" is null, naming the patch's item 0 too`),
	Entry("a keyed item onto the outcome's item an earlier item's null key left without it",
		`{"name":"a"}`,
		[]string{`,"volumeMounts":[{"mountPath":null,"readOnly":true}]`, `,"volumeMounts":[{"mountPath":"m","name":"x"}]`},
		`live spec.containers[name=a].volumeMounts: item 0 has no merge key field "mountPath"`),
	Entry("a keyed item after a map, onto the outcome's item an earlier item's null key left without it",
		`{"name":"a","livenessProbe":{"periodSeconds":1}}`,
		[]string{`,"volumeMounts":[{"mountPath":null,"readOnly":true}]`, `,"livenessProbe":{"timeoutSeconds":2},"volumeMounts":[{"mountPath":"m","name":"x"}]`},
		`live spec.containers[name=a].volumeMounts: item 0 has no merge key field "mountPath"`),
	Entry("an empty list onto the outcome's item an earlier item's null key left without it",
		`{"name":"a"}`,
		[]string{`,"volumeMounts":[{"mountPath":null,"readOnly":false}]`, `,"volumeMounts":[]`},
		`live spec.containers[name=a].volumeMounts: item 0 has no merge key field "mountPath"`),
	Entry("an empty list after a map, onto the outcome's item an earlier item's null key left without it",
		`{"name":"a","livenessProbe":{"periodSeconds":1}}`,
		[]string{`,"volumeMounts":[{"mountPath":null,"readOnly":true}]`, `,"livenessProbe":{"timeoutSeconds":2},"volumeMounts":[]`},
		`live spec.containers[name=a].volumeMounts: item 0 has no merge key field "mountPath"`),
)
