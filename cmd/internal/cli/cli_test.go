package cli

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/cluster"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

type result struct {
	code           int
	stdout, stderr string
}

// runPly runs ply's tree (without ply's file commands) with args.
func runPly(args ...string) result {
	var out, errb strings.Builder
	code := command.Main(NewRoot("ply", "ply"), args, strings.NewReader(""), &out, &errb)
	return result{code, out.String(), errb.String()}
}

func runApply(args ...string) result { return runPly(append([]string{"apply"}, args...)...) }

func runDiff(args ...string) result { return runPly(append([]string{"diff"}, args...)...) }

func runPlugin(args ...string) result {
	var out, errb strings.Builder
	code := Plugin("kubectl-ply", args, strings.NewReader(""), &out, &errb)
	return result{code, out.String(), errb.String()}
}

// captureOptions replaces newClient for one spec: it records the options
// and fails, so no server is needed.
func captureOptions() *cluster.Options {
	o, _ := captureClient()
	return o
}

// captureClient is captureOptions that also records the client
// configuration the connection flags built.
func captureClient() (*cluster.Options, *clientcmd.ClientConfig) {
	var got cluster.Options
	var cc clientcmd.ClientConfig
	prev := newClient
	newClient = func(c clientcmd.ClientConfig, o cluster.Options) (*cluster.Client, error) {
		got, cc = o, c
		return nil, errors.New("no cluster in unit tests")
	}
	DeferCleanup(func() { newClient = prev })
	return &got, &cc
}

