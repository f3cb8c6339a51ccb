package cli

import (
	"context"
	"errors"
	"io"
	"strconv"
	"time"

	"github.com/spf13/pflag"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/plyproject/ply/cmd/internal/command"
	"github.com/plyproject/ply/pkg/cluster"
)

// pruneFlags are apply's pruning flags, named and checked as kubectl's.
type pruneFlags struct {
	prune     bool
	applySet  string
	tooling   string
	all       bool
	allowlist []string
	cascade   string
	// lockTimeout is how long a run waits for the lease another run
	// holds on its ApplySet.
	lockTimeout time.Duration
}

// register adds the pruning flags to fs.
func (f *pruneFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.prune, "prune", false, "delete the objects a previous apply created that the manifests no longer hold: the members of\n"+
		"--applyset, or (kubectl's older form) those matching -l or --all of the --prune-allowlist kinds")
	fs.StringVar(&f.applySet, "applyset", "", "the ApplySet that tracks the applied objects, for --prune: [RESOURCE][.GROUP]/NAME;\n"+
		"a Secret when no resource is given (see docs/cluster.md)")
	fs.StringVar(&f.tooling, "applyset-tooling", "", "the tooling annotation to write on the --applyset parent: ply/VERSION or kubectl/VERSION\n"+
		"(default: kubectl's value on a set kubectl manages, else ply's); kubectl/... hands the set over to kubectl")
	fs.BoolVar(&f.all, "all", false, "with --prune and no --applyset: select every object of the --prune-allowlist kinds")
	fs.StringArrayVar(&f.allowlist, "prune-allowlist", nil, "with --prune and no --applyset: a group/version/Kind to prune instead of kubectl's default list (repeatable)")
	fs.StringVar(&f.cascade, "cascade", "background", `the deletion propagation of pruned objects: "background", "foreground" or "orphan"`)
	fs.DurationVar(&f.lockTimeout, "lock-timeout", cluster.DefaultLockTimeout, "with --applyset, how long to wait while another run holds the lease on the set\n"+
		"(0: fail at once); nothing is written before the lease is taken")
}

// options checks the pruning flags (selector is -l) and returns what
// ApplyPrune needs, nil without --prune.
func (f *pruneFlags) options(selector string, stderr io.Writer) (*cluster.Prune, error) {
	policy, err := cascade(f.cascade, stderr)
	if err != nil {
		return nil, err
	}
	switch {
	case f.applySet != "" && !f.prune:
		return nil, errors.New("--applyset requires --prune")
	case f.tooling != "" && f.applySet == "":
		return nil, errors.New("--applyset-tooling requires --applyset")
	case f.all && selector != "":
		return nil, errors.New("cannot set --all and --selector at the same time")
	case !f.prune && (f.all || len(f.allowlist) > 0):
		return nil, errors.New("--all and --prune-allowlist require --prune")
	case f.lockTimeout < 0:
		return nil, errors.New("--lock-timeout must not be negative, not " + f.lockTimeout.String())
	case !f.prune:
		return nil, nil
	}
	p := &cluster.Prune{ApplySet: f.applySet, Tooling: f.tooling, Selector: selector, All: f.all, Propagation: policy,
		Lock: cluster.Lock{Timeout: f.lockTimeout}}
	if f.lockTimeout == 0 {
		p.Lock.Timeout = -1 // cluster.Lock's "do not wait"
	}
	if f.applySet != "" {
		switch {
		case f.all:
			return nil, errors.New("--all is incompatible with --applyset")
		case selector != "":
			return nil, errors.New("--selector is incompatible with --applyset")
		case len(f.allowlist) > 0:
			return nil, errors.New("--prune-allowlist is incompatible with --applyset")
		}
		if f.tooling != "" {
			if err := cluster.CheckTooling(f.tooling); err != nil {
				return nil, errors.New("--applyset-tooling: " + err.Error())
			}
		}
		return p, nil
	}
	if !f.all && selector == "" {
		return nil, errors.New("all resources selected for prune without explicitly passing --all. To prune all resources, pass the --all flag. " +
			"If you did not mean to prune all resources, specify a label selector")
	}
	for _, s := range f.allowlist {
		gvk, err := cluster.ParsePruneKind(s)
		if err != nil {
			return nil, err
		}
		p.Allowlist = append(p.Allowlist, gvk)
	}
	return p, nil
}

// cascade parses --cascade as kubectl does, its deprecated boolean values
// included (with a warning).
func cascade(s string, stderr io.Writer) (metav1.DeletionPropagation, error) {
	switch s {
	case "background":
		return metav1.DeletePropagationBackground, nil
	case "foreground":
		return metav1.DeletePropagationForeground, nil
	case "orphan":
		return metav1.DeletePropagationOrphan, nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return "", errors.New(`invalid cascade value (` + s + `). Must be "background", "foreground", or "orphan"`)
	}
	to := "orphan"
	if b {
		to = "background"
	}
	io.WriteString(stderr, "warning: --cascade="+s+" is deprecated (boolean value) and can be replaced with --cascade="+to+".\n")
	if b {
		return metav1.DeletePropagationBackground, nil
	}
	return metav1.DeletePropagationOrphan, nil
}

// applyPrune applies objs and prunes as p says, the outcomes going to
// printer (through the client's Report); a run-level error (a refused
// parent, pruning skipped after a failure) is printed last and makes the
// exit code at least command.ExitFailed.
func applyPrune(ctx context.Context, cl *cluster.Client, objs []cluster.Object, p cluster.Prune, printer *applyPrinter) []cluster.Outcome {
	if p.ApplySet == "" && len(p.Allowlist) == 0 {
		io.WriteString(printer.stderr, cluster.LegacyClusterScopedWarning+"\n")
	}
	p.Notify = func(line string) {
		printer.mu.Lock()
		defer printer.mu.Unlock()
		io.WriteString(printer.stderr, line+"\n")
	}
	outs, err := cl.ApplyPrune(ctx, objs, p)
	if err == nil {
		return outs
	}
	printer.mu.Lock()
	defer printer.mu.Unlock()
	io.WriteString(printer.stderr, "error: "+oneLine(err.Error())+"\n")
	if printer.code == command.ExitOK {
		printer.code = command.ExitFailed
	}
	return outs
}
