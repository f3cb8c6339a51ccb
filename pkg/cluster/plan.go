package cluster

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"

	"github.com/plyproject/ply/pkg/fieldpath"
	"github.com/plyproject/ply/pkg/value"
)

// PlanAPIVersion and PlanKind identify a Plan document.
const (
	PlanAPIVersion = "ply.dev/v1alpha1"
	PlanKind       = "Plan"
)

// The actions of a PlanObject.
const (
	PlanCreate    = "create"
	PlanUpdate    = "update"
	PlanRecreate  = "recreate"
	PlanPrune     = "prune"
	PlanUnchanged = "unchanged"
	PlanIgnored   = "ignored"
	PlanFailed    = "failed"
)

// Plan is what applying a run would do, object by object (ply diff -o
// json). Values of Secrets are masked unless asked otherwise (see
// NewPlan); the plan never holds the merged objects, only their digests.
type Plan struct {
	APIVersion string       `json:"apiVersion"`
	Kind       string       `json:"kind"`
	Objects    []PlanObject `json:"objects"`
	Summary    PlanSummary  `json:"summary"`
}

// PlanObject is one object of a Plan.
type PlanObject struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	// Source is where the object was read ("web.yaml#2"); "prune" for
	// the objects prune would delete.
	Source string `json:"source"`
	// Action is create, update, recreate, prune, unchanged, ignored or
	// failed.
	Action string `json:"action"`
	// Reason says why an ignored object is left as it is (a per-object
	// control: IgnoredReconcileDisabled, IgnoredExists,
	// IgnoredPruneDisabled).
	Reason string `json:"reason,omitempty"`
	// Stage is the stage the object is written (or deleted) in, from 1;
	// the deletions' stages follow the writes'.
	Stage int `json:"stage"`
	// ResourceVersion is that of the live object the plan was computed
	// against; empty for an object to create.
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// Digest is the SHA-256 of the object apply would write, as JSON,
	// without what the server sets on each request (uid,
	// resourceVersion, creationTimestamp, generation, managedFields) and
	// status, for update, create and recreate.
	Digest string `json:"digest,omitempty"`
	// Fields are the changed fields of an update or a re-creation, with
	// masked values (none for a create: every field is new).
	Fields []PlanField `json:"fields,omitempty"`
	// Error says why the object cannot be applied (Action failed).
	Error string `json:"error,omitempty"`
}

// PlanField is one changed field: its path, the change, what decided it,
// and the values before (live) and after (what apply writes), absent
// where the field is absent.
type PlanField struct {
	Path   string          `json:"path"`
	Op     string          `json:"op"`
	Reason string          `json:"reason"`
	Before json.RawMessage `json:"before,omitempty"`
	After  json.RawMessage `json:"after,omitempty"`
}

// PlanSummary counts the objects of a Plan by action.
type PlanSummary struct {
	Create    int `json:"create"`
	Update    int `json:"update"`
	Recreate  int `json:"recreate"`
	Prune     int `json:"prune"`
	Unchanged int `json:"unchanged"`
	Ignored   int `json:"ignored"`
	Failed    int `json:"failed"`
}

// String is the summary line: "Plan: 1 to create, 2 to update, 0 to
// recreate, 0 to prune, 3 unchanged, 0 ignored, 0 failed."
func (s PlanSummary) String() string {
	n := strconv.Itoa
	return "Plan: " + n(s.Create) + " to create, " + n(s.Update) + " to update, " + n(s.Recreate) + " to recreate, " +
		n(s.Prune) + " to prune, " + n(s.Unchanged) + " unchanged, " + n(s.Ignored) + " ignored, " + n(s.Failed) + " failed."
}

// Changes reports whether the plan writes or deletes anything.
func (s PlanSummary) Changes() bool { return s.Create+s.Update+s.Recreate+s.Prune > 0 }