var _ = Describe("apply flags", func() {
	DescribeTable("usage errors exit 2 naming the problem",
		func(want string, args ...string) {
			r := runApply(args...)
			Expect(r.code).To(Equal(command.ExitUsage))
			Expect(r.stderr).To(HavePrefix("error: " + want))
			Expect(r.stderr).To(ContainSubstring("Run 'ply apply -h' for usage."))
			Expect(r.stdout).To(BeEmpty())
		},
		Entry("no -f", "must specify one of -f and -k"),
		Entry("an unknown flag", "unknown shorthand flag: 'x' in -x", "-x"),
		Entry("a bad dry-run", `invalid dry-run value "maybe", want none, client or server`, "-f", "testdata/cm.yaml", "--dry-run=maybe"),
		Entry("a bad ordering", `--ordering must be seed or kubectl, not "random"`, "-f", "testdata/cm.yaml", "--ordering", "random"),
		Entry("no workers", "--workers must be at least 1, not 0", "-f", "testdata/cm.yaml", "--workers=0"),
		Entry("no attempts", "--max-attempts must be at least 1, not 0", "-f", "testdata/cm.yaml", "--max-attempts=0"),
		Entry("a negative retry time", "--retry-timeout must not be negative, not -1s", "-f", "testdata/cm.yaml", "--retry-timeout=-1s"),
		Entry("a positional argument", `unexpected argument "extra"`, "-f", "testdata/cm.yaml", "extra"),
		Entry("an empty -f", `invalid argument "" for "-f, --filename" flag: empty path`, "-f", ""),
	)

	It("prints help on -h", func() {
		r := runApply("-h")
		Expect(r.code).To(Equal(command.ExitOK))
		Expect(r.stdout).To(HavePrefix("Applies the objects of the manifests"))
		Expect(r.stdout).To(ContainSubstring("\nUsage:\n  ply apply -f FILENAME [flags]\n\nExamples:\n  # Apply"))
		Expect(r.stdout).To(ContainSubstring("  ply apply -Rf manifests/\n"))
		for _, f := range []string{"--dry-run string", "-f, --filename", "-R, --recursive", "-n, --namespace string", "--kubeconfig string",
			"--context string", "--token string", "--as string", "--as-group stringArray", "-s, --server string", "--certificate-authority string",
			"--insecure-skip-tls-verify", "--request-timeout string", "--user string", "--cluster string"} {
			Expect(r.stdout).To(ContainSubstring("  "+f), f)
		}
	})

	It("passes the flags to the client", func() {
		got := captureOptions()
		r := runApply("-f", "testdata/cm.yaml", "-n", "team", "--kubeconfig", "kc", "--context", "c",
			"--overwrite=false", "--ordering=kubectl", "--dry-run=server", "--workers", "3", "--max-attempts", "4", "--progress", "--retry-timeout=5s")
		Expect(r.code).To(Equal(command.ExitFailed))
		Expect(r.stderr).To(Equal("error: no cluster in unit tests\n"))
		Expect(got.Namespace).To(Equal("team"))
		Expect(got.Kubeconfig).To(Equal("kc"))
		Expect(got.Context).To(Equal("c"))
		Expect(got.Overwrite).To(BeFalse())
		Expect(got.Ordering).To(Equal(apply.OrderingKubectl))
		Expect(got.DryRun).To(Equal(cluster.DryRunServer))
		Expect(got.Workers).To(Equal(3))
		Expect(got.MaxAttempts).To(Equal(4))
		Expect(got.Progress).NotTo(BeNil())
		Expect(got.RetryTimeout).To(Equal(5 * time.Second))
	})

	It("turns retries off with --retry-timeout=0", func() {
		got := captureOptions()
		runApply("-f", "testdata/cm.yaml", "--retry-timeout=0")
		Expect(got.RetryTimeout).To(BeNumerically("<", 0))
	})

	It("has kubectl's defaults and long names", func() {
		got := captureOptions()
		runApply("--filename=testdata/cm.yaml,testdata/cm.yaml", "--namespace", "x", "--recursive")
		Expect(got.Namespace).To(Equal("x"))
		Expect(got.Overwrite).To(BeTrue())
		Expect(got.DryRun).To(Equal(cluster.DryRunNone))
		Expect(got.Workers).To(Equal(cluster.DefaultWorkers))
		Expect(got.MaxAttempts).To(Equal(cluster.DefaultMaxAttempts))
		Expect(got.RetryTimeout).To(Equal(cluster.DefaultRetryTimeout))
		Expect(got.Progress).To(BeNil())
	})

	It("reports bad manifests before contacting the cluster", func() {
		got := captureOptions()
		r := runApply("-f", "testdata/bad.yaml")
		Expect(r.code).To(Equal(command.ExitFailed))
		Expect(r.stderr).To(HavePrefix("error: testdata/bad.yaml: line 4"))
		Expect(got.Kubeconfig).To(BeEmpty())
	})

	It("reports an empty input", func() {
		r := runApply("-f", "-")
		Expect(r.code).To(Equal(command.ExitFailed))
		Expect(r.stderr).To(Equal("error: no objects passed to apply\n"))
	})

	It("reports a kubeconfig that cannot be loaded", func() {
		r := runApply("-f", "testdata/cm.yaml", "--kubeconfig", "testdata/missing-kubeconfig")
		Expect(r.code).To(Equal(command.ExitFailed))
		Expect(r.stderr).To(HavePrefix("error: cannot load the kubeconfig: "))
	})

	It("reports an unreachable cluster for each object", func() {
		r := runApply("-f", "testdata/cm.yaml", "--kubeconfig", "testdata/kubeconfig")
		Expect(r.code).To(Equal(command.ExitFailed))
		Expect(r.stderr).To(HavePrefix(`error: configmap "settings" (testdata/cm.yaml#1): cannot read the server's OpenAPI schema: `))
	})
})

func outcome(kind, group, name, src string, a cluster.Action, err error) cluster.Outcome {
	apiVersion := "v1"
	if group != "" {
		apiVersion = group + "/v1"
	}
	result := value.MustMap(value.Field{Key: "apiVersion", Value: value.String(apiVersion)}, value.Field{Key: "kind", Value: value.String(kind)},
		value.Field{Key: "metadata", Value: value.MustMap(value.Field{Key: "name", Value: value.String(name)})})
	return cluster.Outcome{
		Result: result,
		Object: cluster.Object{Source: src},
		Ref: cluster.Ref{GroupVersionKind: schema.GroupVersionKind{Group: group, Version: "v1", Kind: kind}, Name: name,
			Resource: strings.ToLower(kind) + "s"},
		Action: a, Err: err,
	}
}

