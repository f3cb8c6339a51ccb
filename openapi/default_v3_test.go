package openapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/openapi/internal/reduce"
	"github.com/plyproject/ply/pkg/value"
)

// embeddedGVKs returns, for every embedded v3 document, the GVKs its
// schemas claim for the document's own group-version.
func embeddedGVKs() map[string][]openapi.GVK {
	files, err := openapi.EmbeddedV3Files()
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	out := make(map[string][]openapi.GVK, len(files))
	for _, file := range files {
		apiVersion, ok := reduce.GroupVersion(file)
		ExpectWithOffset(1, ok).To(BeTrue(), "embedded file %s has no group-version", file)
		data, err := openapi.EmbeddedV3(file)
		ExpectWithOffset(1, err).NotTo(HaveOccurred())
		var doc struct {
			Components struct {
				Schemas map[string]struct {
					GVKs []openapi.GVK `json:"x-kubernetes-group-version-kind"`
				} `json:"schemas"`
			} `json:"components"`
		}
		ExpectWithOffset(1, json.Unmarshal(data, &doc)).To(Succeed())
		for _, sch := range doc.Components.Schemas {
			for _, g := range sch.GVKs {
				gv := g.Version
				if g.Group != "" {
					gv = g.Group + "/" + g.Version
				}
				if gv == apiVersion {
					out[file] = append(out[file], g)
				}
			}
		}
	}
	return out
}

