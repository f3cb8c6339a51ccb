package e2e

import (
	"encoding/json"
	"regexp"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

var _ = Describe("ply apply: a Deployment's life cycle", func() {
	var ns string

	BeforeEach(func() {
		ns = newNamespace("deploy-")
		mustApply(ns, []string{"deployment.yaml"}, "deployment.apps/web created")
	})

	It("creates the object with the last-applied annotation", func() {
		d := live(deployments, ns, "web")
		Expect(d.GetNamespace()).To(Equal(ns))
		Expect(container(d)["image"]).To(Equal("nginx:1.27"))
		Expect(envNames(d)).To(Equal([]string{"A", "B", "C"}))
		var recorded map[string]any
		Expect(json.Unmarshal([]byte(d.GetAnnotations()[lastApplied]), &recorded)).To(Succeed())
		Expect(recorded).To(HaveKeyWithValue("kind", "Deployment"))
		Expect(recorded).NotTo(HaveKey("status"))
		rec := &unstructured.Unstructured{Object: recorded}
		Expect(field(rec, "spec", "replicas")).To(BeEquivalentTo(2))
		Expect(field(rec, "spec", "template", "spec", "containers")).To(HaveLen(1))
	})

	It("re-applies the same manifest without writing, through ply and kubectl ply", func() {
		before := live(deployments, ns, "web")
		mustApply(ns, []string{"deployment.yaml"}, "deployment.apps/web unchanged")
		r := kubectlPly("apply", "-n", ns, "-f", fixture("deployment.yaml"))
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal(lines("deployment.apps/web unchanged")))
		after := live(deployments, ns, "web")
		Expect(after.GetResourceVersion()).To(Equal(before.GetResourceVersion()))
		Expect(after.GetGeneration()).To(Equal(before.GetGeneration()))
	})

	It("changes a field", func() {
		before := live(deployments, ns, "web")
		mustApply(ns, []string{"deployment-image.yaml"}, "deployment.apps/web configured")
		d := live(deployments, ns, "web")
		Expect(container(d)["image"]).To(Equal("nginx:1.28"))
		Expect(envNames(d)).To(Equal([]string{"A", "B", "C"}))
		Expect(d.GetGeneration()).To(Equal(before.GetGeneration() + 1))
		Expect(d.GetAnnotations()[lastApplied]).To(ContainSubstring(`"image":"nginx:1.28"`))
	})

	It("removes fields the manifest no longer sets", func() {
		Expect(field(live(deployments, ns, "web"), "spec", "minReadySeconds")).To(BeEquivalentTo(5))
		mustApply(ns, []string{"deployment-fields-removed.yaml"}, "deployment.apps/web configured")
		d := live(deployments, ns, "web")
		Expect(has(d, "spec", "minReadySeconds")).To(BeFalse())
		Expect(d.GetLabels()).To(Equal(map[string]string{"app": "web"}))
	})

	It("removes a list item the manifest no longer has, keeping the others in order", func() {
		mustApply(ns, []string{"deployment-env-item-removed.yaml"}, "deployment.apps/web configured")
		Expect(envNames(live(deployments, ns, "web"))).To(Equal([]string{"A", "C"}))
	})

	It("adds a UDP port beside the TCP port on the same containerPort", func() {
		mustApply(ns, []string{"deployment-udp.yaml"}, "deployment.apps/web configured")
		Expect(container(live(deployments, ns, "web"))["ports"]).To(ConsistOf(
			map[string]any{"name": "dns-tcp", "containerPort": int64(53), "protocol": "TCP"},
			map[string]any{"name": "dns-udp", "containerPort": int64(53), "protocol": "UDP"},
		))
		mustApply(ns, []string{"deployment-udp.yaml"}, "deployment.apps/web unchanged")
	})

	It("keeps what other writers added to fields the manifest does not own", func() {
		update(deployments, ns, "web", func(u *unstructured.Unstructured) {
			labels := u.GetLabels()
			labels["owner"] = "other"
			u.SetLabels(labels)
			c := u.Object["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
			c["env"] = append(c["env"].([]any), map[string]any{"name": "D", "value": "4"})
		})
		mustApply(ns, []string{"deployment-image.yaml"}, "deployment.apps/web configured")
		d := live(deployments, ns, "web")
		Expect(container(d)["image"]).To(Equal("nginx:1.28"))
		Expect(d.GetLabels()).To(HaveKeyWithValue("owner", "other"))
		Expect(envNames(d)).To(ConsistOf("A", "B", "C", "D"))
	})
})

var _ = Describe("ply apply: a union the server defaults (Deployment strategy, retainKeys)", func() {
	It("keeps the defaulted rollingUpdate on re-apply and clears it when the type becomes Recreate", func() {
		ns := newNamespace("strategy-")
		mustApply(ns, []string{"deployment-defaulted-strategy.yaml"}, "deployment.apps/web created")
		d := live(deployments, ns, "web")
		Expect(field(d, "spec", "strategy", "rollingUpdate")).To(Equal(map[string]any{"maxSurge": "25%", "maxUnavailable": "25%"}), "the server defaults rollingUpdate")
		var recorded map[string]any
		Expect(json.Unmarshal([]byte(d.GetAnnotations()[lastApplied]), &recorded)).To(Succeed())
		Expect(has(&unstructured.Unstructured{Object: recorded}, "spec", "strategy", "rollingUpdate")).To(BeFalse(), "the recorded configuration holds the manifest, not server defaults")

		By("re-applying: the server's object does not change, and ply says so (the PUT kept the resourceVersion)")
		r := apply(ns, "deployment-defaulted-strategy.yaml")
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal("deployment.apps/web unchanged\n"))
		again := live(deployments, ns, "web")
		Expect(again.GetResourceVersion()).To(Equal(d.GetResourceVersion()))
		Expect(again.GetGeneration()).To(Equal(d.GetGeneration()))
		Expect(has(again, "spec", "strategy", "rollingUpdate")).To(BeTrue())

		By("switching to Recreate: the defaulted rollingUpdate must go, or the server rejects the object")
		mustApply(ns, []string{"deployment-recreate.yaml"}, "deployment.apps/web configured")
		Expect(field(live(deployments, ns, "web"), "spec", "strategy")).To(Equal(map[string]any{"type": "Recreate"}))
		mustApply(ns, []string{"deployment-recreate.yaml"}, "deployment.apps/web unchanged")
	})
})

