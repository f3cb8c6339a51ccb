package parity_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// serverChange is a write another client (a controller, an admission
// webhook, an operator) makes between two applies; every namespace gets
// the same ones.
type serverChange struct {
	what   string
	ref    objRef
	change func(u *unstructured.Unstructured)
}

var (
	web    = stepObjects[0]
	svc    = stepObjects[1]
	config = stepObjects[2]
	w1     = stepObjects[3]
)

// changesAfter lists the server-side writes made after each step.
var changesAfter = map[int][]serverChange{
	1: {
		{"scale web to 3", web, func(u *unstructured.Unstructured) { setPath(u, int64(3), "spec", "replicas") }},
	},
	2: {
		{"label and annotate web", web, func(u *unstructured.Unstructured) {
			setPath(u, "platform", "metadata", "labels", "team")
			setPath(u, "alice", "metadata", "annotations", "ops.example.com/owner")
		}},
		{"inject a sidecar and an env var", web, func(u *unstructured.Unstructured) {
			cs, set := containers(u)
			cs = append(cs, map[string]any{
				"name":  "proxy",
				"image": "envoyproxy/envoy:v1.30.0",
				"ports": []any{map[string]any{"name": "proxy-admin", "containerPort": int64(15000)}},
			})
			set(cs)
			editContainer(u, "web", func(c map[string]any) {
				env, _ := c["env"].([]any)
				c["env"] = append(env, map[string]any{"name": "INJECTED", "value": "yes"})
			})
		}},
		{"annotate the service", svc, func(u *unstructured.Unstructured) {
			setPath(u, "true", "metadata", "annotations", "lb.example.com/internal")
		}},
		{"add a ConfigMap key", config, func(u *unstructured.Unstructured) {
			setPath(u, "from-server", "data", "server-key")
		}},
	},
	3: {
		{"scale web to 5", web, func(u *unstructured.Unstructured) { setPath(u, int64(5), "spec", "replicas") }},
		{"annotate the widget and set its owner", w1, func(u *unstructured.Unstructured) {
			setPath(u, "reconciled", "metadata", "annotations", "widgets.example.com/state")
			setPath(u, "operator", "spec", "owner")
		}},
	},
	4: {
		{"restart web", web, func(u *unstructured.Unstructured) {
			setPath(u, "2026-01-01T00:00:00Z", "spec", "template", "metadata", "annotations", "kubectl.kubernetes.io/restartedAt")
		}},
	},
	5: {
		{"insert an env var before the others", web, func(u *unstructured.Unstructured) {
			editContainer(u, "web", func(c map[string]any) {
				env, _ := c["env"].([]any)
				c["env"] = append([]any{map[string]any{"name": "SERVER_FIRST", "value": "1"}}, env...)
			})
		}},
		{"label the service", svc, func(u *unstructured.Unstructured) {
			setPath(u, "blue", "metadata", "labels", "zone")
		}},
	},
	6: {
		{"update the sidecar image", web, func(u *unstructured.Unstructured) {
			editContainer(u, "proxy", func(c map[string]any) { c["image"] = "envoyproxy/envoy:v1.31.0" })
		}},
		{"change an annotation", web, func(u *unstructured.Unstructured) {
			setPath(u, "carol", "metadata", "annotations", "ops.example.com/owner")
		}},
	},
	7: {
		{"add a toleration", web, func(u *unstructured.Unstructured) {
			Expect(unstructured.SetNestedSlice(u.Object, []any{map[string]any{
				"key": "dedicated", "operator": "Equal", "value": "web", "effect": "NoSchedule",
			}}, "spec", "template", "spec", "tolerations")).To(Succeed())
		}},
	},
	8: {
		{"scale web to 2", web, func(u *unstructured.Unstructured) { setPath(u, int64(2), "spec", "replicas") }},
		{"add another ConfigMap key", config, func(u *unstructured.Unstructured) {
			setPath(u, "also-from-server", "data", "server-key-2")
		}},
	},
	9: {
		{"append an env var", web, func(u *unstructured.Unstructured) {
			editContainer(u, "web", func(c map[string]any) {
				env, _ := c["env"].([]any)
				c["env"] = append(env, map[string]any{"name": "INJECTED_2", "value": "late"})
			})
		}},
	},
	10: {
		{"relabel web", web, func(u *unstructured.Unstructured) { setPath(u, "infra", "metadata", "labels", "team") }},
		{"resize the widget", w1, func(u *unstructured.Unstructured) {
			setPath(u, int64(7), "spec", "size")
		}},
	},
	11: {
		{"scale web to 6", web, func(u *unstructured.Unstructured) { setPath(u, int64(6), "spec", "replicas") }},
		{"annotate web", web, func(u *unstructured.Unstructured) {
			setPath(u, "bob", "metadata", "annotations", "ops.example.com/owner")
		}},
		{"inject an env var", web, func(u *unstructured.Unstructured) {
			editContainer(u, "web", func(c map[string]any) {
				env, _ := c["env"].([]any)
				c["env"] = append(env, map[string]any{"name": "INJECTED_3", "value": "x"})
			})
		}},
	},
}

