package patch_test

import (
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/patch"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

var _ = Describe("feature gates", func() {
	// Every fixture strategicpatch can run, and those it can only with the
	// gates off (multi-field keys, key defaults), gives with every gate off
	// what strategicpatch gives with the same document (the v3 documents
	// for schema: default, as kubectl reads them from a server), list order
	// included, or an error from both.
	for _, dir := range []string{"seeds", "directives", "reject", "bad"} {
		DescribeTable("every gate off: cross-check with strategicpatch, "+dir,
			func(path string) {
				f := loadFixture(path)
				if !f.oracleGatesOff() || f.str("schema") == "none" || f.has("patches") {
					Skip("not comparable")
				}
				want, werr := strategicPatchV3(f)
				opts := f.options(patch.OrderSeed)
				opts.Gates = features.Kubectl()
				got, err := patch.Apply(f.get("live"), f.get("patch"), opts)
				if werr != nil {
					Expect(err).To(HaveOccurred(), "strategicpatch rejects it: %v", werr)
					return
				}
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(equalValue(want))
			},
			entries(dir),
		)
	}

	// SeedOrdering off orders as OrderKubectl does, whatever Ordering says.
	for _, dir := range []string{"seeds", "directives"} {
		DescribeTable("SeedOrdering off: strategicpatch's order, "+dir,
			func(path string) {
				f := loadFixture(path)
				if f.has("error") || f.has("patches") {
					Skip("no single result")
				}
				for _, o := range []patch.Ordering{patch.OrderSeed, patch.OrderKubectl} {
					opts := f.options(o)
					opts.Gates = features.Gates{}.With(features.SeedOrdering, false)
					got, err := patch.Apply(f.get("live"), f.get("patch"), opts)
					Expect(err).NotTo(HaveOccurred())
					Expect(got).To(equalValue(f.want(patch.OrderKubectl)), orderingName(o))
				}
			},
			entries(dir),
		)
	}

	Describe("MultiFieldMergeKeys, a TCP port patched into a Pod whose port 53 is UDP", func() {
		live := mustParse(`
apiVersion: v1
kind: Pod
metadata: {name: dns}
spec:
  containers:
  - name: dns
    ports:
    - {containerPort: 53, protocol: UDP, name: dns-udp}`)
		p := mustParse(`
spec:
  containers:
  - name: dns
    ports:
    - {containerPort: 53, protocol: TCP, name: dns-tcp}`)
		ports := func(v value.Value) value.Value {
			spec, _ := v.Get("spec")
			cs, _ := spec.Get("containers")
			ps, _ := cs.Items()[0].Get("ports")
			return ps
		}

		It("on: ports keyed by containerPort and protocol, the TCP port is added", func() {
			out, err := patch.Apply(live, p, patch.Options{})
			Expect(err).NotTo(HaveOccurred())
			Expect(ports(out)).To(equalValue(mustParse(`
- {containerPort: 53, protocol: UDP, name: dns-udp}
- {containerPort: 53, protocol: TCP, name: dns-tcp}`)))
		})

		It("off: keyed by containerPort alone, the UDP port becomes TCP, as strategicpatch does with the v3 default schema", func() {
			for _, gates := range []features.Gates{features.Gates{}.With(features.MultiFieldMergeKeys, false), features.Kubectl()} {
				out, err := patch.Apply(live, p, patch.Options{Gates: gates})
				Expect(err).NotTo(HaveOccurred())
				Expect(ports(out)).To(equalValue(mustParse(`
- {containerPort: 53, protocol: TCP, name: dns-tcp}`)))

				models, err := oracle.DefaultV3()
				Expect(err).NotTo(HaveOccurred())
				o, err := models.Oracle("io.k8s.api.core.v1.Pod")
				Expect(err).NotTo(HaveOccurred())
				sp, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(live.JSON(), p.JSON(), o.Meta())
				Expect(err).NotTo(HaveOccurred())
				Expect(out).To(equalValue(jsonv.MustDecode(string(sp))))
			}
		})
	})
})
