package openapi_test

import (
	"strings"

	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
)

// at walks a dotted path from t: "spec.containers[].ports" steps into field
// spec, field containers, the list item type, then field ports. It returns
// the last field and its type.
func at(t *openapi.Type, path string) (*openapi.Field, *openapi.Type) {
	var f *openapi.Field
	for _, seg := range strings.Split(path, ".") {
		items := strings.HasSuffix(seg, "[]")
		name := strings.TrimSuffix(seg, "[]")
		f = t.Field(name)
		ExpectWithOffset(1, f).NotTo(BeNil(), "type %s has no field %q (walking %s)", t.Name, name, path)
		t = f.Type
		if items {
			ExpectWithOffset(1, t.Kind).To(Equal(openapi.KindList), "%s is not a list", seg)
			t = t.Elem
		}
	}
	return f, t
}

func byName(s *openapi.Schema, name string) *openapi.Type {
	t, ok := s.ByName(name)
	ExpectWithOffset(1, ok).To(BeTrue(), "no definition %s", name)
	return t
}

// expectMeta checks the merge metadata of the field at path of kind.
func expectMeta(s *openapi.Schema, apiVersion, kind, path string, strategy openapi.Strategy, key []string) {
	root, ok := s.ForKind(apiVersion, kind)
	ExpectWithOffset(1, ok).To(BeTrue(), "%s %s does not resolve", apiVersion, kind)
	f, _ := at(root, path)
	ExpectWithOffset(1, f.Meta.Strategy).To(Equal(strategy), "strategy %s", f.Meta.Strategy)
	if key == nil {
		ExpectWithOffset(1, f.Meta.MergeKey).To(BeEmpty())
	} else {
		ExpectWithOffset(1, f.Meta.MergeKey).To(Equal(key))
	}
}

// expectUnresolved checks that kind does not resolve.
func expectUnresolved(s *openapi.Schema, apiVersion, kind string) {
	t, ok := s.ForKind(apiVersion, kind)
	ExpectWithOffset(1, ok).To(BeFalse())
	ExpectWithOffset(1, t).To(BeNil())
}