// lane is one namespace of the sequence and which tool applies step i.
type lane struct {
	ns   string
	tool func(step int) tool
}

func always(t tool) func(int) tool { return func(int) tool { return t } }

// alternate returns odd on odd steps and even on even ones.
func alternate(odd, even tool) func(int) tool {
	return func(step int) tool {
		if step%2 == 1 {
			return odd
		}
		return even
	}
}

// stepFiles lists testdata/steps in order with each file's leading
// comment, read when the spec tree is built.
func stepFiles() (files, titles []string) {
	files, err := filepath.Glob(filepath.Join("testdata", "steps", "*.yaml"))
	if err != nil || len(files) < 10 {
		panic("parity: testdata/steps must hold at least 10 manifest versions")
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			panic(err)
		}
		var words []string
		sc := bufio.NewScanner(fh)
		for sc.Scan() && strings.HasPrefix(sc.Text(), "#") {
			words = append(words, strings.Fields(strings.TrimPrefix(sc.Text(), "#"))...)
		}
		fh.Close()
		titles = append(titles, strings.Join(words, " "))
	}
	return files, titles
}

var _ = Describe("kubectl apply, ply apply --ordering kubectl and ply apply --compat=kubectl", Ordered, func() {
	const reference = "kubectl"
	lanes := []lane{
		{reference, always(kubectlTool)},
		{"ply", always(plyTool)},
		{"handover-p", alternate(plyTool, kubectlTool)},
		{"handover-k", alternate(kubectlTool, plyTool)},
		{"compat", always(plyCompatTool)},
		{"handover-c", alternate(plyCompatTool, kubectlTool)},
	}

	BeforeAll(func() {
		for _, l := range lanes {
			createNamespace(l.ns)
		}
	})

	files, titles := stepFiles()
	for i, file := range files {
		step := i + 1
		It(titles[i], func() {
			reports := map[string][]string{}
			for _, l := range lanes {
				t := l.tool(step)
				reports[l.ns] = apply(t, file, l.ns)
				GinkgoWriter.Printf("step %02d %-10s %-7s %v\n", step, l.ns, t, reports[l.ns])
			}
			for _, l := range lanes[1:] {
				Expect(reports[l.ns]).To(Equal(reports[reference]),
					"step %02d: %s (%s) reported differently from kubectl:\n%s", step, l.ns, l.tool(step), diffLines(reports[reference], reports[l.ns]))
				expectSame(reference, l.ns, stepObjects)
			}
			for _, c := range changesAfter[step] {
				By(c.what)
				for _, l := range lanes {
					update(l.ns, c.ref, c.change)
				}
			}
			for _, l := range lanes[1:] {
				expectSame(reference, l.ns, stepObjects)
			}
		})
	}
})

