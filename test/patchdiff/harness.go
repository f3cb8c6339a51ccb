package patchdiff

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/plyproject/ply/openapi"
	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/elements"
	"github.com/plyproject/ply/pkg/features"
	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/patchgen"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/internal/difftest"
	"github.com/plyproject/ply/test/jsonv"
)

// Mode is one kind of differential check.
type Mode string

// The modes. The first three compare patch application (pkg/patch), the
// last three patch generation (pkg/patchgen).
const (
	// ApplyThreeWay applies strategicpatch's CreateThreeWayMergePatch of a
	// random triple to live, with ply and with strategicpatch.
	ApplyThreeWay Mode = "apply-threeway"
	// ApplyTwoWay applies strategicpatch's CreateTwoWayMergePatch (from
	// recorded, or live on a first apply, to local) to live.
	ApplyTwoWay Mode = "apply-twoway"
	// ApplyDirectives applies a random hand-built patch full of directives
	// (gen.Generator.Patch) to live.
	ApplyDirectives Mode = "apply-directives"
	// GenThreeWay applies ply's three-way patch (overwrite) to live with
	// strategicpatch and compares with apply.Merge's object (kubectl
	// ordering).
	GenThreeWay Mode = "gen-threeway"
	// GenConflicts creates the three-way patch with overwrite false: ply
	// must report a conflict exactly when strategicpatch does, and
	// otherwise pass the GenThreeWay check.
	GenConflicts Mode = "gen-conflicts"
	// GenTwoWay compares ply's two-way patch with CreateTwoWayMergePatch's
	// as canonical JSON bytes.
	GenTwoWay Mode = "gen-twoway"
)

// Modes lists every mode, in report order.
var Modes = []Mode{ApplyThreeWay, ApplyTwoWay, ApplyDirectives, GenThreeWay, GenConflicts, GenTwoWay}

// Class is the verdict on one case.
type Class uint8

// The verdicts. Those before ObjectMismatch are not failures; of them,
// DuplicateItems up to ObjectMismatch are the known differences from
// strategicpatch, each with a regression case in testdata/cases.
const (
	// Agree: the same object (or patch).
	Agree Class = iota
	// AgreeError: strategicpatch failed and so did ply.
	AgreeError
	// AgreeConflict: both reported a conflict (GenConflicts).
	AgreeConflict
	// NoInput: strategicpatch cannot build the patch this mode applies
	// (ApplyThreeWay, ApplyTwoWay), so there is nothing to compare; or,
	// for GenConflicts, its conflict check failed on its own patch
	// although it merges with overwrite (difftest.NoVerdict).
	NoInput
	// DuplicateItems: ply reports a conflict (GenConflicts) that
	// strategicpatch misses, every one at an atomic list of scalars holding
	// two equal items in local or live: strategicpatch's check dedupes
	// both lists and compares only the patch's (difftest.ConflictsAtDuplicates).
	DuplicateItems
	// OracleLeaksDirective: strategicpatch is wrong. Applying a patch
	// whose list item is new to live, it copies the item raw, directives
	// inside: a nested "$patch: delete" item, so the deleted entry comes
	// back; a list's "$patch: replace" item, decoded as an empty item; a
	// field's "$patch" map, decoded as an empty map; and a later item of
	// the key merged into that copy deletes such a map again, leaving it
	// empty. ply applies them as in content live lacks (leakedDirectives):
	// its object equals strategicpatch's with the delete items dropped, or
	// with every map holding "$patch" dropped, but for empty maps, in items
	// live lacks, of fields the patch deletes with the directive. Where a
	// later item of the key merges into such a copy (matching a copied
	// delete item, replacing into a copied "$patch: replace" map), no
	// directive need be left in the result; the class then requires ply's
	// object to equal strategicpatch's own result on the patch with every
	// directive it would copy raw given that effect first (difftest.AbsorbedLeak),
	// checked after OracleEmptiesDeletedMap and DecimalMergeKey, so a case
	// either names keeps that class.
	OracleLeaksDirective
	// OracleCopiesUnchecked: strategicpatch is wrong. It checks a patch
	// only where it merges it into live: below a field live lacks, and for
	// a field with the replace strategy, it copies the patch value
	// unchecked (or drops it whole when it holds "$patch"), so an unknown
	// "$patch" value or a merge-list item without its merge key is
	// accepted there while the same patch fails where it is merged. ply
	// rejects the bad part wherever it is; the class requires ply's error
	// to be a patch error at a path where strategicpatch's raw result
	// holds the patch's value verbatim, or nothing, and strategicpatch to
	// reject the patch where it merges that place (copiedUnchecked): below
	// a replaced field, or on live with the place present, live's item and
	// the patch's "$patch: delete" item of a key on the path left out
	// where the patch names that key again, as strategicpatch deletes it
	// before it merges.
	OracleCopiesUnchecked
	// OracleNoMetaBelowMap: strategicpatch cannot merge a patch into an
	// object or list held by a map of objects or a free-form object (it
	// fails with "expected kind/slice, but got map": it has no metadata
	// below maps), where ply merges by the schema, or by the no-schema
	// rules. The random triples keep such values equal, so this occurs only
	// where a two-way patch sets one live already has.
	OracleNoMetaBelowMap
	// OracleNoMetaUndeclared: strategicpatch cannot merge a patch into an
	// object or list live holds at a field the schema does not declare
	// (every schema it reads fails the look-up: "unable to find api field
	// \"<f>\""), where ply merges it by the no-schema rules (maps merge,
	// lists are replaced), as it does at a field live lacks and
	// strategicpatch copies. The harness requires the field strategicpatch
	// names to be one a struct's type leaves undeclared where live and the
	// patch both hold objects there, or both lists (undeclaredBothHold).
	OracleNoMetaUndeclared
	// DecimalMergeKey: strategicpatch is wrong. A merge key's value
	// written as a decimal (80.0 for live's 80): strategicpatch decodes
	// JSON into Go values by their text (int64 80, float64 80.0) and
	// compares merge keys with ==, so the patch's item matches no item of
	// live (it is appended, a "$patch: delete" of it deletes nothing) and
	// a "$setElementOrder" entry written otherwise than its item's key
	// fails the order. ply reads them as the one JSON number they are.
	// The class requires the patch to hold such a number and the case to
	// fail no more once each is written as an integer (wholeKeysAgree).
	DecimalMergeKey
	// OracleEmptiesDeletedMap: strategicpatch is wrong. "$patch: delete"
	// on a map live has leaves an empty map, where document 001 says the
	// map is deleted, as ply does (pkg/patch doc.go, deliberate
	// differences). ply's object equals strategicpatch's but for empty
	// maps of fields ply's object lacks and the patch deletes with the
	// directive. This is the PatchDeleteRemovesMap gate's difference, so
	// it is classified only with the gate on; with every gate off (the
	// difftest.Kubectl targets) ply leaves the empty map too.
	OracleEmptiesDeletedMap
	// NullMergeKey: ply's gate MultiFieldMergeKeys. A patch's item whose
	// merge key field is null: strategicpatch compares key values, null
	// included, so the item is named by null (appended where live holds no
	// null-keyed item); ply with the gate on reads a null key field without
	// a schema default as missing and refuses the patch. The class requires
	// ply's error to name a patch item holding the key field null, and the
	// case to agree with the gate off (nullKeyRefused); with every gate off
	// ply follows strategicpatch, and any difference there fails.
	NullMergeKey
	// ObjectMismatch: both succeeded with different objects.
	ObjectMismatch
	// PatchMismatch: the two-way patches differ (GenTwoWay).
	PatchMismatch
	// ConflictMissed: strategicpatch reported a conflict, ply did not.
	ConflictMissed
	// ConflictExtra: ply reported a conflict, strategicpatch did not.
	ConflictExtra
	// PlyErrorOnly: ply failed where strategicpatch succeeded.
	PlyErrorOnly
	// OracleErrorOnly: strategicpatch failed where ply succeeded.
	OracleErrorOnly
	// PlyPanic: ply panicked.
	PlyPanic
)

