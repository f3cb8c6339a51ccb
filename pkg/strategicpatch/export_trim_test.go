package strategicpatch

import (
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/strategicpatch/engine"
)

// StrategicMergePatchWhole is StrategicMergePatch merging the original whole: the engine leaves out of the merge the
// fields a patch does not reach only with Options.Gates nil, and features.Kubectl() given is the same gates (every
// one off). What StrategicMergePatch gives must be what it gives.
func StrategicMergePatchWhole(original, patch []byte, dataStruct interface{}) ([]byte, error) {
	schema, err := NewPatchMetaFromStruct(dataStruct)
	if err != nil {
		return nil, err
	}
	kubectl := features.Kubectl()
	return engine.Options{Gates: &kubectl}.ApplyJSON(original, patch, plyStructOf(schema))
}