// The one documented difference: kubectl's strategic merge patch keys
// container ports by containerPort alone, ply by containerPort and protocol
// (the schema's x-kubernetes-list-map-keys), so a TCP and a UDP port on one
// containerPort are one item to kubectl and two to ply.
var _ = Describe("a TCP and a UDP port on one containerPort", Ordered, func() {
	dns := objRef{deployments, "dns"}
	const kubectlNS, plyNS = "multikey-kubectl", "multikey-ply"
	v := func(n string) string { return filepath.Join("testdata", "multikey", "v"+n+".yaml") }

	ports := func(ns string) []port { GinkgoHelper(); return portsOf(ns, dns) }
	http := port{"http", 8080, "TCP"}
	dnsTCP := port{"dns-tcp", 53, "TCP"}
	dnsUDP := port{"dns-udp", 53, "UDP"}

	BeforeAll(func() {
		createNamespace(kubectlNS)
		createNamespace(plyNS)
	})

	It("creates the same object from the first version (TCP only)", func() {
		apply(kubectlTool, v("1"), kubectlNS)
		apply(plyTool, v("1"), plyNS)
		expectSame(kubectlNS, plyNS, []objRef{dns})
		Expect(ports(plyNS)).To(Equal([]port{http, dnsTCP}))
	})

	It("adding UDP on port 53: kubectl merges it into the TCP port and drops it, ply keeps both", func() {
		apply(kubectlTool, v("2"), kubectlNS)
		apply(plyTool, v("2"), plyNS)
		Expect(ports(kubectlNS)).To(Equal([]port{http, dnsTCP}), "kubectl 1.32's result (if this changes, kubectl's behaviour changed)")
		Expect(ports(plyNS)).To(Equal([]port{http, dnsTCP, dnsUDP}))
		// The comparison the sequence relies on sees this difference.
		Expect(comparable(get(plyNS, dns))).NotTo(Equal(comparable(get(kubectlNS, dns))))
		AddReportEntry("multikey v2 ports", map[string]any{"kubectl": ports(kubectlNS), "ply": ports(plyNS)})
	})

	It("removing TCP on port 53: kubectl deletes both, ply deletes only TCP", func() {
		apply(kubectlTool, v("3"), kubectlNS)
		apply(plyTool, v("3"), plyNS)
		Expect(ports(kubectlNS)).To(Equal([]port{http}), "kubectl 1.32's result (if this changes, kubectl's behaviour changed)")
		Expect(ports(plyNS)).To(Equal([]port{http, dnsUDP}))
		AddReportEntry("multikey v3 ports", map[string]any{"kubectl": ports(kubectlNS), "ply": ports(plyNS)})
	})
})

