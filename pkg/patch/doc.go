// Package patch applies a strategic merge patch (the format of design
// document 001, with the $setElementOrder rules of 000, $retainKeys of 002
// and multi-field merge keys of 004) to a live object, the way the API
// server does with k8s.io/apimachinery's strategicpatch (or as the design
// documents order lists: Options.Ordering) — without a second engine: the
// patch is a source of the one collator (internal/collate, its values in
// Values.Local, source name elements.Patch in errors), this package being
// the format it reads the patch with (format.go: the directives, taken
// out of the data into elements.Directives, and the rejection rules); the
// tree is decided by the merge's visitors through the one dispatch point,
// and list order by internal/order.
//
//	Apply(live, patch, Options) / ApplyType(live, patch, rootType)
//	ApplyTypeOrdered(live, patch, rootType, OrderSeed|OrderKubectl)
//
// OrderSeed (the zero value) follows design document 000; OrderKubectl
// gives, wherever strategicpatch defines a result, the same object, list
// order included, but for the deliberate differences, each a feature gate
// (pkg/features; all off: features.Kubectl()). Errors are *elements.Error
// naming the source (elements.Patch, or elements.Live for live data the
// patch cannot apply to) and the path. The semantics, the rejection rules
// and the deliberate differences in full: docs/patches.md, "Applying a
// patch: the rules in full".
package patch
