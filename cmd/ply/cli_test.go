package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// Paths of the fixtures, relative to the package directory.
var (
	envDir      = filepath.Join("..", "..", "examples", "env")
	strategyDir = filepath.Join("..", "..", "examples", "strategy")
	readmePath  = filepath.Join("..", "..", "examples", "README.md")
)

func example(dir, file string) string { return filepath.Join(dir, file) }
func testdata(parts ...string) string {
	return filepath.Join(append([]string{"testdata"}, parts...)...)
}

// threeWay returns the --recorded, --local and --live flags for the files
// of dir.
func threeWay(dir string) []string {
	return []string{
		"--recorded", example(dir, "recorded.yaml"),
		"--local", example(dir, "local.yaml"),
		"--live", example(dir, "live.yaml"),
	}
}

// result is what one run of ply gave.
type result struct {
	code           int
	stdout, stderr string
}

// plyWithStdin runs ply's run with args and the given standard input.
func plyWithStdin(stdin io.Reader, args ...string) result {
	var stdout, stderr bytes.Buffer
	code := run(args, stdin, &stdout, &stderr)
	return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

func ply(args ...string) result { return plyWithStdin(strings.NewReader(""), args...) }

func readFile(path string) string {
	GinkgoHelper()
	data, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	return string(data)
}

func cat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

var _ = Describe("ply merge", func() {
	DescribeTable("prints the merged object",
		func(args []string, wantStdout, wantStderr string) {
			r := ply(append([]string{"merge"}, args...)...)
			Expect(r.code).To(Equal(exitOK), "stderr: %s", r.stderr)
			Expect(r.stdout).To(Equal(readFile(testdata("want", wantStdout))))
			want := ""
			if wantStderr != "" {
				want = readFile(testdata("want", wantStderr))
			}
			Expect(r.stderr).To(Equal(want))
		},
		Entry("env and finalizers, seed order: live-only items first", threeWay(envDir), "env.yaml", ""),
		Entry("env and finalizers with --changes", cat(threeWay(envDir), []string{"--changes"}), "env.yaml", "env-changes.txt"),
		Entry("env and finalizers, kubectl order", cat(threeWay(envDir), []string{"--ordering", "kubectl"}), "env-kubectl.yaml", ""),
		Entry("env and finalizers as JSON", cat(threeWay(envDir), []string{"-o", "json"}), "env.json", ""),
		Entry("retainKeys: strategy and volume source", cat(threeWay(strategyDir), []string{"--changes"}), "strategy.yaml", "strategy-changes.txt"),
		Entry("a schema file", cat(threeWay(testdata("schema")), []string{"--schema", testdata("schema", "widget.json"), "--changes"}), "widget.yaml", "widget-changes.txt"),
		Entry("two --schema flags: a v2 file and a CRD; a CRD list-map keyed by port and protocol (TCP by default)",
			cat(threeWay(testdata("crd")), []string{"--schema", testdata("schema", "widget.json"), "--schema", testdata("crd", "schemas", "gadgets.yaml")}), "gadget.yaml", ""),
		Entry("two --schema flags: the first that defines the kind wins (v2 merge key)",
			cat(threeWay(testdata("schema")), []string{"--schema", testdata("schema", "widget.json"), "--schema", testdata("crd", "schemas")}), "widget.yaml", ""),
		Entry("two --schema flags: the first that defines the kind wins (CRD atomic list)",
			cat(threeWay(testdata("schema")), []string{"--schema", testdata("crd", "schemas"), "--schema", testdata("schema", "widget.json")}), "widget-atomic.yaml", ""),
		Entry("a CRD --schema still falls back to the embedded default for built-in kinds",
			cat(threeWay(envDir), []string{"--schema", testdata("crd", "schemas", "gadgets.yaml")}), "env.yaml", ""),
		Entry("a kind the schema lacks: fallback rules and a warning", threeWay(testdata("schema")), "widget-fallback.yaml", "widget-fallback-stderr.txt"),
		Entry("first apply, live empty", []string{"--local", testdata("first", "local.json"), "--live", testdata("first", "empty.yaml")}, "first.yaml", ""),
		Entry("first apply, live null", []string{"--local", testdata("first", "local.json"), "--live", testdata("first", "null.yaml")}, "first.yaml", ""),
		Entry("recorded empty is a first apply", []string{"--recorded", testdata("first", "empty.yaml"), "--local", testdata("first", "local.json"), "--live", testdata("first", "null.yaml")}, "first.yaml", ""),
	)

	It("orders env and finalizers as the design's example says", func() {
		r := ply(cat([]string{"merge"}, threeWay(envDir))...)
		Expect(r.code).To(Equal(exitOK))
		obj, err := parse.Document([]byte(r.stdout))
		Expect(err).NotTo(HaveOccurred())
		Expect(envNames(obj)).To(Equal([]string{"ENV5", "ENV4", "ENV1", "ENV2", "ENV6"}))
		Expect(finalizers(obj)).To(Equal([]string{"e", "d", "a", "b", "f"}))

		r = ply(cat([]string{"merge"}, threeWay(envDir), []string{"--ordering", "kubectl"})...)
		Expect(r.code).To(Equal(exitOK))
		obj, err = parse.Document([]byte(r.stdout))
		Expect(err).NotTo(HaveOccurred())
		Expect(envNames(obj)).To(Equal([]string{"ENV5", "ENV1", "ENV2", "ENV4", "ENV6"}))
	})

	It("prints the same object as YAML and as JSON", func() {
		y := ply(cat([]string{"merge"}, threeWay(envDir))...)
		j := ply(cat([]string{"merge"}, threeWay(envDir), []string{"-o", "json"})...)
		fromYAML, err := parse.Document([]byte(y.stdout))
		Expect(err).NotTo(HaveOccurred())
		fromJSON, err := parse.Document([]byte(j.stdout))
		Expect(err).NotTo(HaveOccurred())
		Expect(value.Equal(fromYAML, fromJSON)).To(BeTrue())
	})

	It("reads one input from standard input", func() {
		stdin, err := os.Open(example(envDir, "local.yaml"))
		Expect(err).NotTo(HaveOccurred())
		defer stdin.Close()
		r := plyWithStdin(stdin, "merge", "--recorded", example(envDir, "recorded.yaml"), "--local", "-", "--live", example(envDir, "live.yaml"))
		Expect(r.code).To(Equal(exitOK), r.stderr)
		Expect(r.stdout).To(Equal(readFile(testdata("want", "env.yaml"))))
	})

	It("reads a --schema from standard input, alongside another --schema", func() {
		stdin, err := os.Open(testdata("schema", "widget.json"))
		Expect(err).NotTo(HaveOccurred())
		defer stdin.Close()
		r := plyWithStdin(stdin, cat([]string{"merge"}, threeWay(testdata("schema")),
			[]string{"--schema", testdata("crd", "schemas", "gadgets.yaml"), "--schema", "-"})...)
		Expect(r.code).To(Equal(exitOK), r.stderr)
		Expect(r.stdout).To(Equal(readFile(testdata("want", "widget.yaml"))))
	})

	It("merges with a --schema that departs from the OpenAPI specification where kube-openapi reads past it, and warns", func() {
		widget := readFile(testdata("schema", "widget.json"))
		departing := strings.Replace(widget, `"size": {"type": "string"}`, `"size": {"type": "string"}, "labels": {"additionalProperties": "object"}`, 1)
		Expect(departing).NotTo(Equal(widget))
		r := plyWithStdin(strings.NewReader(departing), cat([]string{"merge"}, threeWay(testdata("schema")), []string{"--schema", "-"})...)
		Expect(r.code).To(Equal(exitOK), r.stderr)
		Expect(r.stdout).To(Equal(readFile(testdata("want", "widget.yaml"))))
		Expect(r.stderr).To(Equal("warning: schema (stdin): definition com.example.v1.Part, field labels: additionalProperties is a string, " +
			"want a boolean or a schema; read as true (values of any kind), as kube-openapi reads it " +
			"(at #/definitions/com.example.v1.Part/properties/labels/additionalProperties)\n"))
	})

	It("rejects an empty --schema as a usage error", func() {
		r := ply(cat([]string{"merge"}, threeWay(testdata("schema")), []string{"--schema", ""})...)
		Expect(r.code).To(Equal(exitUsage))
		Expect(r.stderr).To(ContainSubstring("the value is empty, want a file or folder"))
	})

	It("names standard input in messages", func() {
		r := plyWithStdin(strings.NewReader("a: [\n"), "merge", "--local", "-", "--live", example(envDir, "live.yaml"))
		Expect(r.code).To(Equal(exitInput))
		Expect(r.stderr).To(HavePrefix("ply: local (stdin): line "))
	})

	DescribeTable("rejects bad input with exit code 1 and a one-line message",
		func(args []string, want ...string) {
			r := ply(append([]string{"merge"}, args...)...)
			Expect(r.code).To(Equal(exitInput))
			Expect(r.stdout).To(BeEmpty())
			Expect(r.stderr).To(HavePrefix("ply: "))
			Expect(r.stderr).To(HaveSuffix("\n"))
			Expect(strings.Count(r.stderr, "\n")).To(Equal(1), r.stderr)
			for _, w := range want {
				Expect(r.stderr).To(ContainSubstring(w))
			}
		},
		Entry("malformed YAML: file and line",
			[]string{"--local", testdata("bad", "malformed.yaml"), "--live", example(envDir, "live.yaml")},
			"ply: local ("+testdata("bad", "malformed.yaml")+"): line 7: ", "mapping values are not allowed"),
		Entry("a string where the schema wants an object: source and path",
			cat(threeWay(envDir)[:2], []string{"--local", testdata("bad", "string-for-object.yaml"), "--live", example(envDir, "live.yaml")}),
			"ply: local ("+testdata("bad", "string-for-object.yaml")+") spec.template.spec: ", "object", "string"),
		Entry("a merge-list item without its key",
			[]string{"--local", testdata("bad", "missing-key.yaml"), "--live", example(envDir, "live.yaml")},
			"ply: local ("+testdata("bad", "missing-key.yaml")+") spec.template.spec.containers", `"name"`),
		Entry("duplicate keys in local",
			[]string{"--local", testdata("bad", "duplicate-key.yaml"), "--live", example(envDir, "live.yaml")},
			"ply: local ("+testdata("bad", "duplicate-key.yaml")+"): line 7, column 5: ", `duplicate key "app"`),
		Entry("another kind in live",
			[]string{"--local", example(envDir, "local.yaml"), "--live", testdata("bad", "statefulset.yaml")},
			"ply: live ("+testdata("bad", "statefulset.yaml")+") kind: ", "StatefulSet", "Deployment"),
		Entry("another apiVersion in recorded",
			[]string{"--recorded", testdata("bad", "other-version.yaml"), "--local", example(envDir, "local.yaml"), "--live", example(envDir, "live.yaml")},
			"ply: recorded ("+testdata("bad", "other-version.yaml")+") apiVersion: ", "apps/v1beta2", "apps/v1"),
		Entry("a top level that is not an object",
			[]string{"--local", testdata("bad", "list.yaml"), "--live", example(envDir, "live.yaml")},
			"ply: local ("+testdata("bad", "list.yaml")+"): ", "top level must be an object", "array"),
		Entry("live not an object",
			[]string{"--local", example(envDir, "local.yaml"), "--live", testdata("bad", "list.yaml")},
			"ply: live ("+testdata("bad", "list.yaml")+"): ", "top level must be an object"),
		Entry("two documents",
			[]string{"--local", testdata("bad", "two-docs.yaml"), "--live", testdata("first", "empty.yaml")},
			"ply: local ("+testdata("bad", "two-docs.yaml")+"): document 2: line 3: ", "exactly one document"),
		Entry("an empty local",
			[]string{"--local", testdata("first", "empty.yaml"), "--live", example(envDir, "live.yaml")},
			"ply: local ("+testdata("first", "empty.yaml")+"): ", "no document"),
		Entry("a missing file",
			[]string{"--local", testdata("no-such-file.yaml"), "--live", example(envDir, "live.yaml")},
			"ply: local ("+testdata("no-such-file.yaml")+"): cannot read: ", "no such file"),
		Entry("a directory",
			[]string{"--local", example(envDir, "local.yaml"), "--live", testdata("bad")},
			"ply: live ("+testdata("bad")+"): cannot read: "),
		Entry("a bad schema",
			cat(threeWay(testdata("schema")), []string{"--schema", testdata("schema", "bad.json")}),
			"ply: schema ("+testdata("schema", "bad.json")+"): definition com.example.v1.WidgetSpec, field parts: ", `"merge,replace" declares both merge and replace`),
		Entry("a schema that is not JSON",
			cat(threeWay(testdata("schema")), []string{"--schema", testdata("schema", "recorded.yaml")}),
			"ply: schema ("+testdata("schema", "recorded.yaml")+`): the document has kind "Widget", want an OpenAPI v2 or v3 document or CustomResourceDefinition manifests`),
		Entry("a folder holding a file that is not a schema",
			cat(threeWay(testdata("schema")), []string{"--schema", testdata("crd")}),
			"ply: schema ("+testdata("crd", "live.yaml")+`): the document has kind "Gadget", want `),
		Entry("a missing schema file",
			cat(threeWay(testdata("schema")), []string{"--schema", testdata("crd", "schemas"), "--schema", testdata("nope.json")}),
			"ply: schema ("+testdata("nope.json")+"): cannot read: ", "no such file"),
		Entry("an unknown type name",
			cat(threeWay(envDir), []string{"--type", "io.example.Nope"}),
			"ply: the schema has no definition named io.example.Nope"),
		Entry("no kind",
			[]string{"--local", testdata("bad", "no-kind.yaml"), "--live", testdata("first", "empty.yaml")},
			"ply: local ("+testdata("bad", "no-kind.yaml")+") kind: "),
	)

	It("exits 3 on conflicts with --overwrite=false, one path per line", func() {
		r := ply(cat([]string{"merge"}, threeWay(testdata("conflict")), []string{"--overwrite=false"})...)
		Expect(r.code).To(Equal(exitConflict))
		Expect(r.stdout).To(BeEmpty())
		Expect(r.stderr).To(Equal(readFile(testdata("want", "conflict-stderr.txt"))))
	})

	It("lets local win over the same changes by default", func() {
		r := ply(cat([]string{"merge"}, threeWay(testdata("conflict")))...)
		Expect(r.code).To(Equal(exitOK), r.stderr)
		obj, err := parse.Document([]byte(r.stdout))
		Expect(err).NotTo(HaveOccurred())
		replicas, _ := obj.Get("spec")
		replicas, _ = replicas.Get("replicas")
		Expect(replicas).To(Equal(value.Int(3)))
	})

	DescribeTable("exits 2 on usage errors",
		func(args []string, want string) {
			r := ply(args...)
			Expect(r.code).To(Equal(exitUsage))
			Expect(r.stdout).To(BeEmpty())
			Expect(r.stderr).To(ContainSubstring(want))
		},
		Entry("no command", []string{}, "Usage:"),
		Entry("unknown command", []string{"frobnicate"}, `ply: unknown command "frobnicate"`),
		Entry("unknown flag", []string{"merge", "--bogus"}, "ply merge: unknown flag: --bogus\nRun 'ply merge -h' for usage.\n"),
		Entry("missing --local", []string{"merge", "--live", "x.yaml"}, "--local is required"),
		Entry("missing --live", []string{"merge", "--local", "x.yaml"}, "--live is required"),
		Entry("flag without its value", []string{"merge", "--local"}, "ply merge: flag needs an argument: --local"),
		Entry("bad --ordering", []string{"merge", "--local", "a", "--live", "b", "--ordering", "random"}, `--ordering must be seed or kubectl, not "random"`),
		Entry("bad -o", []string{"merge", "--local", "a", "--live", "b", "-o", "xml"}, `-o must be yaml or json, not "xml"`),
		Entry("bad --overwrite", []string{"merge", "--overwrite=maybe"}, `invalid argument "maybe" for "--overwrite" flag`),
		Entry("extra argument", []string{"merge", "--local", "a", "--live", "b", "c"}, `unexpected argument "c"`),
		Entry("two inputs on standard input", []string{"merge", "--local", "-", "--live", "-"}, "only one input"),
		Entry("help on an unknown topic", []string{"help", "nope"}, `unknown topic "nope"`),
		Entry("version with an argument", []string{"version", "x"}, `unexpected argument "x"`),
	)

	It("turns a panic into an internal error with exit code 1", func() {
		DeferCleanup(func(f func(recorded, local, live value.Value, opts apply.Options) (apply.Result, error)) {
			mergeFunc = f
		}, mergeFunc)
		mergeFunc = func(recorded, local, live value.Value, opts apply.Options) (apply.Result, error) {
			panic("boom")
		}
		r := ply(cat([]string{"merge"}, threeWay(envDir))...)
		Expect(r.code).To(Equal(exitInput))
		Expect(r.stderr).To(Equal("ply: internal error: boom\n"))
	})

	It("reports an unexpected engine error with exit code 1", func() {
		DeferCleanup(func(f func(recorded, local, live value.Value, opts apply.Options) (apply.Result, error)) {
			mergeFunc = f
		}, mergeFunc)
		mergeFunc = func(recorded, local, live value.Value, opts apply.Options) (apply.Result, error) {
			return apply.Result{}, errors.New("disk on fire")
		}
		r := ply(cat([]string{"merge"}, threeWay(envDir))...)
		Expect(r.code).To(Equal(exitInput))
		Expect(r.stderr).To(Equal("ply: disk on fire\n"))
	})

	It("reports a failure to write the output with exit code 1", func() {
		var stderr bytes.Buffer
		code := run(cat([]string{"merge"}, threeWay(envDir)), strings.NewReader(""), failingWriter{}, &stderr)
		Expect(code).To(Equal(exitInput))
		Expect(stderr.String()).To(Equal("ply: writing the output: closed\n"))
	})
})

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("closed") }

