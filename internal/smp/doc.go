// Package smp is the wire format of kubectl's strategic merge patch: the
// directive keys, and how kubectl renders and sorts merge keys and scalars
// (KeyString, SortScalars). What a patch says is computed by
// internal/delta.
package smp
