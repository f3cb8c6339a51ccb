package e2e

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/plyproject/ply/test/harness"
)

var secrets = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}

// secretValues are the values of secret*.yaml, as written and as the
// server stores them (base64), and their base64 encodings.
var secretValues = func() []string {
	var out []string
	for _, v := range []string{"pw-first-9d2f", "tok-first-7c1e", "pw-second-4a8b", "tok-second-3f6d", "tok-refused-5e0a", "pw-refused-2b7c", "live-only-8c3d"} {
		out = append(out, v, base64.StdEncoding.EncodeToString([]byte(v)))
	}
	return out
}()

// leaked returns the values of secretValues that out holds.
func leaked(out string) []string {
	var found []string
	for _, v := range secretValues {
		if strings.Contains(out, v) {
			found = append(found, v)
		}
	}
	return found
}

var _ = Describe("Secrets are masked in every output", Ordered, func() {
	var ns string
	BeforeAll(func() {
		ns = newNamespace("secret-")
		r := ply("apply", "--kubeconfig", srv.Kubeconfig, "-f", fixture("refuse-policy.yaml"))
		Expect(r.ExitCode).To(Equal(0), "%s", r)
	})

	// outputs runs every command that prints a Secret, in the order that
	// takes the Secret through its life, and returns what each printed.
	outputs := func(extra ...string) map[string]string {
		GinkgoHelper()
		got := map[string]string{}
		step := func(name string, wantCode int, args ...string) {
			GinkgoHelper()
			r := applyOrDiff(ns, append(args, extra...)...)
			Expect(r.ExitCode).To(Equal(wantCode), "%s: %s", name, r)
			got[name] = r.Stdout + r.Stderr
		}
		step("apply -o yaml (create)", 0, "apply", "-f", fixture("secret.yaml"), "-o", "yaml")
		step("diff (server-side)", 1, "diff", "-f", fixture("secret-changed.yaml"))
		step("diff --server-side=false", 1, "diff", "-f", fixture("secret-changed.yaml"), "--server-side=false")
		step("diff --changes", 1, "diff", "-f", fixture("secret-changed.yaml"), "--changes")
		step("apply --dry-run=server -o yaml", 0, "apply", "-f", fixture("secret-changed.yaml"), "--dry-run=server", "-o", "yaml")
		step("apply --dry-run=client -o json", 0, "apply", "-f", fixture("secret-changed.yaml"), "--dry-run=client", "-o", "json")
		step("apply --dry-run=server", 0, "apply", "-f", fixture("secret-changed.yaml"), "--dry-run=server")
		step("apply -o json (update)", 0, "apply", "-f", fixture("secret-changed.yaml"), "-o", "json")
		Eventually(func() string {
			r := applyOrDiff(ns, "apply", "-f", fixture("secret-refused.yaml"), "--show-secrets", "--dry-run=server")
			return r.Stderr
		}).Should(ContainSubstring("refused token"), "the admission policy is in force")
		step("apply refused by admission (error message)", 1, "apply", "-f", fixture("secret-refused.yaml"))
		step("diff refused by admission (error message)", 2, "diff", "-f", fixture("secret-refused.yaml"))
		// The Secret exists, unlabelled (the policy lets it be), with a
		// value only live holds, which the merge keeps.
		liveOnly := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Secret",
			"metadata": map[string]any{"name": "refused"}, "data": map[string]any{"extra": base64.StdEncoding.EncodeToString([]byte("live-only-8c3d"))}}}
		_, err := srv.Dynamic().Resource(secrets).Namespace(ns).Create(context.Background(), liveOnly, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		step("apply of an update refused by admission (error message)", 1, "apply", "-f", fixture("secret-refused.yaml"))
		step("diff of an update refused by admission (error message)", 2, "diff", "-f", fixture("secret-refused.yaml"))
		// Clean up for the next run of outputs.
		for _, name := range []string{"creds", "refused"} {
			Expect(srv.Dynamic().Resource(secrets).Namespace(ns).Delete(context.Background(), name, metav1.DeleteOptions{})).To(Succeed())
		}
		return got
	}

	It("prints no value without --show-secrets, and *** in their place", func() {
		got := outputs()
		for name, out := range got {
			Expect(leaked(out)).To(BeEmpty(), "%s printed a Secret's value:\n%s", name, out)
		}
		Expect(got["diff (server-side)"]).To(MatchRegexp(`(?m)^-\s+token: "?\*\*\* \(before\)"?$`))
		Expect(got["diff (server-side)"]).To(MatchRegexp(`(?m)^\+\s+token: "?\*\*\* \(after\)"?$`))
		Expect(got["diff (server-side)"]).To(MatchRegexp(`(?m)^\+\s+password: "?\*\*\* \(after\)"?$`), "the server turned stringData into data")
		annotation, _ := splitLastApplied(got["diff --server-side=false"])
		Expect(annotation).To(ContainElement(MatchRegexp(`^[-+]#\s+token: "?\*\*\*`)), "the annotation, decoded, masked")
		Expect(got["apply -o yaml (create)"]).To(ContainSubstring(`token: '***'`))
		refused := `: the server refused secrets "refused": Invalid (422); its message is not shown, as it can quote the Secret's values (--show-secrets shows it)` + "\n"
		for _, name := range []string{"apply refused by admission (error message)", "diff refused by admission (error message)",
			"apply of an update refused by admission (error message)", "diff of an update refused by admission (error message)"} {
			out := got[name]
			if strings.HasPrefix(name, "diff") {
				// diff ends with the plan's summary.
				out = strings.TrimSuffix(out, "Plan: 0 to create, 0 to update, 0 to recreate, 0 to prune, 0 unchanged, 0 ignored, 1 failed.\n")
			}
			Expect(out).To(HaveSuffix(refused), name)
		}
	})

	It("prints the values with --show-secrets: the check above can fail", func() {
		got := outputs("--show-secrets")
		for _, name := range []string{"apply -o yaml (create)", "diff (server-side)", "diff --server-side=false", "apply --dry-run=server -o yaml",
			"apply --dry-run=client -o json", "apply -o json (update)", "apply refused by admission (error message)", "diff refused by admission (error message)",
			"apply of an update refused by admission (error message)", "diff of an update refused by admission (error message)"} {
			Expect(leaked(got[name])).NotTo(BeEmpty(), "%s with --show-secrets:\n%s", name, got[name])
		}
		Expect(got["apply refused by admission (error message)"]).To(ContainSubstring("refused token dG9rLXJlZnVzZWQtNWUwYQ== password cHctcmVmdXNlZC0yYjdj\n"),
			"the policy quotes data as the API holds it, stringData turned into data")
		Expect(got["apply of an update refused by admission (error message)"]).To(ContainSubstring(" extra bGl2ZS1vbmx5LThjM2Q=\n"), "the merge keeps live's value")
	})
})

