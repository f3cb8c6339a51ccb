package difftest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/plyproject/ply/openapi"
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
	Schema *openapi.Schema
	Root   *openapi.Type
	Oracle *oracle.Oracle
	Gen    *gen.Generator
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

// LoadTarget returns the Target called name (one of Specs), loading its
// schema on first use. Targets are shared and safe for concurrent use.
func LoadTarget(name string) (*Target, error) {
	loaded.Lock()
	defer loaded.Unlock()
	if t, ok := loaded.targets[name]; ok {
		return t, nil
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
	if loaded.targets == nil {
		loaded.targets = map[string]*Target{}
	}
	loaded.targets[name] = t
	return t, nil
}
