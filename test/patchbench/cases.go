package patchbench

import (
	"fmt"
	"strconv"

	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/test/internal/benchcase"
	"github.com/plyproject/ply/test/oracle"
)

// Sizes are the numbers of env entries (list items) benchmarked.
var Sizes = []int{10, 100, 1000, 5000}

// Input is one benchmark input, as compact JSON documents.
type Input struct {
	// Items is the number of env entries; every one is patched.
	Items int
	// Original and Modified are the configuration before and after every
	// env value changed; Live is Original as the server holds it
	// (server-set metadata and status added).
	Original, Modified, Live []byte
	// Patch is strategicpatch's two-way patch from Original to Modified:
	// what kubectl sends, every env item with its new value plus the
	// $setElementOrder/env list.
	Patch []byte
}

// Name renders the input as a benchmark name element: "items=1000".
func (in Input) Name() string { return "items=" + strconv.Itoa(in.Items) }

// Op is one benchmarked operation: JSON bytes in, JSON bytes out.
type Op func(in Input) ([]byte, error)

// Impl is one implementation of both operations.
type Impl struct {
	// Name is "ply" or "strategicpatch".
	Name string
	// Apply applies in.Patch to in.Live and returns the patched object.
	Apply Op
	// Create returns the two-way patch from in.Original to in.Modified.
	Create Op
}

// Impls returns ply and strategicpatch with their schemas loaded (loading
// is not measured).
func Impls() ([]Impl, error) {
	schema, err := openapi.DefaultV2()
	if err != nil {
		return nil, err
	}
	models, err := oracle.Default()
	if err != nil {
		return nil, err
	}
	o, err := models.Oracle(benchcase.TypeName)
	if err != nil {
		return nil, err
	}
	meta := o.Meta()
	// strategicpatch's list order, so that the outputs are comparable.
	applyOpts := patch.Options{Schema: schema, TypeName: benchcase.TypeName, Ordering: patch.OrderKubectl}
	genOpts := patchgen.Options{Schema: schema, TypeName: benchcase.TypeName}
	ply := Impl{
		Name: "ply",
		Apply: func(in Input) ([]byte, error) {
			live, err := parse.OwnedDocument(in.Live)
			if err != nil {
				return nil, err
			}
			p, err := parse.OwnedDocument(in.Patch)
			if err != nil {
				return nil, err
			}
			out, err := patch.Apply(live, p, applyOpts)
			if err != nil {
				return nil, err
			}
			return out.JSON(), nil
		},
		Create: func(in Input) ([]byte, error) {
			original, err := parse.OwnedDocument(in.Original)
			if err != nil {
				return nil, err
			}
			modified, err := parse.OwnedDocument(in.Modified)
			if err != nil {
				return nil, err
			}
			out, err := patchgen.TwoWay(original, modified, genOpts)
			if err != nil {
				return nil, err
			}
			return out.JSON(), nil
		},
	}
	sp := Impl{
		Name: "strategicpatch",
		Apply: func(in Input) ([]byte, error) {
			return strategicpatch.StrategicMergePatchUsingLookupPatchMeta(in.Live, in.Patch, meta)
		},
		Create: func(in Input) ([]byte, error) {
			return strategicpatch.CreateTwoWayMergePatchUsingLookupPatchMeta(in.Original, in.Modified, meta)
		},
	}
	return []Impl{ply, sp}, nil
}

// Make builds the input with n env entries.
func Make(n int) (Input, error) {
	three := benchcase.Make(n, "all")
	in := Input{Items: n, Original: three.Recorded, Modified: three.Local, Live: three.Live}
	models, err := oracle.Default()
	if err != nil {
		return Input{}, err
	}
	o, err := models.Oracle(benchcase.TypeName)
	if err != nil {
		return Input{}, err
	}
	in.Patch, err = strategicpatch.CreateTwoWayMergePatchUsingLookupPatchMeta(in.Original, in.Modified, o.Meta())
	if err != nil {
		return Input{}, fmt.Errorf("patchbench: building the %s patch: %w", in.Name(), err)
	}
	return in, nil
}
