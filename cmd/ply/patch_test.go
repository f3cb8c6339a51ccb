package main

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// v2Schema is the embedded Kubernetes swagger, the document kubectl's
// strategicpatch reads: with it ply's output must equal strategicpatch's.
var v2Schema = filepath.Join("..", "..", "openapi", "default", "swagger.json")

func patchFile(name string) string { return testdata("patch", name) }

// envApply are the flags of ply patch apply for examples/env/live.yaml and
// testdata/patch/env-patch.yaml, in strategicpatch's list order (the
// goldens patch-apply.*; patch-apply-seed.yaml has the default order).
var envApply = []string{"--live", example(envDir, "live.yaml"), "--patch", patchFile("env-patch.yaml"), "--ordering", "kubectl"}

// envCreate are the flags of ply patch create for examples/env; three
// adds --current.
func envCreate(three bool) []string {
	args := []string{"--original", example(envDir, "recorded.yaml"), "--modified", example(envDir, "local.yaml")}
	if three {
		args = append(args, "--current", example(envDir, "live.yaml"))
	}
	return args
}

// docJSON parses a YAML or JSON document file or output into compact JSON.
func docJSON(data string) []byte {
	GinkgoHelper()
	v, err := parse.Document([]byte(data))
	Expect(err).NotTo(HaveOccurred())
	return v.JSON()
}

// stored drops the "$" directive keys strategicpatch leaves in a patch
// value it copies into an object lacking it (the API server drops them
// when it decodes the object).
func stored(data []byte) []byte {
	GinkgoHelper()
	v, err := jsonv.Decode(data)
	Expect(err).NotTo(HaveOccurred())
	var drop func(v value.Value) value.Value
	drop = func(v value.Value) value.Value {
		switch {
		case v.IsMap():
			var fs []value.Field
			for _, f := range v.Fields() {
				if !strings.HasPrefix(f.Key, "$") {
					fs = append(fs, value.Field{Key: f.Key, Value: drop(f.Value)})
				}
			}
			return value.MapFromSorted(fs)
		case v.IsList():
			items := make([]value.Value, v.Len())
			for i, it := range v.Items() {
				items[i] = drop(it)
			}
			return value.List(items)
		}
		return v
	}
	return drop(v).JSON()
}

// canonical re-encodes JSON with sorted keys.
func canonical(data []byte) string {
	GinkgoHelper()
	v, err := jsonv.Decode(data)
	Expect(err).NotTo(HaveOccurred())
	return string(v.JSON())
}

