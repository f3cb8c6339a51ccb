package visitors_test

import (
	"encoding/json"
	"os"
	"sync"

	openapiv2 "github.com/google/gnostic-models/openapiv2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/kube-openapi/pkg/util/proto"

	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// The oracle is kubectl's client-side apply, run with k8s.io/apimachinery's
// strategicpatch over the same swagger document ply embeds. (The oracle of
// test/internal/oracle is not importable from pkg/.)

var oracleModels struct {
	once   sync.Once
	models proto.Models
	err    error
}

func models() proto.Models {
	oracleModels.once.Do(func() {
		data, err := os.ReadFile("../../openapi/default/swagger.json")
		if err != nil {
			oracleModels.err = err
			return
		}
		var top map[string]json.RawMessage
		if err = json.Unmarshal(data, &top); err != nil {
			oracleModels.err = err
			return
		}
		if _, ok := top["paths"]; !ok {
			top["paths"] = json.RawMessage("{}")
			if data, err = json.Marshal(top); err != nil {
				oracleModels.err = err
				return
			}
		}
		doc, err := openapiv2.ParseDocument(data)
		if err != nil {
			oracleModels.err = err
			return
		}
		oracleModels.models, oracleModels.err = proto.NewOpenAPIData(doc)
	})
	Expect(oracleModels.err).NotTo(HaveOccurred())
	return oracleModels.models
}

// patchMeta returns kubectl's merge metadata for the definition called name.
func patchMeta(name string) strategicpatch.LookupPatchMeta {
	s := models().LookupModel(name)
	Expect(s).NotTo(BeNil(), "no definition "+name)
	return strategicpatch.NewPatchMetaFromOpenAPI(s)
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
