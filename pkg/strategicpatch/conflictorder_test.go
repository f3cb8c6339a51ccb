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