// The documented difference does not apply with --compat=kubectl: every
// feature gate off, ply keys container ports by containerPort alone, as
// kubectl does, and leaves the same objects. A controller adds a UDP port
// 53 to the container; the next version of the manifest declares TCP port
// 53 (kubectl turns the controller's port into it, ply by default adds a
// second port 53), and the one after drops it again (kubectl deletes the
// one port 53, ply by default only the TCP one).
var _ = Describe("with --compat=kubectl, a controller's UDP port on the containerPort local declares as TCP", Ordered, func() {
	dns := objRef{deployments, "dns"}
	const kubectlNS, compatNS, plyNS = "controller-kubectl", "controller-compat", "controller-ply"
	v := func(n string) string { return filepath.Join("testdata", "controller", "v"+n+".yaml") }
	lanes := []struct {
		ns string
		t  tool
	}{{kubectlNS, kubectlTool}, {compatNS, plyCompatTool}, {plyNS, plyTool}}

	ports := func(ns string) []port { GinkgoHelper(); return portsOf(ns, dns) }
	http := port{"http", 8080, "TCP"}
	dnsTCP := port{"dns-tcp", 53, "TCP"}
	dnsUDP := port{"dns-udp", 53, "UDP"}

	applyAll := func(file string) {
		GinkgoHelper()
		want := apply(kubectlTool, file, kubectlNS)
		for _, l := range lanes[1:] {
			Expect(apply(l.t, file, l.ns)).To(Equal(want), "%s reported differently from kubectl", l.t)
		}
	}

	BeforeAll(func() {
		for _, l := range lanes {
			createNamespace(l.ns)
		}
	})

	It("creates the same object, to which a controller adds UDP port 53", func() {
		applyAll(v("1"))
		for _, l := range lanes {
			update(l.ns, dns, func(u *unstructured.Unstructured) {
				editContainer(u, "dns", func(c map[string]any) {
					ps, _ := c["ports"].([]any)
					c["ports"] = append(ps, map[string]any{"name": "dns-udp", "containerPort": int64(53), "protocol": "UDP"})
				})
			})
		}
		expectSame(kubectlNS, compatNS, []objRef{dns})
		expectSame(kubectlNS, plyNS, []objRef{dns})
		Expect(ports(kubectlNS)).To(Equal([]port{http, dnsUDP}))
	})

	It("declaring TCP port 53: kubectl turns the controller's port into it, and so does ply --compat=kubectl", func() {
		applyAll(v("2"))
		Expect(ports(kubectlNS)).To(Equal([]port{http, dnsTCP}), "kubectl 1.32's result (if this changes, kubectl's behaviour changed)")
		expectSame(kubectlNS, compatNS, []objRef{dns})
		Expect(ports(plyNS)).To(Equal([]port{http, dnsTCP, dnsUDP}), "ply's gates on: two ports 53")
	})

	It("dropping it again: kubectl deletes the one port 53, and so does ply --compat=kubectl", func() {
		applyAll(v("1"))
		Expect(ports(kubectlNS)).To(Equal([]port{http}), "kubectl 1.32's result (if this changes, kubectl's behaviour changed)")
		expectSame(kubectlNS, compatNS, []objRef{dns})
		Expect(ports(plyNS)).To(Equal([]port{http, dnsUDP}), "ply's gates on: the controller's port stays")
	})
})

// The gate UniqueMergeKeys off: a patch naming containerPort 53 twice (as
// kubectl sends for a manifest declaring TCP and UDP on it) and 9153 twice
// (a port live lacks), applied to the same object by the API server
// (kubectl patch) and by ply patch apply --compat=kubectl.
var _ = Describe("with --compat=kubectl, a patch naming a containerPort twice", Ordered, func() {
	const ns = "repeats-patch"
	dns := objRef{deployments, "dns"}
	const p = `{"spec":{"template":{"spec":{"containers":[{"name":"dns","ports":[` +
		`{"containerPort":53,"protocol":"UDP","name":"dns-udp"},{"containerPort":53,"protocol":"TCP","name":"dns-tcp","hostPort":5353},` +
		`{"containerPort":9153,"protocol":"UDP","name":"metrics-udp"},{"containerPort":9153,"protocol":"TCP","name":"metrics"}]}]}}}}`

	It("ply patch apply gives the ports the API server gives; refused while the gate is on", func() {
		createNamespace(ns)
		apply(kubectlTool, filepath.Join("testdata", "multikey", "v1.yaml"), ns)
		live, err := json.Marshal(get(ns, dns).Object)
		Expect(err).NotTo(HaveOccurred())
		dir := GinkgoT().TempDir()
		liveFile, patchFile := filepath.Join(dir, "live.json"), filepath.Join(dir, "patch.json")
		Expect(os.WriteFile(liveFile, live, 0o644)).To(Succeed())
		Expect(os.WriteFile(patchFile, []byte(p), 0o644)).To(Succeed())
		args := []string{env.ply, "patch", "apply", "--live", liveFile, "--patch", patchFile}

		_, stderr, err := runErr(append(args, "--feature-gates=MultiFieldMergeKeys=false")...)
		Expect(err).To(HaveOccurred())
		Expect(stderr).To(ContainSubstring("items 0 and 1 have the same merge key containerPort; a patch names each item once"))

		var out unstructured.Unstructured
		Expect(out.UnmarshalJSON([]byte(run(append(args, "--compat=kubectl", "-o", "json")...)))).To(Succeed())
		run(env.kubectl, "patch", "deployment", "dns", "--kubeconfig", env.srv.Kubeconfig, "-n", ns, "--type", "strategic", "-p", p)
		want := []port{{"http", 8080, "TCP"}, {"dns-tcp", 53, "TCP"}, {"metrics", 9153, "TCP"}}
		Expect(portsOf(ns, dns)).To(Equal(want), "the API server's result (if this changes, its behaviour changed)")
		cs, _ := containers(&out)
		Expect(cs).To(HaveLen(1))
		list, _, _ := unstructured.NestedSlice(cs[0].(map[string]any), "ports")
		var got []port
		for _, x := range list {
			m := x.(map[string]any)
			got = append(got, port{m["name"].(string), m["containerPort"].(int64), m["protocol"].(string)})
		}
		Expect(got).To(Equal(want))
	})
})

