package collate

import (
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// RootValues checks the top level of the three objects of a tree and
// returns the root's Values: local must be an object; recorded and live
// are absent when null (a first apply; no object yet) and must be objects
// otherwise; a recorded or live apiVersion or kind that differs from
// local's is an error naming that source, since the three must describe
// one object.
func RootValues(recorded, local, live value.Value) (elements.Values, error) {
	vals := elements.Values{Local: local, HasLocal: true}
	if !recorded.IsNull() {
		vals.Recorded, vals.HasRecorded = recorded, true
	}
	if !live.IsNull() {
		vals.Live, vals.HasLive = live, true
	}
	for _, s := range [...]elements.Source{elements.Local, elements.Recorded, elements.Live} {
		if v, ok := vals.Get(s); ok && !v.IsMap() {
			return elements.Values{}, &elements.Error{Source: s, Msg: "the top level must be an object, got " + v.Kind().String()}
		}
	}
	for _, field := range [...]string{"apiVersion", "kind"} {
		want, ok := local.Get(field)
		for _, s := range [...]elements.Source{elements.Recorded, elements.Live} {
			v, _ := vals.Get(s)
			if got, found := v.Get(field); ok && found && !value.Equal(got, want) {
				return elements.Values{}, &elements.Error{Source: s, Path: fieldpath.Path{fieldpath.Field(field)},
					Msg: "is " + got.Short() + " but local's is " + want.Short() + "; all three objects must be of one apiVersion and kind"}
			}
		}
	}
	return vals, nil
}
