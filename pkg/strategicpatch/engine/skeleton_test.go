package engine_test

import (
	"encoding/json"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/strategicpatch/engine"
)

// containersSchema is a TypeCacher schema: spec.containers merged by name, their env by name.
func containersSchema() *cached {
	env := &cached{sub: map[string]*cached{}, meta: engine.Meta{Strategies: []string{"merge"}, MergeKey: "name"}}
	containers := &cached{sub: map[string]*cached{"env": env}, meta: engine.Meta{Strategies: []string{"merge"}, MergeKey: "name"}}
	return &cached{sub: map[string]*cached{"spec": {sub: map[string]*cached{"containers": containers}}}}
}

// decoded is JSON text decoded into Go values.
func decoded(text string) map[string]interface{} {
	var m map[string]interface{}
	Expect(json.Unmarshal([]byte(text), &m)).To(Succeed())
	return m
}

// skeletons is the number of types containersSchema's root and spec Lookups keep by skeletons.
func skeletons(root *cached) int {
	return root.types.SkeletonsLen() + root.sub["spec"].types.SkeletonsLen()
}

var _ = Describe("ApplyMap under a TypeCacher Lookup", func() {
	live := `{"kind":"K","spec":{"replicas":3,"containers":[{"name":"a","image":"1","env":[{"name":"X","value":"1"}]},` +
		`{"name":"b","image":"2"}]}}`

	It("keeps a call's type by its documents' skeletons: calls with other values of the same keys and kinds build none", func() {
		root := containersSchema()
		apply := func(patch string) { // (the engine's run: ApplyMap merges these fieldwise, building no type)
			want, err := engine.Options{}.ApplyMapEngine(decoded(live), decoded(patch), plain{root})
			Expect(err).NotTo(HaveOccurred())
			got, err := engine.Options{}.ApplyMapEngine(decoded(live), decoded(patch), root)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want), "patch %s", patch)
		}
		for i := range 20 {
			apply(fmt.Sprintf(`{"spec":{"containers":[{"name":"c","image":"v%d"}]}}`, i))
			apply(fmt.Sprintf(`{"spec":{"containers":[{"name":"b","image":%d}]}}`, i))
		}
		// (The patches pass through spec alone: the type is spec's, kept by spec's Lookup; see applySpine.)
		Expect(skeletons(root)).To(Equal(1), "one skeleton: the names and images are values")
		apply(`{"spec":{"containers":[{"name":"c","env":[{"name":"X","value":"2"}]}]}}`)
		apply(`{"spec":{"containers":[{"name":"a","image":{"x":1}}]}}`)
		Expect(skeletons(root)).To(Equal(3), "other keys, other kinds: skeletons of their own")
	})

	It("builds no type where it merges the patch fieldwise", func() {
		root := containersSchema()
		for _, patch := range []string{
			`{"spec":{"containers":[{"name":"a","image":"v"}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"a"},{"name":"b"}],"containers":[{"name":"a","env":[{"name":"X","value":"2"}]},{"name":"b","image":3}]}}`,
		} {
			want, err := engine.Options{}.ApplyMapEngine(decoded(live), decoded(patch), plain{root})
			Expect(err).NotTo(HaveOccurred())
			got, err := engine.Options{}.ApplyMap(decoded(live), decoded(patch), root)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want), "patch %s", patch)
		}
		Expect(skeletons(root)).To(Equal(0))
	})

	It("keeps no type that read which values pair, which the skeletons do not tell", func() {
		// env holds a list in a's item and an object in b's, so that the builder asks which of them pair with the
		// patch's list (in a for the first patch, in b for the second), a look at merge key values: the two calls'
		// documents have the same skeletons, and neither type is kept by them.
		mixed := `{"spec":{"containers":[{"name":"a","env":[{"name":"X","value":"1"}]},{"name":"b","env":{}}]}}`
		patches := []string{
			`{"spec":{"containers":[{"name":"a","env":[{"name":"X"}]}]}}`,
			`{"spec":{"containers":[{"name":"b","env":[{"name":"X"}]}]}}`,
		}
		for _, order := range [][]string{patches, {patches[1], patches[0]}} {
			root := containersSchema()
			for _, patch := range order {
				want, wantErr := engine.Options{}.ApplyMap(decoded(mixed), decoded(patch), plain{root})
				got, err := engine.Options{}.ApplyMap(decoded(mixed), decoded(patch), root)
				Expect(errText(err)).To(Equal(errText(wantErr)), "patch %s", patch)
				Expect(got).To(Equal(want), "patch %s", patch)
			}
			Expect(skeletons(root)).To(Equal(0))
		}
	})

	It("keeps its skeleton buffer for the next call only while it has its room", func() {
		root := containersSchema()
		room, limit, err := engine.SkeletonRoom(decoded(live), decoded(`{"spec":{"containers":[{"name":"a","image":"b"}]}}`), root)
		Expect(err).NotTo(HaveOccurred())
		Expect(room).To(Equal(limit), "the buffer made is kept")
		long := strings.Repeat("k", 3*limit) // (a key alone takes the skeleton past the room)
		room, _, err = engine.SkeletonRoom(decoded(live), decoded(`{"spec":{"`+long+`":"v"}}`), root)
		Expect(err).NotTo(HaveOccurred())
		Expect(room).To(BeNumerically("<=", limit), "a buffer grown past the room is dropped")
	})

	It("stops a skeleton at the field that takes it past its bound, in a map of scalars as in a list", func() {
		data := map[string]interface{}{}
		items := make([]interface{}, 0, 10000)
		for i := range 10000 {
			data[fmt.Sprintf("key-%05d", i)] = "v"
			items = append(items, map[string]interface{}{"k": "v"})
		}
		for _, doc := range []map[string]interface{}{{"data": data}, {"items": items}} {
			n, kept, err := engine.SkeletonLen(doc)
			Expect(err).NotTo(HaveOccurred())
			Expect(kept).To(BeFalse())
			Expect(n).To(BeNumerically("<=", engine.SkeletonMax+16), "at most one field's bytes past the bound")
		}
	})
})

var _ = Describe("ApplyJSON under a TypeCacher Lookup", func() {
	// The object holds fields the patches do not reach (kind, replicas, b's item), which the call leaves out of the
	// merge (see trimmer), so that the documents whose skeletons key the type are small, as ApplyMap's are. Each patch
	// adds a container, which the fieldwise merge leaves to the engine (see fieldwiseValues), whose type is kept.
	live := `{"kind":"K","spec":{"replicas":3,"containers":[{"name":"a","image":"1","env":[{"name":"X","value":"1"}]},` +
		`{"name":"b","image":"2"}]}}`

	It("keeps a call's type by its trimmed documents' skeletons: calls with other values of the same keys build none", func() {
		root := containersSchema()
		apply := func(patch string) {
			want, err := engine.Options{}.ApplyJSON([]byte(live), []byte(patch), plain{root})
			Expect(err).NotTo(HaveOccurred())
			got, err := engine.Options{}.ApplyJSON([]byte(live), []byte(patch), root)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got)).To(Equal(string(want)), "patch %s", patch)
		}
		for i := range 20 {
			apply(fmt.Sprintf(`{"spec":{"containers":[{"name":"c","image":"v%d"}]}}`, i))
		}
		Expect(root.types.SkeletonsLen()).To(Equal(1), "one skeleton: the images are values")
		apply(`{"spec":{"containers":[{"name":"c","env":[{"name":"X","value":"2"}]}]}}`)
		Expect(root.types.SkeletonsLen()).To(Equal(2), "other keys: a skeleton of their own")
	})
})
