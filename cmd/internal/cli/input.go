package cli

import (
	"errors"
	"io"

	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/plyproject/ply/pkg/cluster"
)

// readObjects reads the objects of the input flags: the -f paths (files,
// folders, URLs, standard input) or the kustomization of -k, keeping
// those -l selects.
func (f *commonFlags) readObjects(stdin io.Reader) ([]cluster.Object, error) {
	var objs []cluster.Object
	var err error
	if f.kustomize != "" {
		objs, err = kustomize(f.kustomize)
	} else {
		objs, err = cluster.ReadObjects(f.files, f.recursive, stdin)
	}
	if err != nil || f.selector == "" {
		return objs, err
	}
	sel, err := labels.Parse(f.selector)
	if err != nil {
		return nil, err
	}
	kept := objs[:0]
	for _, o := range objs {
		if sel.Matches(objectLabels(o)) {
			kept = append(kept, o)
		}
	}
	return kept, nil
}

// objectLabels returns the labels of o (its string-valued
// metadata.labels).
func objectLabels(o cluster.Object) labels.Set {
	md, _ := o.Value.Get("metadata")
	l, _ := md.Get("labels")
	set := labels.Set{}
	for _, f := range l.Fields() {
		if s, ok := f.Value.AsString(); ok {
			set[f.Key] = s
		}
	}
	return set
}

// kustomize builds the kustomization in dir in process, as kubectl apply
// -k does (kustomize's legacy order: namespaces and CRDs first), and
// returns its objects, named "<dir> (kustomize)#N" in messages.
func kustomize(dir string) ([]cluster.Object, error) {
	opts := krusty.MakeDefaultOptions()
	opts.Reorder = krusty.ReorderOptionLegacy
	rm, err := krusty.MakeKustomizer(opts).Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		return nil, errors.New(dir + ": kustomize: " + oneLine(err.Error()))
	}
	data, err := rm.AsYaml()
	if err != nil {
		return nil, errors.New(dir + ": kustomize: " + err.Error())
	}
	return cluster.ParseObjects(dir+" (kustomize)", data)
}