var _ = Describe("ply help and version", func() {
	It("prints the usage for help, -h and --help", func() {
		for _, arg := range []string{"help", "-h", "--help"} {
			r := ply(arg)
			Expect(r.code).To(Equal(exitOK))
			Expect(r.stdout).To(MatchRegexp(`^` + regexp.QuoteMeta(long) + `\n\nUsage:\n  ply( \[flags\])?\n  ply \[command\]\n`))
			for _, c := range []string{"apply", "completion", "diff", "help", "merge", "patch", "version"} {
				Expect(r.stdout).To(MatchRegexp(`\n  ` + c + ` +\S`))
			}
			Expect(r.stderr).To(BeEmpty())
		}
	})

	It("prints merge's flags for merge -h and help merge", func() {
		for _, args := range [][]string{{"merge", "-h"}, {"merge", "--help"}, {"help", "merge"}} {
			r := ply(args...)
			Expect(r.code).To(Equal(exitOK))
			Expect(r.stderr).To(BeEmpty())
			Expect(r.stdout).To(HavePrefix(mergeLong + "\n\nUsage:\n  ply merge --local FILE [--recorded FILE] --live FILE [flags]\n\nExamples:\n"))
			for _, f := range []string{"--local file", "--recorded file", "--live file", "--schema file or folder", "--type name", "--overwrite", "--ordering string", "-o, --output format", "--changes"} {
				Expect(r.stdout).To(ContainSubstring("  " + f))
			}
		}
	})

	It("prints the version and the embedded schema's Kubernetes version", func() {
		r := ply("version")
		Expect(r.code).To(Equal(exitOK))
		Expect(r.stdout).To(MatchRegexp(`^ply \S+\nembedded schema: Kubernetes ` + openapi.DefaultKubernetesVersion + "\n$"))
	})
})

