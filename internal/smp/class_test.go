package smp_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/pkg/value"
)

var _ = DescribeTable("ScalarsOfKind tells lists of scalars of one kind, nulls not among them",
	func(items []value.Value, k value.Kind, want bool) {
		Expect(smp.ScalarsOfKind(items, k)).To(Equal(want))
	},
	Entry("strings", []value.Value{value.String("a"), value.String("b")}, value.KindString, true),
	Entry("no items", nil, value.KindString, true),
	Entry("strings of another kind than k", []value.Value{value.String("a")}, value.KindInt, false),
	Entry("an integer beside a decimal", []value.Value{value.Int(1), value.Float(2.5)}, value.KindInt, false),
	Entry("a null", []value.Value{value.String("a"), value.Null}, value.KindString, false),
	Entry("nulls alone", []value.Value{value.Null}, value.KindNull, false),
	Entry("a map", []value.Value{value.MustMap()}, value.KindMap, false),
)