// NewPlan makes the plan of a run from its Diff (res, in input order,
// for objs) and the objects prune would delete (PrunePlan; nil without
// prune). Stages are those of Stages(objs) (none when they cannot be read:
// every object is then failed with the reason). Secrets' values are
// masked (MaskSecrets) unless showSecrets.
func NewPlan(objs []Object, res []DiffResult, pruned []PlannedPrune, showSecrets bool) Plan {
	p := Plan{APIVersion: PlanAPIVersion, Kind: PlanKind, Objects: make([]PlanObject, 0, len(res)+len(pruned))}
	stageOf := make([]int, len(res))
	stages, stageErr := Stages(objs)
	for _, s := range stages {
		for _, i := range s.Indices {
			stageOf[i] = s.Number
		}
	}
	for i, d := range res {
		o := planObject(d, showSecrets)
		o.Stage = stageOf[i]
		if stageErr != nil {
			o.Action, o.Error, o.Fields, o.Digest = PlanFailed, stageErr.Error(), nil, ""
		}
		p.count(o.Action)
		p.Objects = append(p.Objects, o)
	}
	for _, pp := range pruned {
		o := PlanObject{APIVersion: pp.Ref.GroupVersion().String(), Kind: pp.Ref.Kind, Namespace: pp.Ref.Namespace,
			Name: pp.Ref.Name, Source: PruneSource, Action: PlanPrune, Stage: len(stages) + pp.Stage, ResourceVersion: pp.ResourceVersion}
		if pp.IgnoredReason != "" {
			o.Action, o.Reason = PlanIgnored, pp.IgnoredReason
		}
		p.count(o.Action)
		p.Objects = append(p.Objects, o)
	}
	return p
}

// count adds an object of action to the summary.
func (p *Plan) count(action string) {
	s := &p.Summary
	switch action {
	case PlanCreate:
		s.Create++
	case PlanUpdate:
		s.Update++
	case PlanRecreate:
		s.Recreate++
	case PlanPrune:
		s.Prune++
	case PlanUnchanged:
		s.Unchanged++
	case PlanIgnored:
		s.Ignored++
	default:
		s.Failed++
	}
}

// planObject is the PlanObject of d, without its stage.
func planObject(d DiffResult, showSecrets bool) PlanObject {
	o := PlanObject{APIVersion: d.Ref.GroupVersion().String(), Kind: d.Ref.Kind, Namespace: d.Ref.Namespace,
		Name: d.Ref.Name, Source: d.Object.Source, ResourceVersion: stringAt(d.Live, "metadata", "resourceVersion")}
	switch {
	case d.Err != nil:
		o.Action, o.Error = PlanFailed, d.Err.Error()
		return o
	case d.IgnoredReason != "":
		o.Action, o.Reason = PlanIgnored, d.IgnoredReason
		return o
	case !d.Exists:
		o.Action = PlanCreate
	case d.Recreate != nil:
		o.Action = PlanRecreate
	case d.Changed():
		o.Action = PlanUpdate
	default:
		o.Action = PlanUnchanged
		return o
	}
	// Without what the server sets per request (uid, timestamps, ...),
	// so that the same change planned twice has the same digest.
	sum := sha256.Sum256(restorable(d.Merged).JSON())
	o.Digest = "sha256:" + hex.EncodeToString(sum[:])
	if o.Action == PlanCreate {
		// Every field is new: the digest says what is created.
		return o
	}
	live, merged := d.Live, d.Merged
	if !showSecrets {
		live, merged = MaskSecrets(live, merged)
	}
	for k, fc := range d.Fields {
		f := PlanField{Path: fc.Path, Op: fc.Op.String(), Reason: fc.Reason}
		if k < len(d.paths) {
			f.Before, f.After = rawAt(live, d.paths[k]), rawAt(merged, d.paths[k])
		}
		o.Fields = append(o.Fields, f)
	}
	return o
}

// rawAt returns the JSON of the value at path in v, nil when absent.
func rawAt(v value.Value, path fieldpath.Path) json.RawMessage {
	v, ok := valueAt(v, path)
	if !ok || v.IsNull() {
		return nil
	}
	return json.RawMessage(v.JSON())
}

// valueAt returns the value at path in v.
func valueAt(v value.Value, path fieldpath.Path) (value.Value, bool) {
	for _, e := range path {
		var ok bool
		switch e.Kind {
		case fieldpath.FieldElement:
			v, ok = v.Get(e.Field)
		case fieldpath.IndexElement:
			items := v.Items()
			if ok = e.Index >= 0 && e.Index < len(items); ok {
				v = items[e.Index]
			}
		case fieldpath.ValueElement:
			v, ok = findItem(v, func(it value.Value) bool { return value.Equal(it, e.Value) })
		case fieldpath.KeyElement:
			v, ok = findItem(v, func(it value.Value) bool {
				for _, kf := range e.Key {
					if f, found := it.Get(kf.Name); !found || !value.Equal(f, kf.Value) {
						return false
					}
				}
				return true
			})
		}
		if !ok {
			return value.Null, false
		}
	}
	return v, true
}

// findItem returns the first item of the list v that match accepts.
func findItem(v value.Value, match func(value.Value) bool) (value.Value, bool) {
	for _, it := range v.Items() {
		if match(it) {
			return it, true
		}
	}
	return value.Null, false
}
