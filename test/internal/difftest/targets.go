package difftest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/gen"
	"github.com/plyproject/ply/test/oracle"
)

// RepoRoot returns the root directory of the module's source tree, found
// from this file's location.
func RepoRoot() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "."
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", ".."))
}

// TestSchemaPath is the hand-written test schema.
func TestSchemaPath() string {
	return filepath.Join(RepoRoot(), "test", "testdata", "schema", "swagger.json")
}

// DefaultSchemaPath is the reduced Kubernetes document ply embeds as its
// default schema; the oracle reads the same bytes.
func DefaultSchemaPath() string {
	return filepath.Join(RepoRoot(), "openapi", "default", "swagger.json")
}

// Spec describes a Target: which document and definition, and how to
// generate objects for it.
type Spec struct {
	// Name identifies the target in reports, seeds and case files.
	Name string
	// Doc is "test" (the test schema) or "kubernetes" (the default schema).
	Doc string
	// TypeName is the definition of the root objects.
	TypeName string
	// APIVersion and Kind are fixed in every generated object.
	APIVersion, Kind string
	// Undeclared lets the generator add fields the schema does not declare.
	Undeclared bool
}

// Specs are the targets of the differential tests.
var Specs = []Spec{
	{Name: "widget", Doc: "test", TypeName: "dev.ply.test.v1.Widget", APIVersion: "test.ply.dev/v1", Kind: "Widget", Undeclared: true},
	{Name: "deployment", Doc: "kubernetes", TypeName: "io.k8s.api.apps.v1.Deployment", APIVersion: "apps/v1", Kind: "Deployment"},
	{Name: "pod", Doc: "kubernetes", TypeName: "io.k8s.api.core.v1.Pod", APIVersion: "v1", Kind: "Pod"},
	{Name: "service", Doc: "kubernetes", TypeName: "io.k8s.api.core.v1.Service", APIVersion: "v1", Kind: "Service"},
}

// Target is one root type with ply's schema, the oracle and a generator.
type Target struct {
	Spec
	// Variant is "" for ply's semantics (every feature gate on) and
	// Kubectl for the run with every gate off.
	Variant string
	// Gates are the feature gates ply runs with (features.Kubectl() for
	// the Kubectl variant).
	Gates  features.Gates
	Schema *openapi.Schema
	// Root is the root type as ply reads it under Gates.
	Root   *openapi.Type
	Oracle *oracle.Oracle
	Gen    *gen.Generator
}

// Kubectl is the Variant of the targets with every feature gate off
// (features.Kubectl()). Its cases are the base target's (same generator,
// same seeds); Kubernetes targets read the embedded OpenAPI v3 documents
// on both sides (ply through openapi.Schema.Kubectl, strategicpatch
// through PatchMetaFromOpenAPIV3), as kubectl and ply do against a server;
// the test schema exists as v2 only and is read as before.
const Kubectl = "kubectl"

// ID names the target in case files and replay handles: the spec's name,
// followed by "/" and the variant when there is one ("pod/kubectl").
func (t *Target) ID() string {
	if t.Variant == "" {
		return t.Name
	}
	return t.Name + "/" + t.Variant
}

// MergeOptions are the apply.Options the harness merges with: t's schema,
// type name and gates, in strategicpatch's list order, chosen with
// Ordering while the SeedOrdering gate is on and by the gate alone (the
// zero Ordering) when it is off.
func (t *Target) MergeOptions(overwrite bool) apply.Options {
	o := apply.Options{Schema: t.Schema, TypeName: t.TypeName, Overwrite: overwrite, Gates: t.Gates}
	if t.Gates.Enabled(features.SeedOrdering) {
		o.Ordering = apply.OrderingKubectl
	}
	return o
}

type docs struct {
	ply    *openapi.Schema
	oracle *oracle.Models
}

var loaded struct {
	sync.Mutex
	docs    map[string]*docs
	targets map[string]*Target
}

