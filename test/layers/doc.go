// Package layers checks the floors of ply's package tree: every package of the module is assigned to one floor, and no
// package imports one on a floor above its own. The floors, bottom up:
//
//  0. the value model and parsing: pkg/value, pkg/fieldpath, pkg/features, pkg/parse;
//  1. schemas: openapi and its internal packages;
//  2. the engine: pkg/elements, pkg/collate, pkg/visitors, pkg/strategy and internal/ (list order, patch
//     production, the change list, the wire format, the front-ends' shared checks);
//  3. the front-ends: pkg/apply, pkg/patch, pkg/patchgen, pkg/strategicpatch, and the object conventions they share
//     with the cluster client (pkg/secrets: masking a Secret's values; pkg/lastapplied: kubectl's annotation);
//  4. the cluster client: pkg/cluster;
//  5. the commands: cmd/.
//
// Test code (test/, *_test.go) and other modules (examples/extend) are not on a floor.
package layers
