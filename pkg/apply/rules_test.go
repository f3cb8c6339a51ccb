package apply_test

import (
	"errors"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/value"
)

// The rules of these specs, registered once for the test binary as a program registers its own.
var (
	maxGate   = features.MustRegister("TestMaxOfTwo", "counters keep the larger of local's and live's value; off: local's")
	unionGate = features.MustRegister("TestUnionKind", "tag lists are the sorted union of local's and live's; off: local's list")
)

func init() {
	// Max decides a number as the larger of local's and live's: no strategic merge patch says that.
	elements.MustRegisterRule(elements.Rule{Name: "TestMax", Gate: maxGate, Patch: elements.PatchRefused,
		Visitor: func(elements.Walker) elements.Visitor { return maxVisitor{} }})
	// Union builds an Element kind of its own: one child per distinct tag, decided as their sorted union.
	elements.MustRegisterRule(elements.Rule{Name: "TestUnion", Gate: unionGate, Patch: elements.PatchRefused,
		Collate: collateUnion, Visitor: func(elements.Walker) elements.Visitor { return unionVisitor{} }})
}

type maxVisitor struct{}

func (maxVisitor) Visit(e elements.Element) (elements.Outcome, error) {
	n := e.Base()
	l, lok := n.Local.AsFloat()
	v, vok := n.Live.AsFloat()
	switch {
	case lok && vok && v > l:
		return elements.Keep(n.Live), nil
	case lok:
		return elements.Keep(n.Local), nil
	}
	return elements.Absent, nil
}

// unionElement is the program's own Element kind: a tag list whose children are its distinct tags.
type unionElement struct {
	elements.Node
	tags []elements.Element
}

func (u *unionElement) Children() []elements.Element { return u.tags }

func collateUnion(b elements.Builder, n elements.Node) (elements.Element, error) {
	u := &unionElement{Node: n}
	b.Number(&u.Node)
	var seen []string
	for _, src := range []value.Value{n.Local, n.Live} {
		for _, it := range src.Items() {
			s, _ := it.AsString()
			if slices.Contains(seen, s) {
				continue
			}
			seen = append(seen, s)
			ch, err := b.Child(u, "", elements.Values{Local: it, HasLocal: true}, n.Type.Item(), openapi.Meta{})
			if err != nil {
				return nil, err
			}
			u.tags = append(u.tags, ch)
		}
	}
	return u, nil
}

type unionVisitor struct{}

func (unionVisitor) Visit(e elements.Element) (elements.Outcome, error) {
	u, ok := e.(*unionElement)
	if !ok {
		return elements.Absent, elements.Unsupported(unionVisitor{}, e)
	}
	tags := make([]string, 0, len(u.tags))
	for _, t := range u.tags {
		s, _ := t.Base().Local.AsString()
		tags = append(tags, s)
	}
	slices.Sort(tags)
	items := make([]value.Value, len(tags))
	for i, s := range tags {
		items[i] = value.String(s)
	}
	return elements.Keep(value.List(items)), nil
}

const counterCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: counters.example.com}
spec:
  group: example.com
  names: {kind: Counter, plural: counters}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              count: {type: integer, x-ply-merge-rule: TestMax}
              tags: {type: array, items: {type: string}, x-ply-merge-rule: TestUnion}
              limit: {type: integer, x-ply-merge-rule: {name: NotRegistered, args: [a]}}