// The multi-key manifests above declare TCP and UDP on one containerPort.
// Under kubectl's one-field key those are two items with one merge key.
// With --compat=kubectl (the gate UniqueMergeKeys off among the others) ply
// pairs them as kubectl does and sends its patch through the API server's
// merge, so the two tools leave the same objects at every step: kubectl
// turns the added UDP port into the TCP one, and dropping TCP deletes
// every port 53. With the gate on, the repeated key is refused and nothing
// is written.
var _ = Describe("with --compat=kubectl, TCP and UDP declared on one containerPort", Ordered, func() {
	const kubectlNS, compatNS, refusedNS = "dupkey-kubectl", "dupkey-compat", "dupkey-refused"
	dns := objRef{deployments, "dns"}
	v := func(n string) string { return filepath.Join("testdata", "multikey", "v"+n+".yaml") }
	http := port{"http", 8080, "TCP"}
	dnsTCP := port{"dns-tcp", 53, "TCP"}

	applyBoth := func(file string) { GinkgoHelper(); applyCompared(file, kubectlNS, compatNS, dns) }
	BeforeAll(func() { createNamespaces(kubectlNS, compatNS, refusedNS) })

	It("creates the same object", func() {
		applyBoth(v("1"))
		Expect(portsOf(compatNS, dns)).To(Equal([]port{http, dnsTCP}))
	})

	It("adding UDP on port 53: both merge it into the TCP port, which stays", func() {
		applyBoth(v("2"))
		Expect(portsOf(kubectlNS, dns)).To(Equal([]port{http, dnsTCP}), "kubectl 1.32's result (if this changes, kubectl's behaviour changed)")
	})

	It("removing TCP on port 53: both delete every port 53", func() {
		applyBoth(v("3"))
		Expect(portsOf(kubectlNS, dns)).To(Equal([]port{http}), "kubectl 1.32's result (if this changes, kubectl's behaviour changed)")
	})

	It("with the gate UniqueMergeKeys on, the repeated key is refused, naming both ports, and nothing is written", func() {
		cmd := plyCompatTool.command(v("1"), refusedNS)
		run(cmd...)
		before := comparable(get(refusedNS, dns))
		cmd = append(plyCompatTool.command(v("2"), refusedNS), "--feature-gates=UniqueMergeKeys=true")
		_, stderr, err := runErr(cmd...)
		Expect(err).To(HaveOccurred())
		Expect(stderr).To(ContainSubstring("duplicate merge key: items 1 and 2 are both spec.template.spec.containers[name=dns].ports[containerPort=53]"))
		Expect(comparable(get(refusedNS, dns))).To(Equal(before))
	})
})