// applyOrDiff runs ply with args (apply or diff ...) as the admin in ns.
func applyOrDiff(ns string, args ...string) harness.Result {
	GinkgoHelper()
	return ply(append(args, "--kubeconfig", srv.Kubeconfig, "-n", ns)...)
}

var _ = Describe("ply diff against the server", func() {
	It("shows the server's defaults and conversions, which the local diff does not", func() {
		ns := newNamespace("sdiff-")
		r := applyOrDiff(ns, "diff", "-f", fixture("deployment-defaulted.yaml"))
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stdout).To(MatchRegexp(`(?m)^\+\s+progressDeadlineSeconds: 600$`), "a server default")
		Expect(r.Stdout).To(MatchRegexp(`(?m)^\+\s+uid: `), "the server's answer to a create")
		local := applyOrDiff(ns, "diff", "-f", fixture("deployment-defaulted.yaml"), "--server-side=false")
		Expect(local.ExitCode).To(Equal(1), "%s", local)
		Expect(local.Stdout).NotTo(ContainSubstring("progressDeadlineSeconds"))
		expectAbsent(deployments, ns, "lean")
	})

	It("shows a refused change as the object's error", func() {
		ns := newNamespace("sdiff-")
		Expect(applyOrDiff(ns, "apply", "-f", fixture("configmap-immutable.yaml")).ExitCode).To(Equal(0))
		r := applyOrDiff(ns, "diff", "-f", fixture("configmap-immutable-changed.yaml"))
		Expect(r.ExitCode).To(Equal(2), "%s", r)
		Expect(r.Stderr).To(ContainSubstring("field is immutable"))
		local := applyOrDiff(ns, "diff", "-f", fixture("configmap-immutable-changed.yaml"), "--server-side=false")
		Expect(local.ExitCode).To(Equal(1), "the local diff cannot know: %s", local)
	})

	It("lists the changed fields of the server's answer with --changes", func() {
		ns := newNamespace("sdiff-")
		Expect(applyOrDiff(ns, "apply", "-f", fixture("deployment-defaulted.yaml")).ExitCode).To(Equal(0))
		r := applyOrDiff(ns, "diff", "-f", fixture("deployment-defaulted-changed.yaml"), "--changes")
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stdout).To(ContainSubstring("# spec.replicas: replace, set by local\n"))
		Expect(r.Stdout).To(ContainSubstring("# metadata.generation: replace, set by the server\n"))
		Expect(r.Stdout).To(MatchRegexp(`# spec\.template\.spec\.containers: replace, set by the server\n`))
	})

	It("shows the same changed lines as kubectl diff on a defaulted Deployment", func() {
		ns := newNamespace("sdiff-")
		Expect(applyOrDiff(ns, "apply", "-f", fixture("deployment-defaulted.yaml")).ExitCode).To(Equal(0))
		mine := applyOrDiff(ns, "diff", "-f", fixture("deployment-defaulted-changed.yaml"), "--compat=kubectl")
		Expect(mine.ExitCode).To(Equal(1), "%s", mine)
		theirs := run(kubectlBin, []string{"KUBECONFIG=" + srv.Kubeconfig, "KUBECTL_EXTERNAL_DIFF="},
			"diff", "-n", ns, "-f", fixture("deployment-defaulted-changed.yaml"))
		Expect(theirs.ExitCode).To(Equal(1), "%s", theirs)
		// kubectl diff leaves the last-applied annotation as it is; ply
		// shows the new one, which apply writes, decoded.
		annotation, rest := splitLastApplied(mine.Stdout)
		Expect(annotation).To(ContainElement(MatchRegexp(`^\+#\s+- image: nginx:1\.28$`)), "%s", mine.Stdout)
		Expect(annotation).To(ContainElement(MatchRegexp(`^-#\s+- image: nginx:1\.27$`)))
		_, theirsRest := splitLastApplied(theirs.Stdout)
		Expect(changedLines(rest)).To(Equal(changedLines(theirsRest)))
		Expect(changedLines(mine.Stdout)).To(ContainElement(MatchRegexp(`^\+\s+- image: nginx:1\.28$`)))
		Expect(changedLines(mine.Stdout)).To(ContainElement(MatchRegexp(`^\+\s+protocol: TCP$`)), "a default inside the new port")
	})

	It("runs KUBECTL_EXTERNAL_DIFF on the live and merged directories", func() {
		ns := newNamespace("sdiff-")
		Expect(applyOrDiff(ns, "apply", "-f", fixture("deployment-defaulted.yaml")).ExitCode).To(Equal(0))
		dir := GinkgoT().TempDir()
		script := filepath.Join(dir, "list")
		Expect(os.WriteFile(script, []byte("#!/bin/sh\nls \"$1\" \"$2\"\ngrep -h 'image:' \"$1\"/* \"$2\"/*\nexit 1\n"), 0o755)).To(Succeed())
		r := run(plyBin, []string{"KUBECTL_EXTERNAL_DIFF=" + script}, "diff", "--kubeconfig", srv.Kubeconfig, "-n", ns,
			"-f", fixture("deployment-defaulted-changed.yaml"))
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stdout).To(ContainSubstring("apps.v1.Deployment." + ns + ".lean"))
		Expect(r.Stdout).To(ContainSubstring("image: nginx:1.27\n"))
		Expect(r.Stdout).To(ContainSubstring("image: nginx:1.28\n"))
	})
})

