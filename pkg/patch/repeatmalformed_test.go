package patch_test

import (
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/test/jsonv"
)

// A later item of a repeated key whose own collation failed at a directive that reads the patch alone (a map's
// "$retainKeys" not a list of strings, a "$setElementOrder/<f>" not a list, a "$deleteFromPrimitiveList/<f>" of values
// not of one class, a "$setElementOrder/<f>" no order of live's list lets through, a "$patch" no merge takes), at its
// own map or reached through maps, fails applied to its key's outcome with that error, decided in Phase 2 (visitors'
// refusedDirectiveOnto: malformedMap, listDirsRefused), the front-end applying no repeat again (probe.OnRepeat): the
// fields before it scalars, nulls, maps merging onto the outcome's (empty ones too), "$patch: delete" maps, "$patch:
// replace" maps, "$patch: merge" maps the outcome lacks, or lists merged by key whose items and the outcome's are keyed
// maps of plain trees (the patch's deleting keys too), all within the depth limit; the maps on its path holding no "$" key but lists ordering or
// deleting from fields after it (or from its own list), or ordering lists merged by key before it (the outcome's, the
// patch's or both). The items applied one after another fail with the same error
// (where a field before the failing one holds a "$patch: merge" map the outcome holds a map for, with that refusal:
// mergeDirectedBefore). An order of a list merged by no strategy, naming nulls or not, that the item's list (naming
// a value twice or not) does not follow before a value it names again fails with the collation's error there
// (visitors' unmergedOrderFailure). (Where a list merged by no strategy before the failing field holds an order the
// item's collation refused as a later item's, which the outcome's collation orders, the front-end applies the repeat.) A later
// item's own "$deleteFromPrimitiveList/<f>" not a list, beside an f it sets, fails at its map read against the
// outcome's (visitors' deletionBesideSet), as the items in turn fail: its own collation, without live, read no such key.
var _ = DescribeTable("Apply of a later item of a repeated key holding a malformed directive",
	func(liveItem, later, wantErr string, frontEnd int64) {
		var again atomic.Int64
		countRepeats(nil, &again)
		opts := patch.Options{Gates: features.Kubectl(), Ordering: patch.OrderKubectl}
		wrap := func(items string) string { return `{"spec":{"containers":[` + items + `]}}` }
		live := jsonv.MustDecode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[` + liveItem + `]}}`)
		first := `,"image":"i"`
		p := jsonv.MustDecode(wrap(`{"name":"a"` + first + `},{"name":"a"` + later + `}`))
		got, err := patch.Apply(live, p, opts)
		Expect(again.Load()).To(Equal(frontEnd), "repeats the front-end applied again")
		want, stepErr := patch.Apply(live, jsonv.MustDecode(wrap(`{"name":"a"`+first+`}`)), opts)
		Expect(stepErr).NotTo(HaveOccurred())
		want, stepErr = patch.Apply(want, jsonv.MustDecode(wrap(`{"name":"a"`+later+`}`)), opts)
		expectInTurn(got, err, want, stepErr, wantErr)
	},
	Entry("its own \"$retainKeys\" naming a number beside the fields it sets",
		`{"name":"a","image":"h","tty":true}`, `,"$retainKeys":["image","name",1],"image":"j"`,
		"spec.containers[name=a]: $retainKeys item 2: expected a field name (string), got integer", int64(0)),
	Entry("a \"$setElementOrder\" a null in a map the outcome holds",
		`{"name":"a","resources":{"limits":{"cpu":"1"}}}`, `,"resources":{"$setElementOrder/claims":null,"claims":[{"name":"c"}]}`,
		"spec.containers[name=a].resources: $setElementOrder/claims must be a list, got null", int64(0)),
	Entry("its own \"$setElementOrder\" of a list merged by key not a list",
		`{"name":"a","ports":[{"containerPort":80}]}`, `,"$setElementOrder/ports":"x","ports":[{"containerPort":80}]`,
		"spec.containers[name=a]: $setElementOrder/ports must be a list, got string", int64(0)),
	Entry("a \"$retainKeys\" naming a null in a map the outcome holds, after a map merging onto the outcome's",
		`{"name":"a","lifecycle":{"stopSignal":"x"},"livenessProbe":{"periodSeconds":1,"timeoutSeconds":2}}`,
		`,"lifecycle":{"stopSignal":"y"},"livenessProbe":{"$retainKeys":["periodSeconds",null],"periodSeconds":3}`,
		"spec.containers[name=a].livenessProbe: $retainKeys item 1: expected a field name (string), got null", int64(0)),
	Entry("a \"$deleteFromPrimitiveList\" of values of two classes, beside the list's order",
		`{"name":"a","args":["b","c"]}`, `,"$deleteFromPrimitiveList/args":["b",1],"$setElementOrder/args":["c"],"args":["c"]`,
		"spec.containers[name=a].args: $deleteFromPrimitiveList/args: list items must all be of one kind: item 0 is a string, item 1 is a number",
		int64(0)),
	Entry("an unknown \"$patch\" in a map before a list its map orders",
		`{"name":"a","livenessProbe":{"periodSeconds":1},"volumeMounts":[{"mountPath":"/m","name":"v"}]}`,
		`,"$setElementOrder/volumeMounts":[{"mountPath":"/m"}],"livenessProbe":{"$patch":"bogus"},"volumeMounts":[{"mountPath":"/m","readOnly":true}]`,
		"spec.containers[name=a].livenessProbe: unknown $patch value bogus; expected replace or delete", int64(0)),
	Entry("an unknown \"$patch\" after a list merged by key of plain items merging onto the outcome's",
		`{"name":"a","env":[{"name":"X","value":"x"}],"livenessProbe":{"periodSeconds":1}}`,
		`,"env":[{"name":"Y","value":"y"},{"name":"X","value":null}],"livenessProbe":{"$patch":"bogus"}`,
		"spec.containers[name=a].livenessProbe: unknown $patch value bogus; expected replace or delete", int64(0)),
	Entry("an unknown \"$patch\" after a list merged by key whose items hold maps, merging onto the outcome's",
		`{"name":"a","env":[{"name":"X","valueFrom":{"fieldRef":{"fieldPath":"f"}}}],"livenessProbe":{"periodSeconds":1}}`,
		`,"env":[{"name":"X","valueFrom":{"fieldRef":{"fieldPath":"g"}}},{"name":"Y","valueFrom":{}}],"livenessProbe":{"$patch":"bogus"}`,
		"spec.containers[name=a].livenessProbe: unknown $patch value bogus; expected replace or delete", int64(0)),
	Entry("a \"$setElementOrder\" its list of a list merged by no strategy does not follow, where the outcome lacks it",
		`{"name":"a","image":"h"}`, `,"$setElementOrder/args":["z"],"args":["b"]`,
		"spec.containers[name=a].args: patch list item 0 is missing from $setElementOrder/args", int64(0)),
	Entry("a \"$setElementOrder\" naming a null, of a list merged by no strategy the outcome holds",
		`{"name":"a","args":["b"]}`, `,"$setElementOrder/args":[null],"args":["c"]`,
		"spec.containers[name=a].args: patch list item 0 is missing from $setElementOrder/args", int64(0)),
	Entry("a \"$setElementOrder\" its list naming a value twice does not follow, onto the outcome's empty list",
		`{"name":"a","args":[]}`, `,"$setElementOrder/args":["z"],"args":["c","c"]`,
		"spec.containers[name=a].args: patch list item 0 is missing from $setElementOrder/args", int64(0)),
	Entry("a \"$setElementOrder\" its list fails to follow before a value it names again",
		`{"name":"a","args":["b"]}`, `,"$setElementOrder/args":["c","z"],"args":["c","d","c"]`,
		"spec.containers[name=a].args: patch list item 1 is missing from $setElementOrder/args", int64(0)),
	Entry("a \"$setElementOrder\" naming a null, of a list merged by no strategy the outcome holds of another class",
		`{"name":"a","args":[1]}`, `,"$setElementOrder/args":[null],"args":["c"]`,
		"spec.containers[name=a].args: $setElementOrder/args orders lists merged by key or value", int64(0)),
	Entry("a field ordered and set to null after an empty \"$setElementOrder\" of a list merged by no strategy: "+
		"applied again by the front-end, the list ordered by the outcome's",
		`{"name":"a","ports":[{"containerPort":80}]}`,
		`,"$setElementOrder/command":[],"$setElementOrder/ports":[{"containerPort":80}],"command":["c","b"],"ports":null`,
		"spec.containers[name=a].ports: $setElementOrder/ports orders a list, but the patch sets ports to null", int64(1)),
	Entry("an unknown \"$patch\" after a \"$patch: merge\" map the outcome holds a map for: the error there",
		`{"name":"a","lifecycle":{"stopSignal":"x"},"livenessProbe":{"periodSeconds":1}}`,
		`,"lifecycle":{"$patch":"merge","stopSignal":"y"},"livenessProbe":{"$patch":"bogus"}`,
		"spec.containers[name=a].lifecycle: $patch: merge is a schema strategy, not a patch directive", int64(0)),
	Entry("an unknown \"$patch\" after a \"$patch: delete\" map the outcome holds",
		`{"name":"a","lifecycle":{"stopSignal":"x"},"livenessProbe":{"periodSeconds":1}}`,
		`,"lifecycle":{"$patch":"delete","stopSignal":"y"},"livenessProbe":{"$patch":"bogus"}`,
		"spec.containers[name=a].livenessProbe: unknown $patch value bogus; expected replace or delete", int64(0)),
	Entry("an unknown \"$patch\" after a \"$patch: replace\" map of scalars the outcome holds",
		`{"name":"a","lifecycle":{"preStop":{"sleep":{"seconds":1}},"stopSignal":"x"},"livenessProbe":{"periodSeconds":1}}`,
		`,"lifecycle":{"$patch":"replace","stopSignal":"y"},"livenessProbe":{"$patch":"bogus"}`,
		"spec.containers[name=a].livenessProbe: unknown $patch value bogus; expected replace or delete", int64(0)),
	Entry("an unknown \"$patch\" a level down after a \"$patch: replace\" map nesting a map, the outcome holding both",
		`{"name":"a","lifecycle":{"stopSignal":"x"},"livenessProbe":{"grpc":{"port":1}}}`,
		`,"lifecycle":{"$patch":"replace","preStop":{"sleep":null},"stopSignal":"y"},"livenessProbe":{"grpc":{"$patch":"bogus"}}`,
		"spec.containers[name=a].livenessProbe.grpc: unknown $patch value bogus; expected replace or delete", int64(0)),
	Entry("an unknown \"$patch\" after a \"$patch: replace\" map nesting maps that the outcome lacks",
		`{"name":"a","livenessProbe":{"periodSeconds":1}}`,
		`,"lifecycle":{"$patch":"replace","preStop":{"sleep":{"seconds":2}}},"livenessProbe":{"$patch":"bogus"}`,
		"spec.containers[name=a].livenessProbe: unknown $patch value bogus; expected replace or delete", int64(0)),
	Entry("an unknown \"$patch\" after a \"$patch: merge\" map that the outcome lacks",
		`{"name":"a","livenessProbe":{"periodSeconds":1}}`,
		`,"lifecycle":{"$patch":"merge","stopSignal":"y"},"livenessProbe":{"$patch":"bogus"}`,
		"spec.containers[name=a].livenessProbe: unknown $patch value bogus; expected replace or delete", int64(0)),
	Entry("an unknown \"$patch\" after an empty map the outcome holds with fields, within the depth limit",
		`{"name":"a","lifecycle":{"stopSignal":"x"},"livenessProbe":{"periodSeconds":1}}`,
		`,"lifecycle":{},"livenessProbe":{"$patch":"bogus"}`,
		"spec.containers[name=a].livenessProbe: unknown $patch value bogus; expected replace or delete", int64(0)),
	Entry("an unknown \"$patch\" after an empty list merged by key the outcome holds with items, within the depth limit",
		`{"name":"a","env":[{"name":"X","value":"x"}],"livenessProbe":{"periodSeconds":1}}`,
		`,"env":[],"livenessProbe":{"$patch":"bogus"}`,
		"spec.containers[name=a].livenessProbe: unknown $patch value bogus; expected replace or delete", int64(0)),
	Entry("an unknown \"$patch\" after a list merged by key deleting an item of the outcome's",
		`{"name":"a","env":[{"name":"X","value":"x"},{"name":"Z","value":"z"}],"livenessProbe":{"periodSeconds":1}}`,
		`,"env":[{"$patch":"delete","name":"X"},{"name":"Y","value":"y"}],"livenessProbe":{"$patch":"bogus"}`,
		"spec.containers[name=a].livenessProbe: unknown $patch value bogus; expected replace or delete", int64(0)),
	Entry("an unknown \"$patch\" after a list merged by key deleting an item the outcome's lacks",
		`{"name":"a","env":[],"livenessProbe":{"periodSeconds":1}}`,
		`,"env":[{"$patch":"delete","name":"X"}],"livenessProbe":{"$patch":"bogus"}`,
		"spec.containers[name=a].livenessProbe: unknown $patch value bogus; expected replace or delete", int64(0)),
	Entry("a \"$setElementOrder\" naming an object, of a list merged by no strategy",
		`{"name":"a","args":["b"]}`, `,"$setElementOrder/args":[{"x":"y"}],"args":["c"]`,
		"spec.containers[name=a].args: $setElementOrder/args orders lists merged by key or value", int64(0)),
	Entry("a \"$setElementOrder\" of a list merged by no strategy whose items are objects",
		`{"name":"a","resizePolicy":[{"resourceName":"cpu"}]}`,
		`,"$setElementOrder/resizePolicy":["cpu"],"resizePolicy":[{"resourceName":"memory"}]`,
		"spec.containers[name=a].resizePolicy: $setElementOrder/resizePolicy orders lists merged by key or value", int64(0)),
	Entry("an unknown \"$patch\" after an order of a list merged by key the outcome holds, the patch not setting it",
		`{"name":"a","env":[{"name":"X","value":"x"},{"name":"Y","value":"y"}],"livenessProbe":{"periodSeconds":1}}`,
		`,"$setElementOrder/env":[{"name":"Y"},{"name":"X"}],"livenessProbe":{"$patch":"bogus"}`,
		"spec.containers[name=a].livenessProbe: unknown $patch value bogus; expected replace or delete", int64(0)),
	Entry("an unknown \"$patch\" after an ordered list merged by key merging onto the outcome's",
		`{"name":"a","env":[{"name":"X","value":"x"},{"name":"Y","value":"y"}],"livenessProbe":{"periodSeconds":1}}`,
		`,"$setElementOrder/env":[{"name":"Y"},{"name":"X"}],"env":[{"name":"Y","value":"z"}],"livenessProbe":{"$patch":"bogus"}`,
		"spec.containers[name=a].livenessProbe: unknown $patch value bogus; expected replace or delete", int64(0)),
	Entry("a \"$retainKeys\" not a list after an ordered list merged by key the outcome lacks",
		`{"name":"a","livenessProbe":{"periodSeconds":1}}`,
		`,"$setElementOrder/env":[{"name":"X"}],"env":[{"name":"X","value":"x"}],"livenessProbe":{"$retainKeys":"x"}`,
		"spec.containers[name=a].livenessProbe: $retainKeys must be a list of field names, got string", int64(0)),
	Entry("an unknown \"$patch\" after a list merged by no strategy whose items hold \"$patch\", onto the outcome's list",
		`{"name":"a","envFrom":[{"prefix":"x"}],"livenessProbe":{"periodSeconds":1}}`,
		`,"envFrom":[{"prefix":"y","secretRef":{"$patch":"bogus","name":"s"}}],"livenessProbe":{"$patch":"bogus"}`,
		"spec.containers[name=a].livenessProbe: unknown $patch value bogus; expected replace or delete", int64(0)),
	Entry("an unknown \"$patch\" after a list merged by no strategy whose items hold \"$patch\", the outcome lacking it",
		`{"name":"a","livenessProbe":{"periodSeconds":1}}`,
		`,"envFrom":[{"$patch":"delete","prefix":"y"},{"prefix":"z"}],"livenessProbe":{"$patch":"bogus"}`,
		"spec.containers[name=a].livenessProbe: unknown $patch value bogus; expected replace or delete", int64(0)),
	Entry("an empty list merged by key, ordered empty, the outcome lacks before an unknown \"$patch\": the order's "+
		"error, the front-end applying the repeat",
		`{"name":"a","livenessProbe":{"periodSeconds":1}}`,
		`,"$setElementOrder/env":[],"env":[],"livenessProbe":{"$patch":"bogus"}`,
		"spec.containers[name=a].env: $setElementOrder/env orders a list that has no items in live or in the patch", int64(1)),
	Entry("its own \"$deleteFromPrimitiveList\" not a list beside the list it sets: read against the outcome's map",
		`{"name":"a","args":["b"]}`, `,"$deleteFromPrimitiveList/args":"b","args":["c"]`,
		deletionBeside("args"), int64(0)),
	Entry("its own \"$deleteFromPrimitiveList\" not a list beside a null it sets, the outcome lacking the field",
		`{"name":"a","image":"h"}`, `,"$deleteFromPrimitiveList/command":"a","command":null`,
		deletionBeside("command"), int64(0)),
	Entry("its own \"$deleteFromPrimitiveList\" not a list beside the list it sets and orders empty: the map's read "+
		"fails before the order's",
		`{"name":"a","command":["a","c"]}`, `,"$deleteFromPrimitiveList/command":"a","$setElementOrder/command":[],"command":["c","a"]`,
		deletionBeside("command"), int64(0)),
	Entry("its own \"$deleteFromPrimitiveList\" not a list beside the list it sets, before a \"$retainKeys\" not naming it",
		`{"name":"a","args":["b"]}`, `,"$deleteFromPrimitiveList/args":null,"$retainKeys":["image","name"],"args":["x"],"image":"j"`,
		deletionBeside("args"), int64(0)),
	Entry("a \"$deleteFromPrimitiveList\" not a list beside a field it sets, before its own field ordered and set to "+
		"other than a list, which fails onto any outcome: the map's read fails first",
		`{"name":"a","args":["b"]}`, `,"$deleteFromPrimitiveList/tty":"q","$setElementOrder/args":["x"],"args":"x","tty":true`,
		deletionBeside("tty"), int64(0)),
	Entry("a \"$retainKeys\" not a list in an item of a list merged by key, merging into the outcome's item of its key",
		`{"name":"a","env":[{"name":"X","value":"x"}]}`, `,"env":[{"$retainKeys":null,"name":"X","value":"y"}]`,
		"spec.containers[name=a].env[name=X]: $retainKeys must be a list of field names, got null", int64(0)),
	Entry("an unknown \"$patch\" in a map of an item of a list merged by key, after an item merging onto the outcome's",
		`{"name":"a","env":[{"name":"X","value":"x"},{"name":"Y","valueFrom":{"fieldRef":{"fieldPath":"f"}}}]}`,
		`,"env":[{"name":"X","value":"z"},{"name":"Y","valueFrom":{"fieldRef":{"$patch":"bogus","fieldPath":"g"}}}]`,
		"spec.containers[name=a].env[name=Y].valueFrom.fieldRef: unknown $patch value bogus; expected replace or delete",
		int64(0)),
	Entry("a \"$retainKeys\" naming a number in an item of a list merged by key the outcome's list lacks",
		`{"name":"a","volumeMounts":[{"mountPath":"/m","name":"v"}]}`,
		`,"volumeMounts":[{"$retainKeys":["mountPath",1],"mountPath":"/n","name":"w"}]`,
		"spec.containers[name=a].volumeMounts[mountPath=/n]: $retainKeys item 1: expected a field name (string), got integer",
		int64(0)),
	Entry("a \"$retainKeys\" not a list in an item of a list merged by key, beside an item deleting another key",
		`{"name":"a","env":[{"name":"X","value":"x"},{"name":"Y","value":"y"}]}`,
		`,"env":[{"$retainKeys":null,"name":"X","value":"z"},{"$patch":"delete","name":"Y"}]`,
		"spec.containers[name=a].env[name=X]: $retainKeys must be a list of field names, got null", int64(0)),
)

// deletionBeside is the error of a container's "$deleteFromPrimitiveList/<field>" not a list beside field, which the
// patch sets too, read against the container's map.
func deletionBeside(field string) string {
	return "spec.containers[name=a]: $deleteFromPrimitiveList/" + field + ` is not a list and the patch sets "` + field +
		`" too: strategicpatch reads both as "` + field + `", in the random order Go's map iteration meets them; give one of the two`
}