var _ = Describe("apply output", func() {
	outs := []cluster.Outcome{
		outcome("Deployment", "apps", "web", "m/web.yaml#1", cluster.Created, nil),
		outcome("ConfigMap", "", "x", "m/x.yaml#1", cluster.Unchanged, nil),
		outcome("Service", "", "svc", "m/x.yaml#2", cluster.Failed, errors.New("Service \"svc\" is invalid:\nspec.ports: Required value")),
		outcome("Secret", "", "s", "m/x.yaml#3", cluster.Configured, nil),
	}

	DescribeTable("prints kubectl's lines in input order",
		func(dry cluster.DryRun, suffix string) {
			var out, errb strings.Builder
			code := reportApply(outs, dry, &out, &errb)
			Expect(code).To(Equal(command.ExitFailed))
			Expect(out.String()).To(Equal("deployment.apps/web created" + suffix + "\nconfigmap/x unchanged" + suffix + "\nsecret/s configured" + suffix + "\n"))
			Expect(errb.String()).To(Equal(`error: services "svc" (m/x.yaml#2): Service "svc" is invalid:; spec.ports: Required value` + "\n"))
		},
		Entry("writing", cluster.DryRunNone, ""),
		Entry("in a client dry run", cluster.DryRunClient, " (dry run)"),
		Entry("in a server dry run", cluster.DryRunServer, " (server dry run)"),
	)

	It("exits 3 for a conflict", func() {
		ce := &apply.ConflictError{Conflicts: []apply.Conflict{{Path: fieldpath.Path{fieldpath.Field("spec"), fieldpath.Field("replicas")}}}}
		var out, errb strings.Builder
		code := reportApply([]cluster.Outcome{
			outcome("ConfigMap", "", "x", "a#1", cluster.Failed, errors.New("other")),
			outcome("Deployment", "apps", "web", "a#2", cluster.Failed, ce),
		}, cluster.DryRunNone, &out, &errb)
		Expect(code).To(Equal(command.ExitConflict))
		Expect(errb.String()).To(ContainSubstring(`error: deployments.apps "web" (a#2): apply conflicts with changes made on the server at: spec.replicas`))
	})

	It("exits 0 when everything applied, with warnings on stderr", func() {
		o := outcome("Widget", "example.com", "w", "a#1", cluster.Created, nil)
		o.Warnings = []string{"no schema for example.com/v1 Widget"}
		var out, errb strings.Builder
		Expect(reportApply([]cluster.Outcome{o}, cluster.DryRunNone, &out, &errb)).To(Equal(command.ExitOK))
		Expect(errb.String()).To(Equal("Warning: widget.example.com/w (a#1): no schema for example.com/v1 Widget\n"))
	})
})

var _ = Describe("diff", func() {
	It("exits 2 on usage errors", func() {
		r := runDiff("--nope")
		Expect(r.code).To(Equal(command.DiffError))
		Expect(r.stderr).To(HavePrefix("error: unknown flag: --nope\nRun 'ply diff -h' for usage.\n"))
	})

	It("prints help on -h", func() {
		r := runDiff("-h")
		Expect(r.code).To(Equal(command.DiffNone))
		Expect(r.stdout).To(HavePrefix("Shows, as unified diffs"))
		Expect(r.stdout).To(ContainSubstring("\nUsage:\n  ply diff -f FILENAME [flags]\n\nExamples:\n"))
	})

	It("exits 2 on bad manifests", func() {
		r := runDiff("-f", "testdata/bad.yaml")
		Expect(r.code).To(Equal(command.DiffError))
	})

	mk := func(name, unified string, err error) cluster.DiffResult {
		o := outcome("ConfigMap", "", name, name+".yaml#1", cluster.Configured, nil)
		o.Ref.Namespace = "default"
		return cluster.DiffResult{Object: o.Object, Ref: o.Ref, Unified: unified, Err: err,
			Fields: []cluster.FieldChange{{Path: "data.a", Op: apply.OpReplace, Reason: cluster.ReasonSetByLocal}}}
	}

	DescribeTable("exit codes and output",
		func(res []cluster.DiffResult, changes bool, code int, stdout, stderr string) {
			var out, errb strings.Builder
			Expect(reportDiff(res, changes, &out, &errb)).To(Equal(code))
			Expect(out.String()).To(Equal(stdout))
			Expect(errb.String()).To(Equal(stderr))
		},
		Entry("no differences", []cluster.DiffResult{mk("a", "", nil)}, false, command.DiffNone, "", ""),
		Entry("differences", []cluster.DiffResult{mk("a", "", nil), mk("b", "--- x\n+++ y\n", nil)}, false, command.DiffChanges,
			"diff -u -N live/v1.ConfigMap.default.b merged/v1.ConfigMap.default.b\n--- x\n+++ y\n", ""),
		Entry("differences with their provenance", []cluster.DiffResult{mk("b", "--- x\n+++ y\n", nil)}, true, command.DiffChanges,
			"# data.a: replace, set by local\ndiff -u -N live/v1.ConfigMap.default.b merged/v1.ConfigMap.default.b\n--- x\n+++ y\n", ""),
		Entry("an error wins", []cluster.DiffResult{mk("b", "--- x\n+++ y\n", nil), mk("c", "", errors.New("forbidden"))}, false, command.DiffError,
			"diff -u -N live/v1.ConfigMap.default.b merged/v1.ConfigMap.default.b\n--- x\n+++ y\n",
			"error: configmaps \"c\" (c.yaml#1): forbidden\n"),
	)
})

