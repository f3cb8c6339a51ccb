package property

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/gen"
)

// targetSpec names one root kind and the schema it is merged with.
type targetSpec struct {
	name       string
	schema     string // "test", "v2" (openapi.DefaultV2) or "v3" (openapi.Default)
	typeName   string // v2 definition name; v3 resolves from apiVersion and kind
	apiVersion string
	kind       string
	undeclared bool
	// multiKey generates lists with multi-field merge keys (the v3
	// list-map-keys, such as containerPort,protocol).
	multiKey bool
}

var targetSpecs = []targetSpec{
	{name: "widget", schema: "test", typeName: "dev.ply.test.v1.Widget", apiVersion: "test.ply.dev/v1", kind: "Widget", undeclared: true},
	{name: "deployment/v2", schema: "v2", typeName: "io.k8s.api.apps.v1.Deployment", apiVersion: "apps/v1", kind: "Deployment"},
	{name: "pod/v2", schema: "v2", typeName: "io.k8s.api.core.v1.Pod", apiVersion: "v1", kind: "Pod"},
	{name: "service/v2", schema: "v2", typeName: "io.k8s.api.core.v1.Service", apiVersion: "v1", kind: "Service"},
	{name: "deployment/v3", schema: "v3", apiVersion: "apps/v1", kind: "Deployment", multiKey: true},
	{name: "pod/v3", schema: "v3", apiVersion: "v1", kind: "Pod", multiKey: true},
	{name: "service/v3", schema: "v3", apiVersion: "v1", kind: "Service", multiKey: true},
}

// target is a targetSpec with its schema, root type and generator.
type target struct {
	targetSpec
	schema *openapi.Schema
	root   *openapi.Type
	gen    *gen.Generator
}

var testSchema = sync.OnceValues(func() (*openapi.Schema, error) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "schema", "swagger.json"))
	if err != nil {
		return nil, err
	}
	return openapi.LoadV2(data)
})

// load resolves spec's schema and root type; safe for concurrent use (the
// schemas are shared, the v3 one parses its documents on first use).
func load(spec targetSpec) (*target, error) {
	var s *openapi.Schema
	var err error
	switch spec.schema {
	case "test":
		s, err = testSchema()
	case "v2":
		s, err = openapi.DefaultV2()
	case "v3":
		s, err = openapi.Default()
	}
	if err != nil {
		return nil, err
	}
	var root *openapi.Type
	var ok bool
	if spec.typeName != "" {
		root, ok = s.ByName(spec.typeName)
	} else {
		root, ok = s.ForKind(spec.apiVersion, spec.kind)
	}
	if !ok {
		return nil, errors.New("no schema type for target " + spec.name)
	}
	g := gen.New(root, gen.Config{
		Fixed: []value.Field{
			{Key: "apiVersion", Value: value.String(spec.apiVersion)},
			{Key: "kind", Value: value.String(spec.kind)},
		},
		UndeclaredFields: spec.undeclared,
		MultiFieldKeys:   spec.multiKey,
	})
	return &target{targetSpec: spec, schema: s, root: root, gen: g}, nil
}

// options are the merge options of t: kubectl's defaults on t's schema.
func (t *target) options(ordering apply.Ordering) apply.Options {
	opts := apply.DefaultOptions()
	opts.Schema = t.schema
	opts.TypeName = t.typeName
	opts.Ordering = ordering
	return opts
}

// seed derives the seed of case i of a property from the property's base,
// the target and i (splitmix64), so every property and target sees its own
// triples and a failure names a reproducible seed.
func seed(base uint64, target string, i int) uint64 {
	x := base ^ uint64(i)*0x9e3779b97f4a7c15
	for _, c := range []byte(target) {
		x = (x ^ uint64(c)) * 0x100000001b3
	}
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// outcome renders everything a merge returns, for comparing runs.
func outcome(res apply.Result, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	var sb strings.Builder
	sb.Write(res.Object.JSON())
	for _, c := range res.Changes {
		sb.WriteString("\n" + c.Op.String() + " " + c.Source.String() + " " + c.Path().String())
	}
	for _, w := range res.Warnings {
		sb.WriteString("\nwarning: " + w)
	}
	return sb.String()
}

// triple renders a generated triple for failure messages.
func triple(tr gen.Triple) string {
	return "recorded: " + string(tr.Recorded.JSON()) + "\nlocal:    " + string(tr.Local.JSON()) + "\nlive:     " + string(tr.Live.JSON())
}