var classNames = [...]string{"agree", "agree-error", "agree-conflict", "no-input", "duplicate-items", "oracle-leaks-directive", "oracle-copies-unchecked", "oracle-no-meta-below-map", "oracle-no-meta-undeclared",
	"decimal-merge-key", "oracle-empties-deleted-map", "null-merge-key", "object-mismatch", "patch-mismatch", "conflict-missed", "conflict-extra", "ply-error-only", "oracle-error-only", "ply-panic"}

// String names the class.
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "invalid"
}

// ParseClass returns the class called name.
func ParseClass(name string) (Class, error) {
	i := slices.Index(classNames[:], name)
	if i < 0 {
		return 0, fmt.Errorf("patchdiff: unknown class %q, want one of %v", name, classNames)
	}
	return Class(i), nil
}

// Failed reports whether the class is a disagreement.
func (c Class) Failed() bool { return c >= ObjectMismatch }

// Case is one input of one mode.
type Case struct {
	Mode   Mode
	Target string
	// Seed is the generator seed (0 for hand-written cases).
	Seed uint64
	// Shrunk is set when the inputs were reduced from the seed's.
	Shrunk bool
	// Recorded (value.Null: a first apply), Local and Live are the triple;
	// ApplyDirectives uses Live and Patch only.
	Recorded, Local, Live value.Value
	// Patch is ApplyDirectives' patch.
	Patch value.Value
	// Expect is the class a hand-written case must get, when HasExpect.
	Expect    Class
	HasExpect bool
}

// ID renders the replay handle "<mode>:<target>@0x<seed>".
func (c Case) ID() string {
	return string(c.Mode) + ":" + c.Target + "@0x" + strconv.FormatUint(c.Seed, 16)
}

// ParseID parses a handle written by Case.ID.
func ParseID(id string) (Mode, string, uint64, error) {
	mode, rest, ok := strings.Cut(id, ":")
	target, seedText, ok2 := strings.Cut(rest, "@")
	if !ok || !ok2 || !slices.Contains(Modes, Mode(mode)) || target == "" {
		return "", "", 0, fmt.Errorf("patchdiff: case id %q: want <mode>:<target>@<seed> with mode one of %v", id, Modes)
	}
	seed, err := strconv.ParseUint(seedText, 0, 64)
	if err != nil {
		return "", "", 0, fmt.Errorf("patchdiff: case id %q: bad seed: %w", id, err)
	}
	return Mode(mode), target, seed, nil
}