var _ = Describe("ply apply: custom resources", func() {
	It("applies a CRD and a resource of it in one run and merges its keyed list in later runs", func() {
		ns := newNamespace("crd-")
		mustApply(ns, []string{"crd-widget.yaml"},
			"customresourcedefinition.apiextensions.k8s.io/widgets.e2e.ply.dev created",
			"widget.e2e.ply.dev/w1 created")
		w := live(widgets, ns, "w1")
		Expect(field(w, "spec", "ports")).To(Equal([]any{
			map[string]any{"name": "http", "port": int64(80)},
			map[string]any{"name": "https", "port": int64(443)},
		}))

		By("another writer adding an item to the keyed list on the server")
		update(widgets, ns, "w1", func(u *unstructured.Unstructured) {
			spec := u.Object["spec"].(map[string]any)
			spec["ports"] = append(spec["ports"].([]any), map[string]any{"name": "metrics", "port": int64(9100)})
		})

		By("a later run changing an item and a field")
		mustApply(ns, []string{"widget-changed.yaml"}, "widget.e2e.ply.dev/w1 configured")
		w = live(widgets, ns, "w1")
		Expect(field(w, "spec", "size")).To(BeEquivalentTo(2))
		Expect(field(w, "spec", "ports")).To(ConsistOf(
			map[string]any{"name": "http", "port": int64(8080)},
			map[string]any{"name": "https", "port": int64(443)},
			map[string]any{"name": "metrics", "port": int64(9100)},
		), "the keyed list merges: the server-side item survives")
		mustApply(ns, []string{"widget-changed.yaml"}, "widget.e2e.ply.dev/w1 unchanged")

		By("a resource of the CRD in a run of its own")
		mustApply(ns, []string{"widget-second.yaml"}, "widget.e2e.ply.dev/w2 created")
		Expect(field(live(widgets, ns, "w2"), "spec", "ports")).To(Equal([]any{map[string]any{"name": "grpc", "port": int64(9090)}}))
		mustApply(ns, []string{"crd-widget.yaml"},
			"customresourcedefinition.apiextensions.k8s.io/widgets.e2e.ply.dev unchanged",
			"widget.e2e.ply.dev/w1 configured")
		Expect(field(live(widgets, ns, "w1"), "spec", "ports")).To(ConsistOf(
			map[string]any{"name": "http", "port": int64(80)},
			map[string]any{"name": "https", "port": int64(443)},
			map[string]any{"name": "metrics", "port": int64(9100)},
		))
	})
})

