package cli

import (
	"errors"
	"flag"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/plyproject/ply/pkg/cluster"
)

// Exit codes of the cluster commands.
const (
	ExitOK       = 0
	ExitFailed   = 1 // apply: an object failed or the input is bad; diff: differences found
	ExitUsage    = 2 // unknown flag, missing -f, bad flag value; diff: any error
	ExitConflict = 3 // apply: a conflict with changes made on the server (--overwrite=false)
)

// fileList is a repeatable -f flag.
type fileList []string

func (f *fileList) String() string { return strings.Join(*f, ",") }

// Set adds a path; like kubectl, one value may list several separated by
// commas.
func (f *fileList) Set(s string) error {
	for _, p := range strings.Split(s, ",") {
		if p == "" {
			return errors.New("empty path")
		}
		*f = append(*f, p)
	}
	return nil
}

// commonFlags are the flags apply and diff share.
type commonFlags struct {
	files      fileList
	recursive  bool
	namespace  string
	kubeconfig string
	context    string
	overwrite  bool
	ordering   string
	workers    int
	gates      GateFlags
}

// register adds the common flags to fs.
func (f *commonFlags) register(fs *flag.FlagSet) {
	for _, n := range [...]string{"f", "filename"} {
		fs.Var(&f.files, n, "a `file or folder` of manifests, or - for standard input (repeatable)")
	}
	for _, n := range [...]string{"R", "recursive"} {
		fs.BoolVar(&f.recursive, n, false, "also read the sub-folders of the -f folders")
	}
	for _, n := range [...]string{"n", "namespace"} {
		fs.StringVar(&f.namespace, n, "", "the `namespace` of namespaced objects (default: the context's, else default)")
	}
	fs.StringVar(&f.kubeconfig, "kubeconfig", "", "the kubeconfig `file` (default: $KUBECONFIG, else ~/.kube/config)")
	fs.StringVar(&f.context, "context", "", "the kubeconfig `context` (default: the current context)")
	fs.BoolVar(&f.overwrite, "overwrite", true, "let local win over changes made on the server; false: conflicts fail the object")
	fs.StringVar(&f.ordering, "ordering", "seed", "order of merged list items: seed (server-only items first) or kubectl (as kubectl apply);\n"+
		"kubectl whenever the SeedOrdering gate is off")
	fs.IntVar(&f.workers, "workers", cluster.DefaultWorkers, "the number of objects applied concurrently")
	f.gates.Register(fs)
}

// options checks the common flags, parsed by fs, and returns the cluster
// options they set.
func (f *commonFlags) options(fs *flag.FlagSet) (cluster.Options, error) {
	opts := cluster.Options{
		Kubeconfig: f.kubeconfig, Context: f.context, Namespace: f.namespace,
		Overwrite: f.overwrite, Workers: f.workers,
	}
	var err error
	if opts.Gates, err = f.gates.Gates(); err != nil {
		return opts, err
	}
	if opts.Ordering, err = Ordering(fs, f.ordering, opts.Gates); err != nil {
		return opts, err
	}
	if f.workers < 1 {
		return opts, errors.New("--workers must be at least 1, not " + strconv.Itoa(f.workers))
	}
	if len(f.files) == 0 {
		return opts, errors.New("must specify one of -f and -k (-f FILE|DIR|-; -k is not supported)")
	}
	return opts, nil
}

// newFlagSet returns a silent flag set: the commands print errors and
// usage themselves.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// writeUsage writes head, the flags of fs and the feature gates to w.
func writeUsage(w io.Writer, head string, fs *flag.FlagSet) {
	io.WriteString(w, head)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	io.WriteString(w, GatesHelp())
}

// usageError reports a usage error of the command prog and returns
// ExitUsage.
func usageError(stderr io.Writer, prog, msg string) int {
	io.WriteString(stderr, "error: "+msg+"\nRun '"+prog+" -h' for usage.\n")
	return ExitUsage
}

// newClient creates the client of the commands; tests replace it.
var newClient = cluster.NewFromKubeconfig

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// oneLine joins the lines of msg with "; " so each error is one line.
func oneLine(msg string) string {
	lines := strings.FieldsFunc(msg, func(r rune) bool { return r == '\n' || r == '\r' })
	return strings.Join(lines, "; ")
}
