package smpsuite

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Package is the path of strategicpatch inside the apimachinery module.
const Package = "pkg/util/strategicpatch"

// Kept lists the declarations of apimachinery's patch.go the scratch copy keeps: types of the API and the fixture
// normaliser of its tests (sortMergeListsByName and its callees), none of which merges or creates a patch.
var Kept = []string{
	"DiffOptions", "JSONMap", "MergeOptions", "SortableSliceOfMaps", "SortableSliceOfScalars",
	"deduplicateAndSortScalars", "deduplicateScalars", "deleteFromPrimitiveListDirectivePrefix", "directiveMarker",
	"extractRetainKeysPatchStrategy", "mapSliceFromSlice", "mergeDirective", "retainKeysDirective", "retainKeysStrategy",
	"setElementOrderDirectivePrefix", "sliceElementType", "sliceFromMapSlice", "sortMapsBasedOnField",
	"sortMergeListsByName", "sortMergeListsByNameArray", "sortMergeListsByNameMap", "sortScalars",
}

// keptRoots are the declarations kept for their own sake; the rest of Kept is what they reference.
var keptRoots = []string{"JSONMap", "DiffOptions", "MergeOptions", "SortableSliceOfMaps", "SortableSliceOfScalars", "sortMergeListsByName"}

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

// Prepare copies apimachinery (the version plyRoot's go.mod selects) into dir and puts ply's API in place of its
// patch.go.
func Prepare(plyRoot, dir string) (*Scratch, error) {
	out, err := goCmd(plyRoot, nil, "list", "-m", "-f", "{{.Dir}} {{.Version}}", "k8s.io/apimachinery")
	if err != nil {
		return nil, err
	}
	src, version, _ := strings.Cut(strings.TrimSpace(out), " ")
	s := &Scratch{Module: filepath.Join(dir, "apimachinery"), Version: version}
	if err := copyTree(src, s.Module); err != nil {
		return nil, err
	}
	pkgDir := filepath.Join(s.Module, Package)
	if err := s.replacePatch(plyRoot, pkgDir); err != nil {
		return nil, err
	}
	return s, requirePly(plyRoot, s.Module)
}

// replacePatch writes ply's api.go as patch.go, the kept declarations beside it, and trims the tests.
func (s *Scratch) replacePatch(plyRoot, pkgDir string) error {
	fset := token.NewFileSet()
	orig, err := parser.ParseFile(fset, filepath.Join(pkgDir, "patch.go"), nil, parser.ParseComments)
	if err != nil {
		return err
	}
	api, err := os.ReadFile(filepath.Join(plyRoot, "pkg", "strategicpatch", "api.go"))
	if err != nil {
		return err
	}
	apiFile, err := parser.ParseFile(fset, "api.go", api, 0)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(pkgDir, "patch.go"), api, 0o644); err != nil {
		return err
	}
	decls := topLevel(orig)
	kept := closure(decls, keptRoots)
	for name := range declared(apiFile) {
		if kept[name] {
			return fmt.Errorf("ply's api.go declares %s, which the kept part of patch.go declares too", name)
		}
	}
	for name := range kept {
		s.Kept = append(s.Kept, name)
	}
	slices.Sort(s.Kept)
	if err := writeKept(fset, orig, kept, filepath.Join(pkgDir, "zz_apimachinery_kept.go")); err != nil {
		return err
	}
	missing := map[string]bool{}
	for name := range decls {
		if !kept[name] && !declared(apiFile)[name] {
			missing[name] = true
		}
	}
	return s.trimTests(fset, pkgDir, missing)
}

// topLevel maps each top-level name of f to its declarations (a type's methods with the type).
func topLevel(f *ast.File) map[string][]ast.Node {
	out := map[string][]ast.Node{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil {
				name = recvType(d.Recv.List[0].Type)
			}
			out[name] = append(out[name], d)
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch sp := spec.(type) {
				case *ast.TypeSpec:
					out[sp.Name.Name] = append(out[sp.Name.Name], &ast.GenDecl{Tok: d.Tok, Specs: []ast.Spec{sp}})
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						out[n.Name] = append(out[n.Name], &ast.GenDecl{Tok: d.Tok, Specs: []ast.Spec{sp}})
					}
				}
			}
		}
	}
	return out
}