var _ = Describe("ply apply: dry runs", func() {
	DescribeTable("write nothing",
		func(flag, suffix string) {
			ns := newNamespace("dry-")
			r := applyWith(srv.Kubeconfig, ns, []string{fixture("deployment.yaml")}, flag)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stdout).To(Equal(lines("deployment.apps/web created" + suffix)))
			expectAbsent(deployments, ns, "web")

			mustApply(ns, []string{"deployment.yaml"}, "deployment.apps/web created")
			before := live(deployments, ns, "web")
			r = applyWith(srv.Kubeconfig, ns, []string{fixture("deployment-image.yaml")}, flag)
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stdout).To(Equal(lines("deployment.apps/web configured" + suffix)))
			after := live(deployments, ns, "web")
			Expect(after.GetResourceVersion()).To(Equal(before.GetResourceVersion()))
			Expect(container(after)["image"]).To(Equal("nginx:1.27"))
		},
		Entry("--dry-run=client", "--dry-run=client", " (dry run)"),
		Entry("--dry-run=server", "--dry-run=server", " (server dry run)"),
	)
})

var _ = Describe("kubectl ply and ply diff", func() {
	It("applies and diffs through kubectl's plugin lookup", func() {
		ns := newNamespace("plugin-")
		r := kubectlPly("apply", "-n", ns, "-f", fixture("deployment.yaml"))
		Expect(r.ExitCode).To(Equal(0), "%s", r)
		Expect(r.Stdout).To(Equal(lines("deployment.apps/web created")))
		Expect(container(live(deployments, ns, "web"))["image"]).To(Equal("nginx:1.27"))

		r = kubectlPly("diff", "-n", ns, "-f", fixture("deployment.yaml"))
		Expect(r.ExitCode).To(Equal(0), "no difference: %s", r)
		Expect(r.Stdout).To(BeEmpty())

		for _, d := range []func(args ...string) (int, string){
			func(args ...string) (int, string) { r := kubectlPly(args...); return r.ExitCode, r.Stdout },
			func(args ...string) (int, string) {
				r := ply(append(args, "--kubeconfig", srv.Kubeconfig)...)
				return r.ExitCode, r.Stdout
			},
		} {
			code, out := d("diff", "-n", ns, "-f", fixture("deployment-image.yaml"))
			Expect(code).To(Equal(1), "a difference: %s", out)
			Expect(out).To(MatchRegexp(`(?m)^-\s+image: nginx:1\.27$`))
			Expect(out).To(MatchRegexp(`(?m)^\+\s+image: nginx:1\.28$`))
		}
		Expect(container(live(deployments, ns, "web"))["image"]).To(Equal("nginx:1.27"), "diff writes nothing")

		r = kubectlPly("diff", "-n", ns, "-f", fixture("missing-name.yaml"))
		Expect(r.ExitCode).To(BeNumerically(">", 1), "an error: %s", r)
	})
})

// klogLine matches a line in klog's format ("W1129 12:00:00.000000   123
// warnings.go:70] ..."), which ply never prints.
var klogLine = regexp.MustCompile(`(?m)^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [^ ]+:\d+\] `)

var _ = Describe("ply apply: the server's warnings", func() {
	It("prints a warning under the object it concerns, in ply's words, never client-go's log line", func() {
		ns := newNamespace("warn-")
		for _, dry := range []string{"--dry-run=none", "--dry-run=server"} {
			r := applyWith(srv.Kubeconfig, ns, []string{fixture("gizmo-unknown-field.yaml")}, dry, "--validate=warn")
			Expect(r.ExitCode).To(Equal(0), "%s", r)
			Expect(r.Stderr).To(ContainSubstring(`Warning: gizmo.e2e.ply.dev/g1 (` + fixture("gizmo-unknown-field.yaml") + `#2): unknown field "spec.colour"` + "\n"))
			Expect(r.Stderr).NotTo(MatchRegexp(klogLine.String()), "a klog line")
		}
		Expect(field(live(gizmos, ns, "g1"), "spec")).To(Equal(map[string]any{"size": int64(1)}), "the server dropped the field")

		By("diff")
		r := applyOrDiff(ns, "diff", "-f", fixture("gizmo-unknown-field.yaml"), "--validate=warn")
		Expect(r.Stderr).To(ContainSubstring(`Warning: gizmo.e2e.ply.dev/g1 (` + fixture("gizmo-unknown-field.yaml") + `#2): unknown field "spec.colour"` + "\n"))
		Expect(r.Stderr).NotTo(MatchRegexp(klogLine.String()), "a klog line")
	})
})
