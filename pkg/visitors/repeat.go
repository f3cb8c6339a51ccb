package visitors

import (
	"slices"
	"strings"

	"github.com/plyproject/ply/internal/order"
	"github.com/plyproject/ply/internal/smp"
	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// A patch list naming a merge key again (elements.Repeat, gate UniqueMergeKeys off) is applied as the API server
// applies it: each later item of the key to v, the outcome of the items of its key before it, or, where the server
// takes the patch's list whole, to nothing. Phase 1 collated each repeat alone, without live (Repeat.Element).
// Ordered.repeat decides in Phase 2 what applying a repeat to v gives, as collating its item with v as live gives it;
// the walk asks the front-end for the rest (InTurn, inturn.go; Ordered.Answers holds its answers). Each item below names the function that decides it.
//
// Both modes, decided:
//   - Onto nothing (v null): the repeat's own tree's outcome (Walker.Walk), or its collation's error. In compose mode
//     (Ordered.alone) the tree is collated onto a skeleton of its maps, and its ordered lists naming a key twice keep
//     their repeats at their places in the patch; a "$patch: replace" list's repeat, collated whole, is the patch's
//     item as it stands, its "$patch" maps and items too, as strategicpatch takes it.
//   - Failing onto any outcome (Repeat.Fails: it orders by "$setElementOrder" a field it sets to other than a list):
//     its own error (in apply mode where failsAtOwnField holds), or the error a field before it meets first where
//     limitFailure tells it.
//   - Holding a "$patch: merge" map (Repeat.Merges) where v holds a map there: fails (mergeDirected).
//   - Holding empty a list it orders (elements.EmptyOrdered, deleting from it by "$deleteFromPrimitiveList" too; its
//     Repeat.Err) where v holds no items there, an empty list or none: fails with that error (emptyOrdersHeld), where
//     its tree otherwise fits onto v (apply mode: ontoFits without a map at the depth limit, Repeat.Limit, or a
//     deletion v refuses, which the collation may meet first: ontoFailure; elsewhere where limitFailure tells it, an
//     earlier field's failure first and another kind there refused as live's; compose mode: composeFailure, where the
//     item's own map holds no "$retainKeys" or "$setElementOrder" v's holds otherwise, nor a "$" field holding one in
//     its maps or failing merged onto v's, which the collation meets first, its "$" keys built before its fields:
//     ownDisagrees, then disagreesFirst's error). Onto a list with items it is
//     merged as one ordering a list it leaves out.
//
// Apply mode, failing with the error a collation with v as live gives first:
//   - deletionBesideSet (repeatmalformed.go): v a map, gate MultiFieldMergeKeys off, its own map's directive keys
//     reading without error (smp.ReadMapDirectives) but a "$deleteFromPrimitiveList/<f>" not a list beside an f the
//     map sets: format.ReadMap reads that map first and refuses the two whatever v holds at f (smp.DeletionBesideSet;
//     its own collation, without live, read no such key so).
//   - failsOnto: its collation failed at or below field Repeat.FailsAt, the fields before which are scalars or nulls
//     (Phase 1 records it with Err); v is a map lacking that field and holding no field before it a merge rule names.
//   - plainOnto: it failed by the depth limit, its fields up to FailsAt plain trees (Repeat.PlainRoom; maps before it
//     too: Repeat.MapsBefore); v's fields up to it are plain trees within the limit, holding the field or not.
//   - refusedDirectiveOnto (repeatunknown.go): its collation failed (Repeat.Err without its tree) at a directive the
//     patch alone decides, at the item's own map or reached through maps and items of lists merged by one key (v's
//     list there a list or none; the patch's items maps holding the key as a scalar, not null, and no "$patch" but
//     items deleting a key no other names, the one on the path the first of its key, those before it and v's plain keyed maps merging onto each other as
//     below: itemOnto; v's item of its key, if any, as live below): a "$patch" no merge takes (a map's of an
//     unknown value, or the first of a list merged by key's items of another value than "delete" or "replace", v
//     holding no list there, or one of maps); a map's directive keys format.ReadMap refuses (a "$retainKeys" not a list
//     of strings or not naming a field it sets, a "$setElementOrder/<f>" not a list, with gate MultiFieldMergeKeys on a
//     "$deleteFromPrimitiveList/<f>" not a list: malformedMap, repeatmalformed.go); a "$deleteFromPrimitiveList/<f>" of
//     values not of one class, or a "$setElementOrder/<f>" beside a value f the patch sets that is no list, where the
//     schema types f as other than a list, or, merged by no strategy, where the order names an object or a list or the
//     patch's list holds other than scalars of one class (listDirsRefused). Each map on the path is an object merged
//     field by field holding no "$" key but "$setElementOrder" and "$deleteFromPrimitiveList" lists of fields after the
//     path's (at its last step, of the erring value's own too, v holding a list there or none; an order of a field its
//     type declares as a list), of fields before it v lacks (an order naming items, of a list the patch sets with items
//     or not at all: nonEmptyOrder), or orders of lists merged by one key before it that v
//     holds, the patch's list (if any) merging onto v's as below, one of the two with items, an order of a list the
//     patch does not set naming distinct keys by maps holding the key alone (directivesAfter, orderedKeyedOnto), its
//     fields before the path's (by name) scalars, nulls, lists merged by no strategy (their items holding "$" keys
//     too where v holds a list there or none), values v lacks (or maps where it holds another kind) holding no "$"
//     key, lists merged by one key
//     whose items and v's list's are maps holding the key as a scalar and other fields plain trees (besides the
//     patch's items deleting a key no other names), v's nesting no deeper than the depth limit lets through
//     (plainKeyedOnto), maps holding "$patch: delete", "$patch: replace" maps v lacks or nesting within the limit
//     where v holds a map, "$patch: merge" maps v lacks (directedMapAlone), or maps merging so onto v's within the
//     depth limit (fitsBefore; the limit's room: Repeat.ErrRoom), no merge rule naming one of them or v's: the
//     collation reads that directive first there, whatever v holds. strategicpatch refuses an unknown "$patch" too
//     where v holds maps down to it, a list there for an item's, and copies it elsewhere (docs/strategicpatch.md).
//   - mergeDirectedBefore (repeatmalformed.go): its collation failed (Repeat.Err without its tree) at a field of its
//     item after one holding a "$patch: merge" map that v holds a map for, the fields before that one fitting
//     (fitsBefore) and the item's "$" keys orders and deletions of fields after it: the collation refuses that
//     directive there first (without v it dropped the map).
//   - limitFailure (repeatlimit.go, limitWalk): any other failure by the depth limit, by a merged list's
//     "$setElementOrder" (a keyed list's, a set of scalars' naming no value twice: an entry naming no item, an item it
//     lacks, its items out of its order; Repeat.Disordered, Room), or at a list it holds empty and orders, where
//     walking its patch item and v together tells it.
//   - orderedEmpty: it leaves out a merged list it orders by "$setElementOrder" (deleting from it or not) that v holds
//     empty, as the API server's merge of an order onto an empty list fails.
//   - orderRefused (through ontoFailure): it leaves out a list it orders alone, Phase 1 pairing it with no list, where
//     v holds another kind there, or items or entries the collation refuses.
//   - keysOnto (through ontoFailure, repeatnullkey.go): a keyed list in it names a key twice, the later item's key
//     field null (openapi.Type.NullKey), where v holds a list there: merged into the first of its key, the null deletes
//     the field (smp.NullKeyMerge); or v's list there holds an item without the key (an earlier item's null key
//     dropped): the collation refuses live's item. The items applied in turn and strategicpatch fail too.
//   - ownRetainRefused (repeatretained.go): its collation refused the "$retainKeys" of its own map, as strategicpatch
//     refuses it too (retainRefused): a collation with v reads that map first.
//   - repeatedDisordered (repeatdisordered.go): its collation failed (FailsAt) on a set of scalars its
//     "$setElementOrder" contradicts, naming a value twice or not, not Disordered; v holds that field as a list of
//     scalars of the set's kind and no field before it of a merge rule: the collation reaches it and checks the order
//     as without v.
//   - ontoFailure: it merges onto v as below but holds a map without fields at the depth limit (Repeat.Limit; one
//     holding "$retainKeys" alone too: the collation meets v's fields before the directive clears any) where v holds a
//     map with fields: it fails at the first of them, the first such map in the collation's order, those fields lying
//     beyond the limit; or it leaves out and deletes from a list v holds that the deletion refuses (deletesRefused).
//
// Apply mode, merged onto v field by field (onto, where ontoFits holds: collating the item with v as live builds the
// same nodes, v's fields aside):
//   - maps (their "$retainKeys" too), fields decided whole, fields v lacks or holds as another kind (a list whose
//     repeats stay apart ordered with v for its parent's live: order.ApartIn);
//   - merged lists Phase 1 paired with the lists of the trees v is built from (chain.go: chainFits, ontoList). Their
//     bases: the member's list; a "$patch: replace" list naming a key twice (the replace drops live's items); live's
//     list of scalars the member deletes from by "$deleteFromPrimitiveList" alone; live's keyed list the member leaves
//     as it is (a later item of a key one more of the first: keyedOwners), or live's set so or deleted from; the
//     member's set taken whole naming a value twice (Ranked: rankedLayout; a later item of a value joined to the first,
//     kept once where the repeat holds the set, at its places where it only orders or deletes from it: chained); a list
//     in a map the member leaves to live or takes whole (a "$patch: replace" map among them), or that an earlier repeat
//     of the key takes whole (its "$patch: replace" map onto v's map: Repeat.Onto), as that map holds it; or an earlier
//     repeat's list, laid out where Phase 2 merged it or walked it alone, below a map v lacked too (a later item of a
//     key one more of the item merged into the first; live's later items of a key or value too where the earlier
//     repeat's list was merged onto live's: collate's joinedLater). A set the repeat names a value of twice (Ranked
//     without live) has its later items of a value Joined, left out as a collation with v joins them to the first. A
//     list the repeat only orders or deletes from, among them, is absent where v lacks it;
//   - a list it leaves out and deletes from by "$deleteFromPrimitiveList" alone (deletesFromHeld): kept where v holds
//     it empty or as another kind (a scalar, a map, a null), v's scalars less the values deleted where merged by no
//     strategy;
//   - a list merged by no strategy following its "$setElementOrder", no "$deleteFromPrimitiveList" beside it, that
//     Phase 1 took whole sorted by it, replacing v's list of scalars of its items' class (takenOntoList);
//   - a list merged by no strategy and no merge key it leaves out and orders by "$setElementOrder" alone, where v holds
//     scalars of one class (a value repeated or not) and the directive names scalars: v's items ordered by it as
//     strategicpatch orders them, the directive dropped (ordersHeld, reordered; gate MultiFieldMergeKeys on refuses
//     such an order: orderRefused);
//   - a list it sets to null, deleting from it by "$deleteFromPrimitiveList", where v's list takes its values
//     (nulledDeleting);
//   - a map of strategy replace where v holds a map: the repeat's map whole, less its null fields, directive keys and
//     maps holding "$patch", as Phase 1 built it (Repeat.Onto; of plain data, its tree: replacedPlain);
//   - "$patch: replace" or "$patch: delete" maps where v holds a map: the nodes Phase 1 built for that (Repeat.Onto;
//     with gate PatchDeleteRemovesMap, a delete removes the field);
//   - a "$patch: replace" list naming a key twice, ordered by its "$setElementOrder" or not: where v holds a list, the
//     patch's items, each repeat after its key's member (replacedApart); where v holds another kind, as where v lacks
//     it (replacedOntoOther).
//
// Apply mode, merged as strategicpatch's mergeMap applies the item (sortedOntoLacking, repeatsorted.go), gate
// MultiFieldMergeKeys off, where its collation refused a "$setElementOrder" of a list it sets that the schema merges by
// no strategy for what its key's outcome decides, or succeeded but no case above merges it, and the item holds only:
//   - lists of scalars merged by no strategy that it orders, less the values deleted beside them (unmergedOrderOnto);
//   - scalars at scalar fields; nulls (v's field deleted);
//   - within the depth limit (not Repeat.Deep): lists of scalars merged by no strategy (v's replaced); maps at object
//     fields of no strategy replace, merged into v's field by field (mapOnto);
//   - within the depth limit and under kubectl's order, merged lists (mergedListOnto, repeatmerged.go; their items
//     merged into the first item of their key, v's or an earlier one of the item's, by mapOnto; the others appended,
//     less their nulls: appendedCleaned; sets: firstOnce, setUnion), and merged lists it orders by a non-empty
//     "$setElementOrder" or leaves out and orders (mergedOrderOnto; in a map v holds: orderedFieldOnto,
//     repeatnested.go);
//   - in the item or a map v holds (repeatdirected.go): a "$retainKeys" of strings naming every field its map sets, v's
//     other fields cleared first (retainedOnto); a "$deleteFromPrimitiveList/<f>" of a list of scalars its map neither
//     sets nor orders (deletedOnto), or beside a set it sets and does not order, of values that set lacks
//     (deletedBesideOnto: the same whichever key strategicpatch reads first); in a map v lacks, of values the set holds
//     too, the set less them, as the collation takes it (strategicpatch copies both keys: docs/strategicpatch.md);
//   - a value where v holds another kind, a null too: merged as where v lacks it (otherKind);
//   - a map or list at a field of the item the schema does not declare, holding no "$" key but the "$patch" of maps
//     holding "replace", "delete" or "merge" (whatever else they hold), "$" keys the collation ignores,
//     "$setElementOrder/<f>" lists of fields their map lacks, and "$retainKeys" of strings naming every field their
//     map sets, and any "$" key in its lists (the collation takes a
//     list cleaned, its content unread: unknownPatchAt), where v lacks the field or holds a scalar or the other kind
//     there: the patch's value less its nulls, those maps and those keys, absent where it is such a map
//     (undeclaredOver, directedPlainly, cleanedWhole: repeatundeclared.go; strategicpatch keeps the keys:
//     docs/strategicpatch.md);
//   - sets of numbers with a fraction, strategicpatch's float64s, or of integers, integral decimals among them, its
//     int64s (setOfKind: decodedKind), or of both, which strategicpatch refuses as two Go types and the collation
//     merges as one class, by value (setOfKind);
//   - a keyed list holding "$patch: delete" items giving the key (v's items of it dropped first) or a "$patch: replace"
//     item (its data items as they stand, none holding a null or a "$" key), "$patch" items dropped where v lacks the
//     list (directedListOnto, repeatshapes.go); an empty set onto v's set naming a value twice (beside its order too,
//     ranked by v's set so rewritten: mergedOrderOnto), as strategicpatch's in-place deduplication leaves v's
//     (dedupedOnto);
//   - a "$" key the collation ignores (ignoredDirective), dropped; in a map v lacks (appended items, a keyed list's
//     items too), a "$retainKeys" naming every field its map sets and a "$deleteFromPrimitiveList/<f>" of a list it
//     neither sets nor orders, dropped (strategicpatch copies them: docs/strategicpatch.md's "What stays different"); a
//     map holding "$patch: replace" or "delete" where v lacks the field or holds another kind, absent
//     (replacesOrDeletes); one holding "$patch: replace" where v holds a map, less the directive, cleaned of its nulls,
//     its maps holding "$patch" and its other "$" keys as the collation takes a value whole (replacesMap, cleanedWhole:
//     repeatundeclared.go; strategicpatch keeps them: docs/strategicpatch.md); one holding "$patch: delete", whatever
//     else it holds, where v holds a map, at the item's own field or in its maps v holds (items of its keyed lists
//     merged into v's items too, those lists beside "$patch" items, ordered by their "$setElementOrder" or under an
//     empty one: directedListOnto, mergedOrderOnto, emptyOrderOnto, orderedFieldOnto), an empty map, with gate
//     PatchDeleteRemovesMap (Ordered.DeleteRemovesMap) the field removed (deletedMap, deletesMap:
//     repeatundeclared.go; valueOnto's deletedRule);
//   - an empty "$setElementOrder" of a merged list: merged, then sorted by v's first places (emptyOrderOnto);
//   - a "$setElementOrder" of a merged list in a map v lacks, its list naming each value or key once (the order may
//     name one twice): applied as the collation applies it (strategicpatch copies it: docs/strategicpatch.md's "What
//     stays different"; namedOnce).
//
// Where strategicpatch fails on one list it orders, it fails with the error a collation with v gives there: v's list
// another kind, or its items and the item's not scalars of one class, or the item's, no deletion beside them, not
// following a non-empty order (its entries scalars or nulls) before a value it names again (unmergedOrderFailure,
// distinctPrefix; where the repeat is Deep, both lists' scalars within the limit: scalarLists); a keyed list the order does not name in its
// order, a key named twice more often than there among them (mergedOrderFailure); a merged list neither it nor v holds
// items of (orderWithoutItems); a list v holds as a null, its list a list or left out, no deletion beside it, at the
// item's field or in its maps v holds maps for, at any depth, or in a keyed list's item (nullOrdered, repeatnull.go:
// live's null refused); a list it deletes from by "$deleteFromPrimitiveList" alone, values of mixed classes or not
// scalars whatever v holds there (strategicpatch reads none where v's list holds no item), or, v's with items, of
// another class (deletedFailure, repeatdeleted.go; in its maps v holds or lacks and in a keyed list's item too).
// Where both refuse the "$retainKeys" of a map at a field of the item that v holds a map for (or lacks: strategicpatch
// copies it, the collation refuses it), or that map (or one at a field v lacks or holds another kind at) orders a
// merged list neither it nor v's map holds items of (where v lacks it, strategicpatch copies it), or an item of a list
// merged by key at a field of the item (of plain others) orders a merged list neither it nor v's item of its key holds
// items of, or that v's item holds as a null, or deletes from v's item's list values the collation refuses
// (itemOrderFailure, repeatitemorder.go; an item v lacks strategicpatch copies), or that map holds "$patch" of another
// value than "replace" or "delete", or, at a field v lacks, holds as its only "$" key the order of a set naming a value
// twice that does not follow it (strategicpatch copies it), or where a list merged by key at a field of the item holds
// one item (of plain others) whose "$retainKeys" the collation refuses (strategicpatch too, or copies the item
// appended), or where a map or list at a field the schema does not declare, taken as above but for maps (outside its
// lists) holding "$patch" of another value, whatever else they hold, or lists their map orders by a
// "$setElementOrder/<f>" list, holds one (strategicpatch drops such a map, copies such an order), it fails with the
// collation's error there, at the first such one as it walks the value by name (mapFailure,
// repeatretained.go: retainFailure, nestedOrderFailure, directedFailure, twiceOrderedFailure, itemRetainFailure;
// undeclaredFailure, unknownPatchAt: repeatundeclared.go); so too where a map of the item's map v holds a map for
// holds, at any depth below, one field or several failing so onto v's map there (the first by name failing), the
// others merging (deeperFailure, repeatitemorder.go). Where several of its fields fail so, it fails at the first by
// name, as the collation walks them (firstByName).
//
// Compose mode, failing with the error a collation with v as live gives first:
//   - ownOrderFailure (composeotherkind.go): a "$setElementOrder" of its own map that is no list, or that orders a
//     field strategicpatch's look-up finds no list at (one its type does not declare, or declares as a scalar or a map
//     where the schema's reader refuses it: openapi.Field.NotAList, v and the item holding a list there or nothing):
//     the collation's error at the item's map, met before any of its fields (mapOrderFailure).
//   - disagreesFirst (composedisagrees.go): a "$retainKeys" (or "$setElementOrder") v holds otherwise where both are
//     maps, as patches merged must agree on it; a "$" field of the item's map, or a field below one, failing merged
//     onto v's before it (a "$patch: merge" or unknown "$patch" map onto a map, dollarOnto's failure: dollarFailure,
//     composedollar.go), met in its place, before the item's other fields; a map holding "$patch: merge" or another
//     value than "replace" or "delete" onto a map (directedField). composeDisagrees finds the first in the
//     collation's order (fields by name, a map's "$" keys compared before its fields); its error is given where the
//     fields met before it are plain (scalars or nulls at scalar or undeclared fields, "$retainKeys" v holds equal,
//     maps holding "$patch" that fit, orders and deletions of lists after it: plainField, listDirective), or where
//     the checks below (composeFailure, otherKindFirst, composeChecked, contradictionFirst) tell the first failure
//     disregarding it and the two lie in a known order by name (the first of them; its own error where
//     composeChecked fits). Elsewhere the repeat is left to the front-end: a field before it may fail first.
//   - composeFailure (composeorder.go): ordering by "$setElementOrder" a field v holds as other than a list, or that it
//     sets to other than a list, where the fields before it tell the error (orderedScalars, orderedUnmerged,
//     unmergeable; a map holding no "$" key at a field the schema types as a list or a scalar, merged as a map of no
//     schema where the look-up fails for no key, fits: otherKindMap; one holding "$" keys where v holds no map there,
//     taken whole, fits: otherKindWhole; one holding "$" keys where v holds a map there, merged into it as maps of no
//     schema merge, fits, or fails first where that merge fails (a "$patch: merge" or unknown "$patch", a "$retainKeys"
//     v's map holds otherwise, in its maps too: otherKindOnto, mapBefore); a set it does not order before it whose
//     items and v's list's cannot merge fails there first: listBefore, setFailure; so does a keyed list whose first
//     data item of a key v's list holds fails merged into v's item of it (a "$retainKeys" v's item holds otherwise, a
//     "$patch: merge" or unknown "$patch" map over a map of v's item, as keyedFits reads them): keyedFieldFailure; a
//     list it only orders that v holds with items the order refuses, one merged by no strategy strategicpatch cannot
//     order, a set's or a keyed list's items or the order's entries the collation refuses, fails there first, and one
//     merged by one key whose items and entries the collation reads, or a set of scalars (naming a value twice too),
//     fits: heldOrder, orderFailure, orderOnto); ordering a keyed list it sets that v lacks, holding an item whose key
//     the collation cannot read (orderedUnreadFailure: its error at the first, the keys read before the order);
//     ordering a field the schema types as a scalar or an object where it sets a list, that error
//     (otherKindOrderFailure: smp.OrderOfOtherKind); ordering by "$setElementOrder" alone a list v holds empty, through
//     maps v holds (orderedNoItems); holding empty a list it orders where v holds no items there (Phase 1's
//     leftEmptyOrder, the list Repeat.Err names); each where the maps on the way to that list order no field before
//     it by name that v holds, and the other such list lies after it (emptyOrderFailure: ordersBefore, pathBefore).
//   - composeChecked (composeCheck.err), where the fields before it fit: a merged set of scalars, or a keyed list,
//     whose items and v's list cannot merge (v's of mixed classes, the lists' classes differing, null items or lists in
//     v; scalar items on either side of a keyed list), without directives but a "$setElementOrder" naming its items in
//     their order (orderValid: classFailure); a keyed list without directives whose items a patch's list cannot hold
//     (an item's "$patch" other than "delete" or "replace", an item without the key: Repeat.ItemErrs) where v holds
//     maps each holding the key as a scalar (itemFailure); a list ordered by "$setElementOrder" alone (or, merged by no
//     strategy, held empty and ordered so) that v holds with items strategicpatch cannot order (orderFailure); a map at
//     a field the schema types as a list or a scalar where v's map holds a key strategicpatch's look-up fails for
//     (smp.UnmergeableKey: unmergeable; composeDisagrees stops at such a map, not comparing a "$retainKeys" or
//     "$setElementOrder" below it); a list merged by no strategy Phase 1 took whole in its order (orderTaken) where v's
//     items and the patch's are not scalars of one class (unorderedOnto).
//   - composeChecked too, keyedFailure and mergedInto (composekeyed.go, a keyed list with items merged as below): an
//     item's map holding another "$retainKeys" or "$setElementOrder/<f>" than the map it merges into (at that map, its
//     "$" keys built in key order), a "$patch: merge" map or one of another "$patch" value (unknownDirected) merging
//     onto a map, or a set in it that cannot merge, beside its "$setElementOrder" or not, the classes checked before
//     the order (setClassFailure, setFailure): at the first of the items merged into v's items that fails so, else at
//     the first item that does, the first's where no later item of a key holds a "$setElementOrder" or "$" data at any
//     depth (laterOrders), a later item's where no item does (ordersBelow); an order its list contradicts, in an item
//     the only one of its key that merges into v's item of it, or in a map of it or a keyed list's item below it so, at
//     that list before its items merge (orderContradicted: smp.OrderMismatch, as format.CheckOrder, its "$patch:
//     delete" items aside, a "$patch: replace" item skipped while entries remain, a key or value it names twice ranked
//     by its first place: orderedData; a map v's item lacks, or an item its list lacks, taken as it stands:
//     fieldsContradicted in directedFields, itemsDirected in keyedMergedInto); at a keyed list's first item (a "$patch:
//     delete" one or a data item, a "$patch: replace" one aside) lacking the key or holding it as other than a scalar
//     or null (where no item lacks it, strategicpatch deletes by a "$patch: delete" item keyed by an object or a list,
//     finding none of its key: docs/errors.md, merge-missing-key), before its order, where v's item holds a list of
//     maps each holding the key as a scalar or null (unkeyedFailure, composeread.go; elsewhere the list, or one with a
//     "$patch: delete" item keyed by an object or a list, is taken less its "$patch" items, but beside a
//     "$setElementOrder" of it: keysUnread); at a keyed list holding a "$patch: replace" item beside its
//     "$setElementOrder" (in the repeat's maps, or an item's merged into v's item), where v's list there holds an item
//     lacking the key or holding it as other than a scalar (a first patch's "$patch: replace" item, a delete item
//     without the key: unkeyedHeld), as strategicpatch checks the first's items for the key where it orders the merged
//     list; at an item's map (or a map of it) merged into v's, a "$setElementOrder" there that is no list or orders a
//     field the look-up finds no list at, before its fields and its "$retainKeys" (mergeMapFailure, mapOrderFailure),
//     or one ordering a field the schema types as a scalar or an object, at that field in its place (orderFailures:
//     v's value there no list, else the patch's no list or the schema's kind, otherKindOrderFailure; where neither
//     holds the field, the order copied); at a keyed list beside its "$setElementOrder" that the map merged into lacks,
//     holding an item (a "$patch: delete" one or a data item) lacking the key or holding it as an object or a list,
//     the first such item's error, the collation reading the items' keys before it checks the order (orderedUnread,
//     in listInto; strategicpatch takes the list less its "$patch" items).
//   - contradictionFirst: a merged list its "$setElementOrder" contradicts or names no item by an entry, in a map
//     reached through maps (Repeat.Contradicted; the item's own map by ID -1, collated whole, in repeat's switch, maps
//     below it in composeChecked), where v holds maps down to it and its fields before the list merge without error;
//     elsewhere that map is merged as the patch holds it.
//   - otherKindFirst (composekind.go): a repeat Phase 1 took whole holding, at a field of its own map, a list where the
//     schema has a scalar, an object or a map (with gate MultiFieldMergeKeys on, a map where it has a list or a scalar:
//     listOrScalar), the fields before it (by name) the repeat's scalars and v's fields it
//     lacks, no "$" key but "$deleteFromPrimitiveList/<f>" ones holding no map (deletionData) or merge rule among them:
//     the collation's kind error there, whatever v holds (strategicpatch takes the list; docs/errors.md, "a field of
//     the wrong type").
//
// Compose mode, merged onto v (onto with Repeat.Cleaned, where composeCheck fits): a plain repeat (no "$patch" in it,
// its maps holding "$patch" only as maps of their own or in maps of strategy replace), which Phase 1 collates onto a
// skeleton of its maps, those holding "$patch" left out:
//   - a map holding "$patch" where v holds a map (directedOnto, directedField): for "replace" the patch's map less the
//     directive as it stands, its "$patch" maps and nulls kept; for "delete" an empty map; failing for "merge" or
//     another value; dropped, the field with it, elsewhere;
//   - a map of strategy replace holding "$patch" (replacedDirected, replacedOutcome): onto v's map the patch's map as
//     it stands, elsewhere less its maps holding "$patch", absent where it is one;
//   - a field v lacks as its node gives; a map there, or where v holds another kind, the patch's less its maps holding
//     "$patch" (removeDirectives: composedWhole, wholeOutcome);
//   - where the repeat holds a value at the depth limit (Repeat.Deep), a map v lacks or holds another kind at, one of
//     strategy replace too (holding "$patch" or not, which Phase 1 built whole, unwalked), or one holding such a map:
//     taken whole as above, or, a map or list of it lying beyond the limit (Repeat.Room, recorded in compose mode too;
//     a map holding "$patch" dropped, its own depth checked), failing at that field with the depth limit's error, as
//     the collation cleaning it walks it (composeChecked: cleanedBeyond, composedepth.go);
//   - a list merged by no strategy following its "$setElementOrder", as Phase 1 took it whole (orderTaken), onto v's
//     list of scalars of its items' class too (takenOntoList); beside an empty order, sorted by v's list
//     (sortedOntoList); held empty and ordered alone, onto v's scalars of one class, the empty list (emptyOntoList);
//     onto v's list otherwise, the patch's as it stands (wholeOntoList);
//   - a merged list v holds as another kind, and any other value, as the patch holds it, null included;
//   - a "$deleteFromPrimitiveList/<f>" set over v's as the patch holds it; another "$" field v holds equal copied; a
//     "$" field merged as data holding a map or a list ("$retainKeys" so too, v's agreeing: composeDisagrees) onto v's
//     value of its kind as a field of no schema merges (dollarInto: a list as the patch holds it, a map into v's map,
//     failing where that merge fails), onto another kind less its maps holding "$patch" (dollarOnto, composedollar.go;
//     orderFails reads such a field before an order's failure so);
//   - a map merging onto v's map (at a field the schema types as a list or a scalar, as maps of no schema merge);
//   - a merged list v holds as a list, read as the patch holds it (asPatched), merged and ordered as that collation
//     does (composesList, composeList):
//       - composeset.go: a set of scalars of one class, each value once at its first place in its list or v's, without
//         directives but a "$setElementOrder" of scalars or nulls naming its values in their order as strategicpatch
//         walks them (a value named twice ranked by its first place there); an empty list of maps with one merge key,
//         or a list the repeat leaves out (or, merged, a field of its item's own, holds empty: leftEmptyOrder) and
//         orders by "$setElementOrder" alone, onto v's maps each holding the key as a scalar, or v's distinct scalars
//         (a list merged by no strategy left out: v's scalars of one class, a value repeated too); an empty list onto
//         an empty one;
//       - composekeyed.go, composenested.go: a list of maps with one merge key and items (keyedFits, mergedKeyed): the
//         key a scalar or null, "$patch: delete" items among them or not, no directive but a "$setElementOrder" naming
//         its data items in their order, or a "$patch: replace" item among them (replacesKeyed, replaceOrder; beside
//         the order, v's items each holding the key: unkeyedHeld; where v's item lacks the list, its data items by the
//         order, none holding a map holding "$patch": composedAsItStands), onto v's maps each holding the key as a
//         scalar or null; each data item merged into v's first item of its key field by field, "$" fields copied as
//         data, its lists merged into v's item's lists as strategicpatch's merge of patches merges them
//         (listMergedInto, keyedMergedInto), its "$setElementOrder/<f>" ordering them (orderView, orderFailures); a "$"
//         field of an object or a list, or a list at a field the schema does not declare, where v's item holds that
//         kind, merged by the no-schema rules, maps merged and lists replaced, as the patch holds them, failing where
//         that merge of maps fails (a "$patch: merge" map or another "$patch" value, a "$retainKeys" v's map holds
//         otherwise), a "$patch: replace" or "$patch: delete" map in them taken as it stands less the directive, or
//         empty, whatever else it holds (replacedUndeclared), a "$setElementOrder" in them failing at the list it
//         orders, one the schema does not merge (unmergedOrder; beside a "$deleteFromPrimitiveList" of it, data in a
//         patch, or where either holds another value there, failing as orderFailures tells it: undeclaredOrdered)
//         (composeundeclared.go: dollarInto, undeclared;
//         strategicpatch's look-up fails there, class oracle-no-meta-undeclared); a list where the schema has a scalar
//         or a map, merged into v's item, beside a "$deleteFromPrimitiveList" of it (data in a patch) or not, failing
//         there with the collation's kind error (listInto; strategicpatch takes it); with Repeat.Deep, items without
//         maps or lists.
//
// Left to the front-end, asked to apply the item to v (InTurn, answered in Ordered.Answers) at its depth in the patch (Repeat.Depth: from
// the patch's root, a repeat nested in a repeat's tree too):
//   - both modes: another directive where v has the field; a map of strategy replace holding a rule, or whose cleaned
//     node Phase 1 could not build; a list Phase 1 did not pair, or whose base's layout Phase 2 did not record (an
//     earlier repeat's list the front-end applied); merge rules;
//   - apply mode, a repeat whose own collation failed otherwise (Repeat.Err without its tree, a "$setElementOrder"
//     refused for a list merged by no strategy or for a set naming a value twice among them, but those above; one
//     failing at a directive the patch alone decides where a map on the way holds another "$" key, a field before the
//     way is a list merged by key holding lists in its items or v's, v's items nesting beyond the depth limit, a map
//     v holds or a "$patch: replace" map nesting beyond it, or the way passes a list's item but as above) onto an
//     outcome holding the field; where sortedOntoLacking does not hold: another field, a "$" key but those above, a
//     field of a merge rule; a merged list of another shape (items holding "$" keys but those above, both lists empty under an order in
//     a map of the item but at its field (v holding the map, another kind or nothing
//     there) or in an item of a keyed list there, a list an order orders in a map v lacks naming a value or key twice
//     (but a set's as above), an order strategicpatch fails on otherwise, gate SeedOrdering's order); a "$retainKeys"
//     or "$deleteFromPrimitiveList/<f>" refused (a "$retainKeys" but those above, where strategicpatch accepts it or
//     below a map of the item too), beside its list (but a set's as above), of another class (but alone, as above), or,
//     in a map v lacks, beside a list but a set or naming not every field; a "$patch" map where v holds a map but those
//     above; a map or list at a field the schema does not declare over another kind but those above (one holding, but
//     in its lists, a "$setElementOrder/<f>" not a list or beside other than a list, a "$deleteFromPrimitiveList/<f>",
//     or a "$retainKeys" naming not every field); a map or list near the depth limit; a null v holds a list it orders
//     as but those above; a list strategicpatch fails on near the depth limit, beside a deletion, naming a value twice,
//     or for the values deleted. Two merge keys reach none of this: gate MultiFieldMergeKeys off reads one, on refuses
//     such orders;
//   - apply mode, where limitFailure gives up: a failure by the depth limit or a merged list's order; one refused at a
//     list merged by no strategy whose order Phase 1 refused as a later item's (orderedForRepeat); one ordering a
//     field it sets to other than a list where failsAtOwnField does not hold; one holding empty a list it orders whose
//     tree does not fit onto v otherwise;
//   - compose mode: merged lists of maps with items that v holds as a list, an item holding a list the merges above do
//     not decide (a set's merge that fails in a later item of a key of a list in the item, or where a later item of a
//     key holds a "$setElementOrder"; another merge that fails), a "$setElementOrder/<f>" they do not decide (a list it
//     contradicts where that list holds a "$patch" item but "delete" ones of keys its data items lack and "replace"
//     ones (with those, where v's item holds an item without the key there), or lies in a later item of its key, or in
//     a list whose merge is not known; a failure beside one in a later item of a key; beside a "$patch: replace" item
//     where v's item lacks the list and a data item holds a map holding "$patch");
//   - compose mode: a disagreement on a "$retainKeys" or "$setElementOrder" (or a failing "$" field or "$patch" map)
//     after a field that is not plain, where the checks above do not tell what fails first (disagreesFirst);
//   - compose mode: a list it orders that v holds no items for, left out or held empty, where a map on the way orders
//     a field before it by name that v holds, or held empty where v holds items at the list Repeat.Err names
//     (emptyOrderFailure);
//   - compose mode: a list merged by no strategy holding items it orders by "$setElementOrder" that Phase 1 refuses
//     without v, the repeat then collated whole: in its item's own map, its items out of the order, where orderFails
//     cannot read the fields before it or the order names a null; in a map below its item's own, one the directive's
//     sort moves or whose items are out of the order (sorted, or refused, where v holds the maps down to it, as it
//     stands elsewhere), a "$deleteFromPrimitiveList" beside it or not;
//   - compose mode: a field ordered and set to other than a list after a merged list Phase 2 does not merge (whether
//     that list merges onto v's without error takes the collation's rules for items holding lists, "$" or undeclared
//     fields; but a set it does not order that fails onto v's list, or a keyed list whose item's merge into v's item
//     keyedFits tells failing, as above), a list v holds that it only orders, Phase 2 does not reorder and heldOrder
//     does not read (a set of maps or a list merged by no strategy whose items and entries the order refuses none of,
//     a "$deleteFromPrimitiveList" of it beside the order or not), or a map at a field the schema types as a list or a
//     scalar holding a "$" key where v holds a map there whose merge otherKindOnto does not tell (lists or maps in it
//     the merge of maps of no schema does not tell).
//
// The differential suite (test/patchdiff, -v) counts those left to the front-end: none in its compose runs of kubectl's
// patches (PLY_DIFF_COMPOSE_N up to 6000; ordered atomic lists too, PLY_DIFF_SEED 1, 2 and 3), none in its apply run of
// ordered atomic lists with repeated keys (PLY_DIFF_REPEATS_N=2000, focus "in repeated items", seeds 1, 2 and 3), none
// in its in-turn run (PLY_DIFF_INTURN_N=3000); in its in-turn run with later items' directives malformed (focus
// "directives malformed", 2,000 cases per target and limit), 6 of 1,116, 7 of 1,180 and 3 of 1,198 (seeds 1, 2, 3).

// repeat applies Repeat r of patch list l to v, its member's outcome so far (null: nothing), giving an object ({} for
// an absent outcome, as for a patch's root); an error is at the item's path.
func (o Ordered) repeat(l *elements.ListElement, r elements.Repeat, v value.Value) (elements.Outcome, error) {
	it := l.Items[r.ID].Element.Base()
	var out elements.Outcome
	var err error
	c := o.checksOf(l, r, v, it)
	held, known, limited, limitErr := c.held, c.known, c.limited, c.limitErr
	composed, sorted := &c.composed, &c.sorted
	switch {
	case v.IsNull() && r.Err != nil:
		err = r.Err
	case o.Compose && failed(&err, ownOrderFailure(r, l.Local.Items()[r.Pos], it.Type, v)):
		o.Answers.repeated(false)
	case !o.Compose && failed(&err, deletionBesideSet(l.Local.Items()[r.Pos], it.Type, v, !o.UnmergedOrderRefused)):
		o.Answers.repeated(false)
	case (r.Fails && !limited && (o.Compose || failsAtOwnField(r, l.Local.Items()[r.Pos], v))) ||
		(known && !held && len(r.Limit) == 0 && o.failingOnto(r).ontoFits(r.Element, v) &&
			o.ontoFailure(r.Element, v, nil) == nil && !(o.Compose && ownDisagrees(r.Element, v) != nil)):
		// (Else a field before it may fail first: limitFailure's, or the front-end's.)
		o.Answers.repeated(false)
		err = r.Err
	case r.Element != nil && len(r.Merges) > 0 && failed(&err, mergeDirected(r.Element, v, r.Merges)):
		o.Answers.repeated(false)
	case !o.Compose && r.Element != nil && failed(&err, orderedEmpty(r.Element, v)):
		o.Answers.repeated(false)
	case v.IsNull() && o.Compose:
		out, err = o.alone(r.Element)
	case v.IsNull():
		out, err = o.Walker.Walk(r.Element)
	case !o.Compose && r.Element != nil && known && held && o.withOnto(r.Onto).ontoFits(r.Element, v):
		o.Answers.repeated(false)
		out, err = o.heldOnto(l, r, v)
	case o.Compose && r.Element != nil && failed(&err, o.disagreesFirst(&c, l, r, it, v)):
		o.Answers.repeated(false)
	case c.composing && failed(&err, composeFailure(r, l.Local.Items()[r.Pos], it.Type, v, o.UnmergedOrderRefused)):
		o.Answers.repeated(false)
	case c.composing && failed(&err, otherKindFirst(r, l.Local.Items()[r.Pos], it.Type, v, o.UnmergedOrderRefused)):
		o.Answers.repeated(false)
	case c.composing && r.Element != nil && composed.of(r, v, o.UnmergedOrderRefused).err != nil:
		o.Answers.repeated(false)
		err = composed.err
	case c.composing && r.Element != nil && composed.of(r, v, o.UnmergedOrderRefused).fits:
		o.Answers.repeated(false)
		out, err = o.withCleaned(r.Cleaned).onto(r.Element.(*elements.MapElement), v)
	case !o.Compose && ((r.FailsAt != "" && ((!r.MapsBefore && failsOnto(r.FailsAt, it.Type, v)) || plainOnto(r, it.Type, v))) ||
		refusedDirectiveOnto(r, l.Local.Items()[r.Pos], it.Type, v, !o.UnmergedOrderRefused)):
		o.Answers.repeated(false)
		err = r.Err
	case !o.Compose && failed(&err, mergeDirectedBefore(r, l.Local.Items()[r.Pos], it.Type, v)):
		o.Answers.repeated(false)
	case !o.Compose && (ownRetainRefused(r, l.Local.Items()[r.Pos], it.Type, v) ||
		repeatedDisordered(r, l.Local.Items()[r.Pos], it.Type, v)):
		o.Answers.repeated(false)
		err = r.Err
	case c.composing && r.Contradicted[-1] != nil && !r.Deep && contradictionFirst(l.Local.Items()[r.Pos], it.Type, v, r.Contradicted[-1]):
		o.Answers.repeated(false)
		err = r.Contradicted[-1]
	case limited:
		o.Answers.repeated(false)
		err = limitErr
	case !o.Compose && !o.UnmergedOrderRefused && sorted.of(r, l.Local.Items()[r.Pos], it.Type, v):
		o.Answers.repeated(false)
		out, err = elements.Keep(sorted.out), sorted.err
	default:
		q := &InTurn{Item: it, Onto: v, Patch: l.Local.Items()[r.Pos], Type: it.Type, Depth: r.Depth}
		applied, answerErr, answered := o.Answers.ask(q)
		if !answered {
			return elements.Absent, q
		}
		o.Answers.repeated(true)
		out, err = elements.Keep(applied), answerErr
	}
	if err != nil {
		return elements.Absent, atItem(it, err)
	}
	if !out.Present || !out.Value.IsMap() {
		return elements.Keep(value.MustMap()), nil
	}
	return out, nil
}

// heldOnto merges Repeat r of patch list l onto v, its key's outcome holding what Phase 1 paired the repeat's tree with
// (Repeat.Onto), failing first where a collation with v as live fails (ontoFailure; mergedMember: the key's first item
// merged into live's item of the key).
func (o Ordered) heldOnto(l *elements.ListElement, r elements.Repeat, v value.Value) (elements.Outcome, error) {
	checked := o.withOnto(r.Onto)
	checked.mergedMember = l.Items[r.ID].LiveIndex >= 0
	if err := checked.ontoFailure(r.Element, v, r.Limit); err != nil {
		return elements.Absent, err
	}
	return o.withOnto(r.Onto).onto(r.Element.(*elements.MapElement), v)
}

// repeatChecks holds what the cases of repeat's switch read of a Repeat onto v beside the Repeat itself.
type repeatChecks struct {
	held, known bool         // a list the repeat holds empty and orders: a list with items in v (emptyOrdersHeld)
	limited     bool         // a repeat failing by the depth limit onto v: limitFailure's answer
	limitErr    error        // its error, where limited
	composed    composeCheck // composeChecked's answer for the repeat onto v, walked once where a case asks
	sorted      sortedCheck  // sortedOntoLacking's answer for the repeat onto v, likewise
	composing   bool         // compose mode's cases may decide the repeat (disagreesFirst clears it)
}

// checksOf computes the repeatChecks of Repeat r of patch list l, its item it, onto v; the walks of composed and sorted
// wait for a case that asks.
func (o Ordered) checksOf(l *elements.ListElement, r elements.Repeat, v value.Value, it *elements.Node) repeatChecks {
	c := repeatChecks{held: true, known: true, composing: o.Compose}
	c.sorted.kubectl, c.sorted.removes = o.Ordering == order.OrderKubectl, o.DeleteRemovesMap
	if r.Err != nil && r.Element != nil && !v.IsNull() {
		c.held, c.known = emptyOrdersHeld(r.Element, v, o.Compose)
	}
	if !o.Compose && r.Room > 0 && !v.IsNull() {
		c.limitErr, c.limited = limitFailure(r, l.Local.Items()[r.Pos], it.Type, v)
	}
	if o.Compose && !v.IsNull() {
		if _, undecided := emptyOrderFailure(r, l.Local.Items()[r.Pos], v); undecided {
			c.known, c.composed.walked = false, true // (left to the front-end: no case decides it)
		}
	}
	return c
}

// failed sets *dst to err, reporting whether it is one: a case of repeat's switch keeps the error its check computed
// (dst nil until a case body sets it, so a check that finds none leaves it so).
func failed(dst *error, err error) bool {
	*dst = err
	return err != nil
}

// atItem returns err, a repeat's error, at the path of its item it: a collation's *elements.Error, the tree's and
// read-only, copied with the item's path before its own; any other error as it is.
func atItem(it *elements.Node, err error) error {
	if e, ok := err.(*elements.Error); ok {
		at := *e
		at.Path = append(it.Path(), e.Path...)
		return &at
	}
	return err
}

// failsAtOwnField reports whether repeat r, failing whatever it is applied to (elements.Repeat.Fails), fails applied to
// v with its own error, where limitFailure does not tell it: r.Err lies at the field patch item p orders by
// "$setElementOrder" and sets to other than a list, v holds a list there or nothing (else a collation with v fails on
// live's kind first), and p's fields before it (by name; a directive by the field it names) are scalars or nulls,
// which a collation with v as live builds without error, v's own fields there being leaves at the item's level. Where
// it does not hold, an earlier field may fail onto v first (an order of a list v holds empty, a deletion v's list
// refuses, ...), and the front-end applies the repeat.
func failsAtOwnField(r elements.Repeat, p, v value.Value) bool {
	e, ok := r.Err.(*elements.Error)
	if !ok || len(e.Path) != 1 || e.Path[0].Kind != fieldpath.FieldElement || !p.IsMap() || !v.IsMap() {
		return false
	}
	name := e.Path[0].Field
	if set, ordered := p.Get(name); !ordered || set.IsList() {
		return false
	} else if _, orders := p.Get(smp.SetOrderPrefix + name); !orders {
		return false
	}
	if lv, held := v.Get(name); held && !lv.IsList() {
		return false
	}
	for _, f := range p.Fields() {
		field := f.Key
		if i := strings.IndexByte(f.Key, '/'); strings.HasPrefix(f.Key, "$") && i > 0 {
			field = f.Key[i+1:]
		}
		if field < name && (strings.HasPrefix(f.Key, "$") || !(f.Value.IsScalar() || f.Value.IsNull())) {
			return false
		}
	}
	return true
}

// ontoFits reports whether patch tree e, collated without live, merged onto v (onto) gives what e's patch collated
// with v as live and walked gives: e is a map of the patch's, with no rule, no strategy replace and no directive but
// its own "$retainKeys", and v a map whose fields no merge rule names; each field of e that v holds is decided whole (a
// scalar, a null, a list merged by no strategy, a map of strategy replace without a rule: its cleaned node,
// Repeat.Onto, or, of plain data, its tree, replacedPlain), a directive map of onto's nodes where v holds a map
// (Repeat.Onto), a null deleting by "$deleteFromPrimitiveList" alone (nulledDeleting), a list left out and deleted from so where v's is empty, not a list or, merged by no strategy, of
// scalars (deletesFromHeld), a list merged by no strategy that Phase 1 took whole in its "$setElementOrder"'s order
// where v's is of scalars of its items' class (orderTaken, takenOntoList), a list merged by no strategy it leaves out
// and orders by "$setElementOrder" alone where v's is of scalars of one class (ordersHeld), a map, fitting onto
// v's field where that is a map, or a merged list paired with its base (chainFits) or replacing v's list with its
// repeats apart (replacedApart) or v's other kind (replacedOntoOther). A map at the depth limit (the repeat's
// elements.Repeat.Limit, holding "$retainKeys" alone or not) onto a map with fields, and a list merged by no strategy
// left out and deleted from so where v holds a list the deletion refuses (deletesRefused), fit, but fail there
// (ontoFailure). A map of e setting a field beside a "$deleteFromPrimitiveList" of it that is not a list
// (deletesNonListBeside) does not fit: the collation refuses it onto v's map.
func (o Ordered) ontoFits(e elements.Element, v value.Value) bool {
	m, _ := e.(*elements.MapElement)
	if m == nil || !v.IsMap() || !m.Local.IsMap() || (m.Dirs != nil && !retainsOnly(m.Dirs)) || m.Ruled ||
		m.Meta.Strategy.Has(openapi.StrategyReplace) {
		return false
	}
	if holdsRuledField(m, v) || deletesNonListBeside(m) {
		return false
	}
	for _, f := range m.Fields {
		lv, inLive := v.Get(f.Name)
		if !inLive {
			continue // (a list whose repeats stay apart is ordered with v for its parent's live: onto)
		}
		switch c := f.Element.(type) {
		case *elements.AtomicElement:
			pv, _ := m.Local.Get(f.Name) // (a dropped directive map is null in the node: the patch's value tells)
			if _, directed := o.directed[c.ID]; directed && lv.IsMap() && c.Dirs == nil {
				continue // (merged as the map it is onto a map: Repeat.Onto)
			}
			if c.Dirs != nil && (nulledDeleting(c, lv) || deletesFromHeld(c, lv) || deletesRefused(c, lv) != nil) {
				continue // (a refused one fails so: ontoFailure)
			}
			if c.Dirs != nil && orderTaken(c.Dirs) && takenOntoList(c, lv) {
				continue // (the patch's list in its directive's order, replacing v's)
			}
			if !o.UnmergedOrderRefused && ordersHeld(c, lv) {
				continue // (lv's items ordered by the directive: reordered)
			}
			if o.orderRefused(c, lv) != nil && !cleared(m, f.Name) {
				continue // (refused there: ontoFailure)
			}
			if o.failingEmpty && elements.EmptyOrdered(&c.Node) && lv.IsList() && lv.Len() == 0 {
				continue // (held empty and ordered where v's list holds no items: it fails there, emptyOrdersHeld)
			}
			if c.Dirs != nil || pv.IsMap() || (pv.IsList() && elements.MergedList(c.Type, &c.Meta)) {
				return false
			}
		case *elements.MapElement: // (its Dirs are its own "$retainKeys": a parent's directives are for lists)
			if lv.IsMap() && c.Meta.Strategy.Has(openapi.StrategyReplace) {
				if _, whole := o.directed[c.ID]; !(whole && !ruledBelow(c)) && !replacedPlain(c) {
					return false
				}
				continue // (the patch's map whole, cleaned: Repeat.Onto's node, or, plain, as without live)
			}
			if lv.IsMap() && !o.ontoFits(c, lv) {
				return false
			}
		case *elements.ListElement, *elements.SetElement:
			if !replacedApart(c, lv) && !replacedOntoOther(c, lv) && !o.chainFits(c, lv) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// ontoFailure returns the error collating repeat tree e with v as live gives, e fitting onto v (ontoFits), first in
// the collation's order (a map's fields by name, a chained list's items in order): at a map of e without fields at
// the depth limit (limit: elements.Repeat.Limit) where v holds a map with fields, its first field (by name), which lies
// beyond the limit; at a list e deletes from where v holds a list the deletion refuses (deletesRefused); at a keyed
// list's merge keys where v holds a list, before its items (apply mode: a later item of a null key, or v's item
// without the key: keysOnto). Nil where there is none: elsewhere the collation takes no field of v below e's maps (a map of strategy replace, a directive map, a
// "$patch: replace" list's items are the patch's whole).
func (o Ordered) ontoFailure(e elements.Element, v value.Value, limit map[int32]*elements.Error) error {
	switch e := e.(type) {
	case *elements.AtomicElement:
		if err := o.orderRefused(e, v); err != nil {
			return err
		}
		return deletesRefused(e, v)
	case *elements.MapElement:
		if v.IsMap() && e.Meta.Strategy.Has(openapi.StrategyReplace) {
			return nil // (taken whole: v's fields are not walked)
		}
		if at := limit[e.ID]; at != nil && v.IsMap() && v.Len() > 0 {
			beyond := *at
			beyond.Path = append(slices.Clip(at.Path), fieldpath.Field(v.Fields()[0].Key))
			return &beyond
		}
		if !v.IsMap() {
			return nil
		}
		for _, f := range e.Fields {
			if lv, inLive := v.Get(f.Name); inLive {
				if err := o.ontoFailure(f.Element, lv, limit); err != nil {
					return err
				}
			}
		}
	case *elements.ListElement, *elements.SetElement:
		if err := keysOnto(e, v, o.mergedMember); err != nil && !o.Compose {
			return err
		}
		chain, items := chainOf(e)
		if chain == nil || replacedApart(e, v) {
			return nil
		}
		all, _, _, ok := o.chained(e, v)
		for i := range items {
			if ok && all[i].LiveIndex >= 0 {
				if err := o.ontoFailure(items[i].Element, v.Items()[all[i].LiveIndex], limit); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// composeCheck holds, walked once (of: composeChecked), whether compose mode's repeat r fits onto v, and the error it
// meets. It fits where its tree e merged onto v (onto) gives what e's patch collated with v as live and walked gives: e
// is a map with no rule, no directive and no strategy replace, as Phase 1 collates a repeat of plain fields, and v a
// map whose fields no merge rule names (with deep, e has a field if v has one, as for ontoFits); each field is decided
// whole (its outcome the patch's value as it stands, null included; a list one merged by no strategy where v holds the
// field; a "$" field, "$retainKeys", one v lacks or holds equal, as compose requires), a merged list Phase 2 merges
// onto v's list as the patch holds it (a leaf Phase 1 cleaned of maps holding "$patch", cleaned:
// elements.Repeat.Cleaned, read as the patch holds it: asPatched), its items holding no map with deep (composesList: a
// set of scalars, an empty keyed list, a list of maps with items; a set the repeat orders by "$setElementOrder":
// orderedSetComposes), a list or set node Phase 1 built where v lacks the field (as without live), or a map: fitting
// onto v's in turn where v holds one, else taken as the patch holds it (composedWhole).
//
// fits reports that r's tree fits so (err nil); err is the error collating r's tree with v as live gives at a merged
// set whose items and v's there cannot merge (classFailure), or at a keyed list whose items Phase 1 found a patch's
// list cannot hold (itemFailure), or at a map v lacks (or holds another kind at) that it takes whole, a map or list of
// it beyond the depth limit (cleanedBeyond), or, gate MultiFieldMergeKeys on (unmergedRefused), at a list merged by
// no strategy it orders by "$setElementOrder" (unmergedOrdered), where each field before it fits (the collation builds
// them without error); nil where there is none or it is not known.
type composeCheck struct {
	walked, fits bool
	err          error
}

// of walks r's tree onto v the first time it is asked, and returns c.
func (c *composeCheck) of(r elements.Repeat, v value.Value, unmergedRefused bool) *composeCheck {
	if !c.walked {
		c.fits, c.err = composeChecked(r.Element, v, &r, unmergedRefused)
		c.walked = true
	}
	return c
}

// composeChecked walks compose mode's repeat tree e merged onto v field by field, in the order a collation with v as
// live builds them: fits reports that each fits (composeCheck), err the error that collation gives at the first that
// does not, where Phase 2 tells it (classFailure).
func composeChecked(e elements.Element, v value.Value, r *elements.Repeat, unmergedRefused bool) (fits bool, err error) {
	deep := r.Deep
	m, _ := e.(*elements.MapElement)
	if m == nil || !v.IsMap() || m.Ruled || m.Dirs != nil || m.Meta.Strategy.Has(openapi.StrategyReplace) ||
		(deep && len(m.Fields) == 0 && v.Len() > 0) {
		return false, nil
	}
	if holdsRuledField(m, v) || deletesNonListBeside(m) {
		return false, nil
	}
	for _, f := range m.Fields {
		lv, inLive := v.Get(f.Name)
		pv, _ := m.Local.Get(f.Name)
		if known, err := cleanedBeyond(f, pv, lv, r); !known || err != nil {
			return false, err // (taken whole where v lacks a map, walked by the depth limit)
		}
		if replacedDirected(f, pv) {
			continue // (onto a map as the patch holds it, elsewhere less its maps holding "$patch": replacedOutcome)
		}
		if directed, fits, err := directedField(f, pv, lv); directed && !fits {
			return false, err
		} else if directed {
			continue // (dropped, the field with it, where v holds no map: Phase 1 built it so, as a field v lacks)
		}
		if at, contradicted := r.Contradicted[f.Element.Base().ID]; contradicted && lv.IsMap() {
			if !deep && contradictionFirst(pv, f.Element.Base().Type, lv, at) {
				return false, at
			}
			return false, nil
		}
		if ordered, err := unmergedOrdered(m, f); unmergedRefused && ordered {
			return false, err
		}
		n := asPatched(m, f.Name, composedList(f.Element), r.Cleaned)
		if err := classFailure(n, lv, deep); err != nil {
			return false, err
		}
		if err := orderFailure(n, lv, deep); err != nil {
			return false, err
		}
		if err := itemFailure(n, lv, deep, r.ItemErrs); err != nil {
			return false, err
		}
		if err := keyedFailure(n, lv, deep); err != nil {
			return false, err
		}
		if msg := unmergeable(m.Type, f.Name, pv, lv); msg != "" {
			return false, f.Element.Base().Errorf(elements.Patch, msg)
		}
		if err := unorderedOnto(f.Element, lv); err != nil {
			return false, err
		}
		if _, err, applies, decided := dollarOnto(m, f, pv, lv); applies && inLive {
			if err != nil || !decided {
				return false, err
			}
			continue // (merged as a field of no schema: onto)
		}
		if c, _ := f.Element.(*elements.MapElement); c != nil && inLive && lv.IsMap() {
			if fits, err := composeChecked(c, lv, r, unmergedRefused); !fits {
				return false, err
			}
		} else if !fieldFits(f, n, lv, inLive, deep) {
			return false, nil
		}
	}
	return true, nil
}

// unmergeable returns the error's message a collation with v as live gives at field name of compose mode's repeat map
// of type t, the patch's value there pv a map holding no "$patch" where the schema types the field as a list or a
// scalar, and lv, v's field, a map holding a key strategicpatch's look-up fails for (smp.UnmergeableKey: it merges
// the two under a type that declares no fields), as collate's mapsUnmergeable reads it. "" elsewhere.
func unmergeable(t *openapi.Type, name string, pv, lv value.Value) string {
	ft, _ := t.Child(name)
	var what string
	switch ft.Kind {
	case openapi.KindList:
		what = "a list"
	case openapi.KindPrimitive:
		what = "a scalar"
	default:
		return ""
	}
	if key, bad := smp.UnmergeableKey(pv, lv); bad {
		return smp.Unmergeable(pv, key, what, ft.Name)
	}
	return ""
}

// unorderedOnto returns the error a collation with v as live gives at node e of compose mode's repeat tree, a list
// merged by no strategy that Phase 1 took whole in its "$setElementOrder"'s order (orderTaken: items, scalars of one
// class), where lv, v's field there, is a list whose items and e's are not scalars of one class (takenOntoList does
// not hold): that collation refuses the order there (collate's kubectlOrdered, format.CheckDirs), as strategicpatch's
// merge of patches finds the two lists' items of different types. Nil elsewhere.
func unorderedOnto(e elements.Element, lv value.Value) error {
	c, _ := e.(*elements.AtomicElement)
	if c == nil || c.Dirs == nil || !orderTaken(c.Dirs) || c.Type.Kind != openapi.KindList || !c.HasLocal ||
		!c.Local.IsList() || !lv.IsList() || elements.MergedList(c.Type, &c.Meta) || takenOntoList(c, lv) {
		return nil
	}
	return c.Errorf(elements.Patch, smp.OrderOfUnmerged(c.Name))
}

// directedField reports whether field f of compose mode's repeat map, the patch's value there pv, is a map holding
// "$patch" (smp.MapDirective), which Phase 1 dropped, as a collation with an outcome lacking a map there does, and if
// so whether it fits onto lv, v's field, or err, the error a collation with v as live gives there. Merging it into a
// map, strategicpatch takes a "replace" map less the directive, as the patch holds it, and empties a "delete" one
// (onto: directedOnto; at the depth limit too, as a collation with v as live builds either as one node, walking
// neither v's map nor the patch's below it); it refuses a "merge" one (maps merge without that directive) and another
// value, failing at that field. Where lv is no map it drops the map, the field with it, as Phase 1 did.
func directedField(f elements.Field, pv, lv value.Value) (directed, fits bool, err error) {
	d, directed := smp.MapDirective(pv)
	switch {
	case !directed:
		return false, false, nil
	case !lv.IsMap():
		return true, true, nil
	case d == smp.MergeValue:
		return true, false, f.Element.Base().Errorf(elements.Patch, mergeDirective)
	case d != smp.ReplaceValue && d != smp.DeleteValue:
		raw, _ := pv.Get(smp.DirectiveKey)
		return true, false, f.Element.Base().Errorf(elements.Patch, smp.UnknownDirective(raw))
	}
	return true, true, nil
}

// replacedDirected reports whether field f of compose mode's repeat map, the patch's value there pv, is a map of
// strategy replace holding "$patch" (itself, or a map of it at any depth): strategicpatch takes it whole, "$patch" and
// all, onto a map, and less its maps holding "$patch" elsewhere (replacedOutcome), as any value the other patch lacks.
func replacedDirected(f elements.Field, pv value.Value) bool {
	return pv.IsMap() && f.Element.Base().Meta.Strategy.Has(openapi.StrategyReplace) && smp.HoldsDirectives(pv)
}

// replacedOutcome is the outcome of a map of strategy replace holding "$patch" (replacedDirected), pv, merged onto lv,
// its member's outcome's field (inLive: that outcome holds it): pv as it stands onto a map, else pv less its maps
// holding "$patch", absent where pv is one.
func replacedOutcome(pv, lv value.Value, inLive bool) elements.Outcome {
	if inLive && lv.IsMap() {
		return elements.Keep(pv)
	}
	if clean, keep := smp.WithoutDirectives(pv); keep {
		return elements.Keep(clean)
	}
	return elements.Absent
}

// directedOnto returns the outcome of compose mode's map pv holding "$patch: replace" or "$patch: delete" merged onto a
// map (directedField): pv less the directive, as the patch holds it, or an empty map.
func directedOnto(pv value.Value) elements.Outcome {
	if d, _ := smp.MapDirective(pv); d == smp.DeleteValue {
		return elements.Keep(value.MustMap())
	}
	return elements.Keep(pv.Without(smp.DirectiveKey))
}

// directedMap reports whether pv is a map holding "$patch".
func directedMap(pv value.Value) bool {
	_, directed := smp.MapDirective(pv)
	return directed
}

// fieldFits is composeCheck's fit for field f of compose mode's repeat tree, its node as the patch holds it n (asPatched), but
// a map v holds as a map: lv is v's field (inLive: v holds it).
func fieldFits(f elements.Field, n *elements.Node, lv value.Value, inLive, deep bool) bool {
	if n != nil && inLive && deep && holdsMapsOrLists(n) && composesList(n, lv) {
		return false // (not merged in Phase 2: its maps' fields from v may lie beyond the depth limit)
	}
	switch c := f.Element.(type) {
	case *elements.AtomicElement:
		return composedField(f.Name, c, n, lv, inLive)
	case *elements.MapElement:
		return composedWhole(c)
	case *elements.SetElement: // (ordered by "$setElementOrder", built so without live: as v lacking it gives)
		return !inLive || orderedSetComposes(c, lv)
	case *elements.ListElement: // (ordered by "$setElementOrder", built so without live: as v lacking it gives)
		return !inLive || (composedList(c) != nil && mergesKeyed(&c.Node, lv))
	}
	return false
}

// classFailure returns the error a collation with v as live gives at node n of compose mode's repeat tree (as the
// patch holds it: asPatched), a merged set of scalars or a list merged by key, without directives but a
// "$setElementOrder" that names its items in their order (orderValid), where lv, v's field
// there, is a list whose items and the patch's cannot merge (smp.ListClass: items of mixed classes in lv, classes the
// lists differ in, null items or lists in lv; the patch's own Phase 1 refused; a list merged by key: smp.KeyedListClass,
// scalar items on either side too). Nil elsewhere, and with deep (the depth limit may fail first).
func classFailure(n *elements.Node, lv value.Value, deep bool) error {
	if n == nil || deep || (n.Dirs != nil && !orderValid(n)) || !n.HasLocal || !n.Local.IsList() || !lv.IsList() ||
		!elements.MergedList(n.Type, &n.Meta) || elements.SetOfMaps(n.Type, &n.Meta) {
		return nil
	}
	classOf := smp.ListClass
	if len(n.Meta.MergeKey) > 0 {
		classOf = smp.KeyedListClass
	}
	_, msg, fromLive := classOf(lv.Items(), n.Local.Items())
	switch {
	case msg == "":
		return nil
	case fromLive:
		return n.Errorf(elements.Live, msg)
	}
	return n.Errorf(elements.Patch, msg)
}

// composedField reports whether atomic node c, field name of compose mode's repeat tree (collated without live there),
// is what a collation with v as live builds, lv v's field (inLive: v holds it), or its outcome is: v lacks the field (no
// live there either, so the same node: a value whole, or a list the repeat only orders by "$setElementOrder"); or c
// holds a value without directives, decided whole: a "$deleteFromPrimitiveList/<f>" (data in a patch, set over v's
// as strategicpatch's merge of patches copies it), another "$" field v holds equal (data, copied), a merged list where v
// holds another kind (second's as it stands), another value (a list merged by no strategy, whatever it holds: onto
// v's list as it stands, wholeOntoList, else as its node holds it; a scalar, a null).
func composedField(name string, c *elements.AtomicElement, n *elements.Node, lv value.Value, inLive bool) bool {
	switch {
	case c.Dirs != nil:
		return (!inLive && (ordersOnly(c.Dirs) || orderTaken(c.Dirs))) || (inLive && composesList(n, lv)) ||
			(inLive && orderTaken(c.Dirs) && takenOntoList(c, lv)) || (inLive && emptyOntoList(c, lv))
	case !inLive:
		return true
	case !c.HasLocal:
		return false
	case strings.HasPrefix(name, smp.DeletePrefix):
		return true // (set over v's as the patch holds it, as strategicpatch's merge of patches copies it: onto)
	case strings.HasPrefix(name, "$"):
		return value.Equal(c.Local, lv)
	}
	return !c.Local.IsList() || !elements.MergedList(c.Type, &c.Meta) || !lv.IsList() || composesList(n, lv)
}

// asPatched returns n, the node of field name of compose mode's repeat map m (composedList), or, for a leaf Phase 1
// built less the maps holding "$patch" the patch holds there (cleaned: elements.Repeat.Cleaned), a copy holding the
// patch's value as it stands (m's field): merged onto its member's outcome's list, that value tells, as a collation
// with that outcome as live reads it (its "$patch" items and maps directives).
func asPatched(m *elements.MapElement, name string, n *elements.Node, cleaned []int32) *elements.Node {
	if n == nil || !slices.Contains(cleaned, n.ID) {
		return n
	}
	patched := *n
	patched.Local, patched.HasLocal = m.Local.Get(name)
	return &patched
}

// ordersOnly reports whether d is a list's "$setElementOrder" and nothing more.
func ordersOnly(d *elements.Directives) bool {
	return d.HasSetOrder && !d.HasRetainKeys && !d.ReplaceList && !d.HasDeleteFromList
}

// orderTaken reports whether d is what Phase 1 leaves of a list's "$setElementOrder" in a repeat where it takes the
// patch's list whole (collate's repeatOrdered: a list merged by no strategy that follows the directive, no
// "$deleteFromPrimitiveList" beside it, in strategicpatch's order, the directive dropped from the node and kept as the
// patch's field): no directive. Where the outcome lacks the field, a collation with it as live builds that list too
// (the list a set of the patch's distinct values in their order, or, naming a value twice, sorted by the directive,
// which the item's own list is sorted by; a list below, sorted as it stands, Phase 1 takes only so).
func orderTaken(d *elements.Directives) bool {
	return !d.HasSetOrder && !d.HasRetainKeys && !d.ReplaceList && !d.HasDeleteFromList
}

// takenOntoList reports whether atomic node c, a list merged by no strategy whose "$setElementOrder" Phase 1 took
// whole (orderTaken), replaces lv, its member's outcome's field, as a collation with that outcome as live builds it:
// lv is a list whose items and c's are scalars of one class (smp.ListClass), so that collation orders the patch's
// list alone (a set of its distinct values, or sorted by the directive naming one twice), as strategicpatch replaces
// a list without merge strategy by the patch's, sorted by the directive. Elsewhere that collation refuses the order.
func takenOntoList(c *elements.AtomicElement, lv value.Value) bool {
	if !c.HasLocal || !c.Local.IsList() || !lv.IsList() || elements.MergedList(c.Type, &c.Meta) {
		return false
	}
	return smp.ScalarsOfOneClass(lv.Items(), c.Local.Items())
}

// emptyOntoList reports whether atomic node c of compose mode's repeat tree is a list merged by no strategy that the
// repeat holds empty and orders by "$setElementOrder" alone, its entries scalars, where lv, its member's outcome's
// field, is a list of scalars of one class: strategicpatch's merge of patches replaces lv by the patch's empty list,
// which the directive, copied as a field, then orders (mergePatchIntoOriginal; items of one kind in lv, as
// sliceElementType requires, the entries hashed). Phase 1, without live, refuses the order there (Repeat.Err).
func emptyOntoList(c *elements.AtomicElement, lv value.Value) bool {
	if !elements.EmptyOrdered(&c.Node) || !ordersOnly(c.Dirs) || elements.MergedList(c.Type, &c.Meta) ||
		c.Type.Kind != openapi.KindList || !lv.IsList() || !c.Dirs.SetOrder.IsList() || !allScalars(c.Dirs.SetOrder.Items()) {
		return false
	}
	return smp.ScalarsOfOneClass(lv.Items(), nil)
}

// mergeDirected returns the error collating repeat tree e with v as live gives where v holds a map at the place of a
// "$patch: merge" map of the repeat (merges: their nodes' IDs, elements.Repeat.Merges), reached through maps v holds:
// maps merge without that directive. Nil where there is none.
func mergeDirected(e elements.Element, v value.Value, merges []int32) error {
	m, _ := e.(*elements.MapElement)
	if m == nil || !v.IsMap() {
		return nil
	}
	for _, f := range m.Fields {
		lv, _ := v.Get(f.Name)
		if !lv.IsMap() {
			continue
		}
		if c := f.Element.Base(); slices.Contains(merges, c.ID) {
			return c.Errorf(elements.Patch, smp.DirectiveKey+": "+smp.MergeValue+" is a schema strategy, not a patch directive: maps merge without it")
		}
		if err := mergeDirected(f.Element, lv, merges); err != nil {
			return err
		}
	}
	return nil
}

// orderedEmpty returns the error collating repeat tree e with v as live gives where e leaves out a merged list it orders
// by "$setElementOrder" (deleting from it or not: a node without the patch's value, atomic, or the list node Phase 1
// paired it as) and v, through maps, holds that field as a list without items: ordering it needs items, as the API
// server finds too (its merge of an order onto an empty list fails). Nil where there is none.
func orderedEmpty(e elements.Element, v value.Value) error {
	m, _ := e.(*elements.MapElement)
	if m == nil || !v.IsMap() {
		return nil
	}
	for _, f := range m.Fields {
		lv, inLive := v.Get(f.Name)
		if !inLive || (m.Dirs != nil && m.Dirs.HasRetainKeys && !slices.Contains(m.Dirs.RetainKeys, f.Name)) {
			continue // (a field "$retainKeys" clears first is absent to the order)
		}
		if lv.IsMap() {
			if err := orderedEmpty(f.Element, lv); err != nil {
				return err
			}
			continue
		}
		n := f.Element.Base()
		d := n.Dirs // (its "$deleteFromPrimitiveList" aside: the API server orders before it deletes)
		if !n.HasLocal && d != nil && d.HasSetOrder && !d.HasRetainKeys && !d.ReplaceList &&
			elements.MergedList(n.Type, &n.Meta) && lv.IsList() && lv.Len() == 0 {
			return n.Errorf(elements.Patch, smp.OrderWithoutItems(n.Name))
		}
	}
	return nil
}

// orderRefused returns the error collating apply mode's repeat node c with v as live gives where c is a list the
// repeat leaves out and orders by "$setElementOrder" alone, Phase 1 pairing it with no list (an atomic node), and lv,
// the field in v, is not a list (live's refused order, null too) or, for a merged list, one whose items or the order's
// entries the collation refuses (mergedOrderRefused); for one merged by no strategy and no merge key
// (atomicOrdered), one strategicpatch cannot order so: without items, its items of mixed classes, null or objects, or
// the order naming an object or a list (collate's kubectlOrdered refuses the directive there, format.CheckDirs;
// strategicpatch fails on the list's items or cannot hash the entries), and any list with gate MultiFieldMergeKeys on
// (UnmergedOrderRefused: format.CheckDirs refuses such an order). Nil elsewhere.
func (o Ordered) orderRefused(c *elements.AtomicElement, lv value.Value) error {
	merged := elements.MergedList(c.Type, &c.Meta)
	if o.Compose || c.HasLocal || c.HasRecorded || c.Ruled || c.Dirs == nil || !ordersOnly(c.Dirs) ||
		!c.Dirs.SetOrder.IsList() || !(merged || atomicOrdered(&c.Node)) {
		return nil
	}
	if !lv.IsList() {
		return c.Errorf(elements.Live, smp.OrderOfLive(c.Name, lv.Kind()))
	}
	if merged {
		return mergedOrderRefused(c, lv)
	}
	if o.UnmergedOrderRefused || unorderable(&c.Node, lv) {
		return c.Errorf(elements.Patch, smp.OrderOfUnmerged(c.Name))
	}
	return nil
}

// unorderable reports whether strategicpatch cannot order list lv by the "$setElementOrder" of n, a list merged by no
// strategy and no merge key: lv holds no items, items of mixed classes, null or objects, or an entry names an object or
// a list (collate's kubectlOrdered refuses the directive there: format.CheckDirs).
func unorderable(n *elements.Node, lv value.Value) bool {
	refused := slices.ContainsFunc(n.Dirs.SetOrder.Items(), func(e value.Value) bool { return e.IsMap() || e.IsList() })
	return refused || !smp.ScalarsOfOneClass(lv.Items(), nil)
}

// orderFailure returns the error a collation with v as live gives at node n of compose mode's repeat tree (as the
// patch holds it: asPatched), a list the repeat leaves out and orders by "$setElementOrder" alone (or, merged by no
// strategy, holds empty and orders so), where lv, v's field there, is a list with items: merged by no strategy and no
// merge key, one strategicpatch cannot order (unorderable: smp.OrderOfUnmerged); a set (no merge key), lv's items or
// the order's entries refused as setOrderRefused reads them. Nil elsewhere, and with deep (the depth limit may fail
// first).
func orderFailure(n *elements.Node, lv value.Value, deep bool) error {
	if n == nil || deep || n.Ruled || n.Dirs == nil || !ordersOnly(n.Dirs) || !n.Dirs.SetOrder.IsList() || !lv.IsList() ||
		lv.Len() == 0 {
		return nil
	}
	switch {
	case atomicOrdered(n) && (!n.HasLocal || elements.EmptyOrdered(n)):
		if unorderable(n, lv) {
			return n.Errorf(elements.Patch, smp.OrderOfUnmerged(n.Name))
		}
	case !n.HasLocal && elements.MergedList(n.Type, &n.Meta) && (len(n.Meta.MergeKey) == 0 || elements.SetOfMaps(n.Type, &n.Meta)):
		return setOrderRefused(n, lv)
	}
	return nil
}

// mergedOrderRefused is orderRefused for c a merged list, lv a list: the order of a list without items where lv has
// none, else, as the collation reads lv's items and the order's entries, the first error there: for a keyed list,
// limitWalk's orderOnto; for a set, setOrderRefused's. Nil elsewhere.
func mergedOrderRefused(c *elements.AtomicElement, lv value.Value) error {
	switch {
	case lv.Len() == 0:
		return c.Errorf(elements.Patch, smp.OrderWithoutItems(c.Name))
	case len(c.Meta.MergeKey) > 0 && !elements.SetOfMaps(c.Type, &c.Meta):
		err, _ := orderOnto(c.Path(), c.Dirs.SetOrder, lv, c.Type, &c.Meta)
		return err
	}
	return setOrderRefused(&c.Node, lv)
}

// setOrderRefused returns the error a collation with lv, a list with items, as live gives at n, a merged list without
// merge key (a set) its repeat leaves out and orders by "$setElementOrder" alone, as it reads lv's items and then the
// order's entries (collate's patchList, readOrder): items of lv that cannot merge (smp.ListClass: classErr), objects
// where the schema gives no set of maps (smp.NoMergeKey), an entry naming no value (an object or a list in a set of
// scalars, a list in a set of maps: smp.OrderEntryScalar). Nil where there is none.
func setOrderRefused(n *elements.Node, lv value.Value) error {
	objects := elements.SetOfMaps(n.Type, &n.Meta)
	class, msg, fromLive := smp.ListClass(lv.Items(), nil)
	switch {
	case msg != "":
		return classErr(n.Path(), msg, fromLive)
	case class == value.KindMap && !objects:
		return n.Errorf(elements.Patch, smp.NoMergeKey)
	}
	for i, e := range n.Dirs.SetOrder.Items() {
		if _, ok := elements.SetKey(e, objects); !ok {
			return n.Errorf(elements.Patch, smp.OrderEntryScalar(n.Name, i, e.Kind()))
		}
	}
	return nil
}

// cleared reports whether map m's "$retainKeys" clears field name (it holds one that does not name it).
func cleared(m *elements.MapElement, name string) bool {
	return m.Dirs != nil && m.Dirs.HasRetainKeys && !slices.Contains(m.Dirs.RetainKeys, name)
}

// composedWhole reports whether compose mode's repeat map e, for a field its member's outcome lacks or holds as
// another kind, has the outcome strategicpatch gives it, the patch's value less its maps holding "$patch" as it stands
// (mergeMap takes it so, removeDirectives: wholeOutcome), as a collation with that outcome as live builds it: no node
// of e's tree has a merge rule. (Phase 1's node may differ: a list beside an empty "$setElementOrder" sorted as in a map
// the outcome holds, a map of strategy replace holding "$patch" maps, a list held empty and ordered; strategicpatch
// reads none of them there.)
func composedWhole(e *elements.MapElement) bool {
	return e.Local.IsMap() && !ruledBelow(e)
}

// wholeOutcome is the outcome of compose mode's repeat map field pv where its member's outcome lacks a map there
// (composedWhole): pv less its maps holding "$patch", absent where pv is one.
func wholeOutcome(pv value.Value) elements.Outcome {
	if clean, keep := smp.WithoutDirectives(pv); keep {
		return elements.Keep(clean)
	}
	return elements.Absent
}

// failingOnto returns o asking ontoFits of repeat r, failing where it holds empty a list it orders (Ordered.failingEmpty).
func (o Ordered) failingOnto(r elements.Repeat) Ordered {
	o.directed, o.failingEmpty = r.Onto, true
	return o
}

// withOnto returns o merging a repeat whose directive maps are onto's nodes where its member's outcome holds a map.
func (o Ordered) withOnto(onto map[int32]elements.Element) Ordered {
	o.directed = onto
	return o
}

// wholeOntoList returns, for field f of compose mode's repeat map e, a leaf Phase 1 cleaned of maps holding "$patch"
// (Ordered.cleaned) holding a list the schema merges by no strategy, where lv, its member's outcome's field (null where
// it holds none), is a list: the patch's list as it stands, as strategicpatch takes such a list onto a list (less those
// maps onto another kind or nothing: the leaf's value); beside an empty "$setElementOrder", sorted by lv
// (sortedOntoList).
func (o Ordered) wholeOntoList(e *elements.MapElement, f elements.Field, lv value.Value) (value.Value, bool) {
	if sorted, ok := sortedOntoList(e, f, lv); o.Compose && ok {
		return sorted, true // (beside an empty "$setElementOrder": sorted by lv)
	}
	a, _ := f.Element.(*elements.AtomicElement)
	if o.Compose && a != nil && emptyOntoList(a, lv) {
		return a.Local, true // (held empty and ordered: the patch's empty list replaces lv's items)
	}
	if !o.Compose || a == nil || !lv.IsList() || a.Dirs != nil || elements.MergedList(a.Type, &a.Meta) ||
		!slices.Contains(o.cleaned, a.ID) {
		return value.Value{}, false
	}
	raw, _ := e.Local.Get(f.Name)
	return raw, raw.IsList()
}

// withCleaned returns o merging compose mode's repeat whose leaves cleaned Phase 1 built less the patch's maps holding
// "$patch" (elements.Repeat.Cleaned): merged onto a list, such a leaf holds the patch's value (asPatched).
func (o Ordered) withCleaned(cleaned []int32) Ordered {
	o.cleaned = cleaned
	return o
}

// retainsOnly reports whether d is a map's "$retainKeys" and nothing more.
func retainsOnly(d *elements.Directives) bool {
	return d.HasRetainKeys && !d.ReplaceList && !d.HasSetOrder && !d.HasDeleteFromList
}

// onto merges patch map e (ontoFits) onto map v field by field: v's fields e lacks stay as v holds them, e's fields
// v lacks or holds as a value decided whole are e's outcomes, and map fields on both sides merge onto v's field. With
// "$retainKeys", only the fields it names are kept, as Merge with Retain keeps them.
func (o Ordered) onto(e *elements.MapElement, v value.Value) (elements.Outcome, error) {
	kept := func(string) bool { return true }
	if e.Dirs != nil && e.Dirs.HasRetainKeys {
		kept = func(name string) bool {
			_, found := slices.BinarySearch(e.Dirs.RetainKeys, name)
			return found
		}
	}
	live := v.Fields()
	fields := make([]value.Field, 0, len(live)+len(e.Fields))
	for _, f := range e.Fields {
		var lv value.Value // v's value of f, if any
		inLive := false
		for ; len(live) > 0 && live[0].Key <= f.Name; live = live[1:] {
			if live[0].Key == f.Name {
				lv, inLive = live[0].Value, true
			} else if kept(live[0].Key) {
				fields = append(fields, live[0])
			}
		}
		if !kept(f.Name) {
			continue
		}
		var out elements.Outcome
		var err error
		l, _ := f.Element.(*elements.ListElement)
		if pv, _ := e.Local.Get(f.Name); o.Compose && replacedDirected(f, pv) {
			out = replacedOutcome(pv, lv, inLive)
		} else if o.Compose && strings.HasPrefix(f.Name, smp.DeletePrefix) {
			out = elements.Keep(pv) // (set over v's as the patch holds it, as strategicpatch does in a map it merges)
		} else if merged, _, applies, _ := dollarOnto(e, f, pv, lv); o.Compose && inLive && applies {
			out = merged // (a "$" field merged as one of no schema: composeChecked lets no failure through)
		} else if o.Compose && inLive && lv.IsMap() && directedMap(pv) {
			out = directedOnto(pv) // (a "replace" or "delete" one: composeChecked lets no other through)
		} else if c, _ := f.Element.(*elements.MapElement); c != nil && inLive && lv.IsMap() && !c.Meta.Strategy.Has(openapi.StrategyReplace) {
			out, err = o.onto(c, lv)
		} else if c != nil && o.Compose && !lv.IsMap() {
			out = wholeOutcome(pv) // (composedWhole: the patch's map as it stands, less its maps holding "$patch")
		} else if l != nil && (!inLive || replacedOntoOther(l, lv)) && len(l.Repeats) > 0 && l.Dirs != nil && l.Dirs.HasSetOrder {
			// Its repeats stay apart (v lacks the list or holds another kind), ordered with v as its parent's live
			// (order.ApartIn).
			in := o
			in.parentLive = true
			out, err = in.VisitList(l)
		} else if l != nil && inLive && replacedApart(l, lv) {
			// The patch's items replace lv's, its repeats apart, each after its key's member (order.ApartOnto).
			in := o
			in.listLive = true
			out, err = in.VisitList(l)
		} else if n := asPatched(e, f.Name, composedList(f.Element), o.cleaned); o.Compose && n != nil && inLive &&
			composesList(n, lv) {
			out, err = o.composeList(n, lv)
		} else if a, _ := f.Element.(*elements.AtomicElement); !o.Compose && !o.UnmergedOrderRefused && a != nil && inLive && ordersHeld(a, lv) {
			out = elements.Keep(reordered(lv, a.Dirs.SetOrder.Items(), ""))
		} else if raw, ok := o.wholeOntoList(e, f, lv); ok {
			out = elements.Keep(raw) // (a list merged by no strategy onto a list: the patch's as it stands)
		} else if a, _ := f.Element.(*elements.AtomicElement); a != nil && inLive && deletesFromHeld(a, lv) {
			out = heldLessDeleted(a, lv) // (an empty list stays)
		} else if directed, ok := o.directed[f.Element.Base().ID]; ok && inLive && lv.IsMap() {
			out, err = o.Walker.Walk(directed)
		} else if chain, _ := chainOf(f.Element); chain != nil && inLive && lv.IsList() {
			out, err = o.ontoList(f.Element, lv)
		} else {
			out, err = o.Walker.Walk(f.Element)
			o.layAlone(f.Element, out)
		}
		if err != nil {
			return elements.Absent, err
		}
		if out.Present {
			fields = append(fields, value.Field{Key: f.Name, Value: out.Value})
		}
	}
	for _, f := range live {
		if kept(f.Key) {
			fields = append(fields, f)
		}
	}
	return elements.Keep(value.MapFromSorted(fields)), nil
}

// replacedPlain reports whether map e of a repeat's tree, of strategy replace, is plain data: its patch value holds no
// null and no "$" key at any depth, and no node of e's tree has a rule. A collation with live holding a map there
// takes that value whole, as e's tree without live builds it field by field: walked, e gives it.
func replacedPlain(e *elements.MapElement) bool {
	return e.HasLocal && e.Local.IsMap() && plainData(e.Local) && !ruledBelow(e)
}

// plainData reports whether v holds no null and no map key starting with "$", at any depth.
func plainData(v value.Value) bool {
	switch {
	case v.IsNull():
		return false
	case v.IsMap():
		return !slices.ContainsFunc(v.Fields(), func(f value.Field) bool {
			return strings.HasPrefix(f.Key, "$") || !plainData(f.Value)
		})
	case v.IsList():
		return !slices.ContainsFunc(v.Items(), func(it value.Value) bool { return !plainData(it) })
	}
	return true
}

// ruledBelow reports whether e or a node below it has a merge rule.
func ruledBelow(e elements.Element) bool {
	if e.Base().Ruled {
		return true
	}
	switch e := e.(type) {
	case *elements.MapElement:
		return slices.ContainsFunc(e.Fields, func(f elements.Field) bool { return ruledBelow(f.Element) })
	case *elements.ListElement:
		return slices.ContainsFunc(e.Items, func(it elements.Item) bool { return it.Element != nil && ruledBelow(it.Element) })
	case *elements.SetElement:
		return slices.ContainsFunc(e.Items, func(it elements.Item) bool { return it.Element != nil && ruledBelow(it.Element) })
	}
	return false
}

// replacedApart reports whether e, a list of a repeat's tree, is a "$patch: replace" list naming a key twice, with no
// other directive but "$setElementOrder" and no rule, and lv, its member's outcome there, a list: collated with lv as
// live, its items are the patch's whole (collated alone, as in e), lv's are dropped, ordered by that order where it
// has one (lv's items, dropped, are no item's neighbours in it), and its repeats stay apart, each after its key's
// member; e walked with lv a list for live (Ordered.listLive) gives that.
func replacedApart(e elements.Element, lv value.Value) bool {
	return lv.IsList() && replacedNamingTwice(e)
}

// replacedOntoOther reports whether list e of a repeat's tree is a "$patch: replace" list naming a key twice (no other
// directive but "$setElementOrder") where lv, the member's outcome there, is not a list (null, a scalar, a map): a
// collation with lv as live takes the patch's items as they stand, as e's tree without live builds them, its repeats
// at their places in the patch, or, ordered by "$setElementOrder", each after its key's member (onto walks it, as for a
// field v lacks).
func replacedOntoOther(e elements.Element, lv value.Value) bool {
	return !lv.IsList() && replacedNamingTwice(e)
}

// replacedNamingTwice reports whether e is a list of a "$patch: replace" list naming a key twice, with no rule and no
// directive but "$setElementOrder".
func replacedNamingTwice(e elements.Element) bool {
	l, _ := e.(*elements.ListElement)
	return l != nil && len(l.Repeats) > 0 && !l.Ruled && l.Dirs != nil && l.Dirs.ReplaceList && !l.Dirs.HasRetainKeys &&
		!l.Dirs.HasDeleteFromList
}

// nulledDeleting reports whether atomic node c of a repeat's tree is a field the repeat sets to null, deleting from it
// by "$deleteFromPrimitiveList" alone, whose values a collation with lv, the member's outcome there, as live accepts
// (lv's items of one class, numbers one, not objects but in a set of maps, that of the values deleted where both have
// any; another lv holds no items): its outcome is absent, as that of c's own tree.
func nulledDeleting(c *elements.AtomicElement, lv value.Value) bool {
	d := c.Dirs
	if !d.HasDeleteFromList || d.HasSetOrder || d.HasRetainKeys || d.ReplaceList || !c.HasLocal || !c.Local.IsNull() {
		return false
	}
	live, liveOne := smp.OneClass(lv.Items())
	deleted, _ := smp.OneClass(d.DeleteFromList.Items())
	return liveOne && (live != value.KindMap || elements.SetOfMaps(c.Type, &c.Meta)) &&
		(lv.Len() == 0 || d.DeleteFromList.Len() == 0 || live == deleted)
}

// emptyOrdersHeld reports, for repeat tree e applied to v, whether each merged list e holds empty and orders by
// "$setElementOrder" alone (elements.Repeat.Err: the repeat's error without live) is a list with items in v, as
// collating the repeat with v as live requires; known is false where such a list lies in a list's items, which the
// items of v they pair with decide. In compose mode (composed), a map of e where v holds no map is taken as the patch
// holds it (composedWhole), its lists unread.
func emptyOrdersHeld(e elements.Element, v value.Value, composed bool) (held, known bool) {
	switch e := e.(type) {
	case *elements.MapElement:
		held = true
		for _, f := range e.Fields {
			lv, _ := v.Get(f.Name)
			if _, isMap := f.Element.(*elements.MapElement); composed && isMap && !lv.IsMap() {
				continue
			}
			h, k := emptyOrdersHeld(f.Element, lv, composed)
			if !k {
				return false, false
			}
			held = held && h
		}
		return held, true
	case *elements.ListElement:
		return emptyOrderHeld(&e.Node, e.Items, v)
	case *elements.SetElement:
		return emptyOrderHeld(&e.Node, e.Items, v)
	case *elements.AtomicElement:
		return emptyOrderHeld(&e.Node, nil, v)
	}
	return true, true
}

// emptyOrderHeld is emptyOrdersHeld for node n of a repeat's tree, its Items items if a list.
func emptyOrderHeld(n *elements.Node, items []elements.Item, v value.Value) (held, known bool) {
	if elements.EmptyOrdered(n) {
		return v.IsList() && v.Len() > 0, true
	}
	for p := range items {
		if h, _ := emptyOrdersHeld(items[p].Element, value.Null, false); !h {
			return false, false
		}
	}
	return true, true
}

// holdsRuledField reports whether map v holds a field that a merge rule of m's type decides: the rule's outcome need
// not be the repeat merged onto v's value.
func holdsRuledField(m *elements.MapElement, v value.Value) bool {
	for _, f := range v.Fields() {
		if _, meta := m.Type.Child(f.Key); meta.Rule != nil {
			return true
		}
	}
	return false
}

// failsOnto reports whether a repeat whose collation failed at or below field at (elements.Repeat.FailsAt), of type t,
// fails so applied to v: v is a map that lacks at and holds no field before it that a merge rule names, so that a
// collation with v as live builds the fields before at as leaves and collates at without live, as Phase 1 did.
func failsOnto(at string, t *openapi.Type, v value.Value) bool {
	if !v.IsMap() {
		return false
	}
	if _, held := v.Get(at); held {
		return false
	}
	for _, f := range v.Fields() {
		if _, meta := t.Child(f.Key); f.Key < at && meta.Rule != nil {
			return false
		}
	}
	return true
}

// plainOnto reports whether a repeat whose collation failed by the depth limit at or below field FailsAt, its fields up
// to it plain trees (elements.Repeat.PlainRoom), fails so applied to v: v is a map whose fields up to FailsAt (by name)
// are plain trees within PlainRoom levels (elements.PlainTree), so that a collation with v as live walks the repeat's
// nodes in the order Phase 1 did, v's within the limit, and meets the same node beyond it first.
func plainOnto(r elements.Repeat, t *openapi.Type, v value.Value) bool {
	if r.PlainRoom == 0 || !v.IsMap() {
		return false
	}
	for _, f := range v.Fields() {
		if f.Key <= r.FailsAt && !elements.PlainTree(f.Value, t, f.Key, r.PlainRoom) {
			return false
		}
	}
	return true
}
