package apply_test

import (
	"bytes"
	"errors"
	"math"
	"path/filepath"
	"runtime"
	"strconv"
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

	It("returns errors that share no memory with its arguments or with later calls", func() {
		// Without a schema, live's own map is the conflict's live value.
		recorded := []byte(`{"apiVersion": "example.com/v1", "kind": "Gadget", "spec": {"y": 1}}`)
		local := []byte(`{"apiVersion": "example.com/v1", "kind": "Gadget", "spec": {"y": 1, "x": "str"}}`)
		live := []byte(`{"apiVersion": "example.com/v1", "kind": "Gadget", "spec": {"y": 1, "x": {"a": {"b": 1}, "c": [1, 2]}}}`)
		_, _, err := apply.MergeBytes(recorded, local, live, apply.Options{})
		var ce *apply.ConflictError
		Expect(errors.As(err, &ce)).To(BeTrue(), "%v", err)
		Expect(ce.Conflicts).To(HaveLen(1))
		const want = `{"a":{"b":1},"c":[1,2]}`
		Expect(string(ce.Conflicts[0].Live.JSON())).To(Equal(want))
		msg := err.Error()

		// A duplicate key's path names its key value, read from local.
		dup := []byte(`{"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [{"name": "web"}, {"name": "web"}]}}`)
		_, _, dupErr := apply.MergeBytes(nil, dup, nil, apply.DefaultOptions())
		Expect(dupErr).To(MatchError(ContainSubstring("[name=web]")))
		dupMsg := dupErr.Error()

		for _, b := range [][]byte{live, dup} {
			for i := range b {
				if b[i] >= 'a' && b[i] <= 'z' {
					b[i] = 'q'
				}
			}
		}
		other := []byte(`{"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [{"name": "x", "image": "y", "args": ["1", "2"]}], "volumes": [{"name": "v", "emptyDir": {}}]}}`)
		for range 20 {
			_, _, err := apply.MergeBytes(other, other, other, apply.DefaultOptions())
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(string(ce.Conflicts[0].Live.JSON())).To(Equal(want))
		Expect(err.Error()).To(Equal(msg))
		Expect(dupErr.Error()).To(Equal(dupMsg))
	})

	It("reads the documents into reused memory: a fraction of the bytes Merge's callers allocate", func() {
		// A Deployment with 100 env entries; local changes the image.
		deployment := func(image string, status bool) []byte {
			var env []string
			for i := range 100 {
				env = append(env, `{"name": "VAR_`+strconv.Itoa(i)+`", "value": "value-`+strconv.Itoa(i)+`"}`)
			}
			doc := `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"template": {"spec": {"containers": [{"name": "web", "image": "` +
				image + `", "env": [` + strings.Join(env, ", ") + `]}]}}}}`
			if status {
				doc = doc[:len(doc)-1] + `, "status": {"replicas": 3}}`
			}
			return []byte(doc)
		}
		opts := apply.DefaultOptions()
		recorded, local, live := deployment("nginx:1", false), deployment("nginx:2", false), deployment("nginx:1", true)
		viaBytes := func() {
			_, _, err := apply.MergeBytes(recorded, local, live, opts)
			Expect(err).NotTo(HaveOccurred())
		}
		viaValues := func() {
			var docs [3]value.Value
			for i, d := range [][]byte{recorded, local, live} {
				var err error
				docs[i], err = parse.OwnedDocument(d)
				Expect(err).NotTo(HaveOccurred())
			}
			_, err := apply.Merge(docs[0], docs[1], docs[2], opts)
			Expect(err).NotTo(HaveOccurred())
		}
		// The least of 50 calls: the race detector's pools drop a quarter of
		// what is put back, and a call that finds a pool empty allocates
		// anew.
		perCall := func(run func()) uint64 {
			least := uint64(math.MaxUint64)
			for range 50 {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				run()
				runtime.ReadMemStats(&after)
				least = min(least, after.TotalAlloc-before.TotalAlloc)
			}
			return least
		}
		b, v := perCall(viaBytes), perCall(viaValues)
		GinkgoWriter.Printf("MergeBytes %d bytes a call, Merge on parsed documents %d\n", b, v)
		Expect(b).To(BeNumerically("<", v*6/10), "MergeBytes %d bytes a call, Merge on parsed documents %d", b, v)
	})

	It("takes recorded and live holding no document as none", func() {
		local := []byte(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"b": "2"}}`)
		want, _, err := apply.MergeBytes(nil, local, nil, apply.DefaultOptions())
		Expect(err).NotTo(HaveOccurred())
		for _, none := range []string{"", "null", " \n", "# a comment\n", "---\n"} {
			out, _, err := apply.MergeBytes([]byte(none), local, []byte(none), apply.DefaultOptions())
			Expect(err).NotTo(HaveOccurred(), "%q", none)
			Expect(out).To(Equal(want), "%q", none)
		}
	})

	It("reads the documents under Options.MaxDepth", func() {
		opts := apply.DefaultOptions()
		opts.MaxDepth = 5
		local := []byte(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"annotations": {"a": "b"}}}`)
		_, _, err := apply.MergeBytes(nil, local, nil, opts)
		Expect(err).NotTo(HaveOccurred())
		deep := []byte(`{"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": [[[[1]]]]}}`)
		_, _, err = apply.MergeBytes(nil, deep, nil, opts)
		var de *apply.DocumentError
		Expect(errors.As(err, &de)).To(BeTrue(), "error %T: %v", err, err)
		Expect(err).To(MatchError(ContainSubstring("local: line 1")))
		Expect(err).To(MatchError(ContainSubstring("nesting is deeper than the limit of 5 levels")))
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

	It("leaves its arguments as they were, escapes included", func() {
		f := loadFixture(fixtureFiles("seeds")[0])
		args := [][]byte{text(f.get("recorded")), text(f.get("local")), text(f.get("live"))}
		// A string with escapes in local, which a merge could unescape in place.
		args[1] = append(args[1][:len(args[1])-1], []byte(`,"zNote":"line\nnext \u00e9 \"q\" \/"}`)...)
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
