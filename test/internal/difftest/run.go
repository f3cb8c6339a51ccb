package difftest

import (
	"errors"
	"fmt"
	"hash/fnv"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/plyproject/ply/pkg/apply"
	"github.com/plyproject/ply/pkg/value"
	"github.com/plyproject/ply/test/jsonv"
)

// Case is one differential test input.
type Case struct {
	// Target names the Spec the case belongs to.
	Target string
	// Seed is the generator seed the triple came from (0 when the case was
	// written by hand or shrunk).
	Seed uint64
	// Shrunk is set when the triple was reduced from the seed's triple.
	Shrunk bool
	// Overwrite is passed to both implementations.
	Overwrite bool
	// Recorded is value.Null for a first apply.
	Recorded, Local, Live value.Value
	// Expect is the Class a hand-written case must get, when HasExpect.
	Expect    Class
	HasExpect bool
}

// FirstApply reports whether the case has no recorded configuration.
func (c Case) FirstApply() bool { return c.Recorded.IsNull() }

// Size is the total JSON size of the three inputs.
func (c Case) Size() int {
	return jsonv.Size(c.Recorded) + jsonv.Size(c.Local) + jsonv.Size(c.Live)
}

// ID renders the case's replay handle: "<target>@<seed hex>", with
// "/no-overwrite" appended when Overwrite is false.
func (c Case) ID() string {
	s := c.Target + "@0x" + strconv.FormatUint(c.Seed, 16)
	if !c.Overwrite {
		s += "/no-overwrite"
	}
	return s
}

// ParseID parses a replay handle written by Case.ID.
func ParseID(id string) (target string, seed uint64, overwrite bool, err error) {
	overwrite = true
	if rest, ok := strings.CutSuffix(id, "/no-overwrite"); ok {
		id, overwrite = rest, false
	}
	target, seedText, ok := strings.Cut(id, "@")
	if !ok || target == "" {
		return "", 0, false, fmt.Errorf("difftest: case id %q: want <target>@<seed>[/no-overwrite]", id)
	}
	seed, err = strconv.ParseUint(seedText, 0, 64)
	if err != nil {
		return "", 0, false, fmt.Errorf("difftest: case id %q: bad seed: %w", id, err)
	}
	return target, seed, overwrite, nil
}

// Class is the verdict on one case.
type Class uint8

// The verdicts. The first four are not failures; the rest are.
const (
	// Agree: both produced the same object.
	Agree Class = iota
	// AgreeConflict: both reported a conflict (Overwrite false).
	AgreeConflict
	// AgreeError: strategicpatch failed and ply returned an error too.
	AgreeError
	// NoVerdict: with Overwrite false, strategicpatch's conflict check
	// failed (it cannot digest some of its own patch directives, such as
	// $deleteFromPrimitiveList, or metadata below maps) although the same
	// inputs merge with Overwrite true. The oracle then has no answer on
	// conflicts, so ply may merge or report a conflict (but not fail
	// otherwise); such cases are only counted.
	NoVerdict
	// OracleLeaksDirective: strategicpatch is wrong. A list item new to
	// live that holds a nested delete directive is copied into the object
	// with the directive inside, so the deleted entry comes back (as the
	// API server decodes it). ply's object equals strategicpatch's with
	// those leaked entries dropped. Where the patch names the new item's
	// key again (local or recorded repeating a merge key, every gate off),
	// the later item merges into that copy, a copied delete item becoming
	// an entry it merges into and orders, so no directive need be left in
	// the result; the class then requires ply's object to equal
	// strategicpatch's own result on the patch with every directive it
	// would copy raw given its effect first (AbsorbedLeak), checked after
	// OracleSortsList, so a case that class names keeps it.
	OracleLeaksDirective
	// OracleSortsList: strategicpatch is wrong. With Overwrite false its
	// conflict check sorts the patch's atomic lists of scalars in place, so
	// the patch it sends reorders them (a container's command, say). ply's
	// object equals strategicpatch's with Overwrite true.
	OracleSortsList
	// DuplicateItems: ply reports a conflict strategicpatch misses, every
	// one at an atomic list of scalars holding two equal items in local or
	// live: strategicpatch's check dedupes both lists and then compares
	// only as many items as the patch's keeps (ConflictsAtDuplicates).
	DuplicateItems
	// ObjectMismatch: both succeeded with different objects.
	ObjectMismatch
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

var classNames = [...]string{"agree", "agree-conflict", "agree-error", "no-verdict",
	"oracle-leaks-directive", "oracle-sorts-list", "duplicate-items", "object-mismatch", "conflict-missed", "conflict-extra", "ply-error-only", "oracle-error-only", "ply-panic"}

// String names the class.
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "invalid"
}