// splitLastApplied splits unified diffs into the changed lines of the
// last-applied annotation (ply shows the configuration decoded at the end
// of each object, its lines commented: "+#     image: web:2"; kubectl as
// its key's line and the lines indented below it) and the diffs without
// them.
func splitLastApplied(diff string) (annotation []string, rest string) {
	var sb strings.Builder
	depth := -1 // the indentation of kubectl's annotation key while in its block
	for _, l := range strings.SplitAfter(diff, "\n") {
		body := strings.TrimRight(l, "\n")
		if body == "" || strings.HasPrefix(body, "@@") || strings.HasPrefix(body, "--- ") || strings.HasPrefix(body, "+++ ") {
			depth = -1
			sb.WriteString(l)
			continue
		}
		content := body[1:]
		trimmed := strings.TrimLeft(content, " ")
		indent := len(content) - len(trimmed)
		inBlock := depth >= 0 && indent > depth
		switch {
		case strings.HasPrefix(content, "#"), inBlock:
		case strings.HasPrefix(trimmed, "kubectl.kubernetes.io/last-applied-configuration:"):
			depth = indent
		default:
			depth = -1
			sb.WriteString(l)
			continue
		}
		if body[0] == '+' || body[0] == '-' {
			annotation = append(annotation, body)
		}
	}
	return annotation, sb.String()
}

