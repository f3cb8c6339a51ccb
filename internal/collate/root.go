package collate

import (
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// Candidate is a root object whose apiVersion and kind may name the schema
// type of the tree, and the source it comes from (for errors).
type Candidate struct {
	Object value.Value
	Source elements.Source
}

// RootType resolves the schema type of the root of a tree. schema nil
// means openapi.Default(). A non-empty typeName names the definition (an
// error when the schema lacks it). Otherwise the first candidate that is
// an object with a kind decides: the type of its apiVersion and kind, or
// openapi.Unknown when the schema does not know them (callers decide
// whether to warn). No candidate with a kind also gives openapi.Unknown.
// A kind that is not a string is an *elements.Error naming its source.
func RootType(schema *openapi.Schema, typeName string, candidates ...Candidate) (*openapi.Type, error) {
	if schema == nil {
		s, err := openapi.Default()
		if err != nil {
			return nil, err
		}
		schema = s
	}
	if typeName != "" {
		t, ok := schema.ByName(typeName)
		if !ok {
			return nil, &elements.Error{Msg: "the schema has no definition named " + typeName}
		}
		return t, nil
	}
	for _, c := range candidates {
		k, ok := c.Object.Get("kind")
		if !c.Object.IsMap() || !ok {
			continue
		}
		kind, isString := k.AsString()
		if !isString {
			return nil, &elements.Error{Source: c.Source, Path: fieldpath.Path{fieldpath.Field("kind")},
				Msg: "expected a string, got " + k.Kind().String()}
		}
		av, _ := c.Object.Get("apiVersion")
		apiVersion, _ := av.AsString()
		if t, ok := schema.ForKind(apiVersion, kind); ok {
			return t, nil
		}
		return openapi.Unknown, nil
	}
	return openapi.Unknown, nil
}

// RootValues checks the top level of the three objects of a tree and
// returns the root's Values: local must be an object; recorded and live
// are absent when null (a first apply; no object yet) and must be objects
// otherwise; a recorded or live apiVersion or kind that differs from
// local's is an error naming that source, since the three must describe
// one object.
func RootValues(recorded, local, live value.Value) (elements.Values, error) {
	if !local.IsMap() {
		return elements.Values{}, &elements.Error{Source: elements.Local, Msg: "the top level must be an object, got " + local.Kind().String()}
	}
	vals := elements.Values{Local: local, HasLocal: true}
	if !recorded.IsNull() {
		if !recorded.IsMap() {
			return elements.Values{}, &elements.Error{Source: elements.Recorded, Msg: "the top level must be an object, got " + recorded.Kind().String()}
		}
		vals.Recorded, vals.HasRecorded = recorded, true
	}
	if !live.IsNull() {
		if !live.IsMap() {
			return elements.Values{}, &elements.Error{Source: elements.Live, Msg: "the top level must be an object, got " + live.Kind().String()}
		}
		vals.Live, vals.HasLive = live, true
	}
	for _, field := range [...]string{"apiVersion", "kind"} {
		want, ok := local.Get(field)
		if !ok {
			continue
		}
		for _, s := range [...]elements.Source{elements.Recorded, elements.Live} {
			v, present := vals.Get(s)
			if !present {
				continue
			}
			if got, ok := v.Get(field); ok && !value.Equal(got, want) {
				return elements.Values{}, &elements.Error{Source: s, Path: fieldpath.Path{fieldpath.Field(field)},
					Msg: "is " + got.Short() + " but local's is " + want.Short() + "; all three objects must be of one apiVersion and kind"}
			}
		}
	}
	return vals, nil
}
