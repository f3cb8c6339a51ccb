package apply_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/elements"
)

var _ = Describe("bad input", func() {
	DescribeTable("is an error naming the source, the path and what was expected",
		func(path string) {
			f := loadFixture(path)
			_, err := apply.Merge(f.get("recorded"), f.get("local"), f.get("live"), apply.DefaultOptions())
			Expect(err).To(HaveOccurred())
			var e *elements.Error
			Expect(errors.As(err, &e)).To(BeTrue(), "error %T: %v", err, err)
			Expect(e.Source.String()).To(Equal(f.str("error", "source")))
			Expect(e.Path.String()).To(Equal(f.str("error", "path")))
			Expect(e.Msg).To(Equal(f.str("error", "message")))
			Expect(err.Error()).To(Equal(f.str("error", "source") + " " + f.str("error", "path") + ": " + f.str("error", "message")))
		},
		entries("bad"),
	)

	It("needs no apiVersion or kind in any object when the type is named", func() {
		opts := apply.DefaultOptions()
		opts.TypeName = "io.k8s.api.core.v1.ConfigMap"
		res, err := apply.Merge(mustParse(`{data: {a: "1"}}`), mustParse(`{data: {b: "2"}}`), mustParse(`{data: {a: "1", c: "3"}}`), opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Object).To(equalValue(mustParse(`{data: {b: "2", c: "3"}}`)))
		Expect(res.Warnings).To(BeEmpty())
	})

	It("names a definition the schema lacks", func() {
		opts := apply.DefaultOptions()
		opts.TypeName = "io.k8s.api.apps.v1.NoSuchThing"
		_, err := apply.Merge(mustParse(`{}`), mustParse(`{a: 1}`), mustParse(`{}`), opts)
		Expect(err).To(MatchError(ContainSubstring("no definition named io.k8s.api.apps.v1.NoSuchThing")))
	})
})

var _ = Describe("a kind without schema", func() {
	It("merges maps, replaces lists and warns", func() {
		recorded := mustParse(`{apiVersion: example.com/v1, kind: Gadget, spec: {a: 1, items: [x, y]}}`)
		local := mustParse(`{apiVersion: example.com/v1, kind: Gadget, spec: {b: 2, items: [z]}}`)
		live := mustParse(`{apiVersion: example.com/v1, kind: Gadget, spec: {a: 1, c: 3, items: [x, y, w]}, status: {ok: true}}`)
		res, err := apply.Merge(recorded, local, live, apply.DefaultOptions())
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Object).To(equalValue(mustParse(`{apiVersion: example.com/v1, kind: Gadget, spec: {b: 2, c: 3, items: [z]}, status: {ok: true}}`)))
		Expect(res.Warnings).To(ConsistOf(ContainSubstring("no schema for example.com/v1 Gadget")))
	})
})
