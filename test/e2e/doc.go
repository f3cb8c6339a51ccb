// Package e2e is ply's end-to-end suite: it starts a real kube-apiserver
// with etcd (package test/harness), builds the ply and kubectl-ply binaries
// and drives them — `ply apply`, `ply diff` and `kubectl ply` through
// kubectl's plugin lookup — plus the pkg/cluster library where a spec needs
// an outcome's details, checking the live objects with a dynamic client.
//
// Every spec works in its own namespace. The specs cover creating an
// object; a no-op re-apply that writes nothing; changing, removing and
// list-item removal; a Deployment strategy switch that must clear the
// server-defaulted rollingUpdate (retainKeys); TCP and UDP ports on one
// containerPort; a CRD and a custom resource with a keyed list applied in
// one run and merged in later runs; the optimistic lock (a competing writer
// injected through the harness proxy between ply's GET and PUT makes the
// server answer 409, ply retries and the other writer's change survives);
// --overwrite=false failing with exit code 3 on a conflicting change;
// bad manifests, unknown kinds, 422 and 403 answers; an API server killed
// in the middle of a 200-object run; client and server dry runs; Secrets
// masked in every output of apply and diff (and an admission error quoting
// a value) unless --show-secrets; and ply diff against the server:
// defaults, immutable refusals, --changes, KUBECTL_EXTERNAL_DIFF, and the
// same changed lines as kubectl diff on a defaulted Deployment; apply -k
// with -l, --field-manager and -o name; apply --prune with ApplySets
// (Secret, ConfigMap and custom resource parents, two namespaces, a CRD
// pruned after its resources, failed runs, dry runs, a foreign tooling,
// --cascade) and kubectl's older -l/--all form (prune_test.go); changes to
// immutable fields (a Deployment's selector, a Job's template, a Service's
// clusterIP) refused, re-created with --force, and reported without
// writing by --dry-run=server --force, diff --force and diff; and apply
// --wait and pkg/cluster's Wait with kstatus, the specs writing the status
// a controller would through the status subresource while ply waits, and
// waiting for a deleted object a finalizer holds to be gone.
//
// The manifests are in testdata/. The suite needs what harness.Prepare
// installs (etcd, the cached kube-apiserver) and a kubectl 1.32 client
// (harness.Kubectl); a missing one fails the suite with a message.
//
//	go test ./test/e2e/
package e2e
