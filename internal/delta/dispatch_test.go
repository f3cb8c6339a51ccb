package delta_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/value"
)

// unknownElement is an Element kind outside the built-in set that no registered rule decides.
type unknownElement struct{ elements.Node }

var _ = Describe("dispatch", func() {
	// parentOf returns a map node whose one field x is unknown.
	parentOf := func(unknown *unknownElement) *elements.MapElement {
		vals := elements.Values{Local: value.MustMap(value.Field{Key: "x", Value: value.Int(2)}), HasLocal: true,
			Recorded: value.MustMap(value.Field{Key: "x", Value: value.Int(1)}), HasRecorded: true,
			Live: value.MustMap(value.Field{Key: "x", Value: value.Int(1)}), HasLive: true}
		m := &elements.MapElement{Node: elements.Node{Type: openapi.Unknown, Values: vals}}
		unknown.Node = elements.Node{Parent: m, Name: "x", Type: openapi.Unknown,
			Values: elements.Values{Local: value.Int(2), HasLocal: true, Recorded: value.Int(1), HasRecorded: true, Live: value.Int(1), HasLive: true}}
		m.Fields = []elements.Field{{Name: "x", Element: unknown}}
		return m
	}

	It("refuses an Element kind the merge rules do not know, in every mode", func() {
		for _, m := range []delta.Mode{delta.Delta, delta.Deletions, delta.TwoWay, delta.Changed} {
			root := parentOf(&unknownElement{})
			_, _, err := delta.Patch(root, nil, m, features.Gates{})
			Expect(err).To(MatchError("x: no merge rule decides a *delta_test.unknownElement"))
			_, err = delta.New(m, features.Gates{}).Entry(root)
			Expect(err).To(MatchError(ContainSubstring("no merge rule decides")))
		}
		_, _, err := delta.ThreeWay(parentOf(&unknownElement{}), nil, features.Gates{}, true)
		Expect(err).To(MatchError(ContainSubstring("no merge rule decides a *delta_test.unknownElement")))
	})

	It("refuses an unknown root", func() {
		_, _, err := delta.Patch(&unknownElement{Node: elements.Node{Type: openapi.Unknown}}, nil, delta.TwoWay, features.Gates{})
		Expect(err).To(MatchError(".: no merge rule decides a *delta_test.unknownElement"))
	})
})
