package strategicpatch

import "github.com/plyproject/ply/pkg/strategicpatch/engine"

// Lookup adapts schema for the engine, for programs that call it with feature gates of their choice:
//
//	gates := features.Gates{} // every gate on: ply's behaviour
//	out, err := engine.Options{Gates: &gates}.ApplyJSON(live, patch, strategicpatch.Lookup(schema))
//
// The package's functions run the engine with every gate off (strategicpatch's results).
func Lookup(schema LookupPatchMeta) engine.Lookup { return plyLookupOf(schema) }
