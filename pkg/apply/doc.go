// Package apply is ply's facade for programs that embed it: one call merges
// the recorded (last-applied), local and live objects of one Kubernetes
// resource the way kubectl apply means, and returns the updated object with
// the list of changes it makes to live.
//
//	res, err := apply.Merge(recorded, local, live, apply.DefaultOptions())
//
// Merge is safe for concurrent use; schemas are parsed once per process and
// shared.
package apply