// docs returns pointers to the inputs the case's mode reads, for
// shrinking.
func (c *Case) docs() []*value.Value {
	if c.Mode == ApplyDirectives {
		return []*value.Value{&c.Live, &c.Patch}
	}
	return []*value.Value{&c.Recorded, &c.Local, &c.Live}
}

// Size is the total JSON size of the case's inputs.
func (c Case) Size() int {
	n := 0
	for _, d := range c.docs() {
		n += jsonv.Size(*d)
	}
	return n
}

// Outcome is what running a case gave.
type Outcome struct {
	Case
	Class Class
	// OraclePatch is the patch strategicpatch created (apply modes,
	// GenTwoWay) or ApplyDirectives' patch; PlyPatch the one ply created
	// (gen modes).
	OraclePatch, PlyPatch value.Value
	// OracleObject and PlyObject are the patched objects (OracleObject
	// as the API server stores it: see difftest.ServerNormalize). For gen
	// modes PlyObject is apply.Merge's object and OracleObject ply's
	// patch applied by strategicpatch.
	OracleObject, PlyObject value.Value
	// OracleRaw is strategicpatch's object before ServerNormalize.
	OracleRaw         value.Value
	OracleErr, PlyErr error
	OracleConflict    bool
	PlyConflict       bool
	// SamePatchBytes is set (GenThreeWay, GenConflicts) when ply's patch
	// equals strategicpatch's as canonical JSON.
	SamePatchBytes bool
	// DiffPath is where the compared values first differ.
	DiffPath string
}

// Signature groups failures likely to share a cause: mode, target,
// class and the diff path without list indices.
func (o Outcome) Signature() string {
	var sb strings.Builder
	sb.WriteString(string(o.Mode) + " " + o.Target + " " + o.Class.String())
	if o.DiffPath != "" {
		sb.WriteByte(' ')
		sb.WriteString(difftest.PathShape(o.DiffPath))
	}
	return sb.String()
}

func enc(v value.Value) []byte {
	if v.IsNull() {
		return nil
	}
	return v.JSON()
}

// decode converts strategicpatch's JSON output to a Value.
func decode(b []byte) (value.Value, error) {
	v, err := jsonv.Decode(b)
	if err != nil {
		return value.Null, fmt.Errorf("decoding strategicpatch's output: %w", err)
	}
	return v, nil
}

// guard runs f, turning a panic into an error; panicked reports it.
func guard(f func() error) (err error, panicked bool) {
	defer func() {
		if p := recover(); p != nil {
			err, panicked = fmt.Errorf("panic: %v\n%s", p, debug.Stack()), true
		}
	}()
	return f(), false
}

// Run executes c on target t and classifies the outcome.
func Run(t *difftest.Target, c Case) (o Outcome) {
	o = Outcome{Case: c}
	defer func() {
		if o.Class.Failed() {
			o.Class = knownClass(t, c, &o)
		}
	}()
	switch c.Mode {
	case ApplyThreeWay, ApplyTwoWay, ApplyDirectives:
		runApply(t, &o)
	case GenThreeWay, GenConflicts:
		runGenThreeWay(t, &o)
	case GenTwoWay:
		runGenTwoWay(t, &o)
	default:
		o.Class, o.PlyErr = PlyErrorOnly, fmt.Errorf("patchdiff: unknown mode %q", c.Mode)
	}
	return o
}

// knownClass returns the class of o, a failed case c of target t: a
// known difference from strategicpatch where its defect shows exactly,
// else o's class.
func knownClass(t *difftest.Target, c Case, o *Outcome) Class {
	var ee *elements.Error
	if o.Class == PlyErrorOnly && c.Mode == ApplyDirectives && errors.As(o.PlyErr, &ee) && ee.Source == elements.Patch &&
		copiedUnchecked(t, c, o.OracleRaw, ee.Path) {
		return OracleCopiesUnchecked
	}
	if o.Class == OracleErrorOnly && (strings.Contains(o.OracleErr.Error(), "expected kind, but got map") ||
		strings.Contains(o.OracleErr.Error(), "expected slice, but got map")) {
		return OracleNoMetaBelowMap
	}
	if o.Class == OracleErrorOnly {
		if m := fieldNotFound.FindStringSubmatch(o.OracleErr.Error()); m != nil && undeclaredBothHold(t.Root, c.Live, c.Patch, m[1]) {
			return OracleNoMetaUndeclared
		}
	}
	if o.Class == ObjectMismatch && leakedDirectives(c, t.Root, o.OracleRaw, o.PlyObject) {
		return OracleLeaksDirective
	}
	// With PatchDeleteRemovesMap off ply leaves the empty map too: no
	// difference to excuse.
	if o.Class == ObjectMismatch && c.Mode == ApplyDirectives && t.Gates.Enabled(features.PatchDeleteRemovesMap) {
		if deleted := deletedMapFields(c.Patch, nil); len(deleted) > 0 && equalButDeletedMaps(o.OracleObject, o.PlyObject, deleted) {
			return OracleEmptiesDeletedMap
		}
	}
	if wholeKeysAgree(t, c) {
		return DecimalMergeKey
	}
	// After the classes above: a case they name keeps its class.
	if o.Class == ObjectMismatch && appliesPatch(c.Mode) && difftest.AbsorbedLeak(t, c.Live, o.OraclePatch, o.PlyObject) {
		return OracleLeaksDirective
	}
	if o.Class == PlyErrorOnly && nullKeyRefused(t, c, o.PlyErr) {
		return NullMergeKey
	}
	// A conflict ply finds only at atomic lists holding two equal items.
	if o.Class == ConflictExtra && difftest.ConflictsAtDuplicates(c.Local, c.Live, o.PlyErr) {
		return DuplicateItems
	}
	return o.Class
}