`

func counterSchema() *openapi.Schema {
	s, err := openapi.LoadCRD("counter.yaml", []byte(counterCRD))
	Expect(err).NotTo(HaveOccurred())
	return s
}

func counter(spec string) value.Value {
	return mustParse("{apiVersion: example.com/v1, kind: Counter, metadata: {name: c}, spec: " + spec + "}")
}

var _ = Describe("rules a program registers", func() {
	It("decides a field by the rule's visitor, and by the built-in rules with its gate off", func() {
		opts := apply.DefaultOptions()
		opts.Schema = counterSchema()
		res, err := apply.Merge(counter("{count: 3}"), counter("{count: 4}"), counter("{count: 9}"), opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Object).To(equalValue(counter("{count: 9}")))
		Expect(changeLines(res.Changes)).To(Equal([]string{"kept spec.count (local)"}))

		opts.Gates = features.Gates{}.With(maxGate, false)
		res, err = apply.Merge(counter("{count: 3}"), counter("{count: 4}"), counter("{count: 9}"), opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Object).To(equalValue(counter("{count: 4}")))
	})

	It("refuses, naming the rule and the path, a patch no strategic merge patch can express", func() {
		_, err := patchgen.ThreeWay(counter("{count: 3}"), counter("{count: 4}"), counter("{count: 9}"), patchgen.Options{Schema: counterSchema()})
		var re *elements.RuleError
		Expect(errors.As(err, &re)).To(BeTrue(), "got %v", err)
		Expect(re.Rule).To(Equal("TestMax"))
		Expect(err).To(MatchError(ContainSubstring("spec.count: merge rule TestMax decides this field in a way no strategic merge patch expresses")))
		// The conflict check needs kubectl's patch too: refused alike.
		opts := apply.DefaultOptions()
		opts.Schema, opts.Overwrite = counterSchema(), false
		_, err = apply.Merge(counter("{count: 3}"), counter("{count: 4}"), counter("{count: 9}"), opts)
		Expect(errors.As(err, &re)).To(BeTrue(), "got %v", err)
		// A patch of an object that leaves the field alone is made.
		p, err := patchgen.ThreeWay(counter("{}"), mustParse("{apiVersion: example.com/v1, kind: Counter, metadata: {name: d}, spec: {}}"), counter("{count: 9}"), patchgen.Options{Schema: counterSchema()})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(p.JSON())).To(Equal(`{"metadata":{"name":"d"}}`))
	})

	It("builds an Element kind of the program's own, decides it, and lists its change", func() {
		opts := apply.DefaultOptions()
		opts.Schema = counterSchema()
		res, err := apply.Merge(value.Null, counter("{tags: [b, a]}"), counter("{tags: [c, a]}"), opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Object).To(equalValue(counter("{tags: [a, b, c]}")))
		Expect(changeLines(res.Changes)).To(Equal([]string{"replace spec.tags (local)"}))
	})

	It("refuses a schema naming a rule nobody registered, at the field", func() {
		opts := apply.DefaultOptions()
		opts.Schema = counterSchema()
		_, err := apply.Merge(value.Null, counter("{limit: 1}"), value.Null, opts)
		Expect(err).To(MatchError("spec.limit: merge rule NotRegistered(a) is not registered (pkg/elements.RegisterRule); the schema or a field rule names it"))
	})
})

var _ = Describe("RegisterRule", func() {
	visitor := func(elements.Walker) elements.Visitor { return maxVisitor{} }
	DescribeTable("refuses a rule that cannot work, naming it",
		func(r elements.Rule, msg string) {
			Expect(elements.RegisterRule(r)).To(MatchError(ContainSubstring(msg)))
		},
		Entry("no name", elements.Rule{Visitor: visitor, Patch: elements.PatchRefused, Gate: maxGate}, "needs a name"),
		Entry("nothing to do", elements.Rule{Name: "A", Gate: maxGate}, "would decide nothing"),
		Entry("a kind without visitor", elements.Rule{Name: "B", Gate: maxGate, Collate: collateUnion}, "needs a Visitor"),
		Entry("a visitor whose patches are unsaid", elements.Rule{Name: "C", Gate: maxGate, Visitor: visitor}, "PatchLeavesLive or PatchRefused"),
		Entry("a built-in gate", elements.Rule{Name: "D", Visitor: visitor, Patch: elements.PatchRefused}, "needs a gate of its own"),
		Entry("a name taken", elements.Rule{Name: "TestMax", Gate: maxGate, Visitor: visitor, Patch: elements.PatchRefused}, "registered already"),
	)
})

var _ = Describe("features.Register", func() {
	It("adds a gate that Parse, String and Kubectl know", func() {
		g, err := features.Parse(features.Gates{}, "TestMaxOfTwo=false")
		Expect(err).NotTo(HaveOccurred())
		Expect(g.Enabled(maxGate)).To(BeFalse())
		Expect(features.Kubectl().Enabled(maxGate)).To(BeFalse())
		Expect(features.Gates{}.String()).To(ContainSubstring("TestMaxOfTwo=true"))
		Expect(maxGate.BuiltIn()).To(BeFalse())
		Expect(features.SeedOrdering.BuiltIn()).To(BeTrue())
	})
	DescribeTable("refuses a bad name",
		func(name, msg string) {
			_, err := features.Register(name, "")
			Expect(err).To(MatchError(ContainSubstring(msg)))
		},
		Entry("taken", "SeedOrdering", "registered already"),
		Entry("not an identifier", "Keep-Live", "not an identifier"),
		Entry("empty", "", "not an identifier"),
	)
})

var _ = Describe("openapi field rules", func() {
	DescribeTable("refuse what they cannot reach, naming the rule",
		func(r openapi.FieldRule, msg string) {
			s, err := openapi.Default()
			Expect(err).NotTo(HaveOccurred())
			_, err = s.WithRules(r)
			Expect(err).To(MatchError(ContainSubstring(msg)))
		},
		Entry("an unknown kind", openapi.FieldRule{APIVersion: "v1", Kind: "Nope", Path: "spec", Rule: openapi.RuleRef{Name: "X"}}, "the schema has no kind v1 Nope"),
		Entry("an undeclared field", openapi.FieldRule{APIVersion: "apps/v1", Kind: "Deployment", Path: "spec.replicaz", Rule: openapi.RuleRef{Name: "X"}}, `declares no field "replicaz"`),
	)
	It("refuses a bad x-ply-merge-rule, naming the field", func() {
		_, err := openapi.LoadCRD("bad.yaml", []byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: bads.example.com}
spec:
  group: example.com
  names: {kind: Bad, plural: bads}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          num: {type: integer, x-ply-merge-rule: {name: X, args: [1]}}
`))
		Expect(err).To(MatchError(ContainSubstring("x-ply-merge-rule: args[0] is an integer, want a string")))
	})
})
