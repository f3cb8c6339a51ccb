package cluster

import "context"

// diffLane returns the lane Diff diffs t in: the server-side lane (the
// server's dry-run answer to the server-side apply) under LaneServerSide;
// under a server dry run, the lane Apply would apply t in (laneOf: with
// LaneAuto the lane it was last applied in, which reads the live object
// and keeps it in t.pre for the diff; an object over the annotation limit
// server-side unless Options.LargeObjects keeps it client-side); with the
// local merge of LaneClientSide (DryRunClient), the client-side lane.
func (c *Client) diffLane(ctx context.Context, t *target) (Lane, error) {
	switch {
	case c.opts.Lane == LaneServerSide:
		return LaneServerSide, nil
	case c.opts.Lane == LaneClientSide && c.opts.DryRun != DryRunServer:
		return LaneClientSide, nil
	}
	lane, _, err := c.laneOf(ctx, t)
	return lane, err
}