// appliesPatch reports whether mode m applies its patch (Outcome.OraclePatch)
// to live with both sides.
func appliesPatch(m Mode) bool {
	return m == ApplyThreeWay || m == ApplyTwoWay || m == ApplyDirectives
}

// leakedDirectives reports whether ply's object equals strategicpatch's raw
// result (raw) once the directives strategicpatch copied into content live
// lacks are applied as ply applies them there: the list items carrying
// "$patch": "delete" dropped (difftest.DropLeakedDeletes), or else every
// map holding "$patch" dropped, a list's "$patch": "replace" item and a
// field's "$patch" map alike (withoutDirectiveMaps; docs/patches.md:
// content live lacks is cleaned), and the empty maps that a later item of
// the key leaves where it deletes such a copied map again (emptiedInNew).
// Only a raw result holding such a directive, or an empty map in an item
// live lacks, can match: strategicpatch leaves neither where it merges.
func leakedDirectives(c Case, root *openapi.Type, raw, ply value.Value) bool {
	if leaked, ok := difftest.DropLeakedDeletes(raw); ok {
		if norm, _ := difftest.ServerNormalize(leaked); value.Equal(norm, ply) {
			return true
		}
	}
	norm, _ := difftest.ServerNormalize(difftest.WithoutDirectiveMaps(raw))
	if !value.Equal(difftest.WithoutDirectiveMaps(raw), raw) && value.Equal(norm, ply) {
		return true
	}
	deleted := deletedMapFields(c.Patch, nil)
	return len(deleted) > 0 && emptiedInNew(norm, ply, c.Live, root, nil, deleted, false)
}

// emptiedInNew reports whether oracle equals ply but for fields oracle
// holds as empty maps where ply lacks them, each named in deleted and in a
// list item live lacks (isNew): strategicpatch appends a patch item live
// lacks raw, a field's "$patch": "delete" map inside, and a later item of
// the key deletes that map again, leaving it empty. live is live's value
// at the same place, t its type, key the merge key when it is a list.
func emptiedInNew(oracle, ply, live value.Value, t *openapi.Type, key []string, deleted map[string]bool, isNew bool) bool {
	switch {
	case oracle.IsMap() && ply.IsMap():
		matched := 0
		for _, f := range oracle.Fields() {
			pv, ok := ply.Get(f.Key)
			if !ok {
				if !isNew || !deleted[f.Key] || !f.Value.IsMap() || f.Value.Len() != 0 {
					return false
				}
				continue
			}
			matched++
			ct, meta := t.Child(f.Key)
			var lv value.Value
			if live.IsMap() {
				lv, _ = live.Get(f.Key)
			}
			if !emptiedInNew(f.Value, pv, lv, ct, meta.MergeKey, deleted, isNew) {
				return false
			}
		}
		return matched == ply.Len()
	case oracle.IsList() && ply.IsList() && len(key) > 0:
		a, b := oracle.Items(), ply.Items()
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			lv, inLive := liveItem(live, a[i], key)
			if !emptiedInNew(a[i], b[i], lv, t.Item(), nil, deleted, isNew || !inLive) {
				return false
			}
		}
		return true
	}
	return value.Equal(oracle, ply)
}

// liveItem returns the first item of list live holding item's values of
// the merge key's fields.
func liveItem(live, item value.Value, key []string) (value.Value, bool) {
	if !live.IsList() {
		return value.Null, false
	}
	for _, it := range live.Items() {
		if !slices.ContainsFunc(key, func(k string) bool {
			a, ina := it.Get(k)
			b, inb := item.Get(k)
			return ina != inb || !value.Equal(a, b)
		}) {
			return it, true
		}
	}
	return value.Null, false
}

