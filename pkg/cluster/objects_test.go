package cluster

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// sources returns the Source of each object.
func sources(objs []Object) []string {
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = o.Source
	}
	return out
}

// names returns "Kind/name" of each object.
func names(objs []Object) []string {
	out := make([]string, len(objs))
	for i, o := range objs {
		r := refOf(o)
		out[i] = r.Kind + "/" + r.Name
	}
	return out
}

var _ = Describe("ReadObjects", func() {
	dir := filepath.Join("testdata", "read")

	It("reads every document of a multi-document file, skipping empty ones", func() {
		objs, err := ReadObjects([]string{filepath.Join(dir, "multi.yaml")}, false, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(names(objs)).To(Equal([]string{"ConfigMap/one", "Deployment/web"}))
		f := filepath.Join(dir, "multi.yaml")
		Expect(sources(objs)).To(Equal([]string{f + "#1", f + "#2"}))
	})

	It("expands List documents into their items", func() {
		objs, err := ReadObjects([]string{filepath.Join(dir, "list.yaml")}, false, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(names(objs)).To(Equal([]string{"ConfigMap/a", "Secret/b"}))
		Expect(objs[1].Source).To(HaveSuffix("list.yaml#1.items[1]"))
	})

	It("reads the manifest files of a folder, not its sub-folders, in lexical order", func() {
		objs, err := ReadObjects([]string{filepath.Join(dir, "dir")}, false, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(names(objs)).To(Equal([]string{"Namespace/team", "ConfigMap/from-json"}))
	})

	It("reads sub-folders with recursive", func() {
		objs, err := ReadObjects([]string{filepath.Join(dir, "dir")}, true, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(names(objs)).To(Equal([]string{"Namespace/team", "ConfigMap/from-json", "ConfigMap/nested"}))
	})

	It("reads standard input for -, in the order of the paths", func() {
		in := strings.NewReader("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: piped}\n")
		objs, err := ReadObjects([]string{"-", filepath.Join(dir, "dir", "a.yaml")}, false, in)
		Expect(err).NotTo(HaveOccurred())
		Expect(names(objs)).To(Equal([]string{"ConfigMap/piped", "Namespace/team"}))
		Expect(objs[0].Source).To(Equal("-#1"))
	})

	It("rejects a 100 MB manifest after reading no more than the parse limit", func() {
		name := filepath.Join(GinkgoT().TempDir(), "huge.yaml")
		f, err := os.Create(name)
		Expect(err).NotTo(HaveOccurred())
		Expect(f.Truncate(100_000_000)).To(Succeed()) // sparse: 100 MB of NUL bytes
		Expect(f.Close()).To(Succeed())
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err = ReadObjects([]string{name}, false, nil)
		runtime.ReadMemStats(&after)
		Expect(err).To(MatchError(ContainSubstring("more than the limit of 33554432")))
		Expect(err.Error()).To(ContainSubstring("huge.yaml"))
		Expect(after.TotalAlloc-before.TotalAlloc).To(BeNumerically("<", 40<<20), "more than the limit was read, or read with a growing buffer")
	})

	It("rejects 100 MB on standard input after reading no more than the parse limit", func() {
		_, err := ReadObjects([]string{"-"}, false, io.LimitReader(zeros{}, 100_000_000))
		Expect(err).To(MatchError(ContainSubstring("more than the limit of 33554432")))
	})

	It("rejects the spread-alias input, naming the file: the aliases of all its documents count together", func() {
		one, err := os.ReadFile(filepath.Join("..", "parse", "testdata", "spread_alias.yaml"))
		Expect(err).NotTo(HaveOccurred())
		name := filepath.Join(GinkgoT().TempDir(), "spread.yaml")
		Expect(os.WriteFile(name, []byte(strings.Repeat(string(one)+"---\n", 400)), 0o644)).To(Succeed())
		_, err = ReadObjects([]string{name}, false, nil)
		Expect(err).To(MatchError(name + ": document 2: line 34, column 22: aliases expand the input beyond the limit of 16777216, " +
			"all its documents together (each use of an alias copies the whole value of its anchor)"))
	})

	It("rejects reading standard input twice", func() {
		_, err := ReadObjects([]string{"-", "-"}, false, strings.NewReader(""))
		Expect(err).To(MatchError(ContainSubstring("only once")))
	})

	It("reads a file named explicitly whatever its extension", func() {
		p := filepath.Join(GinkgoT().TempDir(), "manifest.txt")
		Expect(os.WriteFile(p, []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"t"}}`), 0o644)).To(Succeed())
		objs, err := ReadObjects([]string{p}, false, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(names(objs)).To(Equal([]string{"ConfigMap/t"}))
	})

	DescribeTable("reports bad input naming the file and where",
		func(path string, want ...string) {
			objs, err := ReadObjects([]string{path}, false, nil)
			Expect(objs).To(BeNil())
			Expect(err).To(HaveOccurred())
			for _, w := range want {
				Expect(err.Error()).To(ContainSubstring(w))
			}
		},
		Entry("a YAML syntax error, with its line", filepath.Join(dir, "bad.yaml"), "bad.yaml: ", "line 9"),
		Entry("an object without a name", filepath.Join(dir, "noname.yaml"), "noname.yaml#1: metadata.name: missing"),
		Entry("a missing path", filepath.Join(dir, "nope.yaml"), `the path "`+filepath.Join(dir, "nope.yaml")+`" does not exist`),
		Entry("a URL that cannot be reached", "http://127.0.0.1:1/x.yaml", "http://127.0.0.1:1/x.yaml: cannot download: "),
	)

	DescribeTable("checks each object",
		func(doc, want string) {
			_, err := ReadObjects([]string{"-"}, false, strings.NewReader(doc))
			Expect(err).To(MatchError("-#1: " + want))
		},
		Entry("not a map", "[1, 2]", "expected an object (a map with apiVersion, kind and metadata), got array"),
		Entry("no kind", "apiVersion: v1\nmetadata: {name: x}", "kind: missing or not a non-empty string: every object needs apiVersion and kind"),
		Entry("no metadata", "apiVersion: v1\nkind: ConfigMap", "metadata: missing or not an object: every object needs metadata.name"),
		Entry("a name YAML reads as a boolean", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: y}",
			`metadata.name: a boolean, not a string: YAML reads an unquoted y, n, yes, no, on, off, true or false as a boolean; quote it ("y")`),
		Entry("a name YAML reads as a number", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: 0123}",
			`metadata.name: a number, not a string: quote it`),
		Entry("a non-string namespace", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: 3}", "metadata.namespace: expected a string, got integer"),
		Entry("a non-string annotation", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, annotations: {a: 1}}", "metadata.annotations.a: expected a string, got integer"),
	)

	It("reports the problems of every file", func() {
		_, err := ReadObjects([]string{filepath.Join(dir, "noname.yaml"), filepath.Join(dir, "nope.yaml")}, false, nil)
		Expect(err.Error()).To(ContainSubstring("noname.yaml#1"))
		Expect(err.Error()).To(ContainSubstring("nope.yaml"))
	})
})

// zeros is an endless reader of NUL bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