var _ = Describe("DefaultV3", func() {
	var s *openapi.Schema
	BeforeEach(func() {
		var err error
		s, err = openapi.DefaultV3()
		Expect(err).NotTo(HaveOccurred())
	})

	It("is one shared schema", func() {
		again, err := openapi.DefaultV3()
		Expect(err).NotTo(HaveOccurred())
		Expect(again).To(BeIdenticalTo(s))
	})

	It("parses only the document of the group-version asked for, once", func() {
		fresh, err := openapi.NewLazyDefault()
		Expect(err).NotTo(HaveOccurred())
		Expect(openapi.LazyParsedFiles(fresh)).To(BeEmpty())
		_, ok := fresh.ForKind("example.com/v1", "Widget")
		Expect(ok).To(BeFalse())
		Expect(openapi.LazyParsedFiles(fresh)).To(BeEmpty())
		first, ok := fresh.ForKind("apps/v1", "Deployment")
		Expect(ok).To(BeTrue())
		Expect(openapi.LazyParsedFiles(fresh)).To(Equal([]string{"apis__apps__v1_openapi.json"}))
		again, _ := fresh.ForKind("apps/v1", "Deployment")
		Expect(again).To(BeIdenticalTo(first))
		_, ok = fresh.ForKind("apps/v1", "StatefulSet")
		Expect(ok).To(BeTrue())
		Expect(openapi.LazyParsedFiles(fresh)).To(HaveLen(1))
		_, ok = fresh.ByName("io.k8s.api.batch.v1.Job")
		Expect(ok).To(BeTrue())
		Expect(len(openapi.LazyParsedFiles(fresh))).To(BeNumerically(">", 1))
	})

	It("parses every embedded document without error", func() {
		Expect(openapi.CheckLazy(s)).To(Succeed())
		Expect(openapi.LazyGroupVersions(s)).To(ContainElements("v1", "apps/v1", "batch/v1", "apiextensions.k8s.io/v1"))
	})

	It("resolves every built-in kind of the release by apiVersion and kind", func() {
		all := embeddedGVKs()
		Expect(len(all)).To(BeNumerically(">=", 30), "group-versions with kinds")
		n := 0
		for file, gvks := range all {
			for _, g := range gvks {
				apiVersion := g.Version
				if g.Group != "" {
					apiVersion = g.Group + "/" + g.Version
				}
				t, ok := s.ForKind(apiVersion, g.Kind)
				Expect(ok).To(BeTrue(), "%s %s (from %s) does not resolve", apiVersion, g.Kind, file)
				Expect(t.Kind).To(Equal(openapi.KindStruct), "%s %s", apiVersion, g.Kind)
				n++
			}
		}
		Expect(n).To(BeNumerically(">", 200))
	})

	It("keys Deployment container ports by containerPort and protocol, protocol defaulting to TCP", func() {
		d, ok := s.ForKind("apps/v1", "Deployment")
		Expect(ok).To(BeTrue())
		f, item := at(d, "spec.template.spec.containers[].ports[]")
		Expect(f.Meta.Strategy).To(Equal(openapi.StrategyMerge))
		Expect(f.Meta.MergeKey).To(Equal([]string{"containerPort", "protocol"}))
		def, ok := item.FieldDefault("protocol")
		Expect(ok).To(BeTrue())
		Expect(value.Equal(def, value.String("TCP"))).To(BeTrue())
	})

	DescribeTable("reads the v3 merge metadata of fields",
		func(apiVersion, kind, path string, strategy openapi.Strategy, key []string) {
			expectMeta(s, apiVersion, kind, path, strategy, key)
		},
		Entry("containers", "apps/v1", "Deployment", "spec.template.spec.containers", openapi.StrategyMerge, []string{"name"}),
		Entry("Service ports", "v1", "Service", "spec.ports", openapi.StrategyMerge, []string{"port", "protocol"}),
		Entry("Pod volumes keep retainKeys", "v1", "Pod", "spec.volumes", openapi.StrategyMerge|openapi.StrategyRetainKeys, []string{"name"}),
		Entry("container args are atomic", "v1", "Pod", "spec.containers[].args", openapi.Strategy(0), nil),
		Entry("finalizers are a set", "apps/v1", "Deployment", "metadata.finalizers", openapi.StrategyMerge, nil),
		Entry("a LabelSelector is an atomic map", "apps/v1", "Deployment", "spec.selector", openapi.StrategyReplace, nil),
	)

	It("finds definitions by name across documents", func() {
		t := byName(s, "io.k8s.api.apps.v1.Deployment")
		Expect(t.Kind).To(Equal(openapi.KindStruct))
		_, ok := s.ByName("io.example.Missing")
		Expect(ok).To(BeFalse())
	})

	DescribeTable("does not resolve kinds it does not know",
		func(apiVersion, kind string) { expectUnresolved(s, apiVersion, kind) },
		Entry("unknown group-version", "example.com/v1", "Deployment"),
		Entry("unknown kind", "v1", "Deployment"),
		Entry("empty", "", ""),
	)

	It("is what `go generate ./openapi/` writes from the published v3 documents", func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		src, err := reduce.Locate(ctx, openapi.DefaultKubernetesVersion)
		if err != nil {
			Fail("cannot reach the published documents of Kubernetes " + openapi.DefaultKubernetesVersion +
				" (populate the module cache with `GONOSUMDB=k8s.io/kubernetes go mod download k8s.io/kubernetes@" +
				openapi.DefaultKubernetesVersion + "`): " + err.Error())
		}
		dir := filepath.Join(filepath.Dir(src), "v3")
		published, err := reduce.V3Files(dir)
		Expect(err).NotTo(HaveOccurred())
		embedded, err := openapi.EmbeddedV3Files()
		Expect(err).NotTo(HaveOccurred())
		Expect(embedded).To(Equal(published), "run `go generate ./openapi/`")
		for _, file := range published {
			original, err := os.ReadFile(filepath.Join(dir, file))
			Expect(err).NotTo(HaveOccurred())
			want, err := reduce.ReduceV3(original)
			Expect(err).NotTo(HaveOccurred())
			got, err := openapi.EmbeddedV3(file)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want), "openapi/default/v3/%s differs from the reduction of %s; run `go generate ./openapi/`", file, file)
		}
	})
})