// copiedUnchecked reports whether strategicpatch copied (or dropped) the
// patch's value at path p, where ply reports a patch error, instead of
// merging it (raw: strategicpatch's raw result), and rejects the same
// patch where it merges that place: below a field it replaces whole, or on
// live with the place present. Where the patch deletes an item on p with a
// "$patch": "delete" item of its key (a patch naming the key again),
// strategicpatch deletes before it merges, so the item's data reaches it
// as new; the probe is then live without that item and the patch without
// the delete (undeleted), as strategicpatch has them when it merges.
func copiedUnchecked(t *difftest.Target, c Case, raw value.Value, p fieldpath.Path) bool {
	pv, _ := difftest.Lookup(c.Patch, p)
	pv, _ = difftest.ServerNormalize(difftest.WithoutDirectiveMaps(pv))
	rv, in := difftest.Lookup(raw, p)
	if rv, _ = difftest.ServerNormalize(rv); in && !value.Equal(rv, pv) {
		return false
	}
	if replacedBy(t.Root, p) {
		return true
	}
	at, _ := difftest.Lookup(c.Patch, p)
	rejects := func(live, patch value.Value) bool {
		probe, ok := present(live, p, at)
		if !ok {
			return false
		}
		_, _, err := difftest.OracleApplyPatch(t, probe.JSON(), patch.JSON())
		return err != nil
	}
	if rejects(c.Live, c.Patch) {
		return true
	}
	live, patch, deleted := undeleted(c.Live, c.Patch, p)
	return deleted && rejects(live, patch)
}

// undeleted returns live and patch without, at each keyed list on path p,
// the patch's "$patch": "delete" items of the path's key and live's items
// of that key; deleted reports whether there was such a delete item.
func undeleted(live, patch value.Value, p fieldpath.Path) (_, _ value.Value, deleted bool) {
	if len(p) == 0 {
		return live, patch, false
	}
	e := p[0]
	switch {
	case e.Kind == fieldpath.FieldElement && patch.IsMap():
		pv, ok := patch.Get(e.Field)
		if !ok {
			return live, patch, false
		}
		lv, inLive := live.Get(e.Field)
		nl, np, d := undeleted(lv, pv, p[1:])
		if inLive && live.IsMap() {
			live = live.With(e.Field, nl)
		}
		return live, patch.With(e.Field, np), d
	case e.Kind == fieldpath.KeyElement && patch.IsList():
		pitems := slices.DeleteFunc(slices.Clone(patch.Items()), func(it value.Value) bool {
			d, _ := it.Get("$patch")
			s, _ := d.AsString()
			return it.IsMap() && s == "delete" && keyMatches(it, e.Key)
		})
		deleted = len(pitems) < patch.Len()
		var litems []value.Value
		if live.IsList() {
			litems = slices.Clone(live.Items())
			if deleted {
				litems = slices.DeleteFunc(litems, func(it value.Value) bool { return keyMatches(it, e.Key) })
			}
		}
		pi := slices.IndexFunc(pitems, func(it value.Value) bool { return keyMatches(it, e.Key) })
		if pi >= 0 {
			li := slices.IndexFunc(litems, func(it value.Value) bool { return keyMatches(it, e.Key) })
			var lv value.Value
			if li >= 0 {
				lv = litems[li]
			}
			nl, np, d := undeleted(lv, pitems[pi], p[1:])
			if li >= 0 {
				litems[li] = nl
			}
			pitems[pi], deleted = np, deleted || d
		}
		if live.IsList() {
			live = value.List(litems)
		}
		return live, value.List(pitems), deleted
	}
	return live, patch, false
}

// keyMatches reports whether item it holds every field of merge key k.
func keyMatches(it value.Value, k []fieldpath.KeyField) bool {
	return slices.IndexFunc(k, func(kf fieldpath.KeyField) bool {
		kv, in := it.Get(kf.Name)
		return !in || !value.Equal(kv, kf.Value)
	}) < 0
}

// twoWayOriginal is the original of the two-way modes: recorded, or live
// on a first apply.
func twoWayOriginal(c Case) value.Value {
	if c.Recorded.IsNull() {
		return c.Live
	}
	return c.Recorded
}

func runApply(t *difftest.Target, o *Outcome) {
	c := o.Case
	var p []byte
	switch c.Mode {
	case ApplyThreeWay, ApplyTwoWay:
		err, _ := guard(func() error {
			var err error
			if c.Mode == ApplyThreeWay {
				p, err = strategicpatch.CreateThreeWayMergePatch(enc(c.Recorded), enc(c.Local), enc(c.Live), t.Oracle.Meta(), true)
			} else {
				p, err = strategicpatch.CreateTwoWayMergePatchUsingLookupPatchMeta(enc(twoWayOriginal(c)), enc(c.Local), t.Oracle.Meta())
			}
			return err
		})
		if err != nil {
			o.Class, o.OracleErr = NoInput, err
			return
		}
		pv, err := decode(p)
		if err != nil {
			o.Class, o.OracleErr = NoInput, err
			return
		}
		o.OraclePatch = pv
	default:
		o.OraclePatch = c.Patch
		p = PatchText(c.Patch)
	}
	o.OracleObject, o.OracleRaw, o.OracleErr = difftest.OracleApplyPatch(t, enc(c.Live), p)

	var panicked bool
	o.PlyErr, panicked = guard(func() error {
		var err error
		o.PlyObject, err = PlyApply(t, c.Live, o.OraclePatch)
		return err
	})
	o.Class = compareObjects(o, panicked)
}