// Failed reports whether the class is a disagreement.
func (c Class) Failed() bool { return c >= ObjectMismatch }

// Outcome is the result of running a Case through both implementations.
type Outcome struct {
	Case
	Class Class
	// OraclePatch is the strategic merge patch kubectl would send (nil on
	// conflict or error).
	OraclePatch []byte
	// OracleObject is strategicpatch's result (value.Null when none), as
	// the API server would store it (see RawOracle).
	OracleObject value.Value
	// OracleNormalized is set when storing changed strategicpatch's raw
	// result.
	OracleNormalized bool
	// OracleRaw is strategicpatch's result before normalizing.
	OracleRaw      value.Value
	OracleConflict bool
	OracleErr      error
	// PlyObject is apply.Merge's result (value.Null when none).
	PlyObject   value.Value
	PlyConflict bool
	PlyErr      error
	// DiffPath is the first path where the objects differ (ObjectMismatch
	// only), like ".spec.parts[1].env[0].value".
	DiffPath string
}

// Signature groups failures likely to share a cause: the class and the
// diff path with list indices dropped.
func (o Outcome) Signature() string {
	var sb strings.Builder
	sb.WriteString(o.Target)
	sb.WriteByte(' ')
	sb.WriteString(o.Class.String())
	if o.DiffPath != "" {
		sb.WriteByte(' ')
		sb.WriteString(PathShape(o.DiffPath))
	}
	return sb.String()
}

func encode(v value.Value) []byte {
	if v.IsNull() {
		return nil
	}
	return v.JSON()
}

// Run executes c with both implementations and classifies the outcome.
func (t *Target) Run(c Case) Outcome {
	o := Outcome{Case: c}
	res, err := t.Oracle.Apply(encode(c.Recorded), encode(c.Local), encode(c.Live), c.Overwrite)
	o.OraclePatch = res.Patch
	o.OracleConflict = res.Conflict
	o.OracleErr = err
	if err == nil && !res.Conflict {
		obj, derr := jsonv.Decode(res.Object)
		if derr != nil {
			o.OracleErr = fmt.Errorf("decoding strategicpatch's result: %w", derr)
		} else if RawOracle {
			o.OracleObject, o.OracleRaw = obj, obj
		} else {
			o.OracleRaw = obj
			o.OracleObject, o.OracleNormalized = serverNormalize(obj)
		}
	}

	panicked := false
	func() {
		defer func() {
			if p := recover(); p != nil {
				panicked = true
				o.PlyErr = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
			}
		}()
		r, err := apply.Merge(c.Recorded, c.Local, c.Live, t.MergeOptions(c.Overwrite))
		o.PlyErr = err
		if err == nil {
			o.PlyObject = r.Object
		}
	}()
	var ce *apply.ConflictError
	o.PlyConflict = o.PlyErr != nil && errors.As(o.PlyErr, &ce)

	switch {
	case panicked:
		o.Class = PlyPanic
	case o.OracleErr != nil && !c.Overwrite && t.oracleMerges(c):
		if o.PlyErr != nil && !o.PlyConflict {
			o.Class = PlyErrorOnly
		} else {
			o.Class = NoVerdict
		}
	case o.OracleErr != nil:
		if o.PlyErr != nil {
			o.Class = AgreeError
		} else {
			o.Class = OracleErrorOnly
		}
	case o.OracleConflict || o.PlyConflict:
		switch {
		case o.OracleConflict && o.PlyConflict:
			o.Class = AgreeConflict
		case o.OracleConflict:
			o.Class = t.explain(c, &o, ConflictMissed)
		default:
			o.Class = t.explain(c, &o, ConflictExtra)
		}
	case o.PlyErr != nil:
		o.Class = PlyErrorOnly
	default:
		if p, ok := firstDiff(o.OracleObject, o.PlyObject, ""); ok {
			o.DiffPath = p
			o.Class = t.explain(c, &o, ObjectMismatch)
		} else {
			o.Class = Agree
		}
	}
	return o
}

