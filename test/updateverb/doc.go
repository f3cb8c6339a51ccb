// Package updateverb measures ply's two ways of updating an object on a
// real kube-apiserver: a PUT of the merged object (the user may update) and
// the JSON merge patch ply sends when the user may only patch (a role of
// get, list and patch, what kubectl apply needs), both carrying the
// resourceVersion read. BenchmarkUpdateVerb applies the same number of
// ConfigMaps through pkg/cluster as one user in two namespaces, one whose
// role allows update and one whose role does not, alternating the two
// within each iteration, every apply changing every object, and reports
// objects/s of each and patch/put:
//
//	go test ./test/updateverb -run '^$' -bench UpdateVerb -benchtime 5x -count 3
//
// The server (test/harness) starts on the first iteration and stops when
// the test binary ends; docs/cluster.md ("Verbs") holds the figures.
package updateverb
