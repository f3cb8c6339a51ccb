package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/plyproject/ply/pkg/cluster"
	"github.com/plyproject/ply/pkg/parse"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/harness"
)

// bulkConfigMaps returns ConfigMaps named prefix-NNN for n in [from, to),
// each with data version=version.
func bulkConfigMaps(prefix string, from, to int, version string) []cluster.Object {
	GinkgoHelper()
	var sb strings.Builder
	for i := from; i < to; i++ {
		fmt.Fprintf(&sb, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s-%03d\ndata:\n  version: %q\n  index: %q\n", prefix, i, version, fmt.Sprint(i))
	}
	objs, err := cluster.ParseObjects("bulk.yaml", []byte(sb.String()))
	Expect(err).NotTo(HaveOccurred())
	return objs
}

// bulkApply applies objs to ns through c and returns the outcomes.
func bulkApply(c *cluster.Client, objs []cluster.Object) []cluster.Outcome {
	GinkgoHelper()
	outs := c.Apply(context.Background(), objs)
	Expect(outs).To(HaveLen(len(objs)))
	for _, o := range outs {
		Expect(o.Err).NotTo(HaveOccurred(), "%s", o.Ref)
	}
	return outs
}

// requests counts the proxy's GETs of the ConfigMaps of ns: lists (the
// collection) and gets (one object each, over names).
func requests(proxy *harness.Proxy, ns string, names []string) (lists, gets int) {
	lists = proxy.Count(http.MethodGet, strings.TrimSuffix(harness.ObjectPath(configMaps, ns, ""), "/"))
	for _, n := range names {
		gets += proxy.Count(http.MethodGet, harness.ObjectPath(configMaps, ns, n))
	}
	return lists, gets
}

// namesOf returns the metadata.name of each object.
func namesOf(objs []cluster.Object) []string {
	var out []string
	for _, o := range objs {
		md, _ := o.Value.Get("metadata")
		n, _ := md.Get("name")
		s, _ := n.AsString()
		out = append(out, s)
	}
	return out
}

// asValue converts an object read with client-go to a value.
func asValue(u *unstructured.Unstructured) value.Value {
	GinkgoHelper()
	data, err := u.MarshalJSON()
	Expect(err).NotTo(HaveOccurred())
	v, err := parse.Document(data)
	Expect(err).NotTo(HaveOccurred())
	return v
}

var _ = Describe("ply apply: many objects of one kind read with one LIST", func() {
	var proxy *harness.Proxy

	BeforeEach(func() {
		var err error
		proxy, err = srv.StartProxy()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(proxy.Close)
	})

	// seed applies version 1 of cm-000..039 to ns (without the proxy), so
	// that a run of cm-000..059 finds 40 existing and 30 new objects.
	seed := func(ns string) {
		GinkgoHelper()
		c, err := cluster.New(srv.Config, cluster.Options{Namespace: ns, Overwrite: true, ListThreshold: -1})
		Expect(err).NotTo(HaveOccurred())
		bulkApply(c, bulkConfigMaps("cm", 0, 40, "1"))
	}
	// run is 60 ConfigMaps: cm-000..019 unchanged, cm-020..039 changed,
	// cm-040..059 new.
	run := func() []cluster.Object {
		return append(bulkConfigMaps("cm", 0, 20, "1"), bulkConfigMaps("cm", 20, 60, "2")...)
	}

	It("reads 60 ConfigMaps with one LIST, writes as the per-object path does, and the outcomes are the same", func() {
		bulkNS, getNS := newNamespace("bulk-list-"), newNamespace("bulk-get-")
		seed(bulkNS)
		seed(getNS)
		objs := run()
		names := namesOf(objs)

		bc, err := cluster.New(proxy.Config, cluster.Options{Namespace: bulkNS, Overwrite: true})
		Expect(err).NotTo(HaveOccurred())
		bulkOuts := bulkApply(bc, objs)
		lists, gets := requests(proxy, bulkNS, names)
		Expect(lists).To(Equal(1), "one LIST reads the 60 ConfigMaps")
		Expect(gets).To(Equal(0), "no GET of a single ConfigMap")

		gc, err := cluster.New(proxy.Config, cluster.Options{Namespace: getNS, Overwrite: true, ListThreshold: -1})
		Expect(err).NotTo(HaveOccurred())
		getOuts := bulkApply(gc, objs)
		lists, gets = requests(proxy, getNS, names)
		Expect(lists).To(Equal(0), "ListThreshold -1: no LIST")
		Expect(gets).To(Equal(60), "ListThreshold -1: one GET per ConfigMap")

		counts := map[cluster.Action]int{}
		for i := range objs {
			b, g := bulkOuts[i], getOuts[i]
			Expect(b.Ref.Name).To(Equal(names[i]), "outcomes in input order")
			Expect(b.Action).To(Equal(g.Action), "%s", b.Ref)
			Expect(b.Attempts).To(Equal(1), "%s", b.Ref)
			Expect(g.Attempts).To(Equal(1), "%s", g.Ref)
			Expect(len(b.Changes)).To(Equal(len(g.Changes)), "%s", b.Ref)
			for j := range b.Changes {
				Expect(b.Changes[j].Path().String()).To(Equal(g.Changes[j].Path().String()), "%s", b.Ref)
				Expect(b.Changes[j].Op).To(Equal(g.Changes[j].Op), "%s", b.Ref)
			}
			counts[b.Action]++

			// What the server holds is the manifest in both namespaces.
			lb, lg := live(configMaps, bulkNS, names[i]), live(configMaps, getNS, names[i])
			Expect(lb.Object["data"]).To(Equal(lg.Object["data"]), "%s", b.Ref)
			Expect(lb.GetAnnotations()[cluster.LastAppliedAnnotation]).To(Equal(
				strings.ReplaceAll(lg.GetAnnotations()[cluster.LastAppliedAnnotation], getNS, bulkNS)), "%s", b.Ref)
			Expect(b.Result.IsNull()).To(BeFalse(), "%s", b.Ref)
			if b.Action == cluster.Unchanged {
				// An unchanged object's Result is the live object as read:
				// the listed item must be what a GET returns (apiVersion and
				// kind included).
				Expect(value.Equal(b.Result, asValue(lb))).To(BeTrue(), "%s: listed %s\nGET %s", b.Ref, b.Result.JSON(), asValue(lb).JSON())
				Expect(stringAt(b.Result, "apiVersion")).To(Equal("v1"))
				Expect(stringAt(b.Result, "kind")).To(Equal("ConfigMap"))
			}
		}
		Expect(counts).To(Equal(map[cluster.Action]int{cluster.Unchanged: 20, cluster.Configured: 20, cluster.Created: 20}))
	})

	It("reads an object written between the LIST and the PUT again with a GET and keeps that write", func() {
		ns := newNamespace("bulk-race-")
		seed(ns)
		objs := run()
		names := namesOf(objs)
		racePath := harness.ObjectPath(configMaps, ns, "cm-025")
		proxy.OnFirst(http.MethodPut, racePath, func(r *http.Request) error {
			return otherWriter(r.Context(), configMaps, ns, "cm-025", func(u *unstructured.Unstructured) {
				labels := u.GetLabels()
				if labels == nil {
					labels = map[string]string{}
				}
				labels["racer"] = "bulk"
				u.SetLabels(labels)
			})
		})

		c, err := cluster.New(proxy.Config, cluster.Options{Namespace: ns, Overwrite: true})
		Expect(err).NotTo(HaveOccurred())
		outs := bulkApply(c, objs)
		Expect(proxy.Fired(http.MethodPut, racePath)).To(BeTrue())
		Expect(proxy.HookErrors()).To(BeEmpty())

		lists, gets := requests(proxy, ns, names)
		Expect(lists).To(Equal(1))
		Expect(gets).To(Equal(1), "only the conflicting object is read again")
		Expect(proxy.Count(http.MethodGet, racePath)).To(Equal(1))
		for i, o := range outs {
			if names[i] == "cm-025" {
				Expect(o.Action).To(Equal(cluster.Configured))
				Expect(o.Attempts).To(Equal(2), "the 409 made a second attempt")
				Expect(proxy.Count(http.MethodPut, racePath)).To(Equal(2))
			} else {
				Expect(o.Attempts).To(Equal(1), "%s", o.Ref)
			}
		}
		u := live(configMaps, ns, "cm-025")
		Expect(u.GetLabels()).To(HaveKeyWithValue("racer", "bulk"), "the concurrent write survives")
		Expect(u.Object["data"]).To(HaveKeyWithValue("version", "2"), "and so does the apply")
	})

	DescribeTable("dry runs read with the LIST too and write nothing",
		func(mode cluster.DryRun) {
			ns := newNamespace("bulk-dry-")
			seed(ns)
			objs := run()
			names := namesOf(objs)
			before := map[string]string{}
			for _, n := range names[:40] {
				before[n] = live(configMaps, ns, n).GetResourceVersion()
			}
			c, err := cluster.New(proxy.Config, cluster.Options{Namespace: ns, Overwrite: true, DryRun: mode})
			Expect(err).NotTo(HaveOccurred())
			outs := bulkApply(c, objs)
			lists, gets := requests(proxy, ns, names)
			Expect(lists).To(Equal(1))
			Expect(gets).To(Equal(0))
			for i, o := range outs {
				want := cluster.Unchanged
				switch {
				case i >= 40:
					want = cluster.Created
				case i >= 20:
					want = cluster.Configured
				}
				Expect(o.Action).To(Equal(want), "%s", o.Ref)
			}
			for n, rv := range before {
				Expect(live(configMaps, ns, n).GetResourceVersion()).To(Equal(rv), "%s was written", n)
			}
			for _, n := range names[40:] {
				expectAbsent(configMaps, ns, n)
			}
		},
		Entry("client", cluster.DryRunClient),
		Entry("server", cluster.DryRunServer),
	)

	It("stops paging a namespace that holds far more than the run wants and reads the rest with GETs", func() {
		ns := newNamespace("bulk-crowd-")
		// 100 ConfigMaps the run does not apply, sorted before its own.
		filler, err := cluster.New(srv.Config, cluster.Options{Namespace: ns, Overwrite: true, ListThreshold: -1})
		Expect(err).NotTo(HaveOccurred())
		bulkApply(filler, bulkConfigMaps("aaa", 0, 100, "1"))
		bulkApply(filler, bulkConfigMaps("cm", 0, 10, "1"))

		objs := bulkConfigMaps("cm", 0, 20, "2")
		c, err := cluster.New(proxy.Config, cluster.Options{Namespace: ns, Overwrite: true})
		Expect(err).NotTo(HaveOccurred())
		outs := bulkApply(c, objs)
		lists, gets := requests(proxy, ns, namesOf(objs))
		Expect(lists).To(Equal(1), "one page of 4 x 20 objects, then no more")
		Expect(gets).To(Equal(20), "none of the run's objects was on that page")
		for i, o := range outs {
			want := cluster.Configured
			if i >= 10 {
				want = cluster.Created
			}
			Expect(o.Action).To(Equal(want), "%s", o.Ref)
		}
		l, err := srv.Dynamic().Resource(configMaps).Namespace(ns).List(context.Background(), metav1.ListOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(l.Items).To(HaveLen(120))
	})
})

// stringAt returns the string at path of v, "" when there is none.
func stringAt(v value.Value, path ...string) string {
	for _, p := range path {
		v, _ = v.Get(p)
	}
	s, _ := v.AsString()
	return s
}