func recvType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvType(t.X)
	case *ast.Ident:
		return t.Name
	}
	return ""
}

// declared is the set of top-level names of f.
func declared(f *ast.File) map[string]bool {
	out := map[string]bool{}
	for name := range topLevel(f) {
		out[name] = true
	}
	return out
}

// closure is roots and every declaration of decls they reference, transitively.
func closure(decls map[string][]ast.Node, roots []string) map[string]bool {
	kept := map[string]bool{}
	work := slices.Clone(roots)
	for len(work) > 0 {
		name := work[len(work)-1]
		work = work[:len(work)-1]
		if kept[name] || decls[name] == nil {
			continue
		}
		kept[name] = true
		for _, d := range decls[name] {
			for ref := range idents(d) {
				if decls[ref] != nil && !kept[ref] {
					work = append(work, ref)
				}
			}
		}
	}
	return kept
}

// idents is the set of identifiers n uses, qualified selectors' packages included.
func idents(n ast.Node) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			out[id.Name] = true
		}
		return true
	})
	return out
}

// writeKept writes the kept declarations of orig, in their order, with the imports they use.
func writeKept(fset *token.FileSet, orig *ast.File, kept map[string]bool, path string) error {
	var body bytes.Buffer
	used := map[string]bool{}
	for name, nodes := range topLevel(orig) {
		if !kept[name] {
			continue
		}
		for _, n := range nodes {
			for id := range idents(n) {
				used[id] = true
			}
		}
	}
	var nodes []ast.Node
	for name, ns := range topLevel(orig) {
		if kept[name] {
			nodes = append(nodes, ns...)
		}
	}
	slices.SortFunc(nodes, func(a, b ast.Node) int { return int(a.Pos() - b.Pos()) })
	for _, n := range nodes {
		if err := printer.Fprint(&body, fset, n); err != nil {
			return err
		}
		body.WriteString("\n\n")
	}
	var out bytes.Buffer
	out.WriteString("// Declarations kept from apimachinery's patch.go (types and test fixture helpers); written by ply's test/smpsuite.\n\npackage " + orig.Name.Name + "\n\nimport (\n")
	for _, imp := range orig.Imports {
		if used[importName(imp)] {
			out.WriteString("\t" + imp.Path.Value + "\n")
		}
	}
	out.WriteString(")\n\n")
	out.Write(body.Bytes())
	return os.WriteFile(path, out.Bytes(), 0o644)
}

// importName is the name an import is used by.
func importName(imp *ast.ImportSpec) string {
	if imp.Name != nil {
		return imp.Name.Name
	}
	p, _ := strconv.Unquote(imp.Path.Value)
	return p[strings.LastIndex(p, "/")+1:]
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
			for name := range topLevel(&ast.File{Decls: []ast.Decl{d}}) {
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
	for id := range idents(d) {
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
		for id := range idents(d) {
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
			if name := importName(imp); used[name] || name == "_" || name == "." {
				specs = append(specs, sp)
			}
		}
		g.Specs = specs
	}
	imports := f.Imports[:0]
	for _, imp := range f.Imports {
		if name := importName(imp); used[name] || name == "_" || name == "." {
			imports = append(imports, imp)
		}
	}
	f.Imports = imports
}

// requirePly makes the copy require ply, replaced by plyRoot, with ply's go.sum added to its own.
func requirePly(plyRoot, module string) error {
	mod := filepath.Join(module, "go.mod")
	data, err := os.ReadFile(mod)
	if err != nil {
		return err
	}
	data = append(data, []byte("\nrequire github.com/plyproject/ply v0.0.0\n\nreplace github.com/plyproject/ply => "+strconv.Quote(plyRoot)+"\n")...)
	if err := os.WriteFile(mod, data, 0o644); err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(plyRoot, "go.sum"))
	if err != nil {
		return err
	}
	own, err := os.ReadFile(filepath.Join(module, "go.sum"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return os.WriteFile(filepath.Join(module, "go.sum"), append(append(own, '\n'), sum...), 0o644)
}

// copyTree copies the regular files under src to dst, writable.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// goCmd runs the go command in dir with env added, returning its standard output; a failure carries its standard error.
func goCmd(dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), nil
}
