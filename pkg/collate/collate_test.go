package collate_test

import (
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/plyproject/ply/test/treetest"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

var _ = Describe("Collate element types", func() {
	var nodes map[string]elements.Element
	var root elements.Element

	BeforeEach(func() {
		var err error
		root, err = collate.Collate(loadFixture("testdata/shapes.yaml"), widget(), collate.Options{})
		Expect(err).NotTo(HaveOccurred())
		nodes = treetest.ByPath(root)
	})

	// Every node of the tree, with its Element type. Nodes local does not
	// set are leaves, so nothing below spec.serverOnly, status,
	// metadata.labels.injected and the like is collated.
	want := map[string]string{
		".":                                     "MapElement",
		"extra":                                 "AtomicElement",
		"status":                                "AtomicElement",
		"metadata":                              "MapElement",
		"metadata.name":                         "AtomicElement",
		"metadata.uid":                          "AtomicElement",
		"metadata.labels":                       "MapElement",
		"metadata.labels.app":                   "AtomicElement",
		"metadata.labels.injected":              "AtomicElement",
		"metadata.labels.old":                   "AtomicElement",
		"metadata.finalizers":                   "SetElement",
		"metadata.finalizers[=f1]":              "AtomicElement",
		"metadata.finalizers[=f2]":              "AtomicElement",
		"spec":                                  "MapElement",
		"spec.replicas":                         "AtomicElement",
		"spec.enabled":                          "AtomicElement",
		"spec.config":                           "MapElement",
		"spec.config.a":                         "MapElement",
		"spec.config.a.b":                       "AtomicElement",
		"spec.selector":                         "AtomicElement",
		"spec.template":                         "AtomicElement",
		"spec.args":                             "AtomicElement",
		"spec.tags":                             "SetElement",
		"spec.tags[=b]":                         "AtomicElement",
		"spec.tags[=a]":                         "AtomicElement",
		"spec.tags[=d]":                         "AtomicElement",
		"spec.replacedTags":                     "AtomicElement",
		"spec.ports":                            "ListElement",
		"spec.ports[port=80,protocol=TCP]":      "MapElement",
		"spec.ports[port=80,protocol=TCP].port": "AtomicElement",
		"spec.containers":                       "ListElement",
		"spec.containers[name=c]":               "MapElement",
		"spec.containers[name=c].name":          "AtomicElement",
		"spec.containers[name=c].image":         "AtomicElement",
		"spec.volumes":                          "ListElement",
		"spec.volumes[name=v]":                  "MapElement",
		"spec.volumes[name=v].name":             "AtomicElement",
		"spec.volumes[name=v].configMap":        "MapElement",
		"spec.volumes[name=v].configMap.name":   "AtomicElement",
		"spec.unkeyed":                          "AtomicElement",
		"spec.four":                             "ListElement",
		"spec.four[a=1,b=2,c=3,d=4]":            "MapElement",
		"spec.four[a=1,b=2,c=3,d=4].a":          "AtomicElement",
		"spec.four[a=1,b=2,c=3,d=4].b":          "AtomicElement",
		"spec.four[a=1,b=2,c=3,d=4].c":          "AtomicElement",
		"spec.four[a=1,b=2,c=3,d=4].d":          "AtomicElement",
		"spec.kindChange":                       "AtomicElement",
		"spec.nulled":                           "AtomicElement (empty)",
		"spec.allNull":                          "AtomicElement (empty)",
		"spec.liveNull":                         "AtomicElement (empty)",
		"spec.gone":                             "AtomicElement",
		"spec.serverOnly":                       "AtomicElement",
	}

	It("builds exactly the expected nodes", func() {
		got := make(map[string]string, len(nodes))
		for p, e := range nodes {
			got[p] = typeName(e)
		}
		Expect(got).To(Equal(want))
	})

	DescribeTable("gives each node its Element type",
		func(path, elem string) {
			Expect(nodes).To(HaveKey(path))
			Expect(typeName(nodes[path])).To(Equal(elem))
		},
		Entry("a struct is a MapElement", "spec", "MapElement"),
		Entry("the root struct is a MapElement", ".", "MapElement"),
		Entry("an additionalProperties map is a MapElement", "metadata.labels", "MapElement"),
		Entry("a schemaless object is a MapElement", "spec.config", "MapElement"),
		Entry("an object under a schemaless object is a MapElement", "spec.config.a", "MapElement"),
		Entry("a merge list of maps with a merge key is a ListElement", "spec.containers", "ListElement"),
		Entry("a merge list keyed by two fields is a ListElement", "spec.ports", "ListElement"),
		Entry("a merge,retainKeys list is a ListElement", "spec.volumes", "ListElement"),
		Entry("a merge list of primitives is a SetElement", "spec.tags", "SetElement"),
		Entry("a list without merge strategy is atomic", "spec.args", "AtomicElement"),
		Entry("a merge list of maps without merge key is atomic", "spec.unkeyed", "AtomicElement"),
		Entry("a replace-strategy list is atomic", "spec.replacedTags", "AtomicElement"),
		Entry("a replace-strategy map is atomic", "spec.selector", "AtomicElement"),
		Entry("a replace-strategy struct is atomic", "spec.template", "AtomicElement"),
		Entry("a node local omits (live only) is atomic", "status", "AtomicElement"),
		Entry("a node local omits (recorded only) is atomic", "spec.gone", "AtomicElement"),
		Entry("a node local nulls while live has it is atomic", "spec.enabled", "AtomicElement"),
		Entry("a node whose live kind differs from local's is atomic", "spec.kindChange", "AtomicElement"),
		Entry("a scalar is an AtomicElement", "spec.replicas", "AtomicElement"),
		Entry("an undeclared scalar is an AtomicElement", "extra", "AtomicElement"),
		Entry("a set member is an AtomicElement", "spec.tags[=a]", "AtomicElement"),
		Entry("local null and nothing else is an empty AtomicElement", "spec.nulled", "AtomicElement (empty)"),
		Entry("null in all three sources is an empty AtomicElement", "spec.allNull", "AtomicElement (empty)"),
		Entry("live null only is an empty AtomicElement", "spec.liveNull", "AtomicElement (empty)"),
	)

	// The equal-subtree shortcut: a list item recorded (when given), local
	// and live agree on needs no deciding below it.
	DescribeTable("makes a keyed item all sources agree on atomic, with no children",
		func(recorded, local, live string, elem string) {
			tree, err := collate.Collate(three(wrapSpec(recorded), wrapSpec(local), wrapSpec(live)), widget(), collate.Options{})
			Expect(err).NotTo(HaveOccurred())
			n := treetest.ByPath(tree)
			Expect(n).To(HaveKey("spec.containers[name=a]"))
			Expect(typeName(n["spec.containers[name=a]"])).To(Equal(elem))
			if elem == "AtomicElement" {
				Expect(n).NotTo(HaveKey("spec.containers[name=a].image"))
			} else {
				Expect(n).To(HaveKey("spec.containers[name=a].image"))
			}
		},
		Entry("recorded, local and live equal", `{containers: [{name: a, image: i}]}`, `{containers: [{name: a, image: i}, {name: b}]}`, `{containers: [{name: a, image: i}]}`, "AtomicElement"),
		Entry("no recorded, local and live equal", absent, `{containers: [{name: a, image: i}, {name: b}]}`, `{containers: [{name: a, image: i}]}`, "AtomicElement"),
		Entry("recorded differs", `{containers: [{name: a, image: j}]}`, `{containers: [{name: a, image: i}, {name: b}]}`, `{containers: [{name: a, image: i}]}`, "MapElement"),
		Entry("live differs", absent, `{containers: [{name: a, image: i}, {name: b}]}`, `{containers: [{name: a, image: i, args: [x]}]}`, "MapElement"),
		Entry("no live", `{containers: [{name: a, image: i}]}`, `{containers: [{name: a, image: i}, {name: b}]}`, absent, "MapElement"),
	)

	It("does not walk below nodes local does not set", func() {
		Expect(nodes).NotTo(HaveKey("status.ready"))
		Expect(nodes).NotTo(HaveKey("spec.serverOnly.deep"))
		st := nodes["status"].Base()
		Expect(st.HasLive).To(BeTrue())
		Expect(st.HasLocal).To(BeFalse())
		Expect(string(st.Live.JSON())).To(Equal(`{"ready":true}`))
	})

	It("keeps the three values of a node with their presence", func() {
		n := nodes["spec.enabled"].Base()
		Expect(n.HasRecorded && n.HasLocal && n.HasLive).To(BeTrue())
		Expect(n.Local.IsNull()).To(BeTrue())
		Expect(value.Equal(n.Live, value.Bool(true))).To(BeTrue())

		r := nodes["spec.replicas"].Base()
		Expect(value.Equal(r.Recorded, value.Int(1))).To(BeTrue())
		Expect(value.Equal(r.Local, value.Int(3))).To(BeTrue())
		Expect(value.Equal(r.Live, value.Int(2))).To(BeTrue())
	})

	It("ignores a recorded value whose kind differs from local's below that node", func() {
		cfg := nodes["spec.config"].(*elements.MapElement)
		Expect(cfg.HasRecorded).To(BeTrue())
		Expect(fieldNames(cfg.Fields)).To(Equal([]string{"a"}))
		Expect(cfg.Fields[0].Element.Base().HasRecorded).To(BeFalse())
	})

	It("links every node to its parent and gives it the schema type and metadata", func() {
		Expect(root.Base().Parent).To(BeNil())
		Expect(root.Base().Path()).To(BeEmpty())
		Expect(root.Base().Type.Name).To(Equal("ply.test.v1.Widget"))
		spec := nodes["spec"]
		Expect(nodes["spec.ports"].Base().Parent).To(BeIdenticalTo(spec))
		Expect(nodes["spec.ports"].Base().Meta.MergeKey).To(Equal([]string{"port", "protocol"}))
		Expect(nodes["spec.ports"].Base().Meta.Strategy).To(Equal(openapi.StrategyMerge))
		Expect(nodes["spec.ports[port=80,protocol=TCP]"].Base().Parent).To(BeIdenticalTo(nodes["spec.ports"]))
		Expect(nodes["spec.ports[port=80,protocol=TCP]"].Base().Type.Name).To(Equal("ply.test.v1.Port"))
		Expect(nodes["spec.config.a.b"].Base().Type).To(BeIdenticalTo(openapi.Unknown))
		Expect(nodes["extra"].Base().Type).To(BeIdenticalTo(openapi.Unknown))
		Expect(nodes["spec.tags[=a]"].Base().Type.Kind).To(Equal(openapi.KindPrimitive))
		for p, e := range nodes {
			Expect(e.Base().Type).NotTo(BeNil(), p)
		}
	})

	It("treats a nil root type as no schema: objects are maps, lists atomic", func() {
		vals := three(absent, `{spec: {containers: [{name: a}], labels: {x: y}}}`, absent)
		tree, err := collate.Collate(vals, nil, collate.Options{})
		Expect(err).NotTo(HaveOccurred())
		n := treetest.ByPath(tree)
		Expect(typeName(n["."])).To(Equal("MapElement"))
		Expect(n["."].Base().Type).To(BeIdenticalTo(openapi.Unknown))
		Expect(typeName(n["spec"])).To(Equal("MapElement"))
		Expect(typeName(n["spec.labels"])).To(Equal("MapElement"))
		Expect(typeName(n["spec.containers"])).To(Equal("AtomicElement"))
	})

	DescribeTable("makes a node atomic when live's kind differs from local's",
		func(local, live, path string) {
			tree, err := collate.Collate(three(absent, wrapSpec(local), wrapSpec(live)), widget(), collate.Options{})
			Expect(err).NotTo(HaveOccurred())
			n := treetest.ByPath(tree)
			Expect(n).To(HaveKey(path))
			Expect(typeName(n[path])).To(Equal("AtomicElement"))
		},
		Entry("struct vs scalar", `{template: {image: i}}`, `"str"`, "spec"),
		Entry("map vs list", `{config: {a: 1}}`, `{config: [1]}`, "spec.config"),
		Entry("keyed list vs map", `{containers: [{name: a}]}`, `{containers: {name: a}}`, "spec.containers"),
		Entry("set vs scalar", `{tags: [a]}`, `{tags: a}`, "spec.tags"),
		Entry("struct inside a keyed item vs scalar", `{volumes: [{name: v, configMap: {name: c}}]}`, `{volumes: [{name: v, configMap: str}]}`, "spec.volumes[name=v].configMap"),
	)

	It("keeps a keyed item a MapElement when live's item is a map (control for the table above)", func() {
		tree, err := collate.Collate(three(absent, wrapSpec(`{containers: [{name: a, image: i}]}`), wrapSpec(`{containers: [{name: a, image: j}]}`)), widget(), collate.Options{})
		Expect(err).NotTo(HaveOccurred())
		n := treetest.ByPath(tree)
		Expect(typeName(n["spec.containers[name=a]"])).To(Equal("MapElement"))
	})

	DescribeTable("gives an empty AtomicElement exactly when no source has a non-null value",
		func(recorded, local, live string, elem string) {
			tree, err := collate.Collate(three(wrapSpec(recorded), wrapSpec(local), wrapSpec(live)), widget(), collate.Options{})
			Expect(err).NotTo(HaveOccurred())
			n := treetest.ByPath(tree)
			Expect(n).To(HaveKey("spec.replicas"))
			Expect(typeName(n["spec.replicas"])).To(Equal(elem))
		},
		// enabled differs in every entry, so spec is collated.
		Entry("local null only", `{enabled: true}`, `{replicas: null, enabled: false}`, `{}`, "AtomicElement (empty)"),
		Entry("recorded null, live null, local omits", `{replicas: null}`, `{enabled: false}`, `{replicas: null, enabled: true}`, "AtomicElement (empty)"),
		Entry("all three null", `{replicas: null}`, `{replicas: null, enabled: false}`, `{replicas: null}`, "AtomicElement (empty)"),
		Entry("local null, recorded set", `{replicas: 1}`, `{replicas: null, enabled: false}`, `{}`, "AtomicElement"),
		Entry("local null, live set", `{}`, `{replicas: null, enabled: false}`, `{replicas: 1}`, "AtomicElement"),
		Entry("local omits, live set", `{}`, `{enabled: false}`, `{replicas: 1}`, "AtomicElement"),
		Entry("local sets", `{}`, `{replicas: 1, enabled: false}`, `{}`, "AtomicElement"),
	)
})

var _ = Describe("Collate map fields", func() {
	It("holds the sorted union of the keys of the three sources, with their presence", func() {
		vals := three(
			`{metadata: {labels: {a: r, d: r, e: r}}}`,
			`{metadata: {labels: {d: l, b: l}}}`,
			`{metadata: {labels: {f: v, c: v, e: v}}}`,
		)
		tree, err := collate.Collate(vals, widget(), collate.Options{})
		Expect(err).NotTo(HaveOccurred())
		labels := treetest.ByPath(tree)["metadata.labels"].(*elements.MapElement)
		Expect(fieldNames(labels.Fields)).To(Equal([]string{"a", "b", "c", "d", "e", "f"}))
		type has struct{ R, L, V bool }
		var got []has
		for _, f := range labels.Fields {
			n := f.Element.Base()
			got = append(got, has{n.HasRecorded, n.HasLocal, n.HasLive})
			Expect(n.PathElement()).To(Equal(fieldpath.Field(f.Name)))
			Expect(n.Parent).To(BeIdenticalTo(elements.Element(labels)))
		}
		Expect(got).To(Equal([]has{
			{true, false, false}, {false, true, false}, {false, false, true},
			{true, true, false}, {true, false, true}, {false, false, true},
		}))
	})

	It("takes no keys from recorded or live when they are not maps", func() {
		tree, err := collate.Collate(three(`{metadata: {labels: [x]}}`, `{metadata: {labels: {a: l}}}`, absent), widget(), collate.Options{})
		Expect(err).NotTo(HaveOccurred())
		labels := treetest.ByPath(tree)["metadata.labels"].(*elements.MapElement)
		Expect(fieldNames(labels.Fields)).To(Equal([]string{"a"}))
	})
})

var _ = Describe("Collate keyed lists", func() {
	list := func(vals elements.Values, path string) *elements.ListElement {
		tree, err := collate.Collate(vals, widget(), collate.Options{})
		Expect(err).NotTo(HaveOccurred())
		n := treetest.ByPath(tree)
		Expect(n).To(HaveKey(path))
		Expect(n[path]).To(BeAssignableToTypeOf(&elements.ListElement{}))
		return n[path].(*elements.ListElement)
	}

	It("matches items by a two-field key, taking the schema default for a missing field", func() {
		l := list(three(
			wrapSpec(`{ports: [{port: 80, protocol: UDP}, {port: 8080}]}`),
			wrapSpec(`{ports: [{port: 80}, {port: 80, protocol: UDP}, {port: 443, protocol: TCP}]}`),
			wrapSpec(`{ports: [{port: 443}, {port: 80, protocol: TCP, name: http}, {port: 80, protocol: UDP}, {port: 8080, protocol: TCP}]}`),
		), "spec.ports")
		Expect(itemPaths(l.Items)).To(Equal([]string{
			"spec.ports[port=80,protocol=TCP]",
			"spec.ports[port=80,protocol=UDP]",
			"spec.ports[port=443,protocol=TCP]",
			"spec.ports[port=8080,protocol=TCP]",
		}))
		Expect(indexes(l.Items)).To(Equal([]idx{{-1, 0, 1}, {0, 1, 2}, {-1, 2, 0}, {1, -1, 3}}))
		Expect(l.LiveExtra).To(BeEmpty())
		first := l.Items[0].Element.Base()
		Expect(string(first.Local.JSON())).To(Equal(`{"port":80}`))
		Expect(string(first.Live.JSON())).To(Equal(`{"name":"http","port":80,"protocol":"TCP"}`))
		key := first.PathElement().Key
		Expect(key).To(HaveLen(2))
		Expect(key[0].Name).To(Equal("port"))
		Expect(value.Equal(key[0].Value, value.Int(80))).To(BeTrue())
		Expect(key[1].Name).To(Equal("protocol"))
		Expect(value.Equal(key[1].Value, value.String("TCP"))).To(BeTrue())
	})

	It("matches keys of equal value whatever the number encoding", func() {
		l := list(three(absent, wrapSpec(`{ports: [{port: 80, protocol: TCP, name: a}]}`), `{"spec": {"ports": [{"port": 80.0, "protocol": "TCP"}]}}`), "spec.ports")
		Expect(indexes(l.Items)).To(Equal([]idx{{-1, 0, 0}}))
	})

	It("orders items local first, then live-only in live order, then recorded-only, with their indexes", func() {
		l := list(three(
			wrapSpec(`{containers: [{name: z}, {name: c}, {name: x}, {name: c, image: dup}, {name: w}]}`),
			wrapSpec(`{containers: [{name: c}, {name: a}]}`),
			wrapSpec(`{containers: [{name: x}, {name: a}, {name: yy}]}`),
		), "spec.containers")
		Expect(itemPaths(l.Items)).To(Equal([]string{
			"spec.containers[name=c]", "spec.containers[name=a]",
			"spec.containers[name=x]", "spec.containers[name=yy]",
			"spec.containers[name=z]", "spec.containers[name=w]",
		}))
		Expect(indexes(l.Items)).To(Equal([]idx{{1, 0, -1}, {-1, 1, 1}, {2, -1, 0}, {-1, -1, 2}, {0, -1, -1}, {4, -1, -1}}))
		Expect(l.LiveExtra).To(BeEmpty())
		for _, it := range l.Items {
			n := it.Element.Base()
			Expect(n.HasRecorded).To(Equal(it.RecordedIndex >= 0))
			Expect(n.HasLocal).To(Equal(it.LocalIndex >= 0))
			Expect(n.HasLive).To(Equal(it.LiveIndex >= 0))
			Expect(n.Parent).To(BeIdenticalTo(elements.Element(l)))
		}
		// The recorded duplicate of c is ignored: c holds the first one.
		c := l.Items[0].Element.Base()
		Expect(string(c.Recorded.JSON())).To(Equal(`{"name":"c"}`))
	})

	// elements.Item documents Of as -1 for everything but a LiveExtra entry
	// that repeats an earlier key; an Items entry with Of 0 reads as "repeats
	// item 0".
	It("marks Items entries of lists and sets as repeating no other item (Of is -1)", func() {
		tree, err := collate.Collate(three(
			wrapSpec(`{containers: [{name: r}], tags: [r]}`),
			wrapSpec(`{containers: [{name: a}, {name: b}], tags: [a, b]}`),
			wrapSpec(`{containers: [{name: b}, {name: v}], tags: [b, v]}`),
		), widget(), collate.Options{})
		Expect(err).NotTo(HaveOccurred())
		spec := treetest.Field(tree, "spec")
		items := append([]elements.Item{}, treetest.Field(spec, "containers").(*elements.ListElement).Items...)
		items = append(items, treetest.Field(spec, "tags").(*elements.SetElement).Items...)
		Expect(items).To(HaveLen(8))
		for _, it := range items {
			Expect(it.Of).To(Equal(-1), it.Element.Base().Path().String())
		}
	})

	It("keeps live duplicates and keyless live items in LiveExtra", func() {
		l := list(three(
			absent,
			wrapSpec(`{containers: [{name: a}]}`),
			wrapSpec(`{containers: [{name: a, image: first}, {name: b}, {name: a, image: second}, {image: nokey}, "scalar", {name: b, image: again}, {name: {x: 1}}]}`),
		), "spec.containers")
		Expect(itemPaths(l.Items)).To(Equal([]string{"spec.containers[name=a]", "spec.containers[name=b]"}))
		Expect(indexes(l.Items)).To(Equal([]idx{{-1, 0, 0}, {-1, -1, 1}}))
		Expect(string(l.Items[0].Element.Base().Live.JSON())).To(Equal(`{"image":"first","name":"a"}`))

		type extra struct{ V, Of int }
		var got []extra
		for _, x := range l.LiveExtra {
			got = append(got, extra{x.LiveIndex, x.Of})
			Expect(x.RecordedIndex).To(Equal(-1))
			Expect(x.LocalIndex).To(Equal(-1))
			Expect(x.Element).To(BeAssignableToTypeOf(&elements.AtomicElement{}))
			n := x.Element.Base()
			Expect(n.PathElement()).To(Equal(fieldpath.Index(x.LiveIndex)))
			Expect(n.Parent).To(BeIdenticalTo(elements.Element(l)))
			Expect(n.HasLive).To(BeTrue())
			Expect(n.HasLocal || n.HasRecorded).To(BeFalse())
			Expect(value.Equal(n.Live, l.Live.Items()[x.LiveIndex])).To(BeTrue())
		}
		Expect(got).To(Equal([]extra{{2, 0}, {3, -1}, {4, -1}, {5, 1}, {6, -1}}))
		Expect(l.LiveExtra[0].Element.Base().Path().String()).To(Equal("spec.containers[2]"))
	})

	It("ignores recorded duplicates and keyless recorded items", func() {
		l := list(three(
			wrapSpec(`{containers: [{name: a, image: one}, {name: a, image: two}, {image: nokey}, 7]}`),
			wrapSpec(`{containers: [{name: b}]}`),
			absent,
		), "spec.containers")
		Expect(itemPaths(l.Items)).To(Equal([]string{"spec.containers[name=b]", "spec.containers[name=a]"}))
		Expect(indexes(l.Items)).To(Equal([]idx{{-1, 0, -1}, {0, -1, -1}}))
		Expect(string(l.Items[1].Element.Base().Recorded.JSON())).To(Equal(`{"image":"one","name":"a"}`))
		Expect(l.LiveExtra).To(BeEmpty())
	})

	It("gives the items of a merge,retainKeys list StrategyRetainKeys and no others", func() {
		tree, err := collate.Collate(three(absent,
			wrapSpec(`{volumes: [{name: v, configMap: {name: c}}], containers: [{name: a}]}`),
			wrapSpec(`{volumes: [{name: v, secret: {secretName: s}}, {name: w}]}`)), widget(), collate.Options{})
		Expect(err).NotTo(HaveOccurred())
		n := treetest.ByPath(tree)
		for _, p := range []string{"spec.volumes[name=v]", "spec.volumes[name=w]"} {
			Expect(n[p].Base().Meta.Strategy).To(Equal(openapi.StrategyRetainKeys), p)
			Expect(n[p].Base().Meta.MergeKey).To(BeEmpty(), p)
		}
		Expect(n["spec.volumes"].Base().Meta.Strategy).To(Equal(openapi.StrategyMerge | openapi.StrategyRetainKeys))
		Expect(n["spec.containers[name=a]"].Base().Meta.Strategy).To(Equal(openapi.Strategy(0)))
		Expect(n["spec.volumes[name=v].configMap"].Base().Meta.Strategy).To(Equal(openapi.Strategy(0)))
	})

	It("accepts a merge key of MaxKeyFields fields", func() {
		l := list(three(absent, wrapSpec(`{four: [{a: "1", b: "2", c: "3", d: "4", v: x}, {a: "1", b: "2", c: "3", d: "5"}]}`), absent), "spec.four")
		Expect(itemPaths(l.Items)).To(Equal([]string{"spec.four[a=1,b=2,c=3,d=4]", "spec.four[a=1,b=2,c=3,d=5]"}))
	})
})

var _ = Describe("Collate sets", func() {
	It("refuses a value local repeats, naming both items", func() {
		_, err := collate.Collate(three(absent, wrapSpec(`{tags: [b, a, b]}`), absent), widget(), collate.Options{})
		Expect(err).To(MatchError("local spec.tags: items 0 and 2 are both b; a set lists each value once"))
	})

	It("with gate UniqueMergeKeys off, pairs each source's i-th copy of a value (Ranked) and has kubectl's patch decide the merge", func() {
		vals := three(wrapSpec(`{tags: [a, a, b]}`), wrapSpec(`{tags: [b, a, b]}`), wrapSpec(`{tags: [a, c, a, a]}`))
		tree, _, arena, err := collate.CountIn(vals, widget(), collate.Options{Gates: features.Kubectl()})
		Expect(err).NotTo(HaveOccurred())
		Expect(arena.Ranked()).To(BeTrue())
		s := field(field(tree, "spec"), "tags").(*elements.SetElement)
		Expect(s.Ranked).To(BeTrue())
		Expect(indexes(s.Items)).To(Equal([]idx{{2, 0, -1}, {0, 1, 0}, {-1, 2, -1}, {-1, -1, 1}, {1, -1, 2}, {-1, -1, 3}}))
	})

	It("collapses a value live repeats into its first with the gate on; off, ranks it", func() {
		vals := three(absent, wrapSpec(`{tags: [a]}`), wrapSpec(`{tags: [a, a]}`))
		for _, gates := range []features.Gates{{}, features.Kubectl()} {
			tree, _, arena, err := collate.CountIn(vals, widget(), collate.Options{Gates: gates})
			Expect(err).NotTo(HaveOccurred())
			s := field(field(tree, "spec"), "tags").(*elements.SetElement)
			Expect(s.Ranked).To(Equal(arena.Ranked()))
			if s.Ranked {
				Expect(indexes(s.Items)).To(Equal([]idx{{-1, 0, 0}, {-1, -1, 1}}))
			} else {
				Expect(indexes(s.Items)).To(Equal([]idx{{-1, 0, 0}}))
			}
		}
	})

	It("holds each distinct value once, local first, then live-only, then recorded-only", func() {
		tree, err := collate.Collate(three(
			wrapSpec(`{tags: [d, a, e, d]}`),
			wrapSpec(`{tags: [b, a]}`),
			wrapSpec(`{tags: [c, a, c, e]}`),
		), widget(), collate.Options{})
		Expect(err).NotTo(HaveOccurred())
		s := treetest.ByPath(tree)["spec.tags"].(*elements.SetElement)
		Expect(itemPaths(s.Items)).To(Equal([]string{"spec.tags[=b]", "spec.tags[=a]", "spec.tags[=c]", "spec.tags[=e]", "spec.tags[=d]"}))
		Expect(indexes(s.Items)).To(Equal([]idx{{-1, 0, -1}, {1, 1, 1}, {-1, -1, 0}, {2, -1, 3}, {0, -1, -1}}))
		for _, it := range s.Items {
			Expect(it.Element).To(BeAssignableToTypeOf(&elements.AtomicElement{}))
			n := it.Element.Base()
			Expect(n.HasRecorded).To(Equal(it.RecordedIndex >= 0))
			Expect(n.HasLocal).To(Equal(it.LocalIndex >= 0))
			Expect(n.HasLive).To(Equal(it.LiveIndex >= 0))
		}
	})
})

var _ = Describe("Collate errors", func() {
	DescribeTable("blames local with the field path and what was expected",
		func(local, path, msg string) {
			_, err := collate.Collate(three(absent, local, absent), widget(), collate.Options{})
			Expect(err).To(HaveOccurred())
			var e *elements.Error
			Expect(err).To(BeAssignableToTypeOf(e))
			e = err.(*elements.Error)
			Expect(e.Source).To(Equal(elements.Local))
			Expect(e.Path.String()).To(Equal(path))
			Expect(e.Msg).To(Equal(msg))
		},
		Entry("scalar where the root object is expected",
			`"str"`, ".", "expected an object (ply.test.v1.Widget), got string"),
		Entry("scalar where an object is expected",
			wrapSpec(`5`), "spec", "expected an object (ply.test.v1.Spec), got integer"),
		Entry("list where a map is expected",
			`{metadata: {labels: [a]}}`, "metadata.labels", "expected an object (ply.test.v1.Meta.labels), got array"),
		Entry("object where a list is expected",
			wrapSpec(`{ports: {port: 80}}`), "spec.ports", "expected a list (ply.test.v1.Spec.ports), got object"),
		Entry("scalar where a list is expected",
			wrapSpec(`{args: x}`), "spec.args", "expected a list (ply.test.v1.Spec.args), got string"),
		Entry("list where a scalar is expected",
			wrapSpec(`{replicas: [1]}`), "spec.replicas", "expected an integer (ply.test.v1.Spec.replicas), got array"),
		Entry("object where a boolean is expected",
			wrapSpec(`{enabled: {a: 1}}`), "spec.enabled", "expected a boolean (ply.test.v1.Spec.enabled), got object"),
		Entry("object inside a keyed item where a string is expected",
			wrapSpec(`{containers: [{name: a, image: {x: 1}}]}`), "spec.containers[name=a].image",
			"expected a string (ply.test.v1.Container.image), got object"),
		Entry("set item that is not a scalar",
			wrapSpec(`{tags: [a, {x: 1}]}`), "spec.tags", "item 1: expected a scalar in a set list, got object"),
		Entry("set item that is a list",
			`{metadata: {finalizers: [[a]]}}`, "metadata.finalizers", "item 0: expected a scalar in a set list, got array"),
		Entry("keyed list item that is not an object",
			wrapSpec(`{containers: [{name: a}, b]}`), "spec.containers", "item 1: expected an object with merge key name, got string"),
		Entry("local item missing the key field",
			wrapSpec(`{containers: [{name: a}, {image: i}]}`), "spec.containers",
			`item 1 has no merge key field "name" (the merge key is name)`),
		Entry("local item missing a key field without default",
			wrapSpec(`{ports: [{protocol: TCP}]}`), "spec.ports",
			`item 0 has no merge key field "port" (the merge key is port,protocol)`),
		Entry("local key field that is a map",
			wrapSpec(`{containers: [{name: {x: 1}}]}`), "spec.containers",
			`item 0: merge key field "name" must be a string, number or boolean`),
		Entry("local key field that is null with no default (with one, null takes the default)",
			wrapSpec(`{ports: [{port: null, protocol: TCP}]}`), "spec.ports",
			`item 0 has no merge key field "port" (the merge key is port,protocol)`),
		Entry("duplicate local keys",
			wrapSpec(`{containers: [{name: a}, {name: b}, {name: a}]}`), "spec.containers[name=a]",
			"duplicate merge key: items 0 and 2 are both spec.containers[name=a]"),
		Entry("duplicate local keys through the key default",
			wrapSpec(`{ports: [{port: 80, protocol: UDP}, {port: 80}, {port: 80, protocol: TCP}]}`), "spec.ports[port=80,protocol=TCP]",
			"duplicate merge key: items 1 and 2 are both spec.ports[port=80,protocol=TCP]"),
		Entry("more than MaxKeyFields key fields",
			wrapSpec(`{wide: [{a: "1", b: "2", c: "3", d: "4", e: "5"}]}`), "spec.wide",
			"schema declares a merge key of 5 fields; at most 4 are supported"),
	)

	DescribeTable("does not blame live or recorded for what local would be blamed for",
		func(recorded, live string) {
			_, err := collate.Collate(three(recorded, wrapSpec(`{containers: [{name: a}], tags: [a]}`), live), widget(), collate.Options{})
			Expect(err).NotTo(HaveOccurred())
		},
		Entry("keyless and non-map live items", absent, wrapSpec(`{containers: [{image: i}, 3, {name: {x: 1}}, {name: a}, {name: a}]}`)),
		Entry("keyless and duplicate recorded items", wrapSpec(`{containers: [{image: i}, 3, {name: a}, {name: a}]}`), absent),
		Entry("non-scalar set items in live and recorded", wrapSpec(`{tags: [{x: 1}]}`), wrapSpec(`{tags: [[a], a]}`)),
		Entry("live and recorded of the wrong kind", wrapSpec(`{containers: x, tags: {a: 1}}`), wrapSpec(`"spec"`)),
	)
})

var _ = Describe("Collate, a list whose sources repeat a merge key, gate UniqueMergeKeys off", func() {
	gatesOff := collate.Options{Gates: features.Kubectl()}
	// pairs renders the members of spec.containers: each as
	// "recorded/local/live" positions ("-" for absent), in Items order.
	pairs := func(tree elements.Element) []string {
		var e elements.Element = tree
		for _, name := range []string{"spec", "containers"} {
			for _, f := range e.(*elements.MapElement).Fields {
				if f.Name == name {
					e = f.Element
				}
			}
		}
		l := e.(*elements.ListElement)
		Expect(l.Ranked).To(BeTrue())
		pos := func(i int) string {
			if i < 0 {
				return "-"
			}
			return strconv.Itoa(i)
		}
		var out []string
		for _, it := range l.Items {
			out = append(out, pos(it.RecordedIndex)+"/"+pos(it.LocalIndex)+"/"+pos(it.LiveIndex))
		}
		return out
	}

	DescribeTable("pairs the i-th item of a key in each source's kubectl sort (equal keys come out reversed in a short list)",
		func(recorded, local, live string, want []string) {
			tree, err := collate.Collate(three(wrapSpec(recorded), wrapSpec(local), wrapSpec(live)), widget(), gatesOff)
			Expect(err).NotTo(HaveOccurred())
			Expect(pairs(tree)).To(Equal(want))
		},
		Entry("local repeats a key live has once: live's item pairs with local's last of the key",
			absent, `{containers: [{name: a, image: x}, {name: b}, {name: a, image: y}]}`, `{containers: [{name: a}, {name: b}]}`,
			[]string{"-/0/-", "-/1/1", "-/2/0"}),
		Entry("all three repeat it",
			`{containers: [{name: a}, {name: a, image: r}]}`, `{containers: [{name: a, image: x}, {name: a, image: y}]}`, `{containers: [{name: a, image: v}, {name: a}]}`,
			[]string{"0/0/0", "1/1/1"}),
		Entry("recorded repeats a key local has once",
			`{containers: [{name: a, image: x}, {name: a, image: y}]}`, `{containers: [{name: a}]}`, `{containers: [{name: a}]}`,
			[]string{"1/0/0", "0/-/-"}),
		Entry("live alone repeats a key",
			absent, `{containers: [{name: a}, {name: b}]}`, `{containers: [{name: b}, {name: a, image: x}, {name: a}]}`,
			[]string{"-/0/2", "-/1/0", "-/-/1"}),
	)

	It("keeps refusing repeats in a patch's tree, under a multi-field key, and with the gate on", func() {
		_, err := collate.Collate(three(absent, wrapSpec(`{ports: [{port: 80}, {port: 80, protocol: TCP}]}`), absent), widget(), gatesOff)
		Expect(err).To(MatchError(ContainSubstring("duplicate merge key: items 0 and 1 are both spec.ports[port=80,protocol=TCP]")))
		_, err = collate.Collate(three(absent, wrapSpec(`{containers: [{name: a}, {name: a}]}`), absent), widget(), collate.Options{})
		Expect(err).To(MatchError(ContainSubstring("duplicate merge key: items 0 and 1 are both spec.containers[name=a]")))
	})
})
