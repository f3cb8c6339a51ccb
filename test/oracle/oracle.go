package oracle

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"

	openapiv2 "github.com/google/gnostic-models/openapiv2"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/kube-openapi/pkg/spec3"
	"k8s.io/kube-openapi/pkg/util/proto"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// Models is a parsed OpenAPI v2 document, or a set of OpenAPI v3
// documents, ready to build Oracles for its definitions.
type Models struct {
	models proto.Models            // v2
	v3     map[string]*spec.Schema // v3: components.schemas of every document
}

// Load parses an OpenAPI v2 (swagger) document. Documents reduced to their
// definitions (ply's embedded default schema has no "paths") are accepted:
// an empty "paths" is added before gnostic validates the document.
func Load(swagger []byte) (*Models, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(swagger, &top); err != nil {
		return nil, fmt.Errorf("oracle: swagger is not a JSON object: %w", err)
	}
	if _, ok := top["paths"]; !ok {
		top["paths"] = json.RawMessage("{}")
		b, err := json.Marshal(top)
		if err != nil {
			return nil, fmt.Errorf("oracle: %w", err)
		}
		swagger = b
	}
	doc, err := openapiv2.ParseDocument(swagger)
	if err != nil {
		return nil, fmt.Errorf("oracle: parse swagger: %w", err)
	}
	models, err := proto.NewOpenAPIData(doc)
	if err != nil {
		return nil, fmt.Errorf("oracle: build models: %w", err)
	}
	return &Models{models: models}, nil
}

// Oracle applies with kubectl's algorithm to objects of one definition.
// It is safe for concurrent use.
type Oracle struct {
	name string
	meta strategicpatch.LookupPatchMeta
}

// LoadV3 parses OpenAPI v3 documents (such as a server's per
// group-version documents) into Models whose Oracles read merge metadata
// as kubectl does from OpenAPI v3 (strategicpatch.PatchMetaFromOpenAPIV3:
// x-kubernetes-patch-strategy and x-kubernetes-patch-merge-key only). A
// schema several documents define is taken from the first; Kubernetes
// repeats shared schemas identically in every document.
func LoadV3(docs ...[]byte) (*Models, error) {
	out := &Models{v3: map[string]*spec.Schema{}}
	for i, data := range docs {
		var doc spec3.OpenAPI
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("oracle: v3 document #%d: %w", i+1, err)
		}
		if doc.Components == nil {
			continue
		}
		for name, sch := range doc.Components.Schemas {
			if _, ok := out.v3[name]; !ok {
				out.v3[name] = sch
			}
		}
	}
	return out, nil
}

// Oracle returns the Oracle for the definition called name
// ("io.k8s.api.apps.v1.Deployment").
func (m *Models) Oracle(name string) (*Oracle, error) {
	if m.v3 != nil {
		s := m.v3[name]
		if s == nil {
			return nil, fmt.Errorf("oracle: no schema %q in the v3 documents", name)
		}
		return &Oracle{name: name, meta: strategicpatch.PatchMetaFromOpenAPIV3{SchemaList: m.v3, Schema: s}}, nil
	}
	s := m.models.LookupModel(name)
	if s == nil {
		return nil, fmt.Errorf("oracle: no definition %q in the schema", name)
	}
	return &Oracle{name: name, meta: strategicpatch.NewPatchMetaFromOpenAPI(s)}, nil
}

// OracleInFile returns the Oracle for the definition called name in the
// OpenAPI v2 document at path (Load).
func OracleInFile(path, name string) (*Oracle, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	models, err := Load(data)
	if err != nil {
		return nil, fmt.Errorf("oracle: %s: %w", path, err)
	}
	return models.Oracle(name)
}

// Name returns the definition name the Oracle merges.
func (o *Oracle) Name() string { return o.name }

// Result is what kubectl apply computes.
type Result struct {
	// Patch is the three-way strategic merge patch kubectl sends; with
	// Conflict set, it is nil.
	Patch []byte
	// Object is live with Patch applied: what the server stores. Nil when
	// Conflict is set.
	Object []byte
	// Conflict is set when overwrite was false and the patch conflicts
	// with changes made on the server (mergepatch.IsConflict).
	Conflict bool
}

// Apply runs the three-way apply of local onto live given recorded (nil
// for a first apply), all as JSON. A conflict is reported in Result, not
// as an error; any other failure of strategicpatch, including a panic, is
// returned as the error.
func (o *Oracle) Apply(recorded, local, live []byte, overwrite bool) (res Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res = Result{}
			err = fmt.Errorf("oracle: strategicpatch panicked: %v\n%s", p, debug.Stack())
		}
	}()
	patch, err := strategicpatch.CreateThreeWayMergePatch(recorded, local, live, o.meta, overwrite)
	if err != nil {
		if mergepatch.IsConflict(err) {
			return Result{Conflict: true}, nil
		}
		return Result{}, fmt.Errorf("CreateThreeWayMergePatch: %w", err)
	}
	obj, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(live, patch, o.meta)
	if err != nil {
		return Result{Patch: patch}, fmt.Errorf("StrategicMergePatchUsingLookupPatchMeta: %w", err)
	}
	return Result{Patch: patch, Object: obj}, nil
}

// Meta returns the strategicpatch merge metadata of the Oracle's
// definition, for calling strategicpatch directly.
func (o *Oracle) Meta() strategicpatch.LookupPatchMeta { return o.meta }

var embedded struct {
	once   sync.Once
	models *Models
	err    error
}

var embeddedV3 struct {
	once   sync.Once
	models *Models
	err    error
}

// DefaultV3 returns the Models of ply's embedded Kubernetes OpenAPI v3
// documents (openapi/default/v3/*.json, the documents of openapi.Default),
// loaded once: what kubectl reads from a server of that release.
func DefaultV3() (*Models, error) {
	embeddedV3.once.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		files, err := filepath.Glob(filepath.Join(filepath.Dir(file), "..", "..", "openapi", "default", "v3", "*.json"))
		if err == nil && len(files) == 0 {
			err = errors.New("no document in openapi/default/v3")
		}
		if err != nil {
			embeddedV3.err = fmt.Errorf("oracle: %w", err)
			return
		}
		sort.Strings(files)
		docs := make([][]byte, len(files))
		for i, f := range files {
			if docs[i], err = os.ReadFile(f); err != nil {
				embeddedV3.err = fmt.Errorf("oracle: %w", err)
				return
			}
		}
		embeddedV3.models, embeddedV3.err = LoadV3(docs...)
	})
	return embeddedV3.models, embeddedV3.err
}

// DefaultV3For returns the Oracle of definition name in DefaultV3's models.
func DefaultV3For(name string) (*Oracle, error) {
	models, err := DefaultV3()
	if err != nil {
		return nil, err
	}
	return models.Oracle(name)
}

// Default returns the Models of ply's embedded Kubernetes swagger
// (openapi/default/swagger.json), loaded once.
func Default() (*Models, error) {
	embedded.once.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		data, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "openapi", "default", "swagger.json"))
		if err != nil {
			embedded.err = fmt.Errorf("oracle: %w", err)
			return
		}
		embedded.models, embedded.err = Load(data)
	})
	return embedded.models, embedded.err
}