func loadDoc(name string) (*docs, error) {
	if d, ok := loaded.docs[name]; ok {
		return d, nil
	}
	var path string
	switch name {
	case "test":
		path = TestSchemaPath()
	case "kubernetes":
		path = DefaultSchemaPath()
	default:
		return nil, fmt.Errorf("difftest: unknown document %q, want test or kubernetes", name)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("difftest: %w", err)
	}
	var ps *openapi.Schema
	if name == "kubernetes" {
		ps, err = openapi.DefaultV2()
	} else {
		ps, err = openapi.LoadV2(data)
	}
	if err != nil {
		return nil, fmt.Errorf("difftest: ply cannot load %s: %w", path, err)
	}
	om, err := oracle.Load(data)
	if err != nil {
		return nil, fmt.Errorf("difftest: %s: %w", path, err)
	}
	d := &docs{ply: ps, oracle: om}
	if loaded.docs == nil {
		loaded.docs = map[string]*docs{}
	}
	loaded.docs[name] = d
	return d, nil
}

// LoadTarget returns the Target with ID id: the name of one of Specs,
// optionally followed by "/kubectl" (the Kubectl variant), loading its
// schema on first use. Targets are shared and safe for concurrent use.
func LoadTarget(id string) (*Target, error) {
	loaded.Lock()
	defer loaded.Unlock()
	return loadTarget(id)
}

// PatchOptions are the patch.Options the harness applies patches with:
// t's schema, type name and gates, in strategicpatch's list order (as
// MergeOptions).
func (t *Target) PatchOptions() patch.Options {
	o := patch.Options{Schema: t.Schema, TypeName: t.TypeName, Gates: t.Gates}
	if t.Gates.Enabled(features.SeedOrdering) {
		o.Ordering = patch.OrderKubectl
	}
	return o
}

// PatchgenOptions are the patchgen.Options the harness creates patches
// with: t's schema, type name and gates.
func (t *Target) PatchgenOptions(overwrite bool) patchgen.Options {
	return patchgen.Options{Schema: t.Schema, TypeName: t.TypeName, Overwrite: overwrite, Gates: t.Gates}
}

// loadTarget is LoadTarget with loaded locked.
func loadTarget(id string) (*Target, error) {
	if t, ok := loaded.targets[id]; ok {
		return t, nil
	}
	name, variant, _ := strings.Cut(id, "/")
	if variant != "" {
		return loadVariant(name, variant)
	}
	var spec *Spec
	for i := range Specs {
		if Specs[i].Name == name {
			spec = &Specs[i]
		}
	}
	if spec == nil {
		return nil, fmt.Errorf("difftest: unknown target %q", name)
	}
	d, err := loadDoc(spec.Doc)
	if err != nil {
		return nil, err
	}
	root, ok := d.ply.ByName(spec.TypeName)
	if !ok {
		return nil, fmt.Errorf("difftest: ply's schema has no definition %q", spec.TypeName)
	}
	o, err := d.oracle.Oracle(spec.TypeName)
	if err != nil {
		return nil, err
	}
	g := gen.New(root, gen.Config{
		Fixed: []value.Field{
			{Key: "apiVersion", Value: value.String(spec.APIVersion)},
			{Key: "kind", Value: value.String(spec.Kind)},
		},
		UndeclaredFields: spec.Undeclared,
	})
	t := &Target{Spec: *spec, Schema: d.ply, Root: root, Oracle: o, Gen: g}
	store(t)
	return t, nil
}

func store(t *Target) {
	if loaded.targets == nil {
		loaded.targets = map[string]*Target{}
	}
	loaded.targets[t.ID()] = t
}

// loadVariant returns the variant of the target called name.
func loadVariant(name, variant string) (*Target, error) {
	if variant != Kubectl {
		return nil, fmt.Errorf("difftest: unknown variant %q of target %q, want %s", variant, name, Kubectl)
	}
	base, err := loadTarget(name)
	if err != nil {
		return nil, err
	}
	t := *base
	t.Variant, t.Gates = variant, features.Kubectl()
	if t.Doc == "kubernetes" {
		if t.Schema, err = openapi.DefaultV3(); err != nil {
			return nil, fmt.Errorf("difftest: %w", err)
		}
		models, err := oracle.DefaultV3()
		if err != nil {
			return nil, err
		}
		if t.Oracle, err = models.Oracle(t.TypeName); err != nil {
			return nil, err
		}
	}
	root, ok := t.Schema.Kubectl().ByName(t.TypeName)
	if !ok {
		return nil, fmt.Errorf("difftest: ply's schema has no definition %q", t.TypeName)
	}
	t.Root = root
	store(&t)
	return &t, nil
}
