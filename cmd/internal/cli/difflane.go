package cli

import (
	"errors"
	"strconv"

	"github.com/plyproject/ply/pkg/cluster"
)

// lane sets the lane of diff's opts from --server-side-apply: false, the
// client-side lane's merge; true, the server's dry-run answer to the
// server-side apply patch; auto, each object in the lane apply
// --server-side=auto would apply it in (so that its plan, -o json, is the
// one apply --server-side=auto --plan holds). It refuses what the lanes
// cannot diff: a server-side lane without the server's dry run
// (--server-side=false), or with --force; --force-conflicts without one.
func (f *diffFlags) lane(opts *cluster.Options) error {
	lane, err := cluster.ParseLane(f.serverSideApply)
	if err != nil {
		return errors.New("invalid --server-side-apply value " + strconv.Quote(f.serverSideApply) + ", want true, false or auto")
	}
	switch {
	case lane != cluster.LaneClientSide && !f.serverSide:
		return errors.New("--server-side-apply diffs against the server's dry run: it cannot be used with --server-side=false")
	case lane != cluster.LaneClientSide && f.force:
		return errors.New("--force cannot be used with --server-side-apply")
	case f.forceConflicts && lane == cluster.LaneClientSide:
		return errors.New("--force-conflicts only works with --server-side-apply")
	}
	opts.Lane, opts.ForceConflicts = lane, f.forceConflicts
	return nil
}

// laneLine is the line naming the lane d was diffed in:
// "# configmap/web: server-side".
func laneLine(d cluster.DiffResult) string {
	return "# " + d.Ref.String() + ": " + d.Lane.Word() + "\n"
}
