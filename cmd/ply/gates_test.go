package main

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/test/oracle"
)

// portsDir holds a Pod whose controller added UDP port 53 (live.yaml)
// while local.yaml declares TCP port 53: with ply's multi-field keys the
// two are different ports, with kubectl's one.
var portsDir = testdata("ports")

func portsMerge(flags ...string) []string { return cat([]string{"merge"}, threeWay(portsDir), flags) }

var _ = Describe("--compat and --feature-gates", func() {
	DescribeTable("switch the gates of merge, patch apply and patch create",
		func(args []string, want string) {
			r := ply(args...)
			Expect(r.code).To(Equal(exitOK), "stderr: %s", r.stderr)
			Expect(r.stderr).To(BeEmpty())
			Expect(r.stdout).To(Equal(readFile(testdata("want", want))))
		},
		Entry("merge: ply keeps the controller's UDP port beside local's TCP one", portsMerge(), "ports.yaml"),
		Entry("merge --compat=kubectl: one port 53, now TCP", portsMerge("--compat=kubectl"), "ports-kubectl.yaml"),
		Entry("merge --feature-gates=MultiFieldMergeKeys=false: the same (no live-only item left to order)",
			portsMerge("--feature-gates=MultiFieldMergeKeys=false"), "ports-kubectl.yaml"),
		Entry("merge --compat=kubectl with --feature-gates on top: two ports in kubectl's order",
			portsMerge("--feature-gates", "MultiFieldMergeKeys=true", "--compat=kubectl"), "ports-kubectl-multikey.yaml"),
		Entry("merge --compat=kubectl orders env as --ordering kubectl does", cat([]string{"merge"}, threeWay(envDir), []string{"--compat=kubectl"}), "env-kubectl.yaml"),
		Entry("merge --feature-gates=SeedOrdering=false likewise", cat([]string{"merge"}, threeWay(envDir), []string{"--feature-gates=SeedOrdering=false"}), "env-kubectl.yaml"),
		Entry("merge --compat=kubectl --ordering kubectl: consistent, accepted",
			cat([]string{"merge"}, threeWay(envDir), []string{"--compat=kubectl", "--ordering", "kubectl"}), "env-kubectl.yaml"),
		Entry("patch apply: a second port 53", []string{"patch", "apply", "--live", testdata("ports", "live.yaml"), "--patch", testdata("ports", "patch.yaml")},
			"patch-apply-ports.yaml"),
		Entry("patch apply --compat=kubectl: the UDP port becomes TCP",
			[]string{"patch", "apply", "--live", testdata("ports", "live.yaml"), "--patch", testdata("ports", "patch.yaml"), "--compat=kubectl"},
			"patch-apply-ports-kubectl.yaml"),
		Entry("patch apply with SeedOrdering off orders env as --ordering kubectl does",
			[]string{"patch", "apply", "--live", example(envDir, "live.yaml"), "--patch", patchFile("env-patch.yaml"), "--feature-gates", "SeedOrdering=false"},
			"patch-apply.yaml"),
		Entry("patch create: ports keyed by containerPort and protocol",
			[]string{"patch", "create", "--original", testdata("ports", "recorded.yaml"), "--modified", testdata("ports", "local.yaml"),
				"--current", testdata("ports", "live.yaml")}, "patch-threeway-ports.yaml"),
		Entry("patch create --compat=kubectl: keyed by containerPort alone",
			[]string{"patch", "create", "--original", testdata("ports", "recorded.yaml"), "--modified", testdata("ports", "local.yaml"),
				"--current", testdata("ports", "live.yaml"), "--compat=kubectl"}, "patch-threeway-ports-kubectl.yaml"),
	)

	Describe("with --compat=kubectl and the default (v3) schema, ply prints what strategicpatch computes from the v3 documents", func() {
		var meta strategicpatch.LookupPatchMeta
		BeforeEach(func() {
			o, err := oracle.DefaultV3For("io.k8s.api.core.v1.Pod")
			Expect(err).NotTo(HaveOccurred())
			meta = o.Meta()
		})
		ports := func(file string) []byte { return docJSON(readFile(testdata("ports", file))) }
		// kubectlMerged is kubectl's three-way patch of testdata/dir's recorded, local and live applied to live, and
		// the patch.
		kubectlMerged := func(dir string) (merged, patch []byte) {
			GinkgoHelper()
			doc := func(file string) []byte { return docJSON(readFile(testdata(dir, file))) }
			p, err := strategicpatch.CreateThreeWayMergePatch(doc("recorded.yaml"), doc("local.yaml"), doc("live.yaml"), meta, true)
			Expect(err).NotTo(HaveOccurred())
			merged, err = strategicpatch.StrategicMergePatchUsingLookupPatchMeta(doc("live.yaml"), p, meta)
			Expect(err).NotTo(HaveOccurred())
			return merged, p
		}

		It("merge: the three-way patch applied to live", func() {
			r := ply(portsMerge("--compat=kubectl", "-o", "json")...)
			Expect(r.code).To(Equal(exitOK), r.stderr)
			want, _ := kubectlMerged("ports")
			Expect(canonical([]byte(r.stdout))).To(Equal(canonical(want)))
		})

		It("merge: local naming containerPort 53 twice (TCP and UDP), as kubectl merges it: one port 53", func() {
			r := ply(cat([]string{"merge"}, threeWay(testdata("dupports")), []string{"--compat=kubectl", "-o", "json"})...)
			Expect(r.code).To(Equal(exitOK), r.stderr)
			want, p := kubectlMerged("dupports")
			Expect(canonical([]byte(r.stdout))).To(Equal(canonical(want)))
			Expect(r.stdout).To(ContainSubstring(`"dns-tcp"`))
			Expect(r.stdout).NotTo(ContainSubstring(`"dns-udp"`))

			r = ply(cat([]string{"patch", "create", "--original", testdata("dupports", "recorded.yaml"), "--modified", testdata("dupports", "local.yaml"),
				"--current", testdata("dupports", "live.yaml")}, []string{"--compat=kubectl"})...)
			Expect(r.code).To(Equal(exitOK), r.stderr)
			Expect(canonical(docJSON(r.stdout))).To(Equal(canonical(p)), "kubectl's patch")

			r = ply(cat([]string{"merge"}, threeWay(testdata("dupports")), []string{"--compat=kubectl", "--feature-gates=UniqueMergeKeys=true"})...)
			Expect(r.code).NotTo(Equal(exitOK))
			Expect(r.stderr).To(ContainSubstring("duplicate merge key: items 1 and 2 are both spec.containers[name=dns].ports[containerPort=53]"))
		})

		It("merge: a configuration holding $patch, as kubectl applies it; refused while MultiFieldMergeKeys is on", func() {
			r := ply(cat([]string{"merge"}, threeWay(testdata("directive")), []string{"--compat=kubectl", "-o", "json"})...)
			Expect(r.code).To(Equal(exitOK), r.stderr)
			want, _ := kubectlMerged("directive")
			Expect(canonical([]byte(r.stdout))).To(Equal(canonical(want)))
			Expect(r.stdout).To(ContainSubstring(`"runAsUser": 2`))
			Expect(r.stdout).NotTo(ContainSubstring(`$patch`))

			r = ply(cat([]string{"merge"}, threeWay(testdata("directive")), []string{"--compat=kubectl", "--feature-gates=MultiFieldMergeKeys=true"})...)
			Expect(r.code).To(Equal(exitInput))
			Expect(r.stderr).To(ContainSubstring(`spec.securityContext: "$patch" is a strategic merge patch directive, not configuration`))
		})

		It("patch apply: the object of StrategicMergePatch", func() {
			r := ply("patch", "apply", "--live", testdata("ports", "live.yaml"), "--patch", testdata("ports", "patch.yaml"), "--compat=kubectl", "-o", "json")
			Expect(r.code).To(Equal(exitOK), r.stderr)
			want, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(ports("live.yaml"), ports("patch.yaml"), meta)
			Expect(err).NotTo(HaveOccurred())
			Expect(canonical([]byte(r.stdout))).To(Equal(canonical(want)))
		})

		It("patch apply: a patch naming port 53 twice merges both items in turn into live's port 53, as StrategicMergePatch does; refused while UniqueMergeKeys is on", func() {
			args := []string{"patch", "apply", "--live", testdata("ports", "live.yaml"), "--patch", testdata("ports", "patch-repeats.yaml")}
			r := ply(cat(args, []string{"--feature-gates=MultiFieldMergeKeys=false"})...)
			Expect(r.code).NotTo(Equal(exitOK))
			Expect(r.stderr).To(ContainSubstring("items 0 and 1 have the same merge key containerPort; a patch names each item once"))

			r = ply(cat(args, []string{"--compat=kubectl", "-o", "json"})...)
			Expect(r.code).To(Equal(exitOK), r.stderr)
			want, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(ports("live.yaml"), ports("patch-repeats.yaml"), meta)
			Expect(err).NotTo(HaveOccurred())
			Expect(canonical([]byte(r.stdout))).To(Equal(canonical(want)))
			Expect(r.stdout).To(ContainSubstring(`"name": "dns-tcp"`))
			Expect(r.stdout).NotTo(ContainSubstring(`dns-udp`))
		})

		It("patch create: the patch of CreateThreeWayMergePatch", func() {
			r := ply("patch", "create", "--original", testdata("ports", "recorded.yaml"), "--modified", testdata("ports", "local.yaml"),
				"--current", testdata("ports", "live.yaml"), "--compat=kubectl", "-o", "json")
			Expect(r.code).To(Equal(exitOK), r.stderr)
			want, err := strategicpatch.CreateThreeWayMergePatch(ports("recorded.yaml"), ports("local.yaml"), ports("live.yaml"), meta, true)
			Expect(err).NotTo(HaveOccurred())
			Expect(canonical([]byte(r.stdout))).To(Equal(canonical(want)))
		})
	})

	DescribeTable("bad values are usage errors (exit 2) with features.Parse's message",
		func(args []string, want string) {
			r := ply(args...)
			Expect(r.code).To(Equal(exitUsage))
			Expect(r.stdout).To(BeEmpty())
			Expect(r.stderr).To(ContainSubstring(want))
			Expect(r.stderr).To(ContainSubstring("-h' for usage."))
		},
		Entry("merge: an unknown gate", portsMerge("--feature-gates", "Bogus=true"), parseError("Bogus=true")),
		Entry("merge: not a boolean", portsMerge("--feature-gates", "SeedOrdering=maybe"), parseError("SeedOrdering=maybe")),
		Entry("merge: no value", portsMerge("--feature-gates", "SeedOrdering"), parseError("SeedOrdering")),
		Entry("merge: a gate twice, across repeated flags",
			portsMerge("--feature-gates", "SeedOrdering=false", "--feature-gates", "SeedOrdering=true"), parseError("SeedOrdering=false,SeedOrdering=true")),
		Entry("merge: an unknown --compat", portsMerge("--compat", "kubernetes"), `--compat must be kubectl, not "kubernetes"`),
		Entry("merge: --ordering seed with --compat=kubectl", portsMerge("--compat=kubectl", "--ordering", "seed"),
			"--ordering seed contradicts the SeedOrdering feature gate"),
		Entry("merge: --ordering seed with SeedOrdering=false", portsMerge("--ordering=seed", "--feature-gates=SeedOrdering=false"),
			"--ordering seed contradicts the SeedOrdering feature gate"),
		Entry("patch apply: an unknown gate",
			[]string{"patch", "apply", "--live", "a", "--patch", "b", "--feature-gates", "Nope=false"}, parseError("Nope=false")),
		Entry("patch apply: --ordering seed with --compat=kubectl",
			[]string{"patch", "apply", "--live", "a", "--patch", "b", "--compat=kubectl", "--ordering=seed"}, "--ordering seed contradicts"),
		Entry("patch create: an unknown --compat",
			[]string{"patch", "create", "--modified", "a", "--compat=ply"}, `--compat must be kubectl, not "ply"`),
		Entry("patch create: not a boolean",
			[]string{"patch", "create", "--modified", "a", "--feature-gates=SetOfMaps=1x"}, parseError("SetOfMaps=1x")),
	)

	It("lists the gates in the help of merge, patch apply and patch create", func() {
		for _, args := range [][]string{{"merge", "-h"}, {"patch", "apply", "-h"}, {"patch", "create", "-h"}, {"help", "patch"}} {
			r := ply(args...)
			Expect(r.code).To(Equal(exitOK), "%v", args)
			if args[0] != "help" { // ply patch lists its subcommands, which have the flags
				Expect(r.stdout).To(ContainSubstring("      --feature-gates Name=true|false,..."), "%v", args)
				Expect(r.stdout).To(ContainSubstring("      --compat kubectl"), "%v", args)
			}
			Expect(r.stdout).To(ContainSubstring("\nFeature gates (--feature-gates Name=true|false,...; all on by default, --compat=kubectl turns all off):\n"), "%v", args)
			for _, g := range features.All() {
				Expect(r.stdout).To(MatchRegexp(`\n  `+g.String()+` +\S`), "%v: %s", args, g)
			}
		}
	})
})

// parseError is the message features.Parse gives for spec (the spec
// tree is built with it, so a spec that parses is a bug of the table).
func parseError(spec string) string {
	_, err := features.Parse(features.Gates{}, spec)
	if err == nil {
		panic("features.Parse accepts " + spec)
	}
	return err.Error()
}
