package cluster

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/plyproject/ply/pkg/value"
)

// The annotations that declare the order of a run's objects, as Argo CD
// and kapp read them (see Stages).
const (
	// SyncWaveAnnotation is Argo CD's sync wave: an integer, 0 when absent;
	// lower waves are applied first, deleted last.
	SyncWaveAnnotation = "argocd.argoproj.io/sync-wave"
	// ChangeGroupAnnotation names a kapp change group the object belongs
	// to; ChangeGroupAnnotation+".<suffix>" names more.
	ChangeGroupAnnotation = "kapp.k14s.io/change-group"
	// ChangeRuleAnnotation is a kapp change rule of the object, "upsert
	// after upserting <group>" and the like; ChangeRuleAnnotation+
	// ".<suffix>" declares more.
	ChangeRuleAnnotation = "kapp.k14s.io/change-rule"
)

// Tier is the place of a kind in ply's default order (see Stages).
type Tier int

const (
	// TierNamespaces: Namespaces.
	TierNamespaces Tier = iota
	// TierDefinitions: CustomResourceDefinitions; the run waits until
	// they are established before the next stage.
	TierDefinitions
	// TierReferenced: what other objects refer to: service accounts,
	// RBAC, config maps, secrets, storage and the classes, services.
	TierReferenced
	// TierWorkloads: every kind not named by another tier (workloads,
	// custom resources, ...).
	TierWorkloads
	// TierAdmission: admission webhooks and policies, API services: last,
	// so that nothing is sent to a webhook before the workload behind
	// its Service was applied (and, with --wait, is ready).
	TierAdmission
)

// String returns the tier's name in the plan and in messages.
func (t Tier) String() string {
	switch t {
	case TierNamespaces:
		return "namespaces"
	case TierDefinitions:
		return "definitions"
	case TierReferenced:
		return "referenced"
	case TierWorkloads:
		return "workloads"
	case TierAdmission:
		return "admission"
	}
	return "invalid"
}

// tierOf maps group/kind to its tier; kinds absent are TierWorkloads.
var tierOf = map[string]Tier{
	"/Namespace": TierNamespaces,
	"apiextensions.k8s.io/CustomResourceDefinition": TierDefinitions,

	"/ServiceAccount":                              TierReferenced,
	"rbac.authorization.k8s.io/ClusterRole":        TierReferenced,
	"rbac.authorization.k8s.io/ClusterRoleBinding": TierReferenced,
	"rbac.authorization.k8s.io/Role":               TierReferenced,
	"rbac.authorization.k8s.io/RoleBinding":        TierReferenced,
	"/ConfigMap":                                   TierReferenced,
	"/Secret":                                      TierReferenced,
	"/LimitRange":                                  TierReferenced,
	"/ResourceQuota":                               TierReferenced,
	"storage.k8s.io/StorageClass":                  TierReferenced,
	"storage.k8s.io/CSIDriver":                     TierReferenced,
	"storage.k8s.io/VolumeAttributesClass":         TierReferenced,
	"/PersistentVolume":                            TierReferenced,
	"/PersistentVolumeClaim":                       TierReferenced,
	"networking.k8s.io/IngressClass":               TierReferenced,
	"scheduling.k8s.io/PriorityClass":              TierReferenced,
	"node.k8s.io/RuntimeClass":                     TierReferenced,
	"/Service":                                     TierReferenced,

	"admissionregistration.k8s.io/ValidatingWebhookConfiguration":   TierAdmission,
	"admissionregistration.k8s.io/MutatingWebhookConfiguration":     TierAdmission,
	"admissionregistration.k8s.io/ValidatingAdmissionPolicy":        TierAdmission,
	"admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding": TierAdmission,
	"admissionregistration.k8s.io/MutatingAdmissionPolicy":          TierAdmission,
	"admissionregistration.k8s.io/MutatingAdmissionPolicyBinding":   TierAdmission,
	"apiregistration.k8s.io/APIService":                             TierAdmission,
}

// TierOf returns the tier of r's kind.
func TierOf(r Ref) Tier {
	if t, ok := tierOf[r.Group+"/"+r.Kind]; ok {
		return t
	}
	return TierWorkloads
}

