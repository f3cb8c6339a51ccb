// Package patchdiff is the differential test suite of ply's strategic
// merge patches: pkg/patch (application) and pkg/patchgen (creation)
// against k8s.io/apimachinery's strategicpatch, the oracle, on the targets
// of package difftest (the test schema's Widget and Kubernetes Deployment,
// Pod and Service, with the embedded v2 schema both sides read), and again
// with every feature gate off on the same cases (targets "<name>/kubectl",
// the Kubernetes ones read from the embedded OpenAPI v3 documents by both
// sides; see difftest.Kubectl).
//
// Six modes (see Mode), each a batch of random cases per target:
//
//	apply-threeway    strategicpatch.CreateThreeWayMergePatch of a random
//	                  triple, applied to live by patch.Apply and by
//	                  StrategicMergePatch: equal objects
//	apply-twoway      the same with CreateTwoWayMergePatch(recorded, local)
//	apply-directives  a random hand-built patch full of directives
//	                  (gen.Generator.Patch; in one in four, integer merge
//	                  keys written as decimals: withDecimalKeys), applied
//	                  to live: equal objects, or both fail
//	gen-threeway      patchgen.ThreeWay's patch applied by strategicpatch
//	                  equals apply.Merge's object (overwrite, kubectl order)
//	gen-conflicts     the same with overwrite false: a conflict exactly
//	                  when strategicpatch reports one
//	gen-twoway        patchgen.TwoWay's patch equals
//	                  CreateTwoWayMergePatch's, as canonical JSON bytes
//
// strategicpatch's objects are compared as the API server stores them
// (difftest.ServerNormalize: nulls and leftover directive keys dropped).
// Run it with `go test ./test/patchdiff/`. Environment (shared with
// test/differential):
//
//	PLY_DIFF_N     total cases per run over all modes (default 24000)
//	PLY_DIFF_SEED  base seed (default 1)
//	PLY_DIFF_CASE  a case file written by a failing run, or a case id
//	               "<mode>:<target>@<seed>": the Replay spec reruns it
//	               (-ginkgo.focus=Replay -ginkgo.v)
//
// A failing batch shrinks its smallest failures and writes them as YAML
// case files to a temporary directory; reduced by hand and given an
// "expect" line they become regression cases in testdata/cases. A compose
// suite's failure, reduced by hand to its target, patches (first, second)
// and strategicpatch's result, becomes one in testdata/compose.
//
// emptyorder_test.go applies and composes patches ordering a list with an
// empty "$setElementOrder" (strategicpatch's comparator, which is no order,
// reproduced; PLY_DIFF_EMPTY_ORDER_N cases, default 400).
//
// atomicorders_test.go gives the kubectl targets' ApplyDirectives patches
// "$setElementOrder" directives for lists merged by no strategy (followed,
// empty beside items, followed or empty beside "$deleteFromPrimitiveList",
// alone, beside an emptied list), applied, applied with repeated keys, and
// composed.
//
// One suite has no oracle but ply itself: inturn_test.go judges
// patch.Apply of patches naming merge keys again, under depth limits
// (which strategicpatch lacks), against the patch's items applied one
// after another, the definition of a repeat; cases whose repeats no split
// stands for (below a directive, or after a null-keyed item the split's
// first part appends, its key dropped) are counted "not in turn" and left
// out, and errors that
// differ only because the steps meet another error first are bounded.
// PLY_DIFF_INTURN_N sets its cases per target and limit (default 150).
package patchdiff
