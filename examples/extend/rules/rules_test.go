package rules_test

import (
	"errors"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/examples/extend/rules"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/value"
)

// fixture is one testdata file: the three inputs of a merge and the merged object with the rule's gate on.
type fixture struct{ recorded, local, live, merged value.Value }

func load(name string) fixture {
	data, err := os.ReadFile(filepath.Join("testdata", name))
	Expect(err).NotTo(HaveOccurred())
	doc, err := parse.Document(data)
	Expect(err).NotTo(HaveOccurred())
	get := func(k string) value.Value {
		v, ok := doc.Get(k)
		Expect(ok).To(BeTrue(), "%s has %s", name, k)
		return v
	}
	return fixture{get("recorded"), get("local"), get("live"), get("merged")}
}

// schemaWith is the embedded Kubernetes schema (and CRD files, if any) with field rules.
func schemaWith(crds []string, fieldRules ...openapi.FieldRule) *openapi.Schema {
	base, err := openapi.Default()
	Expect(err).NotTo(HaveOccurred())
	if len(crds) > 0 {
		files := make([]string, len(crds))
		for i, c := range crds {
			files[i] = filepath.Join("testdata", c)
		}
		custom, err := openapi.LoadSources(files...)
		Expect(err).NotTo(HaveOccurred())
		base = openapi.Union(custom, base)
	}
	if len(fieldRules) == 0 {
		return base
	}
	s, err := base.WithRules(fieldRules...)
	Expect(err).NotTo(HaveOccurred())
	return s
}

func equalValue(want value.Value) OmegaMatcher {
	return WithTransform(func(v value.Value) string { return string(v.JSON()) }, Equal(string(want.JSON())))
}

// changeList renders a merge's changes as "op path".
func changeList(res apply.Result) []string {
	var out []string
	for _, c := range res.Changes {
		out = append(out, c.Op.String()+" "+c.Path().String())
	}
	return out
}

// ruleCase is a fixture with the schema that declares its rule.
type ruleCase struct {
	file    string
	schema  func() *openapi.Schema
	gate    features.Gate
	changes []string // with the gate on
	// owned is the path a patch must leave alone (a KeepLive field), "" for a keyed-list rule.
	owned string
}

var hpa = ruleCase{
	file:    "hpa-replicas.yaml",
	schema:  func() *openapi.Schema { return schemaWith(nil, rules.Owned("apps/v1", "Deployment", "spec.replicas")) },
	gate:    rules.KeepLiveOwner,
	changes: []string{"kept spec.replicas", `replace spec.template.spec.containers[name=web].image`},
	owned:   "replicas",
}

var webhook = ruleCase{
	file: "webhook-cabundle.yaml",
	schema: func() *openapi.Schema {
		return schemaWith(nil, rules.Owned("admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration", "webhooks.clientConfig.caBundle"))
	},
	gate:    rules.KeepLiveOwner,
	changes: []string{`kept webhooks[name=a.example.com].clientConfig.caBundle`, `replace webhooks[name=a.example.com].timeoutSeconds`},
	owned:   "caBundle",
}

var routeInCode = ruleCase{
	file: "route-backends.yaml",
	schema: func() *openapi.Schema {
		return schemaWith([]string{"route-crd.yaml"}, rules.ListKeyedBy("example.com/v1", "Route", "spec.backends", "name"))
	},
	gate:    rules.MergeByKeyLists,
	changes: []string{`replace spec.backends[name=main].weight`},
}

var routeInSchema = ruleCase{
	file:    "route-backends.yaml",
	schema:  func() *openapi.Schema { return schemaWith([]string{"route-crd-extension.yaml"}) },
	gate:    rules.MergeByKeyLists,
	changes: []string{`replace spec.backends[name=main].weight`},
}