// RawOracle, when set, compares ply with strategicpatch's raw result.
// By default the result is first normalized the way the API server
// normalizes a patched object when it decodes it into its Go type:
// map fields holding null are dropped (the field stays unset), and so are
// patch directive keys ("$setElementOrder/...", "$deleteFromPrimitiveList/
// ...", "$retainKeys", "$patch") that strategicpatch leaves behind when it
// copies a patch subtree into an object lacking it. The environment
// variable PLY_DIFF_RAW=1 sets it for the differential suite.
var RawOracle = false

// serverNormalize drops null map values and "$"-prefixed keys from v,
// recursively; changed reports whether anything was dropped.
func serverNormalize(v value.Value) (out value.Value, changed bool) {
	switch v.Kind() {
	case value.KindMap:
		fs := v.Fields()
		nf := make([]value.Field, 0, len(fs))
		for _, f := range fs {
			if f.Value.IsNull() || strings.HasPrefix(f.Key, "$") {
				changed = true
				continue
			}
			nv, c := serverNormalize(f.Value)
			changed = changed || c
			nf = append(nf, value.Field{Key: f.Key, Value: nv})
		}
		if !changed {
			return v, false
		}
		return value.MapFromSorted(nf), true
	case value.KindList:
		items := v.Items()
		var ni []value.Value
		for i, it := range items {
			nv, c := serverNormalize(it)
			if c && ni == nil {
				ni = slices.Clone(items)
			}
			if ni != nil {
				ni[i] = nv
			}
		}
		if ni == nil {
			return v, false
		}
		return value.List(ni), true
	}
	return v, false
}

// explain returns the known strategicpatch defect (or the duplicate items)
// that accounts for a disagreement, or failed when none does.
func (t *Target) explain(c Case, o *Outcome, failed Class) Class {
	if failed == ConflictExtra && ConflictsAtDuplicates(c.Local, c.Live, o.PlyErr) {
		return DuplicateItems
	}
	if failed != ObjectMismatch {
		return failed
	}
	if leaked, ok := dropLeakedDeletes(o.OracleRaw); ok {
		if norm, _ := serverNormalize(leaked); value.Equal(norm, o.PlyObject) {
			return OracleLeaksDirective
		}
	}
	if !c.Overwrite {
		res, err := t.Oracle.Apply(encode(c.Recorded), encode(c.Local), encode(c.Live), true)
		if err == nil {
			if obj, derr := jsonv.Decode(res.Object); derr == nil {
				if norm, _ := serverNormalize(obj); value.Equal(norm, o.PlyObject) {
					return OracleSortsList
				}
			}
		}
	}
	// After the classes above: a case they name keeps its class.
	if p, err := jsonv.Decode(o.OraclePatch); err == nil && AbsorbedLeak(t, c.Live, p, o.PlyObject) {
		return OracleLeaksDirective
	}
	return failed
}

// dropLeakedDeletes removes from v every list item that carries a
// "$patch": "delete" directive; ok reports whether there was one.
func dropLeakedDeletes(v value.Value) (out value.Value, ok bool) {
	switch v.Kind() {
	case value.KindMap:
		fs := make([]value.Field, len(v.Fields()))
		for i, f := range v.Fields() {
			nv, c := dropLeakedDeletes(f.Value)
			ok = ok || c
			fs[i] = value.Field{Key: f.Key, Value: nv}
		}
		return value.MapFromSorted(fs), ok
	case value.KindList:
		var items []value.Value
		for _, it := range v.Items() {
			if d, has := it.Get("$patch"); has {
				if s, _ := d.AsString(); s == "delete" {
					ok = true
					continue
				}
			}
			nv, c := dropLeakedDeletes(it)
			ok = ok || c
			items = append(items, nv)
		}
		return value.List(items), ok
	}
	return v, false
}

// oracleMerges reports whether strategicpatch merges c's inputs with
// Overwrite true.
func (t *Target) oracleMerges(c Case) bool {
	_, err := t.Oracle.Apply(encode(c.Recorded), encode(c.Local), encode(c.Live), true)
	return err == nil
}

