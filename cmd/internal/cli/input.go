package cli

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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
		if err == nil && len(objs) == 0 {
			err = noManifestFolder(f.files, f.recursive)
		}
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

// manifestFile reports whether name is a file -f reads in a folder: a
// .json, .yaml or .yml file, as kubectl's.
func manifestFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json", ".yaml", ".yml":
		return true
	}
	return false
}

// noManifestFolder returns kubectl's error for the first of the -f paths
// that is a folder holding no manifest file (in its sub-folders too with
// -R), nil when there is none: kubectl apply and diff refuse such a
// folder ("recognized file extensions are [.json .yaml .yml]").
func noManifestFolder(paths []string, recursive bool) error {
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.IsDir() {
			continue
		}
		found := false
		filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil || found:
				return filepath.SkipAll
			case d.IsDir() && path != p && !recursive:
				return filepath.SkipDir
			case !d.IsDir() && manifestFile(d.Name()):
				found = true
			}
			return nil
		})
		if !found {
			return errors.New("error reading [" + p + "]: recognized file extensions are [.json .yaml .yml]")
		}
	}
	return nil
}
