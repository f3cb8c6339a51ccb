package apply

import (
	"strconv"

	"github.com/plyproject/ply/internal/changes"
	"github.com/plyproject/ply/internal/collate"
	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/internal/elements"
	"github.com/plyproject/ply/internal/frontend"
	"github.com/plyproject/ply/internal/strategy"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// Merge computes what the server should hold after applying local: recorded
// is the configuration last applied (value.Null on a first apply), live the
// object on the server (value.Null when it does not exist yet).
//
// Errors are *elements.Error for bad input (naming the source and field
// path) and *ConflictError when Overwrite is false and live changed a field
// local sets, by kubectl's rule (delta.Check, as patchgen.ThreeWay): input
// kubectl's patches cannot be made from is an error then. Merge never
// modifies its inputs.
func Merge(recorded, local, live value.Value, opts Options) (Result, error) {
	vals, err := collate.RootValues(recorded, local, live)
	if err != nil {
		return Result{}, err
	}
	if err := checkDepth(&vals, opts.MaxDepth); err != nil {
		return Result{}, err
	}
	var res Result
	root, err := rootType(recorded, local, live, opts, &res)
	if err != nil {
		return Result{}, err
	}
	tree, nodes, arena, err := collate.CountIn(vals, root, collate.Options{Gates: opts.Gates})
	if err != nil {
		return Result{}, err
	}
	if !opts.Overwrite {
		p, ok, err := delta.ThreeWay(tree)
		if err != nil {
			return Result{}, err
		}
		if err := delta.Check(tree, p, ok); err != nil {
			return Result{}, err
		}
	}
	w := strategy.New(strategy.Options{Ordering: frontend.Ordering(opts.Ordering, opts.Gates), Record: true, Nodes: nodes})
	out, err := w.Walk(tree)
	if err != nil {
		return Result{}, err
	}
	res.Object = out.Value
	res.Changes = changes.Collect(tree, w)
	w.Release()
	// A few changes take their paths now and the tree's storage is reused;
	// many keep their paths lazy, and the tree.
	if len(res.Changes) <= detachedChanges {
		changes.Detach(res.Changes)
		arena.Release()
	}
	return res, nil
}

// detachedChanges is the most changes whose paths Merge materialises to
// reuse the tree's storage.
const detachedChanges = 64

// rootType resolves the objects' type (frontend.RootType, local first),
// warning when the schema does not know local's kind.
func rootType(recorded, local, live value.Value, opts Options, res *Result) (*openapi.Type, error) {
	t, err := frontend.RootType(opts.Schema, opts.TypeName, opts.Gates, frontend.Object{Value: local, Source: elements.Local},
		frontend.Object{Value: recorded, Source: elements.Recorded}, frontend.Object{Value: live, Source: elements.Live})
	if err == nil && t == openapi.Unknown && opts.TypeName == "" {
		// RootType found both strings, which Short renders as written.
		av, _ := local.Get("apiVersion")
		k, _ := local.Get("kind")
		res.Warnings = append(res.Warnings, "no schema for "+av.Short()+" "+k.Short()+": merged by the fallback rules (maps merge, lists are replaced)")
	}
	return t, err
}

// checkDepth refuses objects that nest deeper than maxDepth (0: the
// parse default), naming the first source that does.
func checkDepth(vals *elements.Values, maxDepth int) error {
	if maxDepth <= 0 {
		maxDepth = parse.DefaultMaxDepth
	}
	for _, s := range [...]elements.Source{elements.Local, elements.Recorded, elements.Live} {
		if v, ok := vals.Get(s); ok && value.Deeper(v, maxDepth) {
			return &elements.Error{Source: s, Msg: "nesting is deeper than the limit of " + strconv.Itoa(maxDepth) + " levels of maps and lists"}
		}
	}
	return nil
}