// compareObjects classifies two results that must be equal objects.
func compareObjects(o *Outcome, panicked bool) Class {
	switch {
	case panicked:
		return PlyPanic
	case o.OracleErr != nil && o.PlyErr != nil:
		return AgreeError
	case o.OracleErr != nil:
		return OracleErrorOnly
	case o.PlyErr != nil:
		return PlyErrorOnly
	}
	if p, ok := difftest.FirstDiff(o.OracleObject, o.PlyObject); ok {
		o.DiffPath = p
		return ObjectMismatch
	}
	return Agree
}

func runGenThreeWay(t *difftest.Target, o *Outcome) {
	c := o.Case
	overwrite := c.Mode == GenThreeWay
	// strategicpatch's own patch, for the conflict verdict and the
	// same-bytes statistic.
	var sp []byte
	spErr, _ := guard(func() error {
		var err error
		sp, err = strategicpatch.CreateThreeWayMergePatch(enc(c.Recorded), enc(c.Local), enc(c.Live), t.Oracle.Meta(), overwrite)
		return err
	})
	o.OracleConflict = spErr != nil && mergepatch.IsConflict(spErr)
	if spErr == nil {
		o.OraclePatch, spErr = decode(sp)
	}

	var plyPatch value.Value
	var panicked bool
	o.PlyErr, panicked = guard(func() error {
		var err error
		plyPatch, err = patchgen.ThreeWay(c.Recorded, c.Local, c.Live, t.PatchgenOptions(overwrite))
		return err
	})
	if panicked {
		o.Class = PlyPanic
		return
	}
	var ce *apply.ConflictError
	o.PlyConflict = o.PlyErr != nil && errors.As(o.PlyErr, &ce)
	o.PlyPatch = plyPatch
	if (!overwrite && conflictVerdict(t, o, spErr)) || errorVerdict(o, spErr) {
		return
	}
	o.SamePatchBytes = bytes.Equal(plyPatch.JSON(), o.OraclePatch.JSON())
	compareAppliedPatch(t, o, plyPatch)
}

// conflictVerdict classifies o by the conflict checks of both sides (spErr: strategicpatch's error making its patch)
// and reports whether that settles it.
func conflictVerdict(t *difftest.Target, o *Outcome, spErr error) bool {
	c := o.Case
	switch {
	case o.OracleConflict && o.PlyConflict:
		o.Class = AgreeConflict
		return true
	case spErr != nil && !o.OracleConflict:
		// strategicpatch's conflict check failed: a verdict only when
		// it cannot merge at all.
		_, err := strategicpatch.CreateThreeWayMergePatch(enc(c.Recorded), enc(c.Local), enc(c.Live), t.Oracle.Meta(), true)
		if err == nil {
			o.OracleErr = spErr
			o.Class = NoInput
			if o.PlyErr != nil && !o.PlyConflict {
				o.Class = PlyErrorOnly
			}
			return true
		}
	case o.OracleConflict:
		o.Class = ConflictMissed
		return true
	case o.PlyConflict:
		o.Class = ConflictExtra
		return true
	}
	return false
}

// errorVerdict classifies o when either side failed to make its patch, and reports whether one did.
func errorVerdict(o *Outcome, spErr error) bool {
	switch {
	case spErr != nil && o.PlyErr != nil:
		o.OracleErr, o.Class = spErr, AgreeError
	case spErr != nil:
		o.OracleErr, o.Class = spErr, OracleErrorOnly
	case o.PlyErr != nil:
		o.Class = PlyErrorOnly
	default:
		return false
	}
	return true
}

// compareAppliedPatch classifies o by ply's merge of the case against strategicpatch's application of ply's patch.
func compareAppliedPatch(t *difftest.Target, o *Outcome, plyPatch value.Value) {
	c := o.Case
	var merged apply.Result
	var mergeErr error
	var panicked bool
	o.PlyErr, panicked = guard(func() error {
		merged, mergeErr = apply.Merge(c.Recorded, c.Local, c.Live, t.MergeOptions(true))
		return mergeErr
	})
	if panicked {
		o.Class = PlyPanic
		return
	}
	o.PlyObject = merged.Object
	o.OracleObject, o.OracleRaw, o.OracleErr = difftest.OracleApplyPatch(t, enc(c.Live), plyPatch.JSON())
	o.Class = compareObjects(o, false)
}

func runGenTwoWay(t *difftest.Target, o *Outcome) {
	c := o.Case
	original := twoWayOriginal(c)
	var sp []byte
	o.OracleErr, _ = guard(func() error {
		var err error
		sp, err = strategicpatch.CreateTwoWayMergePatchUsingLookupPatchMeta(enc(original), enc(c.Local), t.Oracle.Meta())
		return err
	})
	if o.OracleErr == nil {
		o.OraclePatch, o.OracleErr = decode(sp)
	}
	var panicked bool
	o.PlyErr, panicked = guard(func() error {
		var err error
		o.PlyPatch, err = patchgen.TwoWay(original, c.Local, t.PatchgenOptions(false))
		return err
	})
	switch {
	case panicked:
		o.Class = PlyPanic
	case o.OracleErr != nil && o.PlyErr != nil:
		o.Class = AgreeError
	case o.OracleErr != nil:
		o.Class = OracleErrorOnly
	case o.PlyErr != nil:
		o.Class = PlyErrorOnly
	case !bytes.Equal(o.OraclePatch.JSON(), o.PlyPatch.JSON()):
		o.DiffPath, _ = difftest.FirstDiff(o.OraclePatch, o.PlyPatch)
		o.Class = PatchMismatch
	default:
		o.Class = Agree
	}
}

