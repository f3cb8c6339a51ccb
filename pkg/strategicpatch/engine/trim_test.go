package engine

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/features"
)

// trimSchema is a TypeCacher schema node, as package strategicpatch's look-ups of a Go type are: fields without patch
// strategy ("" as a struct tag gives it), but where merge sets one.
type trimSchema struct {
	sub   map[string]*trimSchema
	merge string // the merge key of the list of objects this node's items are, if merged
	types Types
}

func (s *trimSchema) Struct(key string) (Lookup, Meta, error) {
	if n := s.sub[key]; n != nil {
		return n, n.meta(), nil
	}
	return &trimSchema{}, Meta{Strategies: []string{""}}, nil
}

func (s *trimSchema) Slice(key string) (Lookup, Meta, error) { return s.Struct(key) }

func (s *trimSchema) Types() *Types { return &s.types }

func (s *trimSchema) meta() Meta {
	if s.merge != "" {
		return Meta{Strategies: []string{"merge"}, MergeKey: s.merge}
	}
	return Meta{Strategies: []string{""}}
}

var trimDeployment = &trimSchema{sub: map[string]*trimSchema{
	"spec": {sub: map[string]*trimSchema{"template": {sub: map[string]*trimSchema{"spec": {sub: map[string]*trimSchema{
		"containers": {merge: "name", sub: map[string]*trimSchema{
			"env":   {merge: "name"},
			"ports": {merge: "containerPort"},
		}},
	}}}}}},
}}

var _ = Describe("the trimmer", func() {
	kubectl := features.Kubectl()
	DescribeTable("leaves out what the patch does not reach, and gives the whole merge's bytes",
		func(original, patch string, trims bool) {
			var trimmed bool
			got, err := inArena(func(r jsonReader) ([]byte, error) {
				pv, err := r.object([]byte(patch))
				if err != nil {
					return nil, err
				}
				out, ok := Options{}.applyJSONTrimmed([]byte(original), pv, trimDeployment, r)
				trimmed = ok
				return out, nil
			})
			Expect(err).NotTo(HaveOccurred())
			Expect(trimmed).To(Equal(trims), "trimmed")
			want, err := Options{Gates: &kubectl}.ApplyJSON([]byte(original), []byte(patch), trimDeployment)
			Expect(err).NotTo(HaveOccurred())
			if trims {
				Expect(string(got)).To(Equal(string(want)))
			}
		},
		Entry("fields beside the patch's path",
			`{"metadata":{"name":"x"},"spec":{"replicas":3,"template":{"metadata":{"a":1},"spec":{"hostname":"h"}}}}`,
			`{"spec":{"template":{"spec":{"hostname":"i"}}}}`, true),
		Entry("the fields of a named container, its env and ports",
			`{"spec":{"template":{"spec":{"containers":[{"env":[{"name":"A","value":"1"}],"image":"a:1","name":"a","ports":[{"containerPort":80}]},{"image":"b:1","name":"b"}]}}}}`,
			`{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"containers":[{"image":"a:2","name":"a"}]}}}}`, true),
		Entry("a container whose patch item holds a list, read whole beside fields left out",
			`{"metadata":{"a":1},"spec":{"template":{"spec":{"containers":[{"env":[{"name":"A","value":"1","valueFrom":{"x":{"y":[1,2]}}}],"image":"a:1","name":"a"}]}}}}`,
			`{"spec":{"template":{"spec":{"containers":[{"env":[{"name":"A","value":"2"},{"name":"B","value":"3"}],"name":"a"}]}}}}`, true),
		Entry("the fields of a named port",
			`{"spec":{"template":{"spec":{"containers":[{"env":[{"name":"A"}],"name":"a","ports":[{"containerPort":80,"name":"p","protocol":"TCP"}]}]}}}}`,
			`{"spec":{"template":{"spec":{"containers":[{"name":"a","tty":true}]}}}}`, true),
		Entry("nothing the patch leaves alone", `{"spec":{"replicas":3}}`, `{"spec":{"replicas":4}}`, false),
		Entry("a root map replaced", `{"metadata":{"name":"x"},"spec":{}}`, `{"$patch":"replace","spec":{}}`, false),
	)
})