// The embedded documents are read with ply's own parser (loadV3Parsed);
// user and server documents with encoding/json (loadV3). Both must build
// the same schema from every embedded document, and the parser's loader
// must report the faults the other one does, with the document named.
var _ = Describe("the embedded documents' loader", func() {
	files, err := openapi.EmbeddedV3Files()
	It("lists the embedded documents", func() {
		Expect(err).NotTo(HaveOccurred())
		Expect(files).NotTo(BeEmpty())
	})
	for _, file := range files {
		It("loads "+file+" as encoding/json's loader does", func() {
			data, err := openapi.EmbeddedV3(file)
			Expect(err).NotTo(HaveOccurred())
			want, err := openapi.LoadV3JSON(file, data)
			Expect(err).NotTo(HaveOccurred())
			got, err := openapi.LoadV3Parsed(file, data)
			Expect(err).NotTo(HaveOccurred())
			Expect(openapi.SchemaDiff(got, want)).To(BeEmpty())
		})
	}

	It("tells a changed document from the original", func() {
		data, err := openapi.EmbeddedV3("apis__apps__v1_openapi.json")
		Expect(err).NotTo(HaveOccurred())
		want, err := openapi.LoadV3JSON("apps", data)
		Expect(err).NotTo(HaveOccurred())
		changed := bytes.Replace(data, []byte(`"x-kubernetes-list-type":"map"`), []byte(`"x-kubernetes-list-type":"atomic"`), 1)
		Expect(changed).NotTo(Equal(data))
		got, err := openapi.LoadV3Parsed("apps", changed)
		Expect(err).NotTo(HaveOccurred())
		Expect(openapi.SchemaDiff(got, want)).To(ContainSubstring("meta"))
	})

	DescribeTable("reports bad documents with the document and path",
		func(doc, msg string) {
			_, err := openapi.LoadV3Parsed("bad.json", []byte(doc))
			Expect(err).To(HaveOccurred())
			Expect(err.Error()).To(ContainSubstring("bad.json"))
			Expect(err.Error()).To(ContainSubstring(msg))
		},
		Entry("malformed JSON", `{"openapi":`, "not a valid OpenAPI v3 JSON document"),
		Entry("not an object", `[1]`, "the document is an array"),
		Entry("version 2", `{"openapi":"2.0"}`, `openapi is "2.0", want a 3.x version`),
		Entry("schemas a list", `{"openapi":"3.0.0","components":{"schemas":[]}}`, "components.schemas is an array"),
		Entry("type a number", `{"openapi":"3.0.0","components":{"schemas":{"A":{"properties":{"x":{"type":1}}}}}}`, "definition A, field x: type is an integer, want a string"),
		Entry("properties a list", `{"openapi":"3.0.0","components":{"schemas":{"A":{"properties":[]}}}}`, "properties is an array, want an object"),
		Entry("allOf an object", `{"openapi":"3.0.0","components":{"schemas":{"A":{"allOf":{}}}}}`, "allOf is an object, want a list of schemas"),
		Entry("a schema a string", `{"openapi":"3.0.0","components":{"schemas":{"A":{"items":"x","type":"array"}}}}`, "the schema is a string, want a schema object"),
		Entry("bad list type", `{"openapi":"3.0.0","components":{"schemas":{"A":{"properties":{"l":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"bag"}}}}}}`,
			`x-kubernetes-list-type "bag", want atomic, set or map`),
		Entry("dangling $ref", `{"openapi":"3.0.0","components":{"schemas":{"A":{"properties":{"b":{"$ref":"#/components/schemas/B"}}}}}}`,
			"names no schema of this document"),
		Entry("additionalProperties a number", `{"openapi":"3.0.0","components":{"schemas":{"A":{"additionalProperties":3}}}}`,
			"additionalProperties is 3, want a boolean or a schema"),
	)
})

