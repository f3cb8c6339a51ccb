// Package patch applies a strategic merge patch (design documents 001,
// 000, 002 and 004) to a live object as the API server does with
// k8s.io/apimachinery's strategicpatch, or with list order by the design
// documents (Options.Ordering):
//
//	Apply(live, patch, Options) / ApplyType(live, patch, rootType)
//	ApplyTypeOrdered(live, patch, rootType, OrderSeed|OrderKubectl)
//
// The patch is one more source of the collator (internal/collate), which
// reads it by the rules of its format (package format: the directives and
// the rejection rules). OrderKubectl gives strategicpatch's object, list order included,
// wherever strategicpatch defines one, but for the deliberate differences,
// each a feature gate (pkg/features). Errors are *elements.Error naming
// the source (elements.Patch, or elements.Live for live data the patch
// cannot apply to) and the path. The rules in full: docs/patches.md,
// "Applying a patch: the rules in full".
package patch
