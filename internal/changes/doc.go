// Package changes lists what a merge changes in the live object: after
// Phase 2 has stored an Outcome in every node it decided, Collect compares
// each outcome with live and reports the outermost paths where they differ,
// with the operation and the source that decided it.
package changes
