// Package k8sspecs holds ply's OpenAPI loaders to the documents Kubernetes publishes: the api/openapi-spec/swagger.json
// (v2) and api/openapi-spec/v3/*.json documents of the k8s.io/kubernetes module, at the release test/harness builds
// (HarnessRelease) and at Releases, fetched from the Go module proxy at test time (`go mod download`; nothing of
// Kubernetes' is committed). Its tests load every document, list the warnings the loaders record (the departures
// kube-openapi reads past), and merge one Deployment with the v2 and the apps/v1 v3 document of each release, which
// must all give the same object.
package k8sspecs
