// Package cluster applies manifests to a real Kubernetes cluster with ply's
// three-way merge: it reads objects from files (ReadObjects), maps them to
// API resources through the server's discovery (cached in memory), reads
// each live object, merges the configuration recorded in its
// kubectl.kubernetes.io/last-applied-configuration annotation, the local
// object and the live one with apply.Merge under the schema the server
// publishes (OpenAPI v3, else v2, so custom resources merge by their CRD's
// schema), and writes the result back with an optimistic-concurrency
// Update, retried with bounded exponential backoff on conflicts. The live
// objects of a resource in a namespace that a run applies many of
// (Options.ListThreshold) are read with one paged LIST instead of a GET
// each; the writes, and the reads after a conflict, are the same.
//
// The annotation ply writes is byte for byte the one kubectl apply writes
// (compact JSON of the local object, without the annotation itself, and a
// trailing newline), so that a user can switch between kubectl apply and
// ply apply in both directions.
//
// Client.Apply applies a run in stages (Stages: Argo CD sync waves, kapp
// change rules, then kinds: Namespaces, CustomResourceDefinitions, what
// others refer to, workloads, admission webhooks last), one stage after
// the other, each through a bounded worker pool; after a stage holding
// CRDs it waits until they are established, served by discovery and
// published in the OpenAPI documents, and Options.StageDone runs between
// stages (the CLI's --wait). Prune deletes in the reverse order; NewPlan,
// PrunePlan and Plan.Moved describe a run without writing and hold a
// later run to that description (Options.Expect: the client-side lane's
// writes carry the resourceVersion the plan read, the server-side lane's
// first apply patch carries it as metadata.resourceVersion;
// Options.ExpectPrune: prune's deletes carry it as a precondition). An
// object a per-object control leaves (controls.go) is Ignored: nothing is
// written or deleted for it, in either lane. Every
// object of a stage goes through the same per-object apply whatever its
// lane and ignore rules, so the stages, StageDone and prune see the
// outcomes of both lanes alike. An object whose merged result equals the live
// object is left alone (Unchanged); Options.Report hears of each object as
// it finishes, and Outcome.Result is the server's answer. Client.Diff
// computes the same merges without writing and renders unified diffs:
// with DryRunServer against the server's answer to the write sent as a
// dry run (defaults, admission and refusals show), else against the
// merged object. ReadObjects reads files, folders, standard input and
// http(s) URLs.
//
// Options.Lane selects the server-side lane instead (serverside.go,
// lane.go): each object is read (for the per-object controls,
// controls.go) and sent as one server-side apply patch, repeated while it
// fails transiently (an apply patch is idempotent); the hand-over from client-side apply is kubectl's
// (csaupgrade), done from the server's answer; a conflict with another
// manager fails the object with nothing written (ManagerConflictError,
// built from the Status's causes alone). LaneAuto reads each object and
// applies it in the lane it was last applied in (an object the read shows
// already applied is not sent: noop.go). Objects whose
// configuration is over AnnotationsLimit go server-side unless
// Options.LargeObjects says LargeCompressed. A server dry run of the
// server-side lane answers what the real run, hand-over included, would
// leave (ssadry.go). The client-side lane's record is the last-applied
// annotation while managedFields say it is current, else what the
// server-side manager applied, in both cases less the fields other
// managers' server-side applies own (staleness.go).
//
// Client.ApplyPrune applies and then prunes: the members of an ApplySet
// (KEP-3659, as kubectl 1.32: applyset.go holds the parent, its id, the
// members' label and the tooling rules) that the run no longer holds, or,
// kubectl's older form, the objects of a list of kinds matching a
// selector; nothing is pruned when an object failed, and deletions go in
// reverse apply order (prune.go).
//
// Faults (retry.go): a request that fails transiently (429, 5xx, a
// connection refused or reset, an answer cut short, no answer within the
// request timeout: the rest.Config's Timeout, else DefaultRequestTimeout)
// is retried with the backoff for Options.RetryTimeout. Reads and deletes
// (which carry a UID precondition) are repeated as they are; a create or
// update is never repeated blindly: the object is read and merged again,
// and its outcome is what the server then holds (lostWrite), so an object
// this run wrote is never reported Unchanged. Once every request has
// failed for the retry time, the requests that follow fail unsent.
//
// Secrets: Diff's unified diffs mask the values of a Secret's data and
// stringData, and of its last-applied annotation, as kubectl diff's masker
// does (MaskSecrets); unless Options.ShowSecrets, no message about a
// Secret holds one of its values in any form: the server's refusals are
// rendered from their Status's reason, code and causes' field paths
// (SecretStatusError, made where the requests answer), conflicts list
// paths, and no message is ever searched for values or rewritten.
package cluster
