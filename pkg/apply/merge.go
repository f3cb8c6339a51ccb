package apply

import (
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/changes"
	"github.com/plyproject/ply/pkg/collate"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/smp"
	"github.com/plyproject/ply/pkg/strategy"
	"github.com/plyproject/ply/pkg/value"
)

// Merge computes what the server should hold after applying local: recorded
// is the configuration last applied (value.Null on a first apply), live the
// object on the server (value.Null when it does not exist yet).
//
// Errors are *elements.Error for bad input (naming the source and field
// path) and *ConflictError when Overwrite is false and live changed a field
// local sets. Merge never modifies its inputs.
func Merge(recorded, local, live value.Value, opts Options) (Result, error) {
	vals, err := rootValues(recorded, local, live)
	if err != nil {
		return Result{}, err
	}
	var res Result
	root, err := rootType(local, opts, &res)
	if err != nil {
		return Result{}, err
	}
	tree, err := collate.Collate(vals, root)
	if err != nil {
		return Result{}, err
	}
	if !opts.Overwrite {
		if conflicts := smp.Conflicts(tree); len(conflicts) > 0 {
			return Result{}, &ConflictError{Conflicts: conflicts}
		}
	}
	out, err := strategy.New(strategy.Options{Ordering: opts.Ordering}).Walk(tree)
	if err != nil {
		return Result{}, err
	}
	res.Object = out.Value
	res.Changes = changes.Collect(tree)
	return res, nil
}

// rootValues checks the top level of the three objects: each present one is
// an object, and they agree on apiVersion and kind.
func rootValues(recorded, local, live value.Value) (elements.Values, error) {
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

// rootType resolves the schema type of the object: the named definition,
// or the one whose group-version-kind matches local's apiVersion and kind,
// or openapi.Unknown with a warning.
func rootType(local value.Value, opts Options, res *Result) (*openapi.Type, error) {
	if opts.TypeName == "" {
		if _, ok := local.Get("kind"); !ok {
			return nil, &elements.Error{Source: elements.Local, Path: fieldpath.Path{fieldpath.Field("kind")},
				Msg: "missing: the object needs apiVersion and kind to find its schema (or name the type explicitly)"}
		}
	}
	t, err := collate.RootType(opts.Schema, opts.TypeName, collate.Candidate{Object: local, Source: elements.Local})
	if err == nil && t == openapi.Unknown && opts.TypeName == "" {
		av, _ := local.Get("apiVersion")
		k, _ := local.Get("kind")
		apiVersion, _ := av.AsString()
		kind, _ := k.AsString()
		res.Warnings = append(res.Warnings, "no schema for "+apiVersion+" "+kind+": merged by the fallback rules (maps merge, lists are replaced)")
	}
	return t, err
}