// firstDiff returns the first path (in document order) where a and b
// differ as JSON values.
func firstDiff(a, b value.Value, path string) (string, bool) {
	if a.Kind() == value.KindMap && b.Kind() == value.KindMap {
		af, bf := a.Fields(), b.Fields()
		i, j := 0, 0
		for i < len(af) || j < len(bf) {
			switch {
			case j == len(bf) || (i < len(af) && af[i].Key < bf[j].Key):
				return path + "." + af[i].Key, true
			case i == len(af) || bf[j].Key < af[i].Key:
				return path + "." + bf[j].Key, true
			}
			if p, ok := firstDiff(af[i].Value, bf[j].Value, path+"."+af[i].Key); ok {
				return p, true
			}
			i++
			j++
		}
		return "", false
	}
	if a.Kind() == value.KindList && b.Kind() == value.KindList {
		ai, bi := a.Items(), b.Items()
		for k := range min(len(ai), len(bi)) {
			if p, ok := firstDiff(ai[k], bi[k], path+"["+strconv.Itoa(k)+"]"); ok {
				return p, true
			}
		}
		if len(ai) != len(bi) {
			return path + "[" + strconv.Itoa(min(len(ai), len(bi))) + "]", true
		}
		return "", false
	}
	if value.Equal(a, b) {
		return "", false
	}
	if path == "" {
		path = "."
	}
	return path, true
}

// CaseSeed derives the seed of case i of a batch from the batch's base
// seed, the target and the overwrite flag (splitmix64 over their mix).
func CaseSeed(base uint64, target string, overwrite bool, i int) uint64 {
	h := fnv.New64a()
	h.Write([]byte(target))
	x := base ^ h.Sum64() ^ uint64(i)*0x9e3779b97f4a7c15
	if !overwrite {
		x ^= 0x5bd1e9955bd1e995
	}
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Generate returns the generated case of the given seed.
func (t *Target) Generate(seed uint64, overwrite bool) Case {
	tr := t.Gen.Triple(seed)
	return Case{Target: t.ID(), Seed: seed, Overwrite: overwrite, Recorded: tr.Recorded, Local: tr.Local, Live: tr.Live}
}

// Stats counts the outcomes of a batch.
type Stats struct {
	Target    string
	Overwrite bool
	Runs      int
	// FirstApply counts cases without recorded configuration.
	FirstApply int
	// ByClass counts outcomes per Class.
	ByClass [len(classNames)]int
	// Normalized counts cases whose strategicpatch result needed server
	// normalization (see RawOracle).
	Normalized int
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
	fmt.Fprintf(&sb, "%s overwrite=%t: %d cases (%d first apply)", s.Target, s.Overwrite, s.Runs, s.FirstApply)
	for c, k := range s.ByClass {
		if k > 0 {
			fmt.Fprintf(&sb, ", %s %d", Class(c), k)
		}
	}
	if s.Normalized > 0 {
		fmt.Fprintf(&sb, " (strategicpatch result normalized in %d)", s.Normalized)
	}
	return sb.String()
}

// RunMany runs n generated cases of t from the base seed on workers
// goroutines and returns the counts and up to keep failing outcomes,
// smallest (by input JSON size) first.
func (t *Target) RunMany(base uint64, n int, overwrite bool, workers, keep int) (Stats, []Outcome) {
	workers = max(1, workers)
	st := Stats{Target: t.ID(), Overwrite: overwrite, Runs: n}
	var mu sync.Mutex
	var fails []Outcome
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				c := t.Generate(CaseSeed(base, t.Name, overwrite, i), overwrite)
				o := t.Run(c)
				mu.Lock()
				st.ByClass[o.Class]++
				if c.FirstApply() {
					st.FirstApply++
				}
				if o.OracleNormalized {
					st.Normalized++
				}
				if o.Class.Failed() {
					fails = keepSmallest(fails, o, keep)
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

// keepSmallest adds o to fails, which is sorted by (input size, seed),
// keeping at most keep entries.
func keepSmallest(fails []Outcome, o Outcome, keep int) []Outcome {
	at, _ := slices.BinarySearchFunc(fails, o, compareOutcomes)
	if at >= keep {
		return fails
	}
	fails = slices.Insert(fails, at, o)
	if len(fails) > keep {
		fails = fails[:keep]
	}
	return fails
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

// Pick chooses up to n outcomes to report from fails (sorted smallest
// first): first the smallest of each distinct Signature, then the next
// smallest overall.
func Pick(fails []Outcome, n int) []Outcome {
	var out []Outcome
	seen := map[string]bool{}
	taken := make([]bool, len(fails))
	for i, o := range fails {
		if len(out) == n {
			return out
		}
		if sig := o.Signature(); !seen[sig] {
			seen[sig] = true
			taken[i] = true
			out = append(out, o)
		}
	}
	for i, o := range fails {
		if len(out) == n {
			break
		}
		if !taken[i] {
			out = append(out, o)
		}
	}
	return out
}