var _ = Describe("ply patch", func() {
	DescribeTable("prints the patched object or the patch",
		func(args []string, want string) {
			r := ply(append([]string{"patch"}, args...)...)
			Expect(r.code).To(Equal(exitOK), "stderr: %s", r.stderr)
			Expect(r.stderr).To(BeEmpty())
			Expect(r.stdout).To(Equal(readFile(testdata("want", want))))
		},
		Entry("apply: every directive on examples/env", cat([]string{"apply"}, envApply), "patch-apply.yaml"),
		Entry("apply as JSON", cat([]string{"apply"}, envApply, []string{"-o", "json"}), "patch-apply.json"),
		Entry("apply in design document 000's order (--ordering seed, the default): live-only items first",
			[]string{"apply", "--live", example(envDir, "live.yaml"), "--patch", patchFile("env-patch.yaml")}, "patch-apply-seed.yaml"),
		Entry("apply with --ordering seed",
			[]string{"apply", "--live", example(envDir, "live.yaml"), "--patch", patchFile("env-patch.yaml"), "--ordering", "seed"}, "patch-apply-seed.yaml"),
		Entry("apply with a --schema: parts merge by id",
			[]string{"apply", "--live", testdata("schema", "live.yaml"), "--patch", patchFile("widget-patch.yaml"), "--schema", testdata("schema", "widget.json")},
			"patch-apply-widget.yaml"),
		Entry("create two-way (kubectl patch/edit)", cat([]string{"create"}, envCreate(false)), "patch-twoway.yaml"),
		Entry("create three-way (kubectl apply)", cat([]string{"create"}, envCreate(true)), "patch-threeway.yaml"),
		Entry("create three-way as JSON", cat([]string{"create"}, envCreate(true), []string{"-o", "json"}), "patch-threeway.json"),
		Entry("create three-way on a first apply (no --original)",
			[]string{"create", "--modified", example(envDir, "local.yaml"), "--current", example(envDir, "live.yaml")}, "patch-first.yaml"),
		Entry("create three-way with a --schema",
			[]string{"create", "--original", testdata("schema", "recorded.yaml"), "--modified", testdata("schema", "local.yaml"),
				"--current", testdata("schema", "live.yaml"), "--schema", testdata("schema", "widget.json")}, "patch-threeway-widget.yaml"),
	)

	It("prints an empty object when nothing changed (v2 schema: the v3 schema's atomic selector is always sent whole)", func() {
		r := ply("patch", "create", "--original", example(envDir, "local.yaml"), "--modified", example(envDir, "local.yaml"), "-o", "json", "--schema", v2Schema)
		Expect(r.code).To(Equal(exitOK), r.stderr)
		Expect(r.stdout).To(Equal("{}\n"))
	})

	It("applies the three-way patch it creates to give the object ply merge gives (kubectl order)", func() {
		p := ply(cat([]string{"patch", "create"}, envCreate(true), []string{"-o", "json"})...)
		Expect(p.code).To(Equal(exitOK), p.stderr)
		stdin := strings.NewReader(p.stdout)
		patched := plyWithStdin(stdin, "patch", "apply", "--live", example(envDir, "live.yaml"), "--patch", "-", "--ordering", "kubectl")
		Expect(patched.code).To(Equal(exitOK), patched.stderr)
		merged := ply(cat([]string{"merge", "--ordering", "kubectl"}, threeWay(envDir))...)
		Expect(merged.code).To(Equal(exitOK), merged.stderr)
		Expect(patched.stdout).To(Equal(merged.stdout))
	})

	It("turns original into modified with the two-way patch it creates", func() {
		p := ply(cat([]string{"patch", "create"}, envCreate(false))...)
		Expect(p.code).To(Equal(exitOK), p.stderr)
		patched := plyWithStdin(strings.NewReader(p.stdout), "patch", "apply", "--live", example(envDir, "recorded.yaml"), "--patch", "-")
		Expect(patched.code).To(Equal(exitOK), patched.stderr)
		Expect(string(docJSON(patched.stdout))).To(Equal(string(docJSON(readFile(example(envDir, "local.yaml"))))))
	})

	Describe("with the v2 schema kubectl reads, it prints what strategicpatch computes", func() {
		var meta strategicpatch.LookupPatchMeta
		BeforeEach(func() {
			models, err := oracle.Default()
			Expect(err).NotTo(HaveOccurred())
			o, err := models.Oracle("io.k8s.api.apps.v1.Deployment")
			Expect(err).NotTo(HaveOccurred())
			meta = o.Meta()
		})
		env := func(file string) []byte { return docJSON(readFile(example(envDir, file))) }

		It("apply: the object of StrategicMergePatch", func() {
			r := ply(cat([]string{"patch", "apply", "-o", "json", "--schema", v2Schema}, envApply)...)
			Expect(r.code).To(Equal(exitOK), r.stderr)
			want, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(env("live.yaml"), docJSON(readFile(patchFile("env-patch.yaml"))), meta)
			Expect(err).NotTo(HaveOccurred())
			Expect(canonical([]byte(r.stdout))).To(Equal(canonical(stored(want))))
			// The golden (default v3 schema) holds the same object.
			Expect(canonical([]byte(r.stdout))).To(Equal(canonical(docJSON(readFile(testdata("want", "patch-apply.yaml"))))))
		})

		It("create: the patch of CreateTwoWayMergePatch", func() {
			r := ply(cat([]string{"patch", "create", "-o", "json", "--schema", v2Schema}, envCreate(false))...)
			Expect(r.code).To(Equal(exitOK), r.stderr)
			want, err := strategicpatch.CreateTwoWayMergePatchUsingLookupPatchMeta(env("recorded.yaml"), env("local.yaml"), meta)
			Expect(err).NotTo(HaveOccurred())
			Expect(canonical([]byte(r.stdout))).To(Equal(canonical(want)))
		})

		It("create --current: the patch of CreateThreeWayMergePatch", func() {
			r := ply(cat([]string{"patch", "create", "-o", "json", "--schema", v2Schema}, envCreate(true))...)
			Expect(r.code).To(Equal(exitOK), r.stderr)
			want, err := strategicpatch.CreateThreeWayMergePatch(env("recorded.yaml"), env("local.yaml"), env("live.yaml"), meta, true)
			Expect(err).NotTo(HaveOccurred())
			Expect(canonical([]byte(r.stdout))).To(Equal(canonical(want)))
		})
	})

	It("exits 3 on conflicts with --current and --overwrite=false, one path per line", func() {
		r := ply("patch", "create", "--original", testdata("conflict", "recorded.yaml"), "--modified", testdata("conflict", "local.yaml"),
			"--current", testdata("conflict", "live.yaml"), "--overwrite=false")
		Expect(r.code).To(Equal(exitConflict))
		Expect(r.stdout).To(BeEmpty())
		Expect(r.stderr).To(Equal(readFile(testdata("want", "patch-conflict-stderr.txt"))))
	})

	It("reads one input from standard input", func() {
		stdin, err := os.Open(patchFile("env-patch.yaml"))
		Expect(err).NotTo(HaveOccurred())
		defer stdin.Close()
		r := plyWithStdin(stdin, "patch", "apply", "--live", example(envDir, "live.yaml"), "--patch", "-")
		Expect(r.code).To(Equal(exitOK), r.stderr)
		Expect(r.stdout).To(Equal(readFile(testdata("want", "patch-apply-seed.yaml"))))
	})

	DescribeTable("rejects bad input with exit code 1 and a one-line message naming the input",
		func(args []string, want ...string) {
			r := ply(append([]string{"patch"}, args...)...)
			Expect(r.code).To(Equal(exitInput), r.stderr)
			Expect(r.stdout).To(BeEmpty())
			Expect(r.stderr).To(HavePrefix("ply: "))
			Expect(strings.Count(r.stderr, "\n")).To(Equal(1), r.stderr)
			for _, w := range want {
				Expect(r.stderr).To(ContainSubstring(w))
			}
		},
		Entry("an unknown $patch value: the patch file and the path",
			[]string{"apply", "--live", example(envDir, "live.yaml"), "--patch", patchFile("bad-directive.yaml")},
			"ply: patch ("+patchFile("bad-directive.yaml")+") spec.template.spec.containers", "frobnicate"),
		Entry("a patch that is not an object",
			[]string{"apply", "--live", example(envDir, "live.yaml"), "--patch", patchFile("list.yaml")},
			"ply: patch ("+patchFile("list.yaml")+"): the patch must be an object, not a list"),
		Entry("an empty patch",
			[]string{"apply", "--live", example(envDir, "live.yaml"), "--patch", testdata("first", "empty.yaml")},
			"ply: patch ("+testdata("first", "empty.yaml")+"): the patch must be an object, not null (or empty)"),
		Entry("malformed live: file and line",
			[]string{"apply", "--live", testdata("bad", "malformed.yaml"), "--patch", patchFile("env-patch.yaml")},
			"ply: live ("+testdata("bad", "malformed.yaml")+"): line 7: "),
		Entry("a missing patch file",
			[]string{"apply", "--live", example(envDir, "live.yaml"), "--patch", patchFile("nope.yaml")},
			"ply: patch ("+patchFile("nope.yaml")+"): cannot read: ", "no such file"),
		Entry("create: malformed original, called original",
			[]string{"create", "--original", testdata("bad", "malformed.yaml"), "--modified", example(envDir, "local.yaml")},
			"ply: original ("+testdata("bad", "malformed.yaml")+"): line 7: "),
		Entry("create: an empty modified, called modified",
			[]string{"create", "--original", example(envDir, "recorded.yaml"), "--modified", testdata("first", "empty.yaml")},
			"ply: modified ("+testdata("first", "empty.yaml")+"): ", "no document"),
		Entry("create: a bad object in current, called current, with the path",
			cat([]string{"create"}, envCreate(false), []string{"--current", testdata("bad", "missing-key.yaml")}),
			"ply: current ("+testdata("bad", "missing-key.yaml")+") spec.template.spec.containers: ", "merge key field (name)"),
		Entry("create: a bad schema",
			cat([]string{"create"}, envCreate(false), []string{"--schema", testdata("schema", "bad.json")}),
			"ply: schema ("+testdata("schema", "bad.json")+"): definition com.example.v1.WidgetSpec, field parts: "),
		Entry("create: an unknown type name",
			cat([]string{"create"}, envCreate(false), []string{"--type", "io.example.Nope"}),
			"io.example.Nope"),
	)

	DescribeTable("exits 2 on usage errors",
		func(args []string, want string) {
			r := ply(args...)
			Expect(r.code).To(Equal(exitUsage))
			Expect(r.stdout).To(BeEmpty())
			Expect(r.stderr).To(ContainSubstring(want))
		},
		Entry("no subcommand", []string{"patch"}, "ply patch: missing subcommand, want apply or create"),
		Entry("unknown subcommand", []string{"patch", "merge"}, `ply patch: unknown subcommand "merge"`),
		Entry("apply: missing --live", []string{"patch", "apply", "--patch", "p.yaml"}, "ply patch apply: --live is required"),
		Entry("apply: missing --patch", []string{"patch", "apply", "--live", "l.yaml"}, "ply patch apply: --patch is required"),
		Entry("apply: unknown flag", []string{"patch", "apply", "--local", "x"}, "ply patch apply: unknown flag: --local"),
		Entry("apply: bad -o", []string{"patch", "apply", "--live", "a", "--patch", "b", "-o", "xml"}, `-o must be yaml or json, not "xml"`),
		Entry("apply: bad --ordering", []string{"patch", "apply", "--live", "a", "--patch", "b", "--ordering", "random"}, `ply patch apply: --ordering must be seed or kubectl, not "random"`),
		Entry("apply: extra argument", []string{"patch", "apply", "--live", "a", "--patch", "b", "c"}, `unexpected argument "c"`),
		Entry("apply: two inputs on standard input", []string{"patch", "apply", "--live", "-", "--patch", "-"}, "only one input"),
		Entry("create: missing --modified", []string{"patch", "create", "--original", "a"}, "ply patch create: --modified is required"),
		Entry("create: --overwrite=false without --current", []string{"patch", "create", "--modified", "a", "--overwrite=false"}, "--overwrite=false needs --current"),
		Entry("create: bad --overwrite", []string{"patch", "create", "--overwrite=maybe"}, `ply patch create: invalid argument "maybe" for "--overwrite" flag`),
		Entry("create: empty --schema", []string{"patch", "create", "--modified", "a", "--schema", ""}, "the value is empty, want a file or folder"),
	)

	It("prints its help for help patch, patch -h and the subcommands' -h", func() {
		for _, args := range [][]string{{"help", "patch"}, {"patch", "-h"}, {"patch", "help"}} {
			r := ply(args...)
			Expect(r.code).To(Equal(exitOK))
			Expect(r.stderr).To(BeEmpty())
			Expect(r.stdout).To(MatchRegexp(`^` + regexp.QuoteMeta(patchLong) + `\n\nUsage:\n  ply patch apply\|create( \[flags\])?\n  ply patch \[command\]\n`))
			for _, f := range []string{"apply       Print live with", "create      Print the two-way"} {
				Expect(r.stdout).To(ContainSubstring("  "+f), strings.Join(args, " "))
			}
		}
		r := ply("patch", "apply", "-h")
		Expect(r.code).To(Equal(exitOK))
		Expect(r.stdout).To(HavePrefix(patchApplyLong + "\n\nUsage:\n  ply patch apply --live FILE --patch FILE [flags]\n"))
		for _, f := range []string{"--live file", "--patch file", "--ordering string", "--schema file or folder", "--type name", "-o, --output format"} {
			Expect(r.stdout).To(ContainSubstring("  "+f), f)
		}
		Expect(r.stdout).NotTo(ContainSubstring("--original"))
		r = ply("patch", "create", "--help")
		Expect(r.code).To(Equal(exitOK))
		Expect(r.stdout).To(HavePrefix(patchCreateLong + "\n\nUsage:\n  ply patch create --original FILE --modified FILE [--current FILE] [flags]\n"))
		for _, f := range []string{"--original file", "--modified file", "--current file", "--overwrite", "--schema file or folder", "--type name", "-o, --output format"} {
			Expect(r.stdout).To(ContainSubstring("  "+f), f)
		}
		Expect(r.stdout).NotTo(ContainSubstring("--patch "))
		Expect(ply("help").stdout).To(ContainSubstring("ply patch create"))
	})

	Describe("engine errors", func() {
		BeforeEach(func() {
			DeferCleanup(func(a func(value.Value, value.Value, patch.Options) (value.Value, error),
				t func(value.Value, value.Value, patchgen.Options) (value.Value, error)) {
				patchApplyFunc, patchTwoWayFunc = a, t
			}, patchApplyFunc, patchTwoWayFunc)
		})

		It("names the source by the command's name for it: original, modified, current, live, patch", func() {
			patchTwoWayFunc = func(original, modified value.Value, opts patchgen.Options) (value.Value, error) {
				return value.Null, &elements.Error{Source: elements.Recorded, Path: fieldpath.Path{fieldpath.Field("spec"), fieldpath.Field("replicas")}, Msg: "want an integer"}
			}
			r := ply(cat([]string{"patch", "create"}, envCreate(false))...)
			Expect(r.code).To(Equal(exitInput))
			Expect(r.stderr).To(Equal("ply: original (" + example(envDir, "recorded.yaml") + ") spec.replicas: want an integer\n"))

			patchApplyFunc = func(live, p value.Value, opts patch.Options) (value.Value, error) {
				return value.Null, &elements.Error{Source: elements.Live, Msg: "top level must be an object"}
			}
			r = ply(cat([]string{"patch", "apply"}, envApply)...)
			Expect(r.code).To(Equal(exitInput))
			Expect(r.stderr).To(Equal("ply: live (" + example(envDir, "live.yaml") + "): top level must be an object\n"))
		})

		It("turns a panic into an internal error with exit code 1", func() {
			patchApplyFunc = func(live, p value.Value, opts patch.Options) (value.Value, error) { panic("boom") }
			r := ply(cat([]string{"patch", "apply"}, envApply)...)
			Expect(r.code).To(Equal(exitInput))
			Expect(r.stderr).To(Equal("ply: internal error: boom\n"))
		})

		It("reports an unexpected engine error with exit code 1", func() {
			patchTwoWayFunc = func(original, modified value.Value, opts patchgen.Options) (value.Value, error) {
				return value.Null, errors.New("disk on fire")
			}
			r := ply(cat([]string{"patch", "create"}, envCreate(false))...)
			Expect(r.code).To(Equal(exitInput))
			Expect(r.stderr).To(Equal("ply: disk on fire\n"))
		})
	})
})