var _ = Describe("rules added from outside ply", func() {
	DescribeTable("merge decides the declared field by the rule, and lists it in the changes",
		func(c ruleCase) {
			f := load(c.file)
			opts := apply.DefaultOptions()
			opts.Schema = c.schema()
			res, err := apply.Merge(f.recorded, f.local, f.live, opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Object).To(equalValue(f.merged))
			Expect(changeList(res)).To(Equal(c.changes))
		},
		Entry("a Deployment's replicas under an autoscaler", hpa),
		Entry("a webhook's injected caBundle, inside a keyed list", webhook),
		Entry("a custom resource's atomic list, keyed in code", routeInCode),
		Entry("a custom resource's atomic list, keyed by x-ply-merge-rule", routeInSchema),
	)

	DescribeTable("with the rule's gate off, or --compat=kubectl, the schema alone decides: the manifest wins",
		func(c ruleCase) {
			f := load(c.file)
			for _, gates := range []features.Gates{features.Gates{}.With(c.gate, false), features.Kubectl()} {
				opts := apply.DefaultOptions()
				opts.Schema, opts.Gates = c.schema(), gates
				res, err := apply.Merge(f.recorded, f.local, f.live, opts)
				Expect(err).NotTo(HaveOccurred())
				plain := apply.DefaultOptions()
				plain.Schema, plain.Gates = schemaWith(crdsOf(c)), gates
				want, err := apply.Merge(f.recorded, f.local, f.live, plain)
				Expect(err).NotTo(HaveOccurred())
				Expect(res.Object).To(equalValue(want.Object), "gates %s", gates)
				Expect(res.Object).NotTo(equalValue(f.merged))
			}
		},
		Entry("KeepLive", hpa),
		Entry("KeepLive in a keyed list", webhook),
		Entry("MergeByKey in code", routeInCode),
		Entry("MergeByKey by extension", routeInSchema),
	)

	DescribeTable("the gate is switched by --feature-gates syntax",
		func(spec string, on bool) {
			g, err := features.Parse(features.Gates{}, spec)
			Expect(err).NotTo(HaveOccurred())
			Expect(g.Enabled(rules.KeepLiveOwner)).To(Equal(on))
			Expect(g.String()).To(ContainSubstring("KeepLiveOwner=" + map[bool]string{true: "true", false: "false"}[on]))
		},
		Entry("default", "", true),
		Entry("off", "KeepLiveOwner=false", false),
		Entry("on, beside a built-in gate", "KeepLiveOwner=true,SeedOrdering=false", true),
	)

	It("raises no conflict on a field another writer owns, and one without the rule", func() {
		f := load(hpa.file)
		opts := apply.DefaultOptions()
		opts.Schema, opts.Overwrite = hpa.schema(), false
		res, err := apply.Merge(f.recorded, f.local, f.live, opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Object).To(equalValue(f.merged))

		opts.Gates = features.Gates{}.With(rules.KeepLiveOwner, false)
		_, err = apply.Merge(f.recorded, f.local, f.live, opts)
		var conflict *apply.ConflictError
		Expect(errors.As(err, &conflict)).To(BeTrue(), "got %v", err)
		Expect(conflict.Conflicts).To(HaveLen(1))
		Expect(conflict.Conflicts[0].Path.String()).To(Equal("spec.replicas"))
	})

	DescribeTable("patch generation follows the rule, and applying the patch gives the merge's result",
		func(c ruleCase) {
			f := load(c.file)
			sch := c.schema()
			p, err := patchgen.ThreeWay(f.recorded, f.local, f.live, patchgen.Options{Schema: sch, Overwrite: true})
			Expect(err).NotTo(HaveOccurred())
			if c.owned != "" {
				Expect(string(p.JSON())).NotTo(ContainSubstring(c.owned), "the patch never touches the owned field")
			}
			out, err := patch.Apply(f.live, p, patch.Options{Schema: sch})
			Expect(err).NotTo(HaveOccurred())
			Expect(out).To(equalValue(f.merged))
		},
		Entry("KeepLive", hpa),
		Entry("KeepLive in a keyed list", webhook),
		Entry("MergeByKey", routeInCode),
	)

	It("applies a patch that sets an owned field as the rule decides: live's value stays", func() {
		f := load(hpa.file)
		p, err := parse.Document([]byte(`{"spec": {"replicas": 1}}`))
		Expect(err).NotTo(HaveOccurred())
		out, err := patch.Apply(f.live, p, patch.Options{Schema: hpa.schema()})
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(equalValue(f.live))
	})
})

func crdsOf(c ruleCase) []string {
	switch c.file {
	case routeInCode.file:
		return []string{"route-crd.yaml"}
	}
	return nil
}
