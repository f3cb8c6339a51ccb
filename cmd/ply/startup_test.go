package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// heavyInit are packages (or path prefixes, ending in "/") whose
// initialisation is costly and which ply's binaries must not link: Go runs
// the init of every linked package when any command starts, so each would
// slow `ply merge` and `ply patch`, which never talk to a cluster. Use the
// dynamic client, unstructured objects and ply's own discovery reader
// (pkg/cluster/internal/resmap) and flags (cmd/internal/kubeflags)
// instead.
var heavyInit = map[string]string{
	"k8s.io/client-go/kubernetes/scheme": "registers every built-in API type (about 1.5 ms)",
	"k8s.io/api/": "typed API packages register their types; linked through kubernetes/scheme, " +
		"typed clients or client-go's typed informers (dynamicinformer): use tools/cache with the dynamic client",
	"k8s.io/client-go/kubernetes":                "the typed clientset (links every k8s.io/api group)",
	"k8s.io/client-go/discovery":                 "links kubernetes/scheme and client-go/openapi",
	"k8s.io/client-go/restmapper":                "links client-go/discovery",
	"k8s.io/client-go/openapi":                   "links managedfields and structured-merge-diff's typed",
	"k8s.io/cli-runtime/pkg/genericclioptions":   "links cli-runtime/pkg/resource and client-go/discovery",
	"k8s.io/cli-runtime/pkg/resource":            "links kubernetes/scheme",
	"k8s.io/apimachinery/pkg/util/managedfields": "links structured-merge-diff's typed and merge",
	"sigs.k8s.io/structured-merge-diff/v6/typed": "builds its schema parsers at start-up",
	"sigs.k8s.io/cli-utils/":                     "kstatus and friends link k8s.io/api and typed clients",
	"k8s.io/kube-openapi/pkg/util/proto": "links gnostic's openapiv3 and protobuf's descriptorpb (about 0.4 ms together); " +
		"the v2 loader classifies schemas itself (openapi/v2shape.go)",
	"github.com/google/gnostic-models/openapiv3":    "registers protobuf descriptors (descriptorpb's among them)",
	"google.golang.org/protobuf/types/descriptorpb": "builds protobuf's own descriptors (about 0.25 ms)",
}

// lightInit are packages under a heavyInit prefix that ply links on
// purpose, with what they cost: apply --wait computes readiness with
// cli-utils' kstatus (the issue asks for its rules), whose status package
// alone links k8s.io/api/core/v1 (about 0.2 ms of initialisation on the
// project's machine, measured with GODEBUG=inittrace=1).
var lightInit = map[string]bool{
	"sigs.k8s.io/cli-utils/pkg/kstatus/status": true,
	"k8s.io/api/core/v1":                       true,
}

// goList returns the packages pkgs link (go list -deps).
func goList(pkgs ...string) []string {
	GinkgoHelper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	out, err := exec.Command(goBin, append([]string{"list", "-deps"}, pkgs...)...).Output()
	if ee, ok := err.(*exec.ExitError); ok {
		Fail("go list: " + string(ee.Stderr))
	}
	Expect(err).NotTo(HaveOccurred())
	return strings.Fields(string(out))
}

// heavy returns the linked packages of deps that heavyInit names, with
// the reason.
func heavy(deps []string) []string {
	var out []string
	for _, p := range deps {
		if lightInit[p] {
			continue
		}
		for h, why := range heavyInit {
			if p == h || strings.HasSuffix(h, "/") && strings.HasPrefix(p, h) {
				out = append(out, p+": "+why)
			}
		}
	}
	return out
}

var _ = Describe("start-up", func() {
	It("ply and kubectl-ply link no package whose initialisation is costly", func() {
		deps := goList("github.com/plyproject/ply/cmd/ply", "github.com/plyproject/ply/cmd/kubectl-ply")
		Expect(deps).To(ContainElement("github.com/plyproject/ply/pkg/cluster"))
		Expect(heavy(deps)).To(BeEmpty())
	})

	It("tells the packages that link them (the check can fail)", func() {
		found := heavy(goList("k8s.io/cli-runtime/pkg/genericclioptions"))
		Expect(strings.Join(found, "\n")).To(And(
			ContainSubstring("k8s.io/client-go/kubernetes/scheme: "),
			ContainSubstring("k8s.io/api/apps/v1: "),
			ContainSubstring("k8s.io/client-go/discovery: ")))
	})
})

// clusterLinks are the packages (or path prefixes, ending in "/") of the
// cluster commands: ply runs kubectl-ply for apply and diff, so that its
// own binary links none of them and merge and patch start without their
// initialisation. With them, gnostic's OpenAPI models and protobuf, which
// the cluster clients link and ply's openapi package no longer does (it
// reads v2 documents with its own reader): gnostic's packages register
// protobuf descriptors at start-up and its compiler links net/http.
var clusterLinks = []string{"k8s.io/", "sigs.k8s.io/kustomize/", "sigs.k8s.io/cli-utils/",
	"github.com/plyproject/ply/pkg/cluster", "github.com/plyproject/ply/cmd/internal/cli",
	"github.com/google/gnostic-models/", "google.golang.org/protobuf/"}

// linksCluster returns the packages of deps that clusterLinks names.
func linksCluster(deps []string) []string {
	var out []string
	for _, p := range deps {
		for _, c := range clusterLinks {
			if p == c || strings.HasSuffix(c, "/") && strings.HasPrefix(p, c) {
				out = append(out, p)
			}
		}
	}
	return out
}

var _ = Describe("ply's own binary", func() {
	It("links no cluster client (the check can fail: kubectl-ply links them)", func() {
		Expect(linksCluster(goList("github.com/plyproject/ply/cmd/ply"))).To(BeEmpty())
		found := linksCluster(goList("github.com/plyproject/ply/cmd/kubectl-ply"))
		Expect(found).To(ContainElements("k8s.io/client-go/rest", "github.com/plyproject/ply/pkg/cluster",
			"github.com/plyproject/ply/cmd/internal/cli", "sigs.k8s.io/kustomize/api/krusty",
			"github.com/google/gnostic-models/openapiv2", "google.golang.org/protobuf/proto"))
	})
})
