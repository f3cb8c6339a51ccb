package strategicpatch_test

import (
	. "github.com/onsi/ginkgo/v2"
)

// Not overwriting, the drop-in's conflict error names current's changes as strategicpatch's diff of original against
// current writes them, which orders no list: an item of a list merged by key whose only change is the order of a list
// inside it is left out, and so is a map whose only change is such an order, and a list left with no item.
var _ = DescribeTable("pkg/strategicpatch's conflict errors naming current's changes of a list's order, as strategicpatch's",
	createsAsStrategicpatch,
	Entry("an item whose list current reordered, beside a conflicting item",
		`{"spec":{"containers":[{"name":"b","env":[{"name":"y"},{"name":"z"}]},{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`,
		`{"spec":{"containers":[{"name":"b","env":[{"name":"z"},{"name":"y"}]},{"name":"a","image":"j"}]}}`),
	Entry("an item whose list current reordered and whose field current changed",
		`{"spec":{"containers":[{"name":"b","env":[{"name":"y"},{"name":"z"}]},{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"a","image":"i"}]}}`,
		`{"spec":{"containers":[{"name":"b","image":"k","env":[{"name":"z"},{"name":"y"}]},{"name":"a","image":"j"}]}}`),
	Entry("the only item of a list whose list current reordered, beside a conflicting field",
		`{"spec":{"containers":[{"name":"b","env":[{"name":"y"},{"name":"z"}]}],"hostname":"h"}}`,
		`{"spec":{"containers":[{"name":"b","env":[{"name":"y"},{"name":"z"}]}],"hostname":"i"}}`,
		`{"spec":{"containers":[{"name":"b","env":[{"name":"z"},{"name":"y"}]}],"hostname":"j"}}`),
	Entry("a nested item whose list current reordered",
		`{"spec":{"containers":[{"name":"b","env":[{"name":"y","valueFrom":{"configMapKeyRef":{"key":"k"}}}],"volumeMounts":[{"mountPath":"/a"},{"mountPath":"/b"}]}],"hostname":"h"}}`,
		`{"spec":{"hostname":"i","containers":[{"name":"b","env":[{"name":"y","valueFrom":{"configMapKeyRef":{"key":"k"}}}],"volumeMounts":[{"mountPath":"/a"},{"mountPath":"/b"}]}]}}`,
		`{"spec":{"hostname":"j","containers":[{"name":"b","env":[{"name":"y","valueFrom":{"configMapKeyRef":{"key":"k"}}}],"volumeMounts":[{"mountPath":"/b"},{"mountPath":"/a"}]}]}}`),
	Entry("a list current reordered, beside a conflicting field",
		`{"spec":{"containers":[{"name":"a"},{"name":"b"}],"hostname":"h"}}`,
		`{"spec":{"containers":[{"name":"a"},{"name":"b"}],"hostname":"i"}}`,
		`{"spec":{"containers":[{"name":"b"},{"name":"a"}],"hostname":"j"}}`),
)

// Not overwriting, strategicpatch's diff of original against current writes the "$setElementOrder/<f>" keys original's
// or current's maps hold as data, and its conflict check reads them as fields: the drop-in's conflict error names
// them, its check looks a list or map of such a key up where the patch holds the key too (and fails as the schema's
// look-up fails), and compares a scalar of such a key with the patch's. A field the schema does not declare where the
// patch holds a list or map and current's changes hold the field fails the check so too.
var _ = DescribeTable("pkg/strategicpatch's conflict check reading current's own directive keys and undeclared fields, as strategicpatch's",
	createsAsStrategicpatch,
	Entry("current's own order beside a conflicting field",
		`{"spec":{"hostname":"h"}}`,
		`{"spec":{"hostname":"i"}}`,
		`{"spec":{"hostname":"j","$setElementOrder/containers":[{"name":"a"}]}}`),
	Entry("current's own order where the patch orders the list",
		`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`,
		`{"spec":{"containers":[{"name":"b"},{"name":"a"},{"name":"c"}]}}`,
		`{"spec":{"containers":[{"name":"a"},{"name":"b"}],"$setElementOrder/containers":[{"name":"a"}]}}`),
	Entry("current's own order in an item of a list merged by key, beside a conflicting field",
		`{"spec":{"containers":[{"name":"a"}],"hostname":"h"}}`,
		`{"spec":{"containers":[{"name":"a"}],"hostname":"i"}}`,
		`{"spec":{"containers":[{"name":"a","$setElementOrder/ports":[{"containerPort":1}]}],"hostname":"j"}}`),
	Entry("original's own order in an item, which current dropped",
		`{"spec":{"containers":[{"name":"a","$setElementOrder/ports":[{"containerPort":1}]}]}}`,
		`{"spec":{"containers":[{"name":"a","$setElementOrder/ports":[{"containerPort":1}]}]}}`,
		`{"spec":{"containers":[{"name":"a"}]}}`),
	Entry("current's own order in a map new to it, beside a conflicting field",
		`{"spec":{"hostname":"h"}}`,
		`{"spec":{"hostname":"i"}}`,
		`{"spec":{"hostname":"j","securityContext":{"$setElementOrder/sysctls":[{"name":"s"}]}}}`),
	Entry("modified's and current's own orders of other scalar values",
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"containers":[{"name":"a"}],"$setElementOrder/containers":5}}`,
		`{"spec":{"containers":[{"name":"a"}],"$setElementOrder/containers":6}}`),
	Entry("modified's own scalar order where current dropped original's",
		`{"spec":{"containers":[{"name":"a"}],"$setElementOrder/containers":"y"}}`,
		`{"spec":{"containers":[{"name":"a"}],"$setElementOrder/containers":"x"}}`,
		`{"spec":{"containers":[{"name":"a"}]}}`),
	Entry("an undeclared field where the patch holds a list and current deleted it",
		`{"spec":{"foo":"s"}}`,
		`{"spec":{"foo":[2]}}`,
		`{"spec":{}}`),
	Entry("an undeclared field where the patch holds a map and current deleted it",
		`{"spec":{"foo":"s"}}`,
		`{"spec":{"foo":{"a":1}}}`,
		`{"spec":{}}`),
	Entry("an undeclared field where the patch holds a list and current changed its scalar",
		`{"spec":{"foo":"s"}}`,
		`{"spec":{"foo":[2]}}`,
		`{"spec":{"foo":"t"}}`),
	Entry("an undeclared field of an item of a list merged by key",
		`{"spec":{"containers":[{"name":"a","foo":"s"}]}}`,
		`{"spec":{"containers":[{"name":"a","foo":{"b":1}}]}}`,
		`{"spec":{"containers":[{"name":"a"}]}}`),
	Entry("an undeclared field of the root",
		`{"foo":"s"}`,
		`{"foo":[1]}`,
		`{"foo":null}`),
)
