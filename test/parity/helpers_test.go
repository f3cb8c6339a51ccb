package parity_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"sort"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// lastApplied is the annotation both tools record the applied manifest in.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// tool names which program applies a step.
type tool string

const (
	kubectlTool tool = "kubectl"
	// plyTool is ply apply --ordering kubectl: ply's semantics (every
	// feature gate on) in kubectl's list order.
	plyTool tool = "ply"
	// plyCompatTool is ply apply --compat=kubectl: every feature gate off,
	// so that ply computes what kubectl does, with no exception.
	plyCompatTool tool = "ply-compat"
	// kubectlSSATool and plySSATool are the server-side lanes: kubectl
	// apply --server-side and ply apply --server-side, with
	// --force-conflicts (the steps' server-side changes, a controller's,
	// would conflict in both).
	kubectlSSATool tool = "kubectl-ssa"
	plySSATool     tool = "ply-ssa"
)

// objRef names one object the steps manage in every namespace.
type objRef struct {
	gvr  schema.GroupVersionResource
	name string
}

var (
	deployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	services    = schema.GroupVersionResource{Version: "v1", Resource: "services"}
	configMaps  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	namespaces  = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	widgets     = schema.GroupVersionResource{Group: "parity.ply.dev", Version: "v1", Resource: "widgets"}
)

// stepObjects are the objects every step file holds.
var stepObjects = []objRef{
	{deployments, "web"},
	{services, "web"},
	{configMaps, "web-config"},
	{widgets, "w1"},
}

// run executes a command line with a deadline and returns its stdout; a
// failure fails the spec with the command line and both output streams.
func run(cmdline ...string) string {
	GinkgoHelper()
	stdout, stderr, err := runErr(cmdline...)
	Expect(err).NotTo(HaveOccurred(), "%s\nstdout:\n%s\nstderr:\n%s", strings.Join(cmdline, " "), stdout, stderr)
	return stdout
}

// runErr executes a command line with a deadline and returns its output
// streams and how it ended.
func runErr(cmdline ...string) (stdout, stderr string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, cmdline[0], cmdline[1:]...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

// apply applies file to namespace ns with t and returns its per-object
// report: one "resource/name action" line per object, sorted.
func apply(t tool, file, ns string) []string {
	GinkgoHelper()
	return report(run(t.command(file, ns)...))
}

// command is the command line that applies file to namespace ns with t.
func (t tool) command(file, ns string) []string {
	GinkgoHelper()
	switch t {
	case kubectlTool:
		return []string{env.kubectl, "apply", "--kubeconfig", env.srv.Kubeconfig, "-n", ns, "-f", file}
	case plyTool:
		return []string{env.ply, "apply", "--kubeconfig", env.srv.Kubeconfig, "-n", ns, "--ordering", "kubectl", "-f", file}
	case plyCompatTool:
		return []string{env.ply, "apply", "--kubeconfig", env.srv.Kubeconfig, "-n", ns, "--compat=kubectl", "-f", file}
	case kubectlSSATool:
		return []string{env.kubectl, "apply", "--server-side", "--force-conflicts", "--kubeconfig", env.srv.Kubeconfig, "-n", ns, "-f", file}
	case plySSATool:
		return []string{env.ply, "apply", "--server-side", "--force-conflicts", "--kubeconfig", env.srv.Kubeconfig, "-n", ns, "-f", file}
	}
	Fail("unknown tool " + string(t))
	return nil
}

// report turns a tool's output into its per-object report: one
// "resource/name action" line per object, lower case, sorted.
func report(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, strings.ToLower(l))
		}
	}
	sort.Strings(lines)
	return lines
}

// installCRD applies the Widget CRD with kubectl and waits until Widgets
// can be listed.
func installCRD(file string) {
	GinkgoHelper()
	run(env.kubectl, "apply", "--kubeconfig", env.srv.Kubeconfig, "-f", file)
	Eventually(func() error {
		_, err := env.dyn.Resource(widgets).Namespace("default").List(context.Background(), metav1.ListOptions{})
		return err
	}).WithTimeout(time.Minute).WithPolling(200 * time.Millisecond).Should(Succeed())
}

// createNamespace creates ns.
func createNamespace(ns string) {
	GinkgoHelper()
	nsObj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns},
	}}
	_, err := env.dyn.Resource(namespaces).Create(context.Background(), nsObj, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
}

// get returns the live object, failing the spec when it is missing.
func get(ns string, ref objRef) *unstructured.Unstructured {
	GinkgoHelper()
	u, err := env.dyn.Resource(ref.gvr).Namespace(ns).Get(context.Background(), ref.name, metav1.GetOptions{})
	Expect(err).NotTo(HaveOccurred(), "get %s %s/%s", ref.gvr.Resource, ns, ref.name)
	return u
}

