package cluster

import "github.com/plyproject/ply/pkg/value"

// An object already read before its server-side apply (t.pre: read for
// the per-object controls, and for the lane LaneAuto chooses, from the
// run's LIST or a GET) needs no
// apply patch when managedFields show that the patch would change
// nothing: the server-side manager's Apply entry, of the configuration's
// apiVersion, owns exactly the configuration's fields, and live holds the
// configuration's values there (recordedFromManager equals the
// configuration). The object must also carry no last-applied annotation,
// whose upkeep and hand-over (keepLastApplied, migrate) only the patch
// does. The outcome is serverside-applied, as kubectl prints it for a patch
// that changed nothing, with live as the result. An unchanged apply patch
// costs the API server nearly what a changing one does; the read was made
// already (docs/benchmarks.md, "The server-side lane").

// alreadyApplied reports whether the server-side apply of config under
// manager would leave live as it is (see above).
func alreadyApplied(live, config value.Value, manager string) bool {
	md, _ := live.Get("metadata")
	ann, _ := md.Get("annotations")
	for _, key := range [...]string{LastAppliedAnnotation, CompressedLastAppliedAnnotation} {
		if _, ok := ann.Get(key); ok {
			return false
		}
	}
	mf, _ := md.Get("managedFields")
	found := false
	for _, e := range mf.Items() {
		if stringAt(e, "operation") != "Apply" || stringAt(e, "manager") != manager || stringAt(e, "subresource") != "" {
			continue
		}
		if stringAt(e, "apiVersion") != stringAt(config, "apiVersion") {
			return false
		}
		found = true
	}
	return found && value.Equal(recordedFromManager(live, manager), config)
}
