package differential_test

import (
	"errors"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/test/jsonv"
	"github.com/plyproject/ply/test/oracle"
)

// The places where ply differs from strategicpatch on purpose, because
// strategicpatch is wrong there: each shows what strategicpatch does and
// what ply does instead. (The leaked-directive, sorted-list and
// duplicate-items classes of the random runs have regression cases in
// testdata/cases.)
var _ = Describe("known differences from strategicpatch", func() {
	var (
		schema *openapi.Schema
		sp     *oracle.Oracle
	)
	BeforeEach(func() {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "schema", "multikey.json"))
		Expect(err).NotTo(HaveOccurred())
		schema, err = openapi.LoadV2Named("multikey.json", data)
		Expect(err).NotTo(HaveOccurred())
		models, err := oracle.Load(data)
		Expect(err).NotTo(HaveOccurred())
		sp, err = models.Oracle("dev.ply.test.v1.Server")
		Expect(err).NotTo(HaveOccurred())
	})

	merge := func(recorded, local, live string) string {
		res, err := apply.Merge(jsonv.MustDecode(recorded), jsonv.MustDecode(local), jsonv.MustDecode(live),
			apply.Options{Schema: schema, TypeName: "dev.ply.test.v1.Server", Overwrite: true, Ordering: apply.OrderingKubectl})
		Expect(err).NotTo(HaveOccurred())
		return string(res.Object.JSON())
	}

	It("multi-field merge keys: strategicpatch cannot merge, ply keeps TCP and UDP on one port", func() {
		recorded := `{"ports":[{"port":53,"protocol":"TCP"}]}`
		local := `{"ports":[{"port":53,"protocol":"TCP"},{"port":53,"protocol":"UDP","name":"dns-udp"}]}`
		live := `{"ports":[{"port":53,"protocol":"TCP","name":"dns"}]}`

		_, err := sp.Apply([]byte(recorded), []byte(local), []byte(live), true)
		Expect(err).To(MatchError(ContainSubstring("port,protocol")), "strategicpatch looks for one field named \"port,protocol\"")

		Expect(merge(recorded, local, live)).To(Equal(
			`{"ports":[{"name":"dns","port":53,"protocol":"TCP"},{"name":"dns-udp","port":53,"protocol":"UDP"}]}`))
	})

	It("multi-field merge keys: removing one protocol removes exactly that item", func() {
		recorded := `{"ports":[{"port":53,"protocol":"TCP"},{"port":53,"protocol":"UDP"}]}`
		local := `{"ports":[{"port":53,"protocol":"TCP"}]}`
		live := `{"ports":[{"port":53,"protocol":"TCP"},{"port":53,"protocol":"UDP"},{"port":80,"protocol":"TCP"}]}`
		Expect(merge(recorded, local, live)).To(Equal(
			`{"ports":[{"port":53,"protocol":"TCP"},{"port":80,"protocol":"TCP"}]}`))
	})

	It("duplicate keys in live: ply merges into the first, keeps the rest, and deletes all copies of a deleted key, as strategicpatch does", func() {
		live := `{"routes":[{"name":"a","target":"x"},{"name":"b","target":"y"},{"name":"a","target":"z"}]}`
		for _, c := range [][3]string{
			{`{"routes":[{"name":"a"}]}`, `{"routes":[{"name":"a","target":"new"}]}`,
				`{"routes":[{"name":"a","target":"new"},{"name":"a","target":"z"},{"name":"b","target":"y"}]}`},
			{`{"routes":[{"name":"a"},{"name":"b"}]}`, `{"routes":[{"name":"b"}]}`,
				`{"routes":[{"name":"b","target":"y"}]}`},
		} {
			res, err := sp.Apply([]byte(c[0]), []byte(c[1]), []byte(live), true)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(jsonv.MustDecode(string(res.Object)).JSON())).To(Equal(c[2]), "strategicpatch")
			Expect(merge(c[0], c[1], live)).To(Equal(c[2]), "ply")
		}
	})

	It("duplicate keys in live, every gate off (UniqueMergeKeys): ply pairs them as strategicpatch does and leaves what it leaves", func() {
		// With the gate on, ply merges local's item into live's first "a".
		// Off, as kubectl: its sort pairs local's item of "a" with the last
		// of live's two (a short list's sort reverses equal keys), finds no
		// difference and sends nothing, so live's first "a" keeps its target.
		live := `{"routes":[{"name":"a","target":"x"},{"name":"a","target":"z"}]}`
		local := `{"routes":[{"name":"a","target":"z"}]}`
		for _, recorded := range []string{`null`, local} {
			var rec []byte
			if recorded != `null` {
				rec = []byte(recorded)
			}
			res, err := sp.Apply(rec, []byte(local), []byte(live), true)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(jsonv.MustDecode(string(res.Object)).JSON())).To(Equal(live), "strategicpatch")
			got, err := apply.Merge(jsonv.MustDecode(recorded), jsonv.MustDecode(local), jsonv.MustDecode(live),
				apply.Options{Schema: schema, TypeName: "dev.ply.test.v1.Server", Overwrite: true, Gates: features.Kubectl()})
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got.Object.JSON())).To(Equal(live), "ply, every gate off")
			got, err = apply.Merge(jsonv.MustDecode(recorded), jsonv.MustDecode(local), jsonv.MustDecode(live),
				apply.Options{Schema: schema, TypeName: "dev.ply.test.v1.Server", Overwrite: true, Gates: features.Kubectl().With(features.UniqueMergeKeys, true)})
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got.Object.JSON())).To(Equal(`{"routes":[{"name":"a","target":"z"},{"name":"a","target":"z"}]}`), "ply, UniqueMergeKeys on")
		}
	})

	It("duplicate keys in local: strategicpatch merges them silently, ply refuses with both items named", func() {
		local := `{"routes":[{"name":"a","target":"1"},{"name":"a","target":"2"}]}`
		_, err := sp.Apply(nil, []byte(local), []byte(`{}`), true)
		Expect(err).NotTo(HaveOccurred())
		_, err = apply.Merge(jsonv.MustDecode(`null`), jsonv.MustDecode(local), jsonv.MustDecode(`{}`),
			apply.Options{Schema: schema, TypeName: "dev.ply.test.v1.Server", Overwrite: true})
		var e interface{ Error() string }
		Expect(errors.As(err, &e)).To(BeTrue())
		Expect(err).To(MatchError("local routes[name=a]: duplicate merge key: items 0 and 1 are both routes[name=a]"))
	})

	It("multi-field merge keys with every gate off: one field named \"port,protocol\", and ply fails as strategicpatch does", func() {
		recorded := `{"ports":[{"port":53,"protocol":"TCP"}]}`
		local := `{"ports":[{"port":53,"protocol":"TCP"},{"port":53,"protocol":"UDP","name":"dns-udp"}]}`
		live := `{"ports":[{"port":53,"protocol":"TCP","name":"dns"}]}`
		_, err := sp.Apply([]byte(recorded), []byte(local), []byte(live), true)
		Expect(err).To(MatchError(ContainSubstring("port,protocol")))
		_, err = apply.Merge(jsonv.MustDecode(recorded), jsonv.MustDecode(local), jsonv.MustDecode(live),
			apply.Options{Schema: schema, TypeName: "dev.ply.test.v1.Server", Overwrite: true, Gates: features.Kubectl()})
		Expect(err).To(MatchError(ContainSubstring(`no merge key field "port,protocol"`)))
	})

	It("duplicate merge keys in local, every gate off (UniqueMergeKeys): TCP and UDP on one containerPort under kubectl's key merge as kubectl merges them", func() {
		// strategicpatch pairs recorded's TCP port with local's UDP one (its
		// sort reverses the two), sends both, and the server merges both
		// into live's one port 53: the TCP one, last written, stays.
		deployment := func(ports string) string {
			return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"dns"},"spec":{"template":{"spec":{"containers":[{"name":"dns","ports":` + ports + `}]}}}}`
		}
		recorded := deployment(`[{"containerPort":53,"protocol":"TCP","name":"dns-tcp"}]`)
		local := deployment(`[{"containerPort":53,"protocol":"TCP","name":"dns-tcp"},{"containerPort":53,"protocol":"UDP","name":"dns-udp"}]`)
		o, err := oracle.DefaultV3For("io.k8s.api.apps.v1.Deployment")
		Expect(err).NotTo(HaveOccurred())
		res, err := o.Apply([]byte(recorded), []byte(local), []byte(recorded), true)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(jsonv.MustDecode(string(res.Object)).JSON())).To(Equal(string(jsonv.MustDecode(recorded).JSON())), "strategicpatch drops the UDP port")

		got, err := apply.Merge(jsonv.MustDecode(recorded), jsonv.MustDecode(local), jsonv.MustDecode(recorded),
			apply.Options{Overwrite: true, Gates: features.Kubectl()})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got.Object.JSON())).To(Equal(string(jsonv.MustDecode(recorded).JSON())), "ply, every gate off")

		_, err = apply.Merge(jsonv.MustDecode(recorded), jsonv.MustDecode(local), jsonv.MustDecode(recorded),
			apply.Options{Overwrite: true, Gates: features.Kubectl().With(features.UniqueMergeKeys, true)})
		Expect(err).To(MatchError(ContainSubstring("duplicate merge key: items 0 and 1 are both")), "UniqueMergeKeys on")
	})

})