// comparable returns the parts of a live object that two namespaces must
// agree on: without the metadata the server assigns per object, without a
// Service's allocated cluster IPs, and with the last-applied annotation
// decoded (and its namespace dropped) so it compares as JSON.
func comparable(u *unstructured.Unstructured) map[string]any {
	GinkgoHelper()
	o := runtime.DeepCopyJSON(u.Object)
	for _, f := range []string{"uid", "resourceVersion", "creationTimestamp", "managedFields", "generation", "namespace", "selfLink"} {
		unstructured.RemoveNestedField(o, "metadata", f)
	}
	if u.GetKind() == "Service" {
		unstructured.RemoveNestedField(o, "spec", "clusterIP")
		unstructured.RemoveNestedField(o, "spec", "clusterIPs")
	}
	if s, ok, _ := unstructured.NestedString(o, "metadata", "annotations", lastApplied); ok {
		var rec map[string]any
		Expect(json.Unmarshal([]byte(s), &rec)).To(Succeed(), "%s of %s is not JSON: %q", lastApplied, u.GetName(), s)
		unstructured.RemoveNestedField(rec, "metadata", "namespace")
		Expect(unstructured.SetNestedField(o, rec, "metadata", "annotations", lastApplied)).To(Succeed())
	}
	return o
}

// expectSame fails unless every ref is the same in ns as in the reference
// namespace ref, naming the object and showing the difference.
func expectSame(refNS, ns string, refs []objRef) {
	GinkgoHelper()
	for _, r := range refs {
		wantObj, gotObj := get(refNS, r), get(ns, r)
		want, got := comparable(wantObj), comparable(gotObj)
		Expect(cmp.Diff(want, got)).To(BeEmpty(), "%s %s: namespace %s (-) differs from %s (+)", r.gvr.Resource, r.name, refNS, ns)
		// Beyond JSON equality, ply writes the annotation byte for byte
		// as kubectl does (the namespace aside).
		Expect(recordedBytes(gotObj)).To(Equal(recordedBytes(wantObj)), "%s %s: the %s annotation's text", r.gvr.Resource, r.name, lastApplied)
	}
}

// recordedBytes returns the last-applied annotation's text with the
// object's namespace replaced by a placeholder.
func recordedBytes(u *unstructured.Unstructured) string {
	return strings.ReplaceAll(u.GetAnnotations()[lastApplied], `"namespace":"`+u.GetNamespace()+`"`, `"namespace":"NS"`)
}

// update applies change to the live object with client-go, retrying on
// write conflicts as controllers do.
func update(ns string, ref objRef, change func(u *unstructured.Unstructured)) {
	GinkgoHelper()
	Eventually(func() error {
		u, err := env.dyn.Resource(ref.gvr).Namespace(ns).Get(context.Background(), ref.name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		change(u)
		_, err = env.dyn.Resource(ref.gvr).Namespace(ns).Update(context.Background(), u, metav1.UpdateOptions{})
		if err != nil && !apierrors.IsConflict(err) {
			return StopTrying("update " + ref.name).Wrap(err)
		}
		return err
	}).WithTimeout(30 * time.Second).Should(Succeed())
}

// containers returns the pod template's containers (a deep copy)
// and a setter that stores a changed list back into u.
func containers(u *unstructured.Unstructured) ([]any, func([]any)) {
	GinkgoHelper()
	cs, _, err := unstructured.NestedSlice(u.Object, "spec", "template", "spec", "containers")
	Expect(err).NotTo(HaveOccurred())
	return cs, func(v []any) {
		Expect(unstructured.SetNestedSlice(u.Object, v, "spec", "template", "spec", "containers")).To(Succeed())
	}
}

// editContainer changes the container called name in place.
func editContainer(u *unstructured.Unstructured, name string, edit func(c map[string]any)) {
	GinkgoHelper()
	cs, set := containers(u)
	for _, c := range cs {
		if m := c.(map[string]any); m["name"] == name {
			edit(m)
			set(cs)
			return
		}
	}
	Fail("no container " + name + " in " + u.GetName())
}

// setPath sets a string at a nested path of u.
func setPath(u *unstructured.Unstructured, v any, path ...string) {
	GinkgoHelper()
	Expect(unstructured.SetNestedField(u.Object, v, path...)).To(Succeed())
}

// diffLines describes how two sorted reports differ, for failure messages.
func diffLines(a, b []string) string { return cmp.Diff(a, b) }

// port is a container port as the specs compare it.
type port struct {
	Name     string
	Port     int64
	Protocol string
}

// portsOf returns the ports of the only container of the Deployment ref in
// namespace ns.
func portsOf(ns string, ref objRef) []port {
	GinkgoHelper()
	cs, _ := containers(get(ns, ref))
	Expect(cs).To(HaveLen(1))
	list, _, err := unstructured.NestedSlice(cs[0].(map[string]any), "ports")
	Expect(err).NotTo(HaveOccurred())
	var out []port
	for _, p := range list {
		m := p.(map[string]any)
		out = append(out, port{m["name"].(string), m["containerPort"].(int64), m["protocol"].(string)})
	}
	return out
}