var _ = Describe("the kubectl plugin", func() {
	It("dispatches apply and diff with its own name", func() {
		r := runPlugin("apply", "-h")
		Expect(r.code).To(Equal(command.ExitOK))
		Expect(r.stdout).To(ContainSubstring("Usage:\n  kubectl ply apply -f FILENAME"))
		Expect(r.stdout).To(ContainSubstring("  kubectl ply apply -Rf manifests/"))
		r = runPlugin("diff", "--bad")
		Expect(r.code).To(Equal(command.DiffError))
		Expect(r.stderr).To(ContainSubstring("Run 'kubectl ply diff -h' for usage."))
	})

	It("prints help and version", func() {
		Expect(runPlugin("help").stdout).To(HavePrefix("kubectl ply applies"))
		Expect(runPlugin("version").stdout).To(HavePrefix("kubectl-ply "))
		var out, errb strings.Builder
		Expect(Plugin("ply", []string{"apply"}, strings.NewReader(""), &out, &errb)).To(Equal(command.ExitUsage))
		Expect(errb.String()).To(ContainSubstring("Run 'ply apply -h' for usage."))
		Expect(Plugin("ply", []string{"version"}, strings.NewReader(""), &out, &errb)).To(Equal(command.ExitOK))
		Expect(out.String()).To(HavePrefix("ply "))
	})

	It("rejects unknown commands", func() {
		r := runPlugin("frobnicate")
		Expect(r.code).To(Equal(command.ExitUsage))
		Expect(r.stderr).To(HavePrefix(`kubectl ply: unknown command "frobnicate"`))
		Expect(runPlugin().code).To(Equal(command.ExitUsage))
	})
})

