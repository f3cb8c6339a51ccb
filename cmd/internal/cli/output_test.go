package cli

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/printers"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/pkg/cluster"
	"github.com/plyproject/ply/pkg/parse"
)

// printerFor returns the printer of kubectl's print flags for -o output;
// nil for "" (kubectl's lines).
func printerFor(output string) printers.ResourcePrinter {
	GinkgoHelper()
	if output == "" {
		return nil
	}
	pf := genericclioptions.NewPrintFlags("")
	*pf.OutputFormat = output
	p, err := pf.ToPrinter()
	Expect(err).NotTo(HaveOccurred())
	return p
}

// golden returns the content of testdata/want/name; with PLY_UPDATE_GOLDEN
// set, it writes got there first.
func golden(name string, got ...string) string {
	GinkgoHelper()
	if os.Getenv("PLY_UPDATE_GOLDEN") != "" && len(got) == 1 {
		Expect(os.WriteFile(filepath.Join("testdata", "want", name), []byte(got[0]), 0o644)).To(Succeed())
	}
	data, err := os.ReadFile(filepath.Join("testdata", "want", name))
	Expect(err).NotTo(HaveOccurred())
	return string(data)
}

func objectNames(objs []cluster.Object) []string {
	var out []string
	for _, o := range objs {
		k, _ := o.Value.Get("kind")
		md, _ := o.Value.Get("metadata")
		n, _ := md.Get("name")
		ks, _ := k.AsString()
		ns, _ := n.AsString()
		out = append(out, ks+"/"+ns)
	}
	return out
}