// A manifest holding a strategic merge patch directive key in a map
// (securityContext: {$patch: replace}, then {$patch: delete}): kubectl
// records it in the last-applied annotation as it stands and sends its
// three-way patch, whose halves' merge settles the directive, so the server
// applies what that merge leaves. ply apply --compat=kubectl leaves the same
// object and the same annotation at every step; with ply's gates on
// (MultiFieldMergeKeys) the key is refused, naming its path, and nothing is
// written.
var _ = Describe("with --compat=kubectl, a manifest holding $patch in a map", Ordered, func() {
	const kubectlNS, compatNS, refusedNS = "directive-kubectl", "directive-compat", "directive-refused"
	secure := objRef{deployments, "secure"}
	v := func(n string) string { return filepath.Join("testdata", "directive", "v"+n+".yaml") }
	securityContext := func(ns string) map[string]any {
		GinkgoHelper()
		sc, _, err := unstructured.NestedMap(get(ns, secure).Object, "spec", "template", "spec", "securityContext")
		Expect(err).NotTo(HaveOccurred())
		return sc
	}

	applyBoth := func(file string) { GinkgoHelper(); applyCompared(file, kubectlNS, compatNS, secure) }
	BeforeAll(func() { createNamespaces(kubectlNS, compatNS, refusedNS) })

	It("creates the same object, to which a controller adds runAsGroup", func() {
		applyBoth(v("1"))
		for _, ns := range []string{kubectlNS, compatNS} {
			update(ns, secure, func(u *unstructured.Unstructured) {
				setPath(u, int64(4000), "spec", "template", "spec", "securityContext", "runAsGroup")
			})
		}
		expectSame(kubectlNS, compatNS, []objRef{secure})
	})

	It(`"$patch: replace": the same object and annotation as kubectl's`, func() {
		applyBoth(v("2"))
		Expect(securityContext(kubectlNS)).To(Equal(map[string]any{"runAsUser": int64(2000), "fsGroup": int64(3000), "runAsGroup": int64(4000)}),
			"kubectl 1.32's result (if this changes, kubectl's behaviour changed)")
		Expect(get(compatNS, secure).GetAnnotations()[lastApplied]).To(ContainSubstring(`"$patch":"replace"`), "recorded as it stands")
	})

	It(`"$patch: delete" after "replace": the same object and annotation as kubectl's`, func() {
		applyBoth(v("3"))
		Expect(securityContext(kubectlNS)).To(Equal(map[string]any{"runAsUser": int64(2000), "fsGroup": int64(3000), "runAsGroup": int64(4000)}),
			"kubectl 1.32's result: its patch's halves settle the map to {} (if this changes, kubectl's behaviour changed)")
	})

	It("with the gate MultiFieldMergeKeys on, the key is refused, naming its path, and nothing is written", func() {
		run(plyCompatTool.command(v("1"), refusedNS)...)
		before := comparable(get(refusedNS, secure))
		cmd := append(plyCompatTool.command(v("2"), refusedNS), "--feature-gates=MultiFieldMergeKeys=true")
		_, stderr, err := runErr(cmd...)
		Expect(err).To(HaveOccurred())
		Expect(stderr).To(ContainSubstring(`spec.template.spec.securityContext: "$patch" is a strategic merge patch directive, not configuration`))
		Expect(comparable(get(refusedNS, secure))).To(Equal(before))
	})
})

// applyCompared applies file with kubectl to namespace kubectlNS and with
// ply apply --compat=kubectl to compatNS: the two report alike and leave
// object ref alike, its last-applied annotation's text too.
func applyCompared(file, kubectlNS, compatNS string, ref objRef) {
	GinkgoHelper()
	want := apply(kubectlTool, file, kubectlNS)
	Expect(apply(plyCompatTool, file, compatNS)).To(Equal(want), "ply --compat=kubectl reported differently from kubectl")
	expectSame(kubectlNS, compatNS, []objRef{ref})
}

// createNamespaces creates each namespace of nss.
func createNamespaces(nss ...string) {
	GinkgoHelper()
	for _, ns := range nss {
		createNamespace(ns)
	}
}
