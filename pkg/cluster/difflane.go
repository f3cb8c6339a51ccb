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

// diffIfServerSide diffs t server-side when diffLane chooses the
// server-side lane, and reports whether it did (or the choice failed: d
// then holds the error). Otherwise d is for the client-side lane, whose
// Lane is the zero value.
func (c *Client) diffIfServerSide(ctx context.Context, d DiffResult, t *target) (DiffResult, bool) {
	lane, err := c.diffLane(ctx, t)
	switch {
	case err != nil:
		d.Err = err
		return d, true
	case lane == LaneServerSide:
		d.Lane = lane
		return c.diffServerSide(ctx, d, *t), true
	}
	return d, false
}