var _ = Describe("the command tree", func() {
	It("combines shorthand flags as kubectl does: -Rf DIR", func() {
		dir := GinkgoT().TempDir()
		Expect(os.Mkdir(filepath.Join(dir, "sub"), 0o755)).To(Succeed())
		data, err := os.ReadFile("testdata/cm.yaml")
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(filepath.Join(dir, "sub", "cm.yaml"), data, 0o644)).To(Succeed())
		got := captureOptions()
		r := runApply("-Rf", dir, "-n", "team")
		Expect(r.stderr).To(Equal("error: no cluster in unit tests\n"), "the object of the sub-folder was read")
		Expect(got.Namespace).To(Equal("team"))
		r = runApply("-f", dir)
		Expect(r.stderr).To(Equal("error: error reading ["+dir+"]: recognized file extensions are [.json .yaml .yml]\n"), "without -R the sub-folder is not read")
	})

	It("reads kubectl's connection flags into the client configuration", func() {
		_, cc := captureClient()
		runApply("-f", "testdata/cm.yaml", "--kubeconfig", "testdata/kubeconfig", "--server", "https://10.0.0.9:6443",
			"--token", "t0k3n", "--as", "jane", "--as-group", "dev", "--as-group", "ops", "--insecure-skip-tls-verify",
			"--request-timeout", "7s", "-n", "team")
		Expect(*cc).NotTo(BeNil())
		cfg, err := (*cc).ClientConfig()
		Expect(err).NotTo(HaveOccurred())
		Expect(cfg.Host).To(Equal("https://10.0.0.9:6443"))
		Expect(cfg.BearerToken).To(Equal("t0k3n"))
		Expect(cfg.Impersonate.UserName).To(Equal("jane"))
		Expect(cfg.Impersonate.Groups).To(Equal([]string{"dev", "ops"}))
		Expect(cfg.Insecure).To(BeTrue())
		Expect(cfg.Timeout.String()).To(Equal("7s"))
		ns, explicit, err := (*cc).Namespace()
		Expect(err).NotTo(HaveOccurred())
		Expect(ns).To(Equal("team"))
		Expect(explicit).To(BeTrue())
	})

	DescribeTable("prints a completion script for each shell",
		func(shell, want string) {
			for _, r := range []result{runPly("completion", shell), runPlugin("completion", shell)} {
				Expect(r.code).To(Equal(command.ExitOK), r.stderr)
				Expect(r.stdout).To(ContainSubstring(want))
			}
		},
		Entry("bash", "bash", "# bash completion V2 for"),
		Entry("zsh", "zsh", "#compdef"),
		Entry("fish", "fish", "# fish completion for"),
		Entry("powershell", "powershell", "# powershell completion for"),
	)

	DescribeTable("rejects a missing or unknown shell as a usage error",
		func(want string, args ...string) {
			r := runPly(append([]string{"completion"}, args...)...)
			Expect(r.code).To(Equal(command.ExitUsage))
			Expect(r.stdout).To(BeEmpty())
			Expect(r.stderr).To(Equal("ply completion: " + want + ", want bash, zsh, fish or powershell\nRun 'ply completion -h' for usage.\n"))
		},
		Entry("missing", "missing shell"),
		Entry("unknown", `unknown shell "tcsh"`, "tcsh"),
	)

	It("completes flag names", func() {
		r := runPly("__complete", "apply", "--kube")
		Expect(r.code).To(Equal(command.ExitOK))
		Expect(r.stdout).To(HavePrefix("--kubeconfig\t"))
	})

	It("prints the version as JSON with -o json", func() {
		r := runPly("version", "-o", "json")
		Expect(r.code).To(Equal(command.ExitOK))
		var v command.VersionInfo
		Expect(json.Unmarshal([]byte(r.stdout), &v)).To(Succeed())
		Expect(v).To(Equal(command.Version("ply")))
		Expect(v.EmbeddedSchema).NotTo(BeEmpty())
		r = runPly("version", "-o", "xml")
		Expect(r.code).To(Equal(command.ExitUsage))
		Expect(r.stderr).To(Equal("ply version: --output must be json, or not given, not \"xml\"\nRun 'ply version -h' for usage.\n"))
	})

	It("reports a panic as an internal error with exit code 1", func() {
		root := NewRoot("ply", "ply")
		root.AddCommand(&cobra.Command{Use: "boom", Run: func(*cobra.Command, []string) { panic("boom") }})
		var out, errb strings.Builder
		Expect(command.Main(root, []string{"boom"}, strings.NewReader(""), &out, &errb)).To(Equal(command.ExitFailed))
		Expect(errb.String()).To(Equal("ply: internal error: boom\n"))
	})

	It("rejects an unknown help topic", func() {
		r := runPly("help", "nope")
		Expect(r.code).To(Equal(command.ExitUsage))
		Expect(r.stderr).To(HavePrefix(`ply help: unknown topic "nope"`))
	})
})

// reportApply prints the outcomes in order as kubectl's lines and returns
// the exit code.
func reportApply(outs []cluster.Outcome, dry cluster.DryRun, stdout, stderr io.Writer) int {
	p := newApplyPrinter(nil, dry, false, stdout, stderr)
	for i, o := range outs {
		p.report(i, o)
	}
	return p.code
}
