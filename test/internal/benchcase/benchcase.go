package benchcase

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/test/oracle"
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
	// Name is "ply" or "strategicpatch".
	Name string
	// Run merges in and returns the merged object as JSON.
	Run func(in Input) ([]byte, error)
}

// Impls returns ply and strategicpatch, each with its schema loaded once
// up front (schema loading is not part of what is measured).
func Impls() ([]Impl, error) {
	schema, err := openapi.DefaultV2()
	if err != nil {
		return nil, err
	}
	opts := apply.Options{Schema: schema, TypeName: TypeName, Overwrite: true, Ordering: apply.OrderingKubectl}
	ply := Impl{Name: "ply", Run: func(in Input) ([]byte, error) {
		recorded, err := parse.Document(in.Recorded)
		if err != nil {
			return nil, err
		}
		local, err := parse.Document(in.Local)
		if err != nil {
			return nil, err
		}
		live, err := parse.Document(in.Live)
		if err != nil {
			return nil, err
		}
		res, err := apply.Merge(recorded, local, live, opts)
		if err != nil {
			return nil, err
		}
		return res.Object.JSON(), nil
	}}

	_, file, _, _ := runtime.Caller(0)
	doc, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "..", "openapi", "default", "swagger.json"))
	if err != nil {
		return nil, err
	}
	models, err := oracle.Load(doc)
	if err != nil {
		return nil, err
	}
	o, err := models.Oracle(TypeName)
	if err != nil {
		return nil, err
	}
	sp := Impl{Name: "strategicpatch", Run: func(in Input) ([]byte, error) {
		res, err := o.Apply(in.Recorded, in.Local, in.Live, true)
		if err != nil {
			return nil, err
		}
		return res.Object, nil
	}}
	return []Impl{ply, sp}, nil
}
