package smpsuite

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/plyproject/ply/test/internal/patchedmachinery"
)

// Package is the path of strategicpatch inside the apimachinery module.
const Package = patchedmachinery.Package

// Kept lists the declarations of apimachinery's patch.go the scratch copy keeps (patchedmachinery.Kept): types of the
// API and the fixture normaliser of its tests, none of which merges or creates a patch.
var Kept = patchedmachinery.Kept

// Removal is a test function of apimachinery's left out of the scratch copy, and why.
type Removal struct {
	Test   string
	Reason string
}

// Scratch is a prepared copy of apimachinery.
type Scratch struct {
	// Module is the copy's root; Version is the apimachinery module copied.
	Module, Version string
	// Kept are the names kept from patch.go, sorted; Removed the tests left out.
	Kept    []string
	Removed []Removal
}

// Prepare writes the patched copy of apimachinery (patchedmachinery.Write, the version plyRoot's go.mod selects) into
// dir/apimachinery and removes from its strategicpatch tests those that use a declaration the copy no longer has.
func Prepare(plyRoot, dir string) (*Scratch, error) {
	m, err := patchedmachinery.Write(plyRoot, filepath.Join(dir, "apimachinery"))
	if err != nil {
		return nil, err
	}
	s := &Scratch{Module: m.Dir, Version: m.Version, Kept: m.Kept}
	return s, s.trimTests(token.NewFileSet(), m.PackageDir(), m.Missing)
}

// trimTests removes, from every test file of pkgDir, the declarations that use a name of missing (until none does)
// and TestSortMergeLists, recording the Test functions removed.
func (s *Scratch) trimTests(fset *token.FileSet, pkgDir string, missing map[string]bool) error {
	paths, err := filepath.Glob(filepath.Join(pkgDir, "*_test.go"))
	if err != nil {
		return err
	}
	for _, path := range paths {
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if s.trimFile(f, missing) {
			var buf bytes.Buffer
			if err := printer.Fprint(&buf, fset, f); err != nil {
				return err
			}
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// trimFile removes f's declarations that use missing names, or removed ones, and the imports left unused.
func (s *Scratch) trimFile(f *ast.File, missing map[string]bool) bool {
	removed := map[string]bool{}
	changed := false
	for {
		again := false
		decls := f.Decls[:0]
		for _, d := range f.Decls {
			fd, isFunc := d.(*ast.FuncDecl)
			uses := usesOf(d, missing, removed)
			if isFunc && fd.Recv == nil && fd.Name.Name == "TestSortMergeLists" {
				uses = []string{"(tests sortMergeListsByName, a fixture helper kept from apimachinery, not ply)"}
			}
			if len(uses) == 0 {
				decls = append(decls, d)
				continue
			}
			again, changed = true, true
			for name := range patchedmachinery.TopLevel(&ast.File{Decls: []ast.Decl{d}}) {
				removed[name] = true
				if strings.HasPrefix(name, "Test") && isFunc {
					s.Removed = append(s.Removed, Removal{Test: name, Reason: "uses " + strings.Join(uses, ", ")})
				}
			}
		}
		f.Decls = decls
		if !again {
			break
		}
	}
	if changed {
		dropUnusedImports(f)
	}
	return changed
}

// usesOf lists the names of missing or removed that d uses, sorted.
func usesOf(d ast.Decl, missing, removed map[string]bool) []string {
	var out []string
	for id := range patchedmachinery.Idents(d) {
		if missing[id] || removed[id] {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// dropUnusedImports removes the imports of f no identifier uses.
func dropUnusedImports(f *ast.File) {
	used := map[string]bool{}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			continue
		}
		for id := range patchedmachinery.Idents(d) {
			used[id] = true
		}
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		specs := g.Specs[:0]
		for _, sp := range g.Specs {
			imp := sp.(*ast.ImportSpec)
			if name := patchedmachinery.ImportName(imp); used[name] || name == "_" || name == "." {
				specs = append(specs, sp)
			}
		}
		g.Specs = specs
	}
	imports := f.Imports[:0]
	for _, imp := range f.Imports {
		if name := patchedmachinery.ImportName(imp); used[name] || name == "_" || name == "." {
			imports = append(imports, imp)
		}
	}
	f.Imports = imports
}
