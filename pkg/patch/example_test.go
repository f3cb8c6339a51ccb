package patch_test

import (
	"errors"
	"fmt"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/strategy"
	"github.com/plyproject/ply/pkg/visitors"
)

// A front-end walking a patch tree of its own: a patch naming container "a" twice (gate UniqueMergeKeys off) whose
// later item's maps lie at the depth limit, which Phase 2 does not decide from the tree. The walk ends with its
// question (visitors.InTurn); WalkAnswering answers it as Apply does, the item applied to its key's outcome, walking
// the tree again, driven: stopping at each question until it is answered.
func ExampleWalkAnswering() {
	schema, err := openapi.Default()
	if err != nil {
		panic(err)
	}
	pod, _ := schema.Kubectl().ByName("io.k8s.api.core.v1.Pod")
	live, _ := parse.Document([]byte(`{"spec":{"containers":[{"name":"a","resources":{"limits":{"memory":"1Gi"}}}]}}`))
	p, _ := parse.Document([]byte(`{"spec":{"containers":[{"name":"a","tty":true},
		{"name":"a","$setElementOrder/args":[],"args":["c"],"resources":{"limits":{"cpu":"1"},"requests":{}}}]}}`))
	opts := patch.Options{Gates: features.Kubectl(), MaxDepth: 6}
	tree, err := collate.Collate(elements.Values{Local: p, HasLocal: true, Live: live, HasLive: true}, pod,
		collate.Options{Patch: true, MaxDepth: opts.MaxDepth, Gates: opts.Gates})
	if err != nil {
		panic(err)
	}

	_, err = strategy.New(strategy.Options{Patch: true, Gates: opts.Gates}).Walk(tree)
	var q *visitors.InTurn
	fmt.Println(errors.As(err, &q), q.Item.Path(), string(q.Onto.JSON()))

	answers := new(visitors.Answers)
	w := strategy.New(strategy.Options{Patch: true, Gates: opts.Gates, Answers: answers})
	out, err := patch.WalkAnswering(w, tree, answers, opts)
	fmt.Println(string(out.Value.JSON()), err)
	// Output:
	// true spec.containers[name=a] {"name":"a","resources":{"limits":{"memory":"1Gi"}},"tty":true}
	// {"spec":{"containers":[{"args":["c"],"name":"a","resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{}},"tty":true}]}} <nil>
}