// changedLines returns the added and removed lines of unified diffs,
// without the file headers, sorted.
func changedLines(diff string) []string {
	var out []string
	header := regexp.MustCompile(`^(\+\+\+|---) `)
	for _, l := range strings.Split(diff, "\n") {
		if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !header.MatchString(l) {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

var _ = Describe("ply apply: kubectl's input and output flags", func() {
	It("applies a kustomization (-k), only what -l selects, under --field-manager, printing -o name", func() {
		ns := newNamespace("kflags-")
		r := applyOrDiff(ns, "apply", "-k", fixture("kustomize"), "-l", "tier=back", "--field-manager", "ci-bot", "-o", "name")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal(lines("configmap/k-back")))
		expectAbsent(configMaps, ns, "k-front")
		back := live(configMaps, ns, "k-back")
		var managers []string
		for _, m := range back.GetManagedFields() {
			managers = append(managers, m.Manager)
		}
		Expect(managers).To(Equal([]string{"ci-bot"}))

		r = applyOrDiff(ns, "diff", "-k", fixture("kustomize"))
		Expect(r.ExitCode).To(Equal(1), "k-front is new: %s", r)
		Expect(r.Stdout).To(ContainSubstring("+  name: k-front\n"))
		Expect(r.Stdout).NotTo(ContainSubstring("k-back\n"), "k-back is unchanged")
	})
})

var _ = Describe("a Secret whose values are part of unrelated text", func() {
	It("leaves a connection error whole: the server URL's host and port, which are also the Secret's values", func() {
		ns := newNamespace("secret-url-")
		proxy, err := srv.StartProxy()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(proxy.Close)
		u, err := url.Parse(proxy.URL)
		Expect(err).NotTo(HaveOccurred())
		// The create of the Secret reaches the proxy, which resets the
		// stream: the error names the request's URL.
		collection := "/api/v1/namespaces/" + ns + "/secrets"
		proxy.Intercept(func(w http.ResponseWriter, r *http.Request) bool {
			if r.Method != http.MethodPost || r.URL.Path != collection {
				return false
			}
			panic(http.ErrAbortHandler) // the stream is reset
		})
		file := filepath.Join(GinkgoT().TempDir(), "secret.yaml")
		Expect(os.WriteFile(file, []byte("apiVersion: v1\nkind: Secret\nmetadata: {name: url}\nstringData: {host: "+u.Hostname()+
			", port: \""+u.Port()+"\"}\ndata: {port: "+base64.StdEncoding.EncodeToString([]byte(u.Port()))+"}\n"), 0o644)).To(Succeed())
		r := applyWith(proxy.Kubeconfig, ns, []string{file})
		Expect(r.ExitCode).To(Equal(1), "%s", r)
		Expect(r.Stderr).To(ContainSubstring(`"`+proxy.URL+collection+"?"), "the URL is whole")
		Expect(r.Stderr).NotTo(ContainSubstring("***"))
	})
})
