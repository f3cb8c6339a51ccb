package patchedmachinery

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

// Kept lists the declarations of apimachinery's patch.go the copy keeps: types of the API and the fixture normaliser
// of its tests (sortMergeListsByName and its callees), none of which merges or creates a patch.
var Kept = []string{
	"DiffOptions", "JSONMap", "MergeOptions", "SortableSliceOfMaps", "SortableSliceOfScalars",
	"deduplicateAndSortScalars", "deduplicateScalars", "deleteFromPrimitiveListDirectivePrefix", "directiveMarker",
	"extractRetainKeysPatchStrategy", "mapSliceFromSlice", "mergeDirective", "retainKeysDirective", "retainKeysStrategy",
	"setElementOrderDirectivePrefix", "sliceElementType", "sliceFromMapSlice", "sortMapsBasedOnField",
	"sortMergeListsByName", "sortMergeListsByNameArray", "sortMergeListsByNameMap", "sortScalars",
}

// keptRoots are the declarations kept for their own sake; the rest of Kept is what they reference.
var keptRoots = []string{"JSONMap", "DiffOptions", "MergeOptions", "SortableSliceOfMaps", "SortableSliceOfScalars", "sortMergeListsByName"}

// Module is a written copy of apimachinery.
type Module struct {
	// Dir is the copy's root (holding go.mod); Version is the apimachinery module copied.
	Dir, Version string
	// Kept are the names kept from patch.go, sorted.
	Kept []string
	// Missing are the top-level names of apimachinery's patch.go that the copy declares nowhere.
	Missing map[string]bool
}

// PackageDir is the copy's strategicpatch package directory.
func (m *Module) PackageDir() string { return filepath.Join(m.Dir, Package) }

// Version returns the version of k8s.io/apimachinery ply's go.mod (in plyRoot) selects, and its module cache directory.
func Version(plyRoot string) (version, cacheDir string, err error) {
	out, err := goCmd(plyRoot, "list", "-m", "-f", "{{.Dir}} {{.Version}}", "k8s.io/apimachinery")
	if err != nil {
		return "", "", err
	}
	cacheDir, version, _ = strings.Cut(strings.TrimSpace(out), " ")
	if cacheDir == "" || version == "" {
		return "", "", fmt.Errorf("patchedmachinery: go list -m k8s.io/apimachinery in %s printed %q", plyRoot, out)
	}
	return version, cacheDir, nil
}

// Write copies apimachinery (the version plyRoot's go.mod selects) into dir, which it creates, and puts ply's API in
// place of its patch.go.
func Write(plyRoot, dir string) (*Module, error) {
	version, src, err := Version(plyRoot)
	if err != nil {
		return nil, err
	}
	m := &Module{Dir: dir, Version: version}
	if err := copyTree(src, dir); err != nil {
		return nil, err
	}
	if err := m.replacePatch(plyRoot); err != nil {
		return nil, err
	}
	return m, requirePly(plyRoot, dir)
}

// replacePatch writes ply's api.go as patch.go and the kept declarations beside it, and records what is missing.
func (m *Module) replacePatch(plyRoot string) error {
	pkgDir := m.PackageDir()
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
	decls := TopLevel(orig)
	kept := closure(decls, keptRoots)
	apiNames := declared(apiFile)
	for name := range apiNames {
		if kept[name] {
			return fmt.Errorf("patchedmachinery: ply's api.go declares %s, which the kept part of patch.go declares too", name)
		}
	}
	for name := range kept {
		m.Kept = append(m.Kept, name)
	}
	slices.Sort(m.Kept)
	m.Missing = map[string]bool{}
	for name := range decls {
		if !kept[name] && !apiNames[name] {
			m.Missing[name] = true
		}
	}
	return writeKept(fset, orig, kept, filepath.Join(pkgDir, "zz_apimachinery_kept.go"))
}

// TopLevel maps each top-level name of f to its declarations (a type's methods with the type).
func TopLevel(f *ast.File) map[string][]ast.Node {
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
	for name := range TopLevel(f) {
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
			for ref := range Idents(d) {
				if decls[ref] != nil && !kept[ref] {
					work = append(work, ref)
				}
			}
		}
	}
	return kept
}

// Idents is the set of identifiers n uses, qualified selectors' packages included.
func Idents(n ast.Node) map[string]bool {
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
	used := map[string]bool{}
	var nodes []ast.Node
	for name, ns := range TopLevel(orig) {
		if !kept[name] {
			continue
		}
		nodes = append(nodes, ns...)
		for _, n := range ns {
			for id := range Idents(n) {
				used[id] = true
			}
		}
	}
	slices.SortFunc(nodes, func(a, b ast.Node) int { return int(a.Pos() - b.Pos()) })
	var body bytes.Buffer
	for _, n := range nodes {
		if err := printer.Fprint(&body, fset, n); err != nil {
			return err
		}
		body.WriteString("\n\n")
	}
	var out bytes.Buffer
	out.WriteString("// Declarations kept from apimachinery's patch.go (types and test fixture helpers); written by ply's test/internal/patchedmachinery.\n\npackage " + orig.Name.Name + "\n\nimport (\n")
	for _, imp := range orig.Imports {
		if used[ImportName(imp)] {
			out.WriteString("\t" + imp.Path.Value + "\n")
		}
	}
	out.WriteString(")\n\n")
	out.Write(body.Bytes())
	return os.WriteFile(path, out.Bytes(), 0o644)
}

// ImportName is the name an import is used by.
func ImportName(imp *ast.ImportSpec) string {
	if imp.Name != nil {
		return imp.Name.Name
	}
	p, _ := strconv.Unquote(imp.Path.Value)
	return p[strings.LastIndex(p, "/")+1:]
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

// goCmd runs the go command in dir, returning its standard output; a failure carries its standard error.
func goCmd(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), nil
}
