package visitors_test

import (
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/oracle"
)

// The oracle is kubectl's client-side apply, run with k8s.io/apimachinery's
// strategicpatch over the same swagger document ply embeds. (Built by test/oracle.)

// patchMeta returns kubectl's merge metadata for the definition called
// name, read from the swagger document ply embeds.
func patchMeta(name string) strategicpatch.LookupPatchMeta {
	models, err := oracle.Default()
	Expect(err).NotTo(HaveOccurred())
	o, err := models.Oracle(name)
	Expect(err).NotTo(HaveOccurred())
	return o.Meta()
}

// kubectlApply returns what kubectl apply leaves on the server: live with
// the three-way patch of (recorded, local, live) applied. A recorded value
// that is not present is a first apply (nil original).
func kubectlApply(def string, recorded value.Value, hasRecorded bool, local, live value.Value) value.Value {
	meta := patchMeta(def)
	var original []byte
	if hasRecorded {
		original = recorded.JSON()
	}
	patch, err := strategicpatch.CreateThreeWayMergePatch(original, local.JSON(), live.JSON(), meta, true)
	Expect(err).NotTo(HaveOccurred())
	obj, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(live.JSON(), patch, meta)
	Expect(err).NotTo(HaveOccurred(), "patch "+string(patch))
	v, err := parse.Document(obj)
	Expect(err).NotTo(HaveOccurred())
	return v
}
