package cli

import (
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/cmd/internal/kubeflags"
	"github.com/plyproject/ply/pkg/cluster"
)

// fileList is a repeatable -f flag.
type fileList []string

func (f *fileList) String() string { return strings.Join(*f, ",") }

// Type names the value in the help.
func (f *fileList) Type() string { return "strings" }

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

// commonFlags are the flags apply and diff share: the input, the merge and
// kubectl's connection flags (k8s.io/cli-runtime's ConfigFlags, through
// package kubeflags, which does not link the API types cli-runtime does).
type commonFlags struct {
	files       fileList
	recursive   bool
	overwrite   bool
	ordering    string
	workers     int
	retry       time.Duration
	showSecrets bool
	manager     string
	validate    string
	// ignoreFields and ignoreManagers are the fields left to other writers.
	ignoreFields   []string
	ignoreManagers []string
	// warningsAsErrors makes a run that printed a warning fail
	// (warningsFailure); warnings counts the warnings about no one object.
	warningsAsErrors bool
	warnings         *warningWriter
	selector         string
	kustomize        string
	gates            command.GateFlags
	config           kubeflags.ConfigFlags
	verbosity        int
	cacheDir         string
}

// register adds the common flags to fs.
func (f *commonFlags) register(fs *pflag.FlagSet) {
	fs.VarP(&f.files, "filename", "f", "a `file, folder or URL` of manifests, or - for standard input (repeatable, or comma-separated)")
	fs.BoolVarP(&f.recursive, "recursive", "R", false, "also read the sub-folders of the -f folders")
	fs.StringVarP(&f.kustomize, "kustomize", "k", "", "a kustomization `directory`, built in process as kubectl apply -k builds it (instead of -f)")
	fs.StringVarP(&f.selector, "selector", "l", "", "`selector` (label query) the objects must match, as kubectl's: -l app=web, -l 'tier in (a,b)', -l '!canary'")
	fs.BoolVar(&f.overwrite, "overwrite", true, "let local win over changes made on the server; false: conflicts fail the object")
	fs.StringVar(&f.ordering, "ordering", "seed", "order of merged list items: seed (server-only items first) or kubectl (as kubectl apply);\n"+
		"kubectl whenever the SeedOrdering gate is off")
	fs.IntVar(&f.workers, "workers", cluster.DefaultWorkers, "the number of objects applied concurrently")
	fs.DurationVar(&f.retry, "retry-timeout", cluster.DefaultRetryTimeout, "how long a request that fails transiently (429, 5xx, a connection refused or reset,\n"+
		"an answer cut short, no answer within --request-timeout, else 30s) is retried; 0: not retried")
	fs.BoolVar(&f.showSecrets, "show-secrets", false, "print the values of Secrets (data, stringData and the last-applied annotation) instead of ***")
	fs.StringVar(&f.manager, "field-manager", cluster.DefaultFieldManager, "the `name` of the manager ply's writes record in managedFields (see docs/cluster.md);\n"+
		"unset: "+cluster.DefaultFieldManager+" client-side, "+cluster.DefaultServerSideFieldManager+" server-side")
	fs.StringVar(&f.validate, "validate", "strict", "the server's handling of unknown and duplicate fields: strict (or true) refuses the object,\n"+
		"warn stores it without them and warns, ignore (or false) stores it without them silently")
	fs.Lookup("validate").NoOptDefVal = "strict"
	fs.StringArrayVar(&f.ignoreFields, "ignore-field", nil, "a `rule` KIND[.GROUP]:PATH[:SELECTOR]: a field ply leaves to other writers, keeping live's value\n"+
		"(deployment.apps:spec.replicas; repeatable; per object: the annotation "+cluster.IgnoreFieldsAnnotation+")")
	fs.StringSliceVar(&f.ignoreManagers, "ignore-manager", nil, "a field `manager` (managedFields) whose fields ply leaves to it, keeping live's value\n"+
		"(kube-controller-manager; repeatable, or comma-separated)")
	fs.BoolVar(&f.warningsAsErrors, "warnings-as-errors", false, "treat the warnings printed (the server's and ply's) as errors: exit code 1 (diff: 2) after the run")
	f.gates.Register(fs)
	f.config.AddFlags(fs)
	fs.IntVarP(&f.verbosity, "v", "v", 0, "`level` of client-go's log lines on standard error: 6 each request and response (method, URL,\n"+
		"status, time), 7 also the headers (credentials masked); bodies never (kubectl prints them from 8)")
	fs.StringVar(&f.cacheDir, "cache-dir", "$HOME/.kube/cache", "accepted as kubectl's; ply keeps no discovery cache: it reads the server's\n"+
		"resources and schema once per run")
}

