package cli

import (
	"io"
	"slices"
	"strconv"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/plyproject/ply/cmd/internal/kubeflags"
	"github.com/plyproject/ply/pkg/cluster"
)

// listing holds the resulting objects of an apply printed with an -o
// format that kubectl apply prints once, at the end (every format but
// name): the objects applied, in input order, and the objects pruned.
type listing struct {
	// total is the number of objects of the input: kubectl prints one
	// object alone when the input holds one, a v1 List otherwise.
	total int
	// items are the objects applied, in input order: index holds the
	// input index of each (apply --wait prints a stage's results ahead
	// of the objects before them in the input).
	items  []unstructured.Unstructured
	index  []int
	pruned []prunedObject
}

// add adds u, the object of input index i, to the items.
func (l *listing) add(i int, u *unstructured.Unstructured) {
	at, _ := slices.BinarySearch(l.index, i)
	l.index = slices.Insert(l.index, at, i)
	l.items = slices.Insert(l.items, at, *u)
}

// prunedObject is an object pruned and what names it in messages.
type prunedObject struct {
	what   string
	object *unstructured.Unstructured
}

// listsObjects reports whether kubectl apply prints the objects of the
// print flags at the end, as one object or a v1 List (every -o format but
// name), rather than one by one as they are applied (-o name).
func listsObjects(f *kubeflags.PrintFlags) bool {
	return f.Wanted() && f.Output != "name"
}

// printList prints the objects of the listing as kubectl apply does: the
// one object of an input of one, else a List (apiVersion v1) of the
// objects applied in input order, then each object pruned on its own.
// The objects that failed are left out: their errors are on stderr.
func (p *applyPrinter) printList() {
	l := p.list
	switch {
	case l.total == 1 && len(l.items) == 1:
		p.printObject(objectName(&l.items[0]), &l.items[0])
	case len(l.items) > 0:
		list := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{}}}
		list.Items = l.items
		p.printObject("the List of the objects applied", list)
	}
	for _, o := range l.pruned {
		p.printObject(o.what, o.object)
	}
}

// objectName is kind/name of u, for messages.
func objectName(u *unstructured.Unstructured) string {
	return u.GetKind() + "/" + u.GetName()
}

// bareDryRun is the value of a --dry-run given without one, as kubectl's
// NoOptDefVal: "--dry-run p3.yaml" does not take p3.yaml as the mode.
const bareDryRun = "unchanged"

// parseDryRun reads --dry-run as kubectl apply reads it: none, client or
// server; bare, client with kubectl's deprecation warning; a boolean,
// client (true) or none (false), also with its warning.
func parseDryRun(s string, stderr io.Writer) (cluster.DryRun, error) {
	if s == bareDryRun {
		io.WriteString(stderr, "Warning: --dry-run is deprecated and can be replaced with --dry-run=client.\n")
		return cluster.DryRunClient, nil
	}
	if b, err := strconv.ParseBool(s); err == nil {
		to := cluster.DryRunNone
		if b {
			to = cluster.DryRunClient
		}
		io.WriteString(stderr, "Warning: --dry-run="+s+" is deprecated (boolean value) and can be replaced with --dry-run="+to.String()+".\n")
		return to, nil
	}
	return cluster.ParseDryRun(s)
}
