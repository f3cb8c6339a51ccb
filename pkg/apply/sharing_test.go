package apply_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/value"
)

// A merged map or list whose members all come out as live holds them is
// live's own value, shared: these cases must still give local's value
// where it is not exactly live's.
var _ = Describe("the merged object shares live's unchanged maps and lists", func() {
	opts := apply.Options{Overwrite: true}

	DescribeTable("without changing what the merge writes",
		func(local, live, want string, changes []string) {
			res, err := apply.Merge(mustParse(local), mustParse(local), mustParse(live), opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Object).To(equalValue(mustParse(want)))
			Expect(changeLines(res.Changes)).To(ConsistOf(changes))
		},
		Entry("an empty map local sets over live's null is written",
			`{apiVersion: v1, kind: ConfigMap, metadata: {name: a, labels: {}}}`,
			`{apiVersion: v1, kind: ConfigMap, metadata: {name: a, labels: null}}`,
			`{apiVersion: v1, kind: ConfigMap, metadata: {name: a, labels: {}}}`,
			[]string{"add metadata.labels (local)"}),
		Entry("a map whose every field local nulls, over live's null, is written empty",
			`{apiVersion: v1, kind: ConfigMap, metadata: {name: a, labels: {x: null}}}`,
			`{apiVersion: v1, kind: ConfigMap, metadata: {name: a, labels: null}}`,
			`{apiVersion: v1, kind: ConfigMap, metadata: {name: a, labels: {}}}`,
			[]string{"add metadata.labels (local)"}),
		// Equal numbers are no change, but the object carries local's.
		Entry("local's -0 is written over live's 0",
			`{apiVersion: x.io/v1, kind: Foo, metadata: {name: a}, spec: {w: -0.0}}`,
			`{apiVersion: x.io/v1, kind: Foo, metadata: {name: a}, spec: {w: 0.0}}`,
			`{apiVersion: x.io/v1, kind: Foo, metadata: {name: a}, spec: {w: -0.0}}`,
			nil),
		Entry("local's integer is written over live's equal float",
			`{apiVersion: x.io/v1, kind: Foo, metadata: {name: a}, spec: {w: [1]}}`,
			`{apiVersion: x.io/v1, kind: Foo, metadata: {name: a}, spec: {w: [1.0]}}`,
			`{apiVersion: x.io/v1, kind: Foo, metadata: {name: a}, spec: {w: [1]}}`,
			nil),
		Entry("a whole value local sets with nulls is written without them, over live's equal one",
			`{apiVersion: x.io/v1, kind: Foo, metadata: {name: a}, spec: {w: [{a: null, b: 1}]}}`,
			`{apiVersion: x.io/v1, kind: Foo, metadata: {name: a}, spec: {w: [{a: null, b: 1}]}}`,
			`{apiVersion: x.io/v1, kind: Foo, metadata: {name: a}, spec: {w: [{b: 1}]}}`,
			[]string{"replace spec.w (local)"}),
		Entry("maps and lists equal to live's stay as they are, with no change",
			`{apiVersion: apps/v1, kind: Deployment, metadata: {name: a, labels: {app: a}}, spec: {template: {spec: {containers: [{name: c, image: i, env: [{name: A, value: "1"}]}]}}}}`,
			`{apiVersion: apps/v1, kind: Deployment, metadata: {name: a, labels: {app: a}}, spec: {template: {spec: {containers: [{name: c, image: i, env: [{name: A, value: "1"}]}]}}}}`,
			`{apiVersion: apps/v1, kind: Deployment, metadata: {name: a, labels: {app: a}}, spec: {template: {spec: {containers: [{name: c, image: i, env: [{name: A, value: "1"}]}]}}}}`,
			nil),
	)

	It("shares a whole value (an atomic map, a list item all three agree on) that prints as live's", func() {
		local := mustParse(`{apiVersion: apps/v1, kind: Deployment, metadata: {name: a}, spec: {selector: {matchLabels: {app: a}}, template: {spec: {containers: [{name: c, image: i2, env: [{name: A, value: "1"}]}]}}}}`)
		live := mustParse(`{apiVersion: apps/v1, kind: Deployment, metadata: {name: a}, spec: {selector: {matchLabels: {app: a}}, template: {spec: {containers: [{name: c, image: i1, env: [{name: A, value: "1"}]}]}}}}`)
		res, err := apply.Merge(local, local, live, opts)
		Expect(err).NotTo(HaveOccurred())
		get := func(v value.Value, path ...string) value.Value {
			for _, p := range path {
				if p == "0" {
					v = v.Items()[0]
					continue
				}
				v, _ = v.Get(p)
			}
			return v
		}
		Expect(get(res.Object, "spec", "selector") == get(live, "spec", "selector")).To(BeTrue(), "selector shared")
		env := []string{"spec", "template", "spec", "containers", "0", "env"}
		Expect(get(res.Object, env...) == get(live, env...)).To(BeTrue(), "env shared")
		Expect(get(res.Object, "spec", "template") == get(live, "spec", "template")).To(BeFalse(), "the image changed")
		Expect(changeLines(res.Changes)).To(ConsistOf("replace spec.template.spec.containers[name=c].image (local)"))
	})
})