// options checks the common flags of c and returns the cluster options
// they set.
func (f *commonFlags) options(c *cobra.Command) (cluster.Options, error) {
	f.warnings = &warningWriter{w: c.ErrOrStderr()}
	opts := cluster.Options{
		Kubeconfig: f.config.KubeConfig, Context: f.config.Context, Namespace: f.config.Namespace,
		Overwrite: f.overwrite, Workers: f.workers, ShowSecrets: f.showSecrets,
		Warn:         f.warnings.warn,
		RetryTimeout: f.retry,
	}
	switch {
	case f.retry == 0:
		opts.RetryTimeout = -1 // no retries; zero would mean the default
	case f.retry < 0:
		return opts, errors.New("--retry-timeout must not be negative, not " + f.retry.String())
	}
	if f.verbosity < 0 {
		return opts, errors.New("-v must not be negative, not " + strconv.Itoa(f.verbosity))
	}
	setVerbosity(f.verbosity)
	var err error
	if opts.FieldValidation, err = cluster.ParseValidate(f.validate); err != nil {
		return opts, err
	}
	for _, s := range f.ignoreFields {
		rule, err := cluster.ParseIgnoreField(s)
		if err != nil {
			return opts, err
		}
		opts.IgnoreFields = append(opts.IgnoreFields, rule)
	}
	opts.IgnoreManagers = f.ignoreManagers
	if opts.Gates, err = f.gates.Gates(); err != nil {
		return opts, err
	}
	if opts.Ordering, err = command.Ordering(c.Flags(), f.ordering, opts.Gates); err != nil {
		return opts, err
	}
	if f.workers < 1 {
		return opts, errors.New("--workers must be at least 1, not " + strconv.Itoa(f.workers))
	}
	if f.manager == "" {
		return opts, errors.New("--field-manager must not be empty")
	}
	if c.Flags().Changed("field-manager") {
		// Unset, each lane has its default (see cluster.Options).
		opts.FieldManager = f.manager
	}
	switch {
	case len(f.files) == 0 && f.kustomize == "":
		return opts, errors.New("must specify one of -f and -k")
	case len(f.files) > 0 && f.kustomize != "":
		return opts, errors.New("only one of -f or -k can be specified")
	case f.kustomize != "" && f.recursive:
		return opts, errors.New("-R applies to -f folders, not to -k")
	}
	if f.selector != "" {
		if _, err := labels.Parse(f.selector); err != nil {
			return opts, errors.New("bad -l selector: " + err.Error())
		}
	}
	return opts, nil
}

// warningsFailure writes kubectl's "error: N warnings received" and
// returns true when --warnings-as-errors is set and the run printed
// warnings: objectWarnings about objects, besides those about none.
func (f *commonFlags) warningsFailure(stderr io.Writer, objectWarnings int) bool {
	n := objectWarnings + f.warnings.printed()
	if !f.warningsAsErrors || n == 0 {
		return false
	}
	noun := " warnings"
	if n == 1 {
		noun = " warning"
	}
	io.WriteString(stderr, "error: "+strconv.Itoa(n)+noun+" received\n")
	return true
}

// client creates the client of the connection flags.
func (f *commonFlags) client(opts cluster.Options) (*cluster.Client, error) {
	return newClient(f.config.ToRawKubeConfigLoader(), opts)
}

// newClient creates the client of the commands; tests replace it.
var newClient = cluster.NewFromClientConfig

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
