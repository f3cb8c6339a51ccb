package apply_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
)

// text is v as MergeBytes takes it: its JSON, or nothing for null.
func text(v value.Value) []byte {
	if v.IsNull() {
		return nil
	}
	return v.JSON()
}

// mergeBoth merges f's three objects with Merge and with MergeBytes, the
// latter twice with another merge between (the second reads into the
// memory the first used), and returns Merge's result and MergeBytes' JSON
// and error, which must be the same both times.
func mergeBoth(f fixture, opts apply.Options) (apply.Result, error, []byte, error) {
	res, err := apply.Merge(f.get("recorded"), f.get("local"), f.get("live"), opts)
	recorded, local, live := text(f.get("recorded")), text(f.get("local")), text(f.get("live"))
	out, warnings, errBytes := apply.MergeBytes(recorded, local, live, opts)
	if err == nil {
		Expect(warnings).To(Equal(res.Warnings))
	}
	first := ""
	if errBytes != nil {
		first = errBytes.Error()
	}
	// Another merge reuses the pooled memory; then the same merge again.
	_, _, _ = apply.MergeBytes(local, local, out, opts)
	again, _, errAgain := apply.MergeBytes(recorded, local, live, opts)
	Expect(again).To(Equal(out))
	if errBytes != nil {
		Expect(errBytes.Error()).To(Equal(first), "the first error changed after later merges")
		Expect(errAgain).To(MatchError(first))
	}
	return res, err, out, errBytes
}

var _ = Describe("MergeBytes", func() {
	DescribeTable("returns Merge's object as JSON, byte for byte, in both orderings",
		func(dir, path string) {
			f := loadFixture(path)
			for _, ordering := range []apply.Ordering{apply.OrderingSeed, apply.OrderingKubectl} {
				opts := apply.DefaultOptions()
				opts.Schema = f.schema()
				opts.Ordering = ordering
				res, err, out, errBytes := mergeBoth(f, opts)
				Expect(err).NotTo(HaveOccurred())
				Expect(errBytes).NotTo(HaveOccurred())
				Expect(string(out)).To(Equal(string(res.Object.JSON())))
			}
		},
		append(entriesIn("seeds"), entriesIn("ports")...),
	)

	DescribeTable("fails as Merge does on bad input, and the error outlives the memory it was read into",
		func(_, path string) {
			f := loadFixture(path)
			_, err, out, errBytes := mergeBoth(f, apply.DefaultOptions())
			Expect(err).To(HaveOccurred())
			Expect(out).To(BeNil())
			Expect(errBytes).To(MatchError(err.Error()))
		},
		entriesIn("bad"),
	)

	It("keeps a conflict's values, maps included, valid after later merges", func() {
		recorded := []byte(`{"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [{"name": "web", "image": "a"}, {"name": "side", "image": "b"}]}}`)
		local := []byte(`{"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [{"name": "web", "image": "a"}]}}`)
		live := []byte(`{"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [{"name": "web", "image": "a"}, {"name": "side", "image": "c"}]}}`)
		_, _, err := apply.MergeBytes(recorded, local, live, apply.Options{})
		var ce *apply.ConflictError
		Expect(errors.As(err, &ce)).To(BeTrue(), "%v", err)
		Expect(ce.Conflicts).To(HaveLen(1))
		want := `{"image":"c","name":"side"}`
		Expect(string(ce.Conflicts[0].Live.JSON())).To(Equal(want))
		other := []byte(`{"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [{"name": "x", "image": "y", "args": ["1", "2"]}], "volumes": [{"name": "v", "emptyDir": {}}]}}`)
		for range 20 {
			_, _, err := apply.MergeBytes(other, other, other, apply.DefaultOptions())
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(string(ce.Conflicts[0].Live.JSON())).To(Equal(want))
	})

	It("reads YAML too, takes empty recorded and live as none, and returns the warnings", func() {
		out, warnings, err := apply.MergeBytes(nil, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {b: \"2\"}\n"), nil, apply.DefaultOptions())
		Expect(err).NotTo(HaveOccurred())
		Expect(warnings).To(BeEmpty())
		Expect(out).To(MatchJSON(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"b": "2"}}`))

		_, warnings, err = apply.MergeBytes(nil, []byte(`{"apiVersion": "example.com/v1", "kind": "Gadget", "spec": {"a": 1}}`), nil, apply.DefaultOptions())
		Expect(err).NotTo(HaveOccurred())
		Expect(warnings).To(ConsistOf(ContainSubstring("no schema for example.com/v1 Gadget")))
	})

	DescribeTable("names the document that does not parse",
		func(recorded, local, live, source, msg string) {
			_, _, err := apply.MergeBytes([]byte(recorded), []byte(local), []byte(live), apply.DefaultOptions())
			var de *apply.DocumentError
			Expect(errors.As(err, &de)).To(BeTrue(), "error %T: %v", err, err)
			Expect(de.Source).To(Equal(source))
			var pe *parse.Error
			Expect(errors.As(err, &pe)).To(BeTrue())
			Expect(err).To(MatchError(HavePrefix(source + ": ")))
			Expect(err).To(MatchError(ContainSubstring(msg)))
		},
		Entry("recorded", `{"a": `, `{}`, ``, "recorded", "line 1"),
		Entry("local, empty", ``, ``, `{}`, "local", "no document"),
		Entry("live", ``, `{"kind": "ConfigMap", "apiVersion": "v1"}`, `[1, 2`, "live", "line 1"),
		Entry("local, nested deeper than the limit", ``, strings.Repeat("[", 1001)+strings.Repeat("]", 1001), ``,
			"local", "line 1, column 1001: nesting is deeper than the limit of 1000 levels of maps and lists"),
	)

	It("leaves its arguments as they were", func() {
		f := loadFixture(fixtureFiles("seeds")[0])
		args := [][]byte{text(f.get("recorded")), text(f.get("local")), text(f.get("live"))}
		var copies [][]byte
		for _, a := range args {
			copies = append(copies, bytes.Clone(a))
		}
		opts := apply.DefaultOptions()
		opts.Schema = f.schema()
		_, _, err := apply.MergeBytes(args[0], args[1], args[2], opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(args).To(Equal(copies))
	})

	It("is safe for concurrent use", func() {
		var want [][]byte
		var fs []fixture
		var opts []apply.Options
		for _, path := range fixtureFiles("seeds") {
			f := loadFixture(path)
			o := apply.DefaultOptions()
			o.Schema = f.schema()
			res, err := apply.Merge(f.get("recorded"), f.get("local"), f.get("live"), o)
			Expect(err).NotTo(HaveOccurred())
			fs, opts, want = append(fs, f), append(opts, o), append(want, res.Object.JSON())
		}
		var wg sync.WaitGroup
		errs := make(chan error, 4*len(fs))
		for g := range 4 {
			wg.Go(func() {
				for round := range 50 {
					i := (g + round) % len(fs)
					out, _, err := apply.MergeBytes(text(fs[i].get("recorded")), text(fs[i].get("local")), text(fs[i].get("live")), opts[i])
					if err == nil && !bytes.Equal(out, want[i]) {
						err = errors.New(fs[i].file + ": " + string(out))
					}
					if err != nil {
						errs <- err
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		Expect(errs).To(BeEmpty())
	})
})

// entriesIn is entries(dir) with dir as each entry's first argument.
func entriesIn(dir string) []TableEntry {
	var out []TableEntry
	for _, f := range fixtureFiles(dir) {
		out = append(out, Entry(dir+"/"+filepath.Base(f), dir, f))
	}
	return out
}
