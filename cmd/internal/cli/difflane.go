package cli

import (
	"errors"

	"github.com/plyproject/ply/pkg/cluster"
)

// lanes sets the dry run and the lane options of opts from diff's flags:
// --server-side (true: the server's dry run of the write; false: the local
// merge; auto: the server's dry run, each object in the lane apply
// --server-side=auto would apply it in), --server-side-apply (the
// server-side lane for every object), --large-objects and
// --force-conflicts, refusing the combinations apply refuses.
func (f *diffFlags) lanes(opts *cluster.Options) error {
	var err error
	if opts.LargeObjects, err = cluster.ParseLargeObjects(f.largeObjects); err != nil {
		return err
	}
	lane, err := cluster.ParseLane(f.serverSide)
	if err != nil {
		return err
	}
	opts.DryRun = cluster.DryRunServer
	switch {
	case lane == cluster.LaneClientSide:
		opts.DryRun = cluster.DryRunClient
	case lane == cluster.LaneAuto:
		opts.Lane = cluster.LaneAuto
	}
	switch {
	case f.serverSideApply && lane == cluster.LaneClientSide:
		return errors.New("--server-side-apply diffs against the server's dry run: it cannot be used with --server-side=false")
	case f.serverSideApply && lane == cluster.LaneAuto:
		return errors.New("--server-side-apply diffs every object server-side: it cannot be used with --server-side=auto")
	case f.force && (f.serverSideApply || lane == cluster.LaneAuto):
		return errors.New("--force cannot be used with --server-side-apply or --server-side=auto")
	case f.forceConflicts && !f.serverSideApply && lane != cluster.LaneAuto:
		return errors.New("--force-conflicts only works with --server-side-apply or --server-side=auto")
	case f.serverSideApply:
		opts.Lane = cluster.LaneServerSide
	}
	opts.ForceConflicts = f.forceConflicts
	return nil
}

// laneLine is the line naming the lane d was diffed in:
// "# configmap/web: server-side".
func laneLine(d cluster.DiffResult) string {
	return "# " + d.Ref.String() + ": " + d.Lane.Word() + "\n"
}
