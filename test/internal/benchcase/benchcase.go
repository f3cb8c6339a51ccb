package benchcase

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/oracle"
	"github.com/plyproject/ply/test/ssa"
)

// EnvSizes are the numbers of env entries the benchmarks use.
var EnvSizes = []int{10, 100, 1000, 5000}

// Changes are the kinds of local edit: "one" changes the image, "all"
// changes every env value.
var Changes = []string{"one", "all"}

// TypeName is the definition of the benchmarked objects.
const TypeName = "io.k8s.api.apps.v1.Deployment"

// Input is one benchmark input.
type Input struct {
	Env    int
	Change string
	// Recorded, Local and Live are compact JSON documents.
	Recorded, Local, Live []byte
}

// Name renders the input as a benchmark name path: "env=1000/change=all".
func (in Input) Name() string { return fmt.Sprintf("env=%d/change=%s", in.Env, in.Change) }

// Inputs returns every combination of EnvSizes and Changes.
func Inputs() []Input {
	var out []Input
	for _, n := range EnvSizes {
		for _, c := range Changes {
			out = append(out, Make(n, c))
		}
	}
	return out
}

type obj = map[string]any

func deployment(env int, image, valuePrefix string) obj {
	vars := make([]any, env)
	for i := range vars {
		vars[i] = obj{"name": fmt.Sprintf("VAR_%05d", i), "value": fmt.Sprintf("%s-%d", valuePrefix, i)}
	}
	return obj{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata": obj{
			"name":      "web",
			"namespace": "default",
			"labels":    obj{"app": "web", "tier": "frontend"},
		},
		"spec": obj{
			"replicas": 3,
			"selector": obj{"matchLabels": obj{"app": "web"}},
			"template": obj{
				"metadata": obj{"labels": obj{"app": "web", "tier": "frontend"}},
				"spec": obj{
					"containers": []any{obj{
						"name":  "web",
						"image": image,
						"ports": []any{obj{"containerPort": 80, "protocol": "TCP"}},
						"env":   vars,
						"resources": obj{
							"limits":   obj{"cpu": "500m", "memory": "256Mi"},
							"requests": obj{"cpu": "100m", "memory": "128Mi"},
						},
					}},
				},
			},
		},
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// Make builds the input with env entries and the given change ("one" or
// "all").
func Make(env int, change string) Input {
	recorded := deployment(env, "nginx:1.25", "value")
	local := deployment(env, "nginx:1.25", "value")
	switch change {
	case "one":
		local = deployment(env, "nginx:1.26", "value")
	case "all":
		local = deployment(env, "nginx:1.25", "changed")
	default:
		panic("benchcase: unknown change " + change)
	}
	live := deployment(env, "nginx:1.25", "value")
	md := live["metadata"].(obj)
	md["resourceVersion"] = "123456"
	md["uid"] = "6f1c1a56-0d8e-4d5b-9a53-0c4c8e1b6a11"
	md["generation"] = 4
	md["creationTimestamp"] = "2026-01-02T03:04:05Z"
	live["status"] = obj{
		"observedGeneration": 4,
		"replicas":           3,
		"readyReplicas":      3,
		"updatedReplicas":    3,
		"availableReplicas":  3,
		"conditions": []any{
			obj{"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable"},
			obj{"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable"},
		},
	}
	return Input{Env: env, Change: change, Recorded: mustJSON(recorded), Local: mustJSON(local), Live: mustJSON(live)}
}

// Impl is one implementation of "three JSON documents in, merged JSON
// out".
type Impl struct {
	// Name is "ply", "ply-values", "ply-arena", "ply-kubectl",
	// "strategicpatch", "smd" or "fieldmanager".
	Name string
	// Prepare does, once per input and outside what is measured, what the
	// implementation needs of in besides its documents, and returns the
	// measured run: it merges in and returns the merged object as JSON.
	Prepare func(in Input) (run func() ([]byte, error), err error)
}

// APIVersion and Kind are the type of the benchmarked objects.
const (
	APIVersion = "apps/v1"
	Kind       = "Deployment"
)

// Impls returns ply (first: the peers' ratios are to it), then ply's
// value-level API twice and ply with every feature gate off, then
// strategicpatch and server-side apply's engine twice
// (structured-merge-diff's merge.Updater.Apply, and the whole
// managedfields.FieldManager.Apply), each with its schema loaded once up
// front (schema loading is not part of what is measured).
//
// ply is apply.MergeBytes, text in and JSON out as the peers are measured.
// ply-values parses each document into memory of its own and calls
// apply.Merge, which also lists the changes; ply-arena does the same with
// the documents read into one parse.Arena reset after each merge;
// ply-kubectl is ply with features.Kubectl(), as --compat=kubectl runs.
//
// Server-side apply takes what was applied last time as the fields the
// applier owns (metadata.managedFields) rather than as a document, so its
// Prepare computes that from Recorded once: "smd" is given the field set's
// fieldsV1 JSON, which it decodes on every run, and "fieldmanager" is
// given live as the API server stores it after recorded was applied
// (managedFields included). Its result is compared without managedFields.
func Impls() ([]Impl, error) {
	plys, err := plyImpls()
	if err != nil {
		return nil, err
	}
	sp, err := strategicPatchImpl()
	if err != nil {
		return nil, err
	}
	ssas, err := serverSideApplyImpls()
	if err != nil {
		return nil, err
	}
	return slices.Concat(plys, []Impl{sp}, ssas), nil
}

// plyImpls returns ply, ply-values, ply-arena and ply-kubectl (see
// Impls), all merging with ply's default v2 schema.
func plyImpls() ([]Impl, error) {
	plySchema, err := openapi.DefaultV2()
	if err != nil {
		return nil, err
	}
	opts := apply.Options{Schema: plySchema, TypeName: TypeName, Overwrite: true, Ordering: apply.OrderingKubectl}
	ply := Impl{Name: "ply", Prepare: func(in Input) (func() ([]byte, error), error) {
		return func() ([]byte, error) {
			out, _, err := apply.MergeBytes(in.Recorded, in.Local, in.Live, opts)
			return out, err
		}, nil
	}}
	plyValues := Impl{Name: "ply-values", Prepare: func(in Input) (func() ([]byte, error), error) {
		return func() ([]byte, error) { return mergeValues(in, nil, opts) }, nil
	}}
	// A program that merges object after object reads each merge's
	// documents into one Arena and resets it once the result is encoded.
	plyArena := Impl{Name: "ply-arena", Prepare: func(in Input) (func() ([]byte, error), error) {
		var arena parse.Arena
		return func() ([]byte, error) {
			defer arena.Reset()
			return mergeValues(in, &arena, opts)
		}, nil
	}}
	// ply as --compat=kubectl runs it: every feature gate off.
	kubectlOpts := opts
	kubectlOpts.Gates = features.Kubectl()
	plyKubectl := Impl{Name: "ply-kubectl", Prepare: func(in Input) (func() ([]byte, error), error) {
		return func() ([]byte, error) {
			out, _, err := apply.MergeBytes(in.Recorded, in.Local, in.Live, kubectlOpts)
			return out, err
		}, nil
	}}
	return []Impl{ply, plyValues, plyArena, plyKubectl}, nil
}

// mergeValues parses the three documents of in into arena (nil: each
// into memory of its own), merges them with apply.Merge and opts, and
// encodes the result.
func mergeValues(in Input, arena *parse.Arena, opts apply.Options) ([]byte, error) {
	var docs [3]value.Value
	for i, data := range [...][]byte{in.Recorded, in.Local, in.Live} {
		var err error
		if docs[i], err = parse.OwnedDocumentIn(arena, data); err != nil {
			return nil, err
		}
	}
	res, err := apply.Merge(docs[0], docs[1], docs[2], opts)
	if err != nil {
		return nil, err
	}
	return res.Object.JSON(), nil
}

// strategicPatchImpl returns strategicpatch (kubectl's three-way merge,
// through test/oracle) with the repository's openapi/default/swagger.json.
func strategicPatchImpl() (Impl, error) {
	_, file, _, _ := runtime.Caller(0)
	doc, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "..", "openapi", "default", "swagger.json"))
	if err != nil {
		return Impl{}, err
	}
	models, err := oracle.Load(doc)
	if err != nil {
		return Impl{}, err
	}
	o, err := models.Oracle(TypeName)
	if err != nil {
		return Impl{}, err
	}
	return Impl{Name: "strategicpatch", Prepare: func(in Input) (func() ([]byte, error), error) {
		return func() ([]byte, error) {
			res, err := o.Apply(in.Recorded, in.Local, in.Live, true)
			if err != nil {
				return nil, err
			}
			return res.Object, nil
		}, nil
	}}, nil
}

// serverSideApplyImpls returns smd and fieldmanager (see Impls), sharing
// one type converter.
func serverSideApplyImpls() ([]Impl, error) {
	tc, err := ssa.TypeConverter()
	if err != nil {
		return nil, err
	}
	updater := ssa.NewUpdater(tc, APIVersion)
	smd := Impl{Name: "smd", Prepare: func(in Input) (func() ([]byte, error), error) {
		owned, err := ssa.Ownership(tc, in.Recorded)
		if err != nil {
			return nil, err
		}
		return func() ([]byte, error) { return updater.Apply(owned, in.Local, in.Live) }, nil
	}}
	fm, err := ssa.NewFieldManager(tc, schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: Kind})
	if err != nil {
		return nil, err
	}
	fieldManager := Impl{Name: "fieldmanager", Prepare: func(in Input) (func() ([]byte, error), error) {
		stored, err := fm.Stored(in.Recorded, in.Live)
		if err != nil {
			return nil, err
		}
		return func() ([]byte, error) { return fm.Apply(in.Local, stored) }, nil
	}}
	return []Impl{smd, fieldManager}, nil
}