// CaseSeed derives the seed of case i of a batch from the base seed, the
// mode and the target (splitmix64 over their mix).
func CaseSeed(base uint64, mode Mode, target string, i int) uint64 {
	h := fnv.New64a()
	h.Write([]byte(mode))
	h.Write([]byte{0})
	h.Write([]byte(target))
	x := base ^ h.Sum64() ^ uint64(i)*0x9e3779b97f4a7c15
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Generate returns the case of mode on t from seed.
func Generate(t *difftest.Target, mode Mode, seed uint64) Case {
	tr := t.Gen.Triple(seed)
	c := Case{Mode: mode, Target: t.ID(), Seed: seed, Recorded: tr.Recorded, Local: tr.Local, Live: tr.Live}
	if mode == ApplyDirectives {
		c.Recorded, c.Local = value.Null, value.Null
		c.Patch = withDecimalKeys(t.Gen.Patch(seed, c.Live), t.Root, seed)
	}
	return c
}

// Stats counts the outcomes of a batch.
type Stats struct {
	Mode   Mode
	Target string
	Runs   int
	// ByClass counts outcomes per Class.
	ByClass [len(classNames)]int
	// SamePatch counts gen-mode cases whose patch equals strategicpatch's
	// byte for byte (canonical JSON).
	SamePatch int
}

// Add counts the stats of another batch of the same mode.
func (s *Stats) Add(o Stats) {
	s.Runs += o.Runs
	s.SamePatch += o.SamePatch
	for i, n := range o.ByClass {
		s.ByClass[i] += n
	}
}

// Failures is the number of failed cases.
func (s Stats) Failures() int {
	n := 0
	for c, k := range s.ByClass {
		if Class(c).Failed() {
			n += k
		}
	}
	return n
}

// String renders the counts on one line.
func (s Stats) String() string {
	var sb strings.Builder
	sb.WriteString(string(s.Mode))
	if s.Target != "" {
		sb.WriteString(" " + s.Target)
	}
	sb.WriteString(": " + strconv.Itoa(s.Runs) + " cases")
	for c, k := range s.ByClass {
		if k > 0 {
			sb.WriteString(", " + Class(c).String() + " " + strconv.Itoa(k))
		}
	}
	if s.Mode == GenThreeWay || s.Mode == GenConflicts {
		sb.WriteString(" (patch byte-identical to strategicpatch's in " + strconv.Itoa(s.SamePatch) + ")")
	}
	return sb.String()
}

// RunMany runs n generated cases of mode on t from the base seed on
// workers goroutines and returns the counts and up to keep failing
// outcomes, smallest first.
func RunMany(t *difftest.Target, mode Mode, base uint64, n, workers, keep int) (Stats, []Outcome) {
	st := Stats{Mode: mode, Target: t.ID(), Runs: n}
	var mu sync.Mutex
	var fails []Outcome
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(1, workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				o := Run(t, Generate(t, mode, CaseSeed(base, mode, t.Name, i)))
				mu.Lock()
				st.ByClass[o.Class]++
				if o.SamePatchBytes {
					st.SamePatch++
				}
				if o.Class.Failed() {
					at, _ := slices.BinarySearchFunc(fails, o, compareOutcomes)
					if at < keep {
						fails = slices.Insert(fails, at, o)
						fails = fails[:min(len(fails), keep)]
					}
				}
				mu.Unlock()
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return st, fails
}

func compareOutcomes(a, b Outcome) int {
	if d := a.Size() - b.Size(); d != 0 {
		return d
	}
	switch {
	case a.Seed < b.Seed:
		return -1
	case a.Seed > b.Seed:
		return 1
	}
	return 0
}

// Pick chooses up to n outcomes to report from fails (smallest first):
// the smallest of each distinct Signature first.
func Pick(fails []Outcome, n int) []Outcome {
	var out []Outcome
	seen := map[string]bool{}
	for _, o := range fails {
		if len(out) < n && !seen[o.Signature()] {
			seen[o.Signature()] = true
			out = append(out, o)
		}
	}
	return out
}

// Shrink reduces a failing outcome's inputs while the case keeps failing
// with the same class: it deletes one map field or list item at a time
// from each input (difftest.DeleteNth), keeping each deletion that keeps
// the failure, running at most budget cases.
func Shrink(t *difftest.Target, o Outcome, budget int) Outcome {
	if !o.Class.Failed() {
		return o
	}
	best := o
	runs := 0
	for progress := true; progress && runs < budget; {
		progress = false
		for d := range len(best.docs()) {
			for idx := 0; runs < budget; {
				c := best.Case
				doc := c.docs()[d]
				out, ok := difftest.DeleteNth(*doc, idx)
				if !ok {
					break
				}
				*doc = out
				c.Shrunk = true
				runs++
				if r := Run(t, c); r.Class == best.Class {
					best = r
					progress = true
					continue
				}
				idx++
			}
		}
	}
	return best
}

// replacedBy reports whether path p, below root, passes through a field
// with the replace strategy (which strategicpatch copies whole).
func replacedBy(root *openapi.Type, p fieldpath.Path) bool {
	t := root
	for _, e := range p {
		if t == nil {
			return false
		}
		switch e.Kind {
		case fieldpath.FieldElement:
			f := t.Field(e.Field)
			if f == nil {
				return false
			}
			if f.Meta.Strategy.Has(openapi.StrategyReplace) {
				return true
			}
			t = f.Type
		default:
			t = t.Elem
		}
	}
	return false
}

// present returns live with an empty value of kind like at path p (maps
// and keyed list items created on the way), so that a patch merges there
// instead of copying; ok is false for paths through indexed or set items.
func present(live value.Value, p fieldpath.Path, like value.Value) (value.Value, bool) {
	if len(p) == 0 {
		if live.Kind() == like.Kind() {
			return live, true
		}
		switch like.Kind() {
		case value.KindMap:
			return value.MustMap(), true
		case value.KindList:
			return value.List(nil), true
		}
		return like, true
	}
	e := p[0]
	switch e.Kind {
	case fieldpath.FieldElement:
		if !live.IsMap() {
			live = value.MustMap()
		}
		child, _ := live.Get(e.Field)
		nv, ok := present(child, p[1:], like)
		return live.With(e.Field, nv), ok
	case fieldpath.KeyElement:
		if !live.IsList() {
			live = value.List(nil)
		}
		items := slices.Clone(live.Items())
		at := slices.IndexFunc(items, func(it value.Value) bool { return keyMatches(it, e.Key) })
		if at < 0 {
			item := value.MustMap()
			for _, kf := range e.Key {
				item = item.With(kf.Name, kf.Value)
			}
			items = append(items, item)
			at = len(items) - 1
		}
		nv, ok := present(items[at], p[1:], like)
		items[at] = nv
		return value.List(items), ok
	}
	return live, false
}

// deletedMapFields adds to names the name of every field p (at any depth)
// sets to a map holding "$patch": "delete".
func deletedMapFields(p value.Value, names map[string]bool) map[string]bool {
	switch p.Kind() {
	case value.KindMap:
		for _, f := range p.Fields() {
			if d, ok := f.Value.Get("$patch"); ok && f.Value.IsMap() {
				if s, _ := d.AsString(); s == "delete" {
					if names == nil {
						names = make(map[string]bool)
					}
					names[f.Key] = true
					continue
				}
			}
			names = deletedMapFields(f.Value, names)
		}
	case value.KindList:
		for _, it := range p.Items() {
			names = deletedMapFields(it, names)
		}
	}
	return names
}

// equalButDeletedMaps reports whether oracle equals ply but for fields
// oracle holds as empty maps where ply lacks them, each named in deleted
// (the OracleEmptiesDeletedMap class). Lists are compared item by item.
func equalButDeletedMaps(oracle, ply value.Value, deleted map[string]bool) bool {
	switch {
	case oracle.IsMap() && ply.IsMap():
		for _, f := range oracle.Fields() {
			pv, ok := ply.Get(f.Key)
			if !ok {
				if !deleted[f.Key] || !f.Value.IsMap() || f.Value.Len() != 0 {
					return false
				}
				continue
			}
			if !equalButDeletedMaps(f.Value, pv, deleted) {
				return false
			}
		}
		for _, f := range ply.Fields() {
			if _, ok := oracle.Get(f.Key); !ok {
				return false
			}
		}
		return true
	case oracle.IsList() && ply.IsList():
		a, b := oracle.Items(), ply.Items()
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equalButDeletedMaps(a[i], b[i], deleted) {
				return false
			}
		}
		return true
	}
	return value.Equal(oracle, ply)
}

// fieldNotFound matches strategicpatch's failed look-up of a field (OpenAPI v2 and v3) and captures the field.
var fieldNotFound = regexp.MustCompile(`^unable to find api field "([^"]*)"`)

// undeclaredBothHold reports whether patch p, merged into live of type t, reaches a map whose type is a struct that
// does not declare field f, live and the patch both holding objects there, or both lists: where strategicpatch looks
// f up and fails. It follows the fields both hold as objects (not those of strategy replace, nor maps holding "$patch"),
// by their declared types.
func undeclaredBothHold(t *openapi.Type, live, p value.Value, f string) bool {
	if t == nil || !live.IsMap() || !p.IsMap() {
		return false
	}
	if _, ok := p.Get("$patch"); ok {
		return false
	}
	if t.Kind == openapi.KindStruct && t.Field(f) == nil {
		lv, lok := live.Get(f)
		pv, pok := p.Get(f)
		if lok && pok && (lv.IsMap() && pv.IsMap() || lv.IsList() && pv.IsList()) {
			return true
		}
	}
	for _, fl := range p.Fields() {
		ct, meta := t.Child(fl.Key)
		lv, _ := live.Get(fl.Key)
		if t.Field(fl.Key) != nil && !meta.Strategy.Has(openapi.StrategyReplace) && undeclaredBothHold(ct, lv, fl.Value, f) {
			return true
		}
	}
	return false
}
