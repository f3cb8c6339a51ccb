package patchgen_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/internal/delta"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// kubectlMeta is strategicpatch's merge metadata for the fixture's object
// as kubectl reads it: from the v3 documents for schema v3 (what a server
// publishes), else from the fixture's v2 document.
func (f fixture) kubectlMeta() strategicpatch.LookupPatchMeta {
	name := rootOf(f.schema(), f.input("modified")).Name
	if f.str("schema") != "v3" {
		return f.patchMeta(name)
	}
	o, err := oracle.DefaultV3For(name)
	Expect(err).NotTo(HaveOccurred())
	return o.Meta()
}

// generateKubectl creates the fixture's patch with every gate off; with
// strategicpatch it returns its patch, whether it refused with a conflict,
// and its other error.
func (f fixture) generateKubectl() (ply value.Value, plyErr error, sp value.Value, spConflict bool, spErr error) {
	opts := patchgen.Options{Schema: f.schema(), Overwrite: f.flag("overwrite", true), Gates: features.Kubectl()}
	var p []byte
	if f.str("mode") == "twoway" {
		ply, plyErr = patchgen.TwoWay(f.input("original"), f.input("modified"), opts)
		p, spErr = strategicpatch.CreateTwoWayMergePatchUsingLookupPatchMeta(enc(f.input("original")), enc(f.input("modified")), f.kubectlMeta())
	} else {
		ply, plyErr = patchgen.ThreeWay(f.input("original"), f.input("modified"), f.input("current"), opts)
		p, spErr = strategicpatch.CreateThreeWayMergePatch(enc(f.input("original")), enc(f.input("modified")), enc(f.input("current")),
			f.kubectlMeta(), opts.Overwrite)
	}
	if mergepatch.IsConflict(spErr) {
		return ply, plyErr, value.Null, true, nil
	}
	if spErr == nil {
		sp = jsonv.MustDecode(string(p))
	}
	return ply, plyErr, sp, false, spErr
}

var _ = Describe("feature gates", func() {
	// With every gate off, every fixture, those strategicpatch can take
	// only then (multi-field keys, v3 list-map-keys and key defaults)
	// included, gives strategicpatch's patch byte for byte, its conflict
	// verdict, or an error where it fails.
	for _, dir := range []string{"twoway", "threeway"} {
		DescribeTable("every gate off: the patch strategicpatch creates, "+dir,
			func(path string) {
				f := loadFixture(path)
				got, err, want, conflict, spErr := f.generateKubectl()
				var ce *delta.ConflictError
				switch {
				case spErr != nil:
					Expect(err).To(HaveOccurred(), "strategicpatch fails: %v", spErr)
				case conflict:
					Expect(errors.As(err, &ce)).To(BeTrue(), "strategicpatch reports a conflict, ply: %v", err)
				default:
					Expect(err).NotTo(HaveOccurred())
					Expect(got).To(equalJSON(want))
				}
			},
			entries(dir),
		)
	}

	// A keyed list of modified holding an item without its merge key where neither original nor current holds items
	// there, or scalars where they hold scalars: with every gate off the patch is strategicpatch's (the list as
	// modified holds it, its diff pairing no items; a set of scalars), failing where strategicpatch's does
	// (wantOffError: its conflict check, its merge of the three-way patch's halves); with ply's gates the item is
	// refused (wantError).
	DescribeTable("MultiFieldMergeKeys: a keyed list read by its items' kinds, as strategicpatch's diffs read it",
		func(path string) {
			f := loadFixture(path)
			_, err := f.generate()
			want, _ := f.get("wantError")
			expectElementsError(err, want)

			got, err, sp, conflict, spErr := f.generateKubectl()
			Expect(conflict).To(BeFalse())
			if wantErr, ok := f.get("wantOffError"); ok {
				Expect(spErr).To(HaveOccurred(), "strategicpatch fails too")
				expectElementsError(err, wantErr)
				return
			}
			Expect(spErr).NotTo(HaveOccurred())
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(equalJSON(sp), "strategicpatch's patch")
			wantOff, _ := f.get("wantOff")
			Expect(got).To(equalJSON(wantOff))
		},
		entries("itemkinds"),
	)

	It("MultiFieldMergeKeys: a UDP port replacing TCP port 53 is a new item on, the same item off", func() {
		f := loadFixture("testdata/threeway/multikey-ports-v3.yaml")
		on, err := f.generate()
		Expect(err).NotTo(HaveOccurred())
		want, _ := f.get("want")
		Expect(on).To(equalJSON(want), "on: the TCP item is deleted, the UDP one added")

		opts := patchgen.Options{Schema: f.schema(), Overwrite: true, Gates: features.Gates{}.With(features.MultiFieldMergeKeys, false)}
		off, err := patchgen.ThreeWay(f.input("original"), f.input("modified"), f.input("current"), opts)
		Expect(err).NotTo(HaveOccurred())
		wantOff, err := parse.Document([]byte(`
spec:
  $setElementOrder/containers: [{name: dns}]
  containers:
  - name: dns
    $setElementOrder/ports: [{containerPort: 53}]
    ports:
    - {containerPort: 53, protocol: UDP}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(off).To(equalJSON(wantOff), "off: port 53 changes protocol")
		sp, conflict := kubectlThreeWay(f.kubectlMeta(), f.input("original"), f.input("modified"), f.input("current"), true)
		Expect(conflict).To(BeFalse())
		Expect(off).To(equalJSON(sp), "strategicpatch with the v3 default schema")
	})
})