var _ = Describe("examples/README.md", func() {
	It("shows the output each example gives", func() {
		readme := readFile(readmePath)
		for _, want := range []string{"env.yaml", "env-changes.txt", "env-kubectl.yaml", "strategy.yaml", "strategy-changes.txt"} {
			Expect(readme).To(ContainSubstring(readFile(testdata("want", want))), want)
		}
	})
})

var _ = Describe("the ply binary", func() {
	It("merges examples/env end to end", func() {
		bin, err := gexec.Build("github.com/plyproject/ply/cmd/ply")
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(gexec.CleanupBuildArtifacts)
		cmd := exec.Command(bin, cat([]string{"merge"}, threeWay(envDir), []string{"--changes"})...)
		session, err := gexec.Start(cmd, GinkgoWriter, GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
		Eventually(session, "60s").Should(gexec.Exit(exitOK))
		Expect(string(session.Out.Contents())).To(Equal(readFile(testdata("want", "env.yaml"))))
		Expect(string(session.Err.Contents())).To(Equal(readFile(testdata("want", "env-changes.txt"))))
	})
})

// envNames lists the names of the env items of the first container.
func envNames(obj value.Value) []string {
	GinkgoHelper()
	v := obj
	for _, f := range []string{"spec", "template", "spec", "containers"} {
		var ok bool
		v, ok = v.Get(f)
		Expect(ok).To(BeTrue(), f)
	}
	Expect(v.Items()).NotTo(BeEmpty())
	env, ok := v.Items()[0].Get("env")
	Expect(ok).To(BeTrue())
	var names []string
	for _, it := range env.Items() {
		n, _ := it.Get("name")
		s, _ := n.AsString()
		names = append(names, s)
	}
	return names
}

// finalizers lists metadata.finalizers.
func finalizers(obj value.Value) []string {
	GinkgoHelper()
	md, _ := obj.Get("metadata")
	fs, ok := md.Get("finalizers")
	Expect(ok).To(BeTrue())
	var out []string
	for _, it := range fs.Items() {
		s, _ := it.AsString()
		out = append(out, s)
	}
	return out
}
