// Package patch applies a strategic merge patch (the format of design
// document 001, with the $setElementOrder rules of 000, $retainKeys of 002
// and multi-field merge keys of 004) to a live object, the way the API
// server does with k8s.io/apimachinery's strategicpatch (or as the design
// documents order lists: Options.Ordering) — without a second
// engine: the patch is collated into the internal/elements tree as a source
// (the patch's values in Values.Local, live's in Values.Live, source name
// elements.Patch in errors) whose directives become each node's
// elements.PatchMeta, and the tree is decided by Visitor through
// internal/strategy's single dispatch point (strategy.Options.Patch).
//
//	Apply(live, patch, Options) / ApplyType(live, patch, rootType)
//	ApplyTypeOrdered(live, patch, rootType, OrderSeed|OrderKubectl)
//
// # Semantics
//
// Options.Ordering chooses the order of merged lists; which items they
// hold, and every other part of the result, does not depend on it:
//
//   - OrderSeed (the zero value) follows design document 000 exactly.
//   - OrderKubectl gives, wherever strategicpatch.StrategicMergePatch
//     defines a result, the same object, list order included (the
//     differential suite in test/patchdiff checks this on generated cases;
//     the fixtures under testdata/ are cross-checked in oracle_test.go),
//     but for the deliberate differences listed below.
//
// The fixtures record result (OrderKubectl, and OrderSeed when the two
// agree) and seedResult (OrderSeed) where they differ. The rules:
//
//   - Maps merge field by field; null deletes a field; a value of another
//     kind than live's (or for a field live lacks) is taken from the patch.
//   - "$patch: replace" on a map: the map is the patch's (minus directives).
//     "$patch: delete" on a map deletes the field, as document 001 says
//     (strategicpatch leaves an empty map: see below). A map holding
//     "$patch" for a field live lacks is dropped. "$patch: merge" is
//     rejected where strategicpatch rejects it (a map live has, a list
//     item): merging is a schema strategy.
//   - Lists with strategy merge: maps are matched by merge key, scalars are
//     a set. "$patch: delete" items delete every live item with their key
//     (duplicates included; a key live lacks is a no-op); a "$patch:
//     replace" item makes the other items replace live's list.
//   - Order of a merged list without "$setElementOrder": the patch's items
//     in patch order merged with the live-only items in live order, a
//     live-only item going first when its live position is lower than the
//     patch item's. Items live lacks: OrderSeed ranks a new item with the
//     next patch item live has, after every live-only item when there is
//     none (000: patch order first, then live order, "else append to the
//     end"); OrderKubectl, as strategicpatch, puts new items before the
//     live-only items they meet.
//   - "$setElementOrder/<field>": OrderSeed puts the live items it does
//     not name first, in live order, then the items it names in its order
//     (000: "they will come before all elements defined in
//     $setElementOrder, but keep their relative ordering"; its "C D E A B"
//     and env/finalizers examples). OrderKubectl, as strategicpatch, sorts
//     the named items by it and merges the others in by their position in
//     the server's view of live's list (live after the in-place deletions,
//     with the first new items in the freed slots).
//   - "$deleteFromPrimitiveList/<field>" removes every occurrence of its
//     values after the merge and ordering, from merged sets and, as in
//     strategicpatch, from lists without merge strategy too.
//   - "$retainKeys" clears every live field it does not list, on any map.
//   - A list without merge strategy, a map with strategy replace, and any
//     list or map without schema are taken from the patch whole; kinds the
//     schema does not know are patched as JSON merge patches.
//   - Multi-field merge keys: strategicpatch knows single-field keys only;
//     ply matches items (and "$patch: delete" items and $setElementOrder
//     entries) on the whole key tuple, a key field an item leaves out
//     taking the schema's key default (protocol: TCP) as internal/collate does.
//     With a single-field key the two agree.
//
// # Rejection rules
//
// Errors are *elements.Error with Source elements.Patch and the path of
// the map or list concerned: $setElementOrder whose relative order
// contradicts the patch list, or that lacks an item of the patch list (an
// empty $setElementOrder with patch items included; as in strategicpatch,
// a "$patch: replace" item after the last matched one counts as lacking);
// $setElementOrder for a list with no items in live or in the patch (as
// strategicpatch, which cannot tell what such a list holds); $retainKeys that
// omits a field the patch sets to a non-null value; an unknown "$patch"
// value; "$patch: merge" (see above); $deleteFromPrimitiveList on a list of
// objects or on a field that is not a list; $setElementOrder for a list the
// schema does not merge, or whose entries are not scalars (sets) or objects
// with the merge key (lists of maps); a non-scalar item among scalars
// ("$patch" inside a list of scalars); a "$patch: delete" item or a patch
// item lacking the merge key; two patch items with one key; malformed
// directive values ($retainKeys not a list of strings, $setElementOrder or
// $deleteFromPrimitiveList not a list); a patch value whose kind the schema
// rules out (a list for an object); nesting deeper than Options.MaxDepth
// (default parse.DefaultMaxDepth) — checked while collating, also below
// values taken whole, so values built in memory cannot exhaust the stack.
// Live data the patch cannot be applied to is blamed on elements.Live:
// items of a merged list without the merge key, or of mixed kinds.
//
// # Deliberate differences from strategicpatch
//
// Under either ordering (OrderSeed's list order aside):
//
//   - "$patch: delete" on a map live has deletes the field, as document
//     001 says ("Applying this patch will delete the rollingUpdate map");
//     strategicpatch leaves an empty map, a defect (an empty map is a
//     value, not the deletion the directive asks for; "null" and
//     "$patch: delete" now agree). The oracle cross-check drops such
//     empty maps from strategicpatch's result before comparing.
//   - Unknown "$" directives (from newer clients, e.g. "$position") are
//     dropped, as the format's forward-compatibility rule requires;
//     strategicpatch keeps them as fields (a "$" field the schema declares,
//     such as JSONSchemaProps' "$ref", is data).
//   - Results never hold null map fields (JSON null and absence are the
//     same to the API server); strategicpatch keeps live's nulls and the
//     nulls of items it appends.
//   - Values taken whole (replaced maps and lists, content live lacks) are
//     cleaned: directive keys and maps holding "$patch" are removed, nulls
//     dropped. strategicpatch copies some of them verbatim (a replaced map,
//     a new list item, a list without merge strategy).
//   - Content live lacks (a new field's map, a new list item) is merged like
//     content live has: its directives are validated and applied (for
//     instance $setElementOrder of a new item's list, and the rejection
//     rules, and a new set's duplicate values collapse); strategicpatch
//     copies such content without looking at it, so it accepts, for
//     example, an unknown "$patch" value there and drops the map.
//   - Rejected where strategicpatch is lenient or accidental:
//     $deleteFromPrimitiveList on a field the schema says is not a list
//     (ignored, or merged as a map, by strategicpatch); $setElementOrder for
//     a list without merge strategy (strategicpatch reorders a replaced list
//     of scalars and fails on one of maps); an empty $setElementOrder with
//     patch items (strategicpatch orders them with a comparator that is not
//     a strict order); duplicate keys among the patch's items (strategicpatch
//     merges them in turn); non-string $retainKeys entries.
//   - When a patch both sets a value of a set and deletes it with
//     $deleteFromPrimitiveList, the deletion wins (strategicpatch's outcome
//     depends on Go map iteration order).
//   - Live duplicates in a set the patch adds to collapse to their first
//     occurrence, ranked there; strategicpatch deduplicates in place in a
//     backing array it may share with live's list, so its order then
//     depends on slice capacities and Go map iteration order. (A set the
//     patch only reorders keeps its duplicates, as in strategicpatch.)
//     Stale slots of the server's view (left by deletions when a "$patch:
//     replace" item is present) are not ranked.
package patch