// Stage is a set of a run's objects written together (through the worker
// pool); a stage starts when the one before it has finished (and, with
// Options.StageDone, when that has returned).
type Stage struct {
	// Number is the stage's place in the run, from 1.
	Number int
	// Wave is the Argo CD sync wave of its objects.
	Wave int
	// Level is the place of its objects among the kapp change rules: 0
	// when no rule orders them after other objects.
	Level int
	// Tier is the kind tier of its objects.
	Tier Tier
	// Indices are the indices of its objects in the run's input, in input
	// order.
	Indices []int
}

// String describes the stage: "stage 2 (wave 0, referenced)", with the
// change-rule level when not 0.
func (s Stage) String() string {
	d := "stage " + strconv.Itoa(s.Number) + " (wave " + strconv.Itoa(s.Wave)
	if s.Level > 0 {
		d += ", change level " + strconv.Itoa(s.Level)
	}
	return d + ", " + s.Tier.String() + ")"
}

// orderItem is what ordering reads of one object: its ref and annotations.
type orderItem struct {
	ref         Ref
	annotations map[string]string
	source      string
}

// annotationsOf returns the metadata.annotations of v that are strings.
func annotationsOf(v value.Value) map[string]string {
	md, _ := v.Get("metadata")
	a, _ := md.Get("annotations")
	out := map[string]string{}
	for _, f := range a.Fields() {
		if s, ok := f.Value.AsString(); ok {
			out[f.Key] = s
		}
	}
	return out
}

// Stages splits objs into the stages Apply writes them in, by the key
// (sync wave, change-rule level, kind tier), lowest first:
//   - the sync wave is the integer of SyncWaveAnnotation, 0 when absent;
//   - the level is 0 for an object no "upsert after upserting G" rule (nor
//     another object's "upsert before upserting" rule naming its group)
//     orders after others, else one more than the highest level of the
//     objects it must follow;
//   - the tier is TierOf the kind.
//
// Objects of the same key form one stage, in input order. A malformed
// wave or rule, a rule naming a group no object of the run belongs to, a
// rule ply cannot honour (upserting after deleting: ply deletes after
// every write) and a cycle among the rules are errors naming the object
// or the groups.
func Stages(objs []Object) ([]Stage, error) {
	items := make([]orderItem, len(objs))
	for i, o := range objs {
		items[i] = orderItem{ref: refOf(o), annotations: annotationsOf(o.Value), source: o.Source}
	}
	return stagesOf(items, false)
}

// stagesOf orders items for writing (deleting false) or for deleting: then
// the key is (-wave, delete level, -tier): higher waves first, the kinds
// in reverse, and the "delete before deleting"/"delete after deleting"
// rules.
func stagesOf(items []orderItem, deleting bool) ([]Stage, error) {
	type key struct{ wave, level, tier int }
	keys := make([]key, len(items))
	rules, err := readRules(items)
	if err != nil {
		return nil, err
	}
	levels, err := rules.levels(len(items), deleting)
	if err != nil {
		return nil, err
	}
	for i, it := range items {
		wave, err := syncWave(it)
		if err != nil {
			return nil, err
		}
		k := key{wave: wave, level: levels[i], tier: int(TierOf(it.ref))}
		if deleting {
			k.wave, k.tier = -k.wave, -k.tier
		}
		keys[i] = k
	}
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ka, kb := keys[order[a]], keys[order[b]]
		if ka.wave != kb.wave {
			return ka.wave < kb.wave
		}
		if ka.level != kb.level {
			return ka.level < kb.level
		}
		return ka.tier < kb.tier
	})
	var stages []Stage
	for n, i := range order {
		if n == 0 || keys[i] != keys[order[n-1]] {
			k := keys[i]
			s := Stage{Number: len(stages) + 1, Wave: k.wave, Level: k.level, Tier: Tier(k.tier)}
			if deleting {
				s.Wave, s.Tier = -k.wave, Tier(-k.tier)
			}
			stages = append(stages, s)
		}
		last := &stages[len(stages)-1]
		last.Indices = append(last.Indices, i)
	}
	for s := range stages {
		sort.Ints(stages[s].Indices)
	}
	return stages, nil
}

// syncWave returns the sync wave of it, 0 when not annotated.
func syncWave(it orderItem) (int, error) {
	s, ok := it.annotations[SyncWaveAnnotation]
	if !ok {
		return 0, nil
	}
	w, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, errors.New(it.ref.String() + " (" + it.source + "): metadata.annotations." + SyncWaveAnnotation +
			": " + strconv.Quote(s) + " is not an integer")
	}
	return w, nil
}
