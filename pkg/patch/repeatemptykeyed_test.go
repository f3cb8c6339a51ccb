package patch_test

import (
	"path/filepath"
	"strings"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// A later item of a repeated key holding an empty list merged by key (collated alone, an empty set), merged onto its
// key's outcome whose list there holds maps naming a key more than once, identical maps too: strategicpatch merges
// the list by key (its class is live's, maps), every item kept as the outcome holds it, in the outcome's order; it
// deduplicates only a list of scalars. Phase 2 merges it so (internal/order ranks such a list by the outcome's
// places, not by a scalar set's deduplication), the front-end applying no repeat again: strategicpatch's result, and
// the items' applied one after another.
var _ = Describe("Apply of a later item of a repeated key holding an empty list merged by key", func() {
	// emptyKeyedCase is a schema a case is read with: strategicpatch's oracle, ply's options, the patch of a list's
	// items (wrap) and the fields live's object holds beside it (head).
	type emptyKeyedCase struct {
		sp   *oracle.Oracle
		opts patch.Options
		wrap func(items string) string
		head string
	}
	kubectl := patch.Options{Gates: features.Kubectl(), Ordering: patch.OrderKubectl}
	builtIn := func(name, head string, wrap func(items string) string) emptyKeyedCase {
		sp, err := oracle.DefaultV3For(name)
		Expect(err).NotTo(HaveOccurred())
		return emptyKeyedCase{sp, kubectl, wrap, head}
	}
	pod := func() emptyKeyedCase {
		return builtIn("io.k8s.api.core.v1.Pod", `"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},`,
			func(items string) string { return `{"spec":{"containers":[` + items + `]}}` })
	}
	deployment := func() emptyKeyedCase {
		return builtIn("io.k8s.api.apps.v1.Deployment", `"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},`,
			func(items string) string { return `{"spec":{"template":{"spec":{"containers":[` + items + `]}}}}` })
	}
	nestedAt := func(wrap func(items string) string) emptyKeyedCase {
		data := mustRead(filepath.Join("testdata", "nested.json"))
		models, err := oracle.Load(data)
		Expect(err).NotTo(HaveOccurred())
		sp, err := models.Oracle("dev.ply.nested.v1.Top")
		Expect(err).NotTo(HaveOccurred())
		schema, err := openapi.LoadV2Named("nested.json", data)
		Expect(err).NotTo(HaveOccurred())
		opts := kubectl
		opts.Schema, opts.TypeName = schema, "dev.ply.nested.v1.Top"
		return emptyKeyedCase{sp, opts, wrap, ""}
	}
	parts := func() emptyKeyedCase {
		return nestedAt(func(items string) string { return `{"groups":[{"name":"g","parts":[` + items + `]}]}` })
	}
	groups := func() emptyKeyedCase {
		return nestedAt(func(items string) string { return `{"groups":[` + items + `]}` })
	}

	DescribeTable("off, every gate, onto the outcome's list naming a key twice",
		func(schemaOf func() emptyKeyedCase, liveItem string, items []string) {
			var again atomic.Int64
			countRepeats(nil, &again)
			s := schemaOf()
			live := jsonv.MustDecode(`{` + s.head + s.wrap(liveItem)[1:])
			p := jsonv.MustDecode(s.wrap(strings.Join(items, ",")))
			want, werr := strategicMergePatchRecovered(live.JSON(), p.JSON(), s.sp.Meta())
			Expect(werr).NotTo(HaveOccurred())
			got, err := patch.Apply(live, p, s.opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(equalValue(jsonv.MustDecode(string(want))))
			Expect(again.Load()).To(BeZero(), "repeats the front-end applied again")
			inTurn := live
			for _, it := range items {
				inTurn, err = patch.Apply(inTurn, jsonv.MustDecode(s.wrap(it)), s.opts)
				Expect(err).NotTo(HaveOccurred())
			}
			Expect(got).To(equalValue(inTurn))
		},
		Entry("identical items of a key before two others",
			pod, `{"name":"b"}`, []string{
				`{"name":"a","env":[{"name":"e","value":"a"},{"name":"e","value":"a"},{"name":"a","value":"c"},{"name":"b","value":"a"}]}`,
				`{"name":"a","env":[],"image":"i"}`}),
		Entry("identical items of a key before three others",
			pod, `{"name":"b"}`, []string{
				`{"name":"a","env":[{"name":"e","value":"a"},{"name":"e","value":"a"},{"name":"a","value":"c"},{"name":"b","value":"a"},{"name":"c"}]}`,
				`{"name":"a","env":[],"image":"i"}`}),
		Entry("an item of another key before the identical items",
			pod, `{"name":"b"}`, []string{
				`{"name":"a","env":[{"name":"f"},{"name":"e","value":"a"},{"name":"e","value":"a"},{"name":"a","value":"c"},{"name":"b","value":"a"}]}`,
				`{"name":"a","env":[],"image":"i"}`}),
		Entry("a key named three times",
			pod, `{"name":"b"}`, []string{
				`{"name":"a","env":[{"name":"e"},{"name":"e"},{"name":"e"},{"name":"a"},{"name":"b"}]}`, `{"name":"a","env":[]}`}),
		Entry("two keys each named twice",
			pod, `{"name":"b"}`, []string{
				`{"name":"a","env":[{"name":"e"},{"name":"e"},{"name":"a"},{"name":"a"},{"name":"b"},{"name":"c"}]}`, `{"name":"a","env":[]}`}),
		Entry("live's item holding the identical items, the first item appending to them",
			pod, `{"name":"a","env":[{"name":"e","value":"a"},{"name":"e","value":"a"},{"name":"a","value":"c"},{"name":"b","value":"a"}]}`,
			[]string{`{"name":"a","env":[{"name":"q"}]}`, `{"name":"a","env":[],"image":"i"}`}),
		Entry("live's item holding the identical items, the first item merging into them",
			pod, `{"name":"a","env":[{"name":"e","value":"a"},{"name":"e","value":"a"},{"name":"a","value":"c"},{"name":"b","value":"a"}]}`,
			[]string{`{"name":"a","env":[{"name":"e","value":"a"}]}`, `{"name":"a","env":[],"image":"i"}`}),
		Entry("an item of the key between, leaving the list out",
			pod, `{"name":"b"}`, []string{
				`{"name":"a","env":[{"name":"e","value":"a"},{"name":"e","value":"a"},{"name":"a","value":"c"},{"name":"b","value":"a"}]}`,
				`{"name":"a","image":"j"}`, `{"name":"a","env":[],"image":"i"}`}),
		Entry("an item of the key between, appending to the list",
			pod, `{"name":"b"}`, []string{
				`{"name":"a","env":[{"name":"e","value":"a"},{"name":"e","value":"a"},{"name":"a","value":"c"},{"name":"b","value":"a"}]}`,
				`{"name":"a","env":[{"name":"z"}]}`, `{"name":"a","env":[]}`}),
		Entry("a container's ports, keyed by an integer",
			pod, `{"name":"b"}`, []string{
				`{"name":"a","ports":[{"containerPort":1},{"containerPort":1},{"containerPort":3},{"containerPort":2}]}`, `{"name":"a","ports":[]}`}),
		Entry("a container's volume mounts",
			pod, `{"name":"b"}`, []string{
				`{"name":"a","volumeMounts":[{"mountPath":"x","name":"v"},{"mountPath":"x","name":"v"},{"mountPath":"z","name":"v"},{"mountPath":"y","name":"v"}]}`,
				`{"name":"a","volumeMounts":[]}`}),
		Entry("a deployment's pod template",
			deployment, `{"name":"b"}`, []string{
				`{"name":"a","env":[{"name":"e","value":"a"},{"name":"e","value":"a"},{"name":"a","value":"c"},{"name":"b","value":"a"}]}`,
				`{"name":"a","env":[],"image":"i"}`}),
		Entry("a part's env, in a group",
			parts, `{"name":"q"}`, []string{
				`{"name":"p","env":[{"name":"e","value":"a"},{"name":"e","value":"a"},{"name":"a","value":"c"},{"name":"b","value":"a"}]}`,
				`{"name":"p","env":[],"value":"v"}`}),
		Entry("identical items holding a set",
			parts, `{"name":"q"}`, []string{
				`{"name":"p","env":[{"name":"A","flags":["x"]},{"name":"A","flags":["x"]},{"name":"C"},{"name":"B"}]}`,
				`{"name":"p","env":[],"value":"v"}`}),
		Entry("a group's parts, the list below the repeated item",
			groups, `{"name":"h"}`, []string{
				`{"name":"g","parts":[{"name":"p"},{"name":"p"},{"name":"r"},{"name":"q"}]}`, `{"name":"g","parts":[]}`}),
		Entry("a group's part's env, two lists below the repeated item",
			groups, `{"name":"h"}`, []string{
				`{"name":"g","parts":[{"name":"p","env":[{"name":"e","value":"a"},{"name":"e","value":"a"},{"name":"a","value":"c"},{"name":"b","value":"a"}]}]}`,
				`{"name":"g","parts":[{"name":"p","env":[]}]}`}),
	)
})