// The embedded documents are also compiled (default/v3.compiled): the
// default schema reads a group-version's section instead of its JSON.
var _ = Describe("the compiled form of the embedded documents", func() {
	It("is what the documents compile to, and reads back to the schemas the JSON loaders build", func() {
		files, err := openapi.EmbeddedV3Files()
		Expect(err).NotTo(HaveOccurred())
		sections := map[string][]byte{}
		wants := map[string]*openapi.Schema{}
		for _, file := range files {
			data, err := openapi.EmbeddedV3(file)
			Expect(err).NotTo(HaveOccurred())
			want, err := openapi.LoadV3JSON(file, data)
			Expect(err).NotTo(HaveOccurred())
			sections[file], err = openapi.CompileSchema(want)
			Expect(err).NotTo(HaveOccurred())
			wants[file] = want
		}
		blob := openapi.CompileBlob(sections)
		if openapi.UpdateCompiled() {
			Expect(os.WriteFile(filepath.Join("default", "v3.compiled"), blob, 0o644)).To(Succeed())
			return
		}
		Expect(bytes.Equal(openapi.DefaultCompiled(), blob)).To(BeTrue(),
			"openapi/default/v3.compiled is stale: go generate ./openapi/ (or go test ./openapi -run TestOpenAPI -ginkgo.focus 'is what the documents compile to' -update)")
		embedded, err := openapi.CompiledSections(openapi.DefaultCompiled())
		Expect(err).NotTo(HaveOccurred())
		Expect(embedded).To(HaveLen(len(files)))
		for _, file := range files {
			got, err := openapi.ReadCompiled(file, embedded[file])
			Expect(err).NotTo(HaveOccurred(), file)
			Expect(openapi.SchemaDiff(got, wants[file])).To(BeEmpty(), file)
		}
	})

	It("decodes, lookup by lookup, the types the JSON loaders build, shared as they share them", func() {
		files, err := openapi.EmbeddedV3Files()
		Expect(err).NotTo(HaveOccurred())
		embedded, err := openapi.CompiledSections(openapi.DefaultCompiled())
		Expect(err).NotTo(HaveOccurred())
		for _, file := range files {
			data, err := openapi.EmbeddedV3(file)
			Expect(err).NotTo(HaveOccurred())
			want, err := openapi.LoadV3JSON(file, data)
			Expect(err).NotTo(HaveOccurred())
			for _, gvksFirst := range []bool{false, true} {
				for _, backwards := range []bool{false, true} {
					Expect(openapi.LazyDiff(file, embedded[file], want, gvksFirst, backwards)).To(BeEmpty(),
						"%s, GVKs first %v, backwards %v", file, gvksFirst, backwards)
				}
			}
			same, err := openapi.LazyRace(file, embedded[file], want, 4)
			Expect(err).NotTo(HaveOccurred())
			Expect(same).To(BeTrue(), "%s: goroutines looking up at once got different types", file)
		}
	})

	It("shares a type that several names and fields use, as the loaders do", func() {
		s, err := openapi.NewLazyDefault()
		Expect(err).NotTo(HaveOccurred())
		d, ok := s.ForKind("apps/v1", "Deployment")
		Expect(ok).To(BeTrue())
		rs, ok := s.ForKind("apps/v1", "ReplicaSet")
		Expect(ok).To(BeTrue())
		Expect(d.Field("metadata").Type).To(BeIdenticalTo(rs.Field("metadata").Type))
		Expect(openapi.LazyParsedFiles(s)).To(Equal([]string{"apis__apps__v1_openapi.json"}))
	})

	It("reports a corrupt section as an error naming the document", func() {
		data, err := openapi.EmbeddedV3("apis__apps__v1_openapi.json")
		Expect(err).NotTo(HaveOccurred())
		s, err := openapi.LoadV3JSON("apps", data)
		Expect(err).NotTo(HaveOccurred())
		section, err := openapi.CompileSchema(s)
		Expect(err).NotTo(HaveOccurred())
		for _, cut := range []int{0, 1, len(section) / 3, len(section) / 2, len(section) - 1} {
			_, err := openapi.ReadCompiled("apps.compiled", section[:cut])
			Expect(err).To(MatchError(ContainSubstring("apps.compiled: corrupt compiled schema")), "cut at %d", cut)
		}
		_, err = openapi.ReadCompiled("apps.compiled", append(append([]byte{}, section...), 0))
		Expect(err).To(MatchError(ContainSubstring("trailing bytes")))
		_, err = openapi.CompiledSections([]byte("not compiled"))
		Expect(err).To(MatchError(ContainSubstring("bad magic")))
		blob := openapi.CompileBlob(map[string][]byte{"a": section, "b": section})
		_, err = openapi.CompiledSections(blob[:len(blob)-1])
		Expect(err).To(MatchError(ContainSubstring("truncated")))
		_, err = openapi.CompiledSections(append(append([]byte{}, blob...), 0))
		Expect(err).To(MatchError(ContainSubstring("trailing bytes")))
		sections, err := openapi.CompiledSections(blob)
		Expect(err).NotTo(HaveOccurred())
		Expect(sections).To(Equal(map[string][]byte{"a": section, "b": section}))
	})
})