var _ = Describe("input flags", func() {
	DescribeTable("-l keeps the objects the selector matches",
		func(selector string, want ...string) {
			f := commonFlags{files: fileList{"testdata/labelled.yaml"}, selector: selector}
			objs, err := f.readObjects(nil)
			Expect(err).NotTo(HaveOccurred())
			if len(want) == 0 {
				Expect(objs).To(BeEmpty())
				return
			}
			Expect(objectNames(objs)).To(Equal(want))
		},
		Entry("no selector: all", "", "ConfigMap/web", "ConfigMap/db", "ConfigMap/plain"),
		Entry("equality", "app=web", "ConfigMap/web"),
		Entry("set", "app in (web,db)", "ConfigMap/web", "ConfigMap/db"),
		Entry("absence", "!app", "ConfigMap/plain"),
		Entry("two requirements", "app=web,tier=back"),
	)

	It("-k builds the kustomization in process, namespaces first as kubectl apply -k", func() {
		f := commonFlags{kustomize: "testdata/kustomize/base"}
		objs, err := f.readObjects(nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(objectNames(objs)).To(Equal([]string{"Namespace/team", "ConfigMap/team-settings"}))
		Expect(objs[1].Source).To(Equal("testdata/kustomize/base (kustomize)#2"))
		md, _ := objs[1].Value.Get("metadata")
		l, _ := md.Get("labels")
		Expect(string(l.JSON())).To(Equal(`{"app":"web"}`))
	})

	It("-k with -l selects among the built objects", func() {
		f := commonFlags{kustomize: "testdata/kustomize/base", selector: "app=db"}
		objs, err := f.readObjects(nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(objs).To(BeEmpty())
	})

	It("reports a kustomization that cannot be built", func() {
		f := commonFlags{kustomize: "testdata"}
		_, err := f.readObjects(nil)
		Expect(err).To(MatchError(HavePrefix("testdata: kustomize: ")))
	})

	DescribeTable("usage errors of the input flags",
		func(want string, args ...string) {
			for _, run := range []func(...string) result{runApply, runDiff} {
				r := run(args...)
				Expect(r.code).To(Equal(command.ExitUsage))
				Expect(r.stderr).To(HavePrefix("error: " + want))
				Expect(r.stderr).To(HaveSuffix("\nRun 'ply " + strings.Fields(r.stderr[strings.LastIndex(r.stderr, "'ply ")+5:])[0] + " -h' for usage.\n"))
			}
		},
		Entry("-f and -k", "only one of -f or -k can be specified", "-f", "testdata/cm.yaml", "-k", "testdata/kustomize/base"),
		Entry("-R with -k", "-R applies to -f folders, not to -k", "-R", "-k", "testdata/kustomize/base"),
		Entry("a bad selector", "bad -l selector: ", "-f", "testdata/cm.yaml", "-l", "a==b==c"),
		Entry("an empty field manager", "--field-manager must not be empty", "-f", "testdata/cm.yaml", "--field-manager="),
	)

	It("passes --field-manager and --show-secrets to the client; unset, each lane's default (kubectl's)", func() {
		got := captureOptions()
		runApply("-f", "testdata/cm.yaml")
		Expect(got.FieldManager).To(BeEmpty())
		Expect(got.ShowSecrets).To(BeFalse())
		runDiff("-f", "testdata/cm.yaml", "--field-manager", "ci", "--show-secrets")
		Expect(got.FieldManager).To(Equal("ci"))
		Expect(got.ShowSecrets).To(BeTrue())
	})

	It("diffs against the server's dry run by default, locally with --server-side=false", func() {
		got := captureOptions()
		runDiff("-f", "testdata/cm.yaml")
		Expect(got.DryRun).To(Equal(cluster.DryRunServer))
		runDiff("-f", "testdata/cm.yaml", "--server-side=false")
		Expect(got.DryRun).To(Equal(cluster.DryRunClient))
	})
})

// secretOutcome is an outcome of a Secret whose value is "s3cr3t-value".
func secretOutcome(action cluster.Action) cluster.Outcome {
	GinkgoHelper()
	v, err := parse.Document([]byte(`{apiVersion: v1, kind: Secret, metadata: {name: token, namespace: default}, data: {token: czNjcjN0LXZhbHVl}, stringData: {plain: s3cr3t-value}}`))
	Expect(err).NotTo(HaveOccurred())
	v = cluster.WithLastApplied(v)
	o := outcome("Secret", "", "token", "s.yaml#1", action, nil)
	o.Object.Value, o.Result = v, v
	return o
}

var _ = Describe("apply output", func() {
	DescribeTable("-o prints the resulting objects, Secrets masked",
		func(output, want string) {
			var out, errb strings.Builder
			p := newApplyPrinter(printerFor(output), cluster.DryRunNone, false, &out, &errb)
			p.report(1, outcome("ConfigMap", "", "x", "x.yaml#1", cluster.Failed, errors.New("boom")))
			p.report(0, secretOutcome(cluster.Created))
			p.report(2, secretOutcome(cluster.Unchanged))
			Expect(out.String()).To(Equal(golden(want, out.String())))
			Expect(out.String()).NotTo(ContainSubstring("s3cr3t"))
			Expect(out.String()).NotTo(ContainSubstring("czNjcjN0"))
			Expect(errb.String()).To(Equal(`error: configmaps "x" (x.yaml#1): boom` + "\n"))
			Expect(p.code).To(Equal(command.ExitFailed))
		},
		Entry("kubectl's lines", "", "apply-lines.txt"),
		Entry("name", "name", "apply-name.txt"),
		Entry("json", "json", "apply-json.txt"),
		Entry("yaml", "yaml", "apply-yaml.txt"),
	)

	It("prints the values with --show-secrets", func() {
		var out, errb strings.Builder
		p := newApplyPrinter(printerFor("yaml"), cluster.DryRunNone, true, &out, &errb)
		p.report(0, secretOutcome(cluster.Created))
		Expect(out.String()).To(ContainSubstring("plain: s3cr3t-value"))
		Expect(out.String()).To(ContainSubstring("token: czNjcjN0LXZhbHVl"))
	})

	It("prints in input order, a terminal or not", func() {
		var out, errb strings.Builder
		p := newApplyPrinter(printerFor("name"), cluster.DryRunNone, false, &out, &errb)
		p.report(1, outcome("ConfigMap", "", "b", "b#1", cluster.Created, nil))
		Expect(out.String()).To(BeEmpty(), "held back until the first object is done")
		p.report(0, outcome("ConfigMap", "", "a", "a#1", cluster.Created, nil))
		Expect(out.String()).To(Equal("configmap/a\nconfigmap/b\n"))
	})

	It("rejects an unknown -o with kubectl's message", func() {
		r := runApply("-f", "testdata/cm.yaml", "-o", "wide")
		Expect(r.code).To(Equal(command.ExitUsage))
		Expect(r.stderr).To(HavePrefix(`error: unable to match a printer suitable for the output format "wide", allowed formats are: `))
	})

	It("prints with kubectl's other print flags: -o jsonpath, --template", func() {
		for _, args := range [][]string{{"-o", "jsonpath={.metadata.name} {.data.token}"}, {"-o", "go-template", "--template", "{{.metadata.name}} {{.data.token}}"}} {
			pf := genericclioptions.NewPrintFlags("")
			*pf.OutputFormat = args[1]
			if len(args) > 2 {
				*pf.TemplatePrinterFlags.TemplateArgument = args[3]
			}
			printer, err := pf.ToPrinter()
			Expect(err).NotTo(HaveOccurred(), "%v", args)
			var out, errb strings.Builder
			newApplyPrinter(printer, cluster.DryRunNone, false, &out, &errb).report(0, secretOutcome(cluster.Created))
			Expect(out.String()).To(Equal("token ***"), "%v", args)
		}
	})
})

var _ = Describe("diff output", func() {
	unified := "--- live/v1.ConfigMap.default.b\n+++ merged/v1.ConfigMap.default.b\n@@ -1,2 +1,2 @@\n a: 1\n-b: 2\n+b: 3\n"

	It("colours the diff with --color=always", func() {
		var out strings.Builder
		d := cluster.DiffResult{Ref: outcome("ConfigMap", "", "b", "b#1", cluster.Configured, nil).Ref, Unified: unified}
		d.Ref.Namespace = "default"
		Expect(reportDiff([]cluster.DiffResult{d}, false, &colorWriter{w: &out}, &out)).To(Equal(command.DiffChanges))
		Expect(out.String()).To(Equal(golden("diff-color.txt", out.String())))
	})

	DescribeTable("--color",
		func(mode string, want bool, errWant string) {
			got, err := useColor(mode, &strings.Builder{})
			Expect(got).To(Equal(want))
			if errWant == "" {
				Expect(err).NotTo(HaveOccurred())
			} else {
				Expect(err).To(MatchError(errWant))
			}
		},
		Entry("always", "always", true, ""),
		Entry("never", "never", false, ""),
		Entry("auto, not a terminal", "auto", false, ""),
		Entry("bad", "sometimes", false, `--color must be auto, always or never, not "sometimes"`),
	)

	It("rejects a bad --color before reading anything", func() {
		r := runDiff("-f", "testdata/cm.yaml", "--color=rainbow")
		Expect(r.code).To(Equal(command.DiffError))
		Expect(r.stderr).To(HavePrefix(`error: --color must be auto, always or never, not "rainbow"`))
	})

	DescribeTable("KUBECTL_EXTERNAL_DIFF is read as kubectl reads it",
		func(env string, want []string, errWant string) {
			got, err := externalDiff(env)
			Expect(got).To(Equal(want))
			if errWant == "" {
				Expect(err).NotTo(HaveOccurred())
			} else {
				Expect(err).To(MatchError(ContainSubstring(errWant)))
			}
		},
		Entry("unset", "", nil, ""),
		Entry("a program", "meld", []string{"meld"}, ""),
		Entry("with flags", "diff -u -N --color=always", []string{"diff", "-u", "-N", "--color=always"}, ""),
		Entry("a flag with a shell character", "diff -u;rm", nil, `the flag "-u;rm"`),
	)

	It("runs the external program on live/ and merged/ directories", func() {
		script := filepath.Join(GinkgoT().TempDir(), "show")
		Expect(os.WriteFile(script, []byte("#!/bin/sh\nfor d in \"$1\" \"$2\"; do basename \"$d\"; for f in \"$d\"/*; do basename \"$f\"; cat \"$f\"; done; done\nexit 1\n"), 0o755)).To(Succeed())
		d := cluster.DiffResult{Ref: outcome("ConfigMap", "", "b", "b#1", cluster.Configured, nil).Ref, Unified: unified,
			LiveText: "b: 2\n", MergedText: "b: 3\n"}
		d.Ref.Namespace = "default"
		same := cluster.DiffResult{Ref: outcome("ConfigMap", "", "c", "c#1", cluster.Unchanged, nil).Ref}
		var out, errb strings.Builder
		code := runExternalDiff([]string{script}, []cluster.DiffResult{d, same}, &out, &errb)
		Expect(errb.String()).To(BeEmpty())
		Expect(code).To(Equal(command.DiffChanges))
		Expect(out.String()).To(Equal("live\nv1.ConfigMap.default.b\nb: 2\nmerged\nv1.ConfigMap.default.b\nb: 3\n"))
	})

	It("reports an external program that fails", func() {
		var out, errb strings.Builder
		code := runExternalDiff([]string{"false-and-missing-program"}, nil, &out, &errb)
		Expect(code).To(Equal(command.DiffError))
		Expect(errb.String()).To(HavePrefix(`error: KUBECTL_EXTERNAL_DIFF "false-and-missing-program": `))
	})
})

var _ = Describe("apply progress", func() {
	It("draws a bar below the results, cleared for each and ended with a new line", func() {
		var out, errb strings.Builder
		p := newApplyPrinter(nil, cluster.DryRunNone, false, &out, &errb)
		p.bar = &progressBar{w: &errb, total: 4}
		for i, n := range []string{"a", "b", "c", "d"} {
			p.report(i, outcome("ConfigMap", "", n, n+"#1", cluster.Created, nil))
		}
		p.finish()
		Expect(out.String()).To(Equal("configmap/a created\nconfigmap/b created\nconfigmap/c created\nconfigmap/d created\n"))
		Expect(errb.String()).To(Equal(golden("apply-progress.txt", errb.String())))
		Expect(errb.String()).To(HaveSuffix("[==============================] 4/4 objects\n"))
	})

	It("leaves managedFields out of -o output unless --show-managed-fields", func() {
		o := secretOutcome(cluster.Created)
		md, _ := o.Result.Get("metadata")
		mf, err := parse.Document([]byte(`[{manager: kubectl-client-side-apply, operation: Update}]`))
		Expect(err).NotTo(HaveOccurred())
		o.Result = o.Result.With("metadata", md.With("managedFields", mf))
		for _, show := range []bool{false, true} {
			var out, errb strings.Builder
			r := runApply("-f", "testdata/cm.yaml", "-o", "yaml", "--show-managed-fields="+strconv.FormatBool(show), "--kubeconfig", "testdata/missing")
			Expect(r.stderr).To(HavePrefix("error: cannot load the kubeconfig"), "the flag exists")
			pf := genericclioptions.NewPrintFlags("")
			*pf.OutputFormat = "yaml"
			pf.JSONYamlPrintFlags.ShowManagedFields = show
			printer, err := pf.ToPrinter()
			Expect(err).NotTo(HaveOccurred())
			p := newApplyPrinter(printer, cluster.DryRunNone, false, &out, &errb)
			p.report(0, o)
			Expect(strings.Contains(out.String(), "manager: kubectl-client-side-apply")).To(Equal(show))
		}
	})
})

var _ = Describe("-f URL", func() {
	It("reads the manifest from an http(s) URL before contacting the cluster", func() {
		data, err := os.ReadFile("testdata/cm.yaml")
		Expect(err).NotTo(HaveOccurred())
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/cm.yaml" {
				http.NotFound(w, r)
				return
			}
			w.Write(data)
		}))
		DeferCleanup(srv.Close)
		captureOptions()
		r := runApply("-f", srv.URL+"/cm.yaml")
		Expect(r.stderr).To(Equal("error: no cluster in unit tests\n"), "the object was read")
		r = runDiff("-f", srv.URL+"/nope.yaml")
		Expect(r.code).To(Equal(command.DiffError))
		Expect(r.stderr).To(Equal("error: " + srv.URL + "/nope.yaml: cannot download: the server answered 404 Not Found\n"))
	})
})

var _ = Describe("help", func() {
	DescribeTable("of apply and diff, as kubectl's",
		func(cmd, want string) {
			GinkgoT().Setenv("HOME", "/home/user")
			r := runPly(cmd, "--help")
			Expect(r.code).To(Equal(command.ExitOK))
			Expect(r.stdout).To(Equal(golden(want, r.stdout)))
		},
		Entry("apply", "apply", "apply-help.txt"),
		Entry("diff", "diff", "diff-help.txt"),
	)
})
