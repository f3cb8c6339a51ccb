package cluster

import (
	"encoding/json"
	"errors"
	"io"
	"strconv"
)

// ReadPlan reads a Plan saved from ply diff -o json.
func ReadPlan(r io.Reader) (Plan, error) {
	var p Plan
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Plan{}, errors.New("not a plan: " + err.Error())
	}
	if p.APIVersion != PlanAPIVersion || p.Kind != PlanKind {
		return Plan{}, errors.New("not a plan: apiVersion " + strconv.Quote(p.APIVersion) + ", kind " + strconv.Quote(p.Kind) +
			": want " + PlanAPIVersion + " " + PlanKind)
	}
	return p, nil
}

// key identifies a plan's object.
func (o PlanObject) key() string {
	return o.APIVersion + "/" + o.Kind + "/" + o.Namespace + "/" + o.Name
}

// String names the object as messages do: "ConfigMap team-a/settings".
func (o PlanObject) String() string {
	if o.Namespace == "" {
		return o.Kind + " " + o.Name
	}
	return o.Kind + " " + o.Namespace + "/" + o.Name
}

// Moved compares the saved plan p with now, the plan of the same run made
// now, and returns one message per object that differs: an object only
// in one of them, a live object whose resourceVersion moved (or that was
// created or deleted since), an action or a digest (what apply would
// write) that changed. An object ignored in both is left as it is
// whatever its resourceVersion. An empty result means applying now does
// what p says.
func (p Plan) Moved(now Plan) []string {
	saved := make(map[string]PlanObject, len(p.Objects))
	for _, o := range p.Objects {
		saved[o.key()] = o
	}
	var out []string
	seen := map[string]bool{}
	for _, n := range now.Objects {
		seen[n.key()] = true
		s, ok := saved[n.key()]
		switch {
		case !ok:
			out = append(out, n.String()+": not in the plan (would be "+n.Action+")")
		case s.ResourceVersion != n.ResourceVersion && (s.Action != PlanIgnored || n.Action != PlanIgnored):
			out = append(out, n.String()+": the live object changed since the plan (resourceVersion "+
				quoteOrNone(s.ResourceVersion)+" in the plan, "+quoteOrNone(n.ResourceVersion)+" now)")
		case s.Action != n.Action:
			out = append(out, n.String()+": planned "+s.Action+", would now be "+n.Action)
		case s.Digest != n.Digest:
			out = append(out, n.String()+": what apply would write differs from the plan (the manifests or the server changed)")
		}
	}
	for _, s := range p.Objects {
		if !seen[s.key()] {
			out = append(out, s.String()+": in the plan ("+s.Action+"), not in this run")
		}
	}
	return out
}

// quoteOrNone quotes rv, or says "none" (an object that did not exist).
func quoteOrNone(rv string) string {
	if rv == "" {
		return "none"
	}
	return strconv.Quote(rv)
}

// Expect returns an Options.Expect that fails an object of the plan whose
// live object is not the one the plan was computed against (another
// resourceVersion, or created or deleted since); objects not in the plan
// pass.
func (p Plan) Expect() func(ref Ref, resourceVersion string, exists bool) error {
	rvs := make(map[string]string, len(p.Objects))
	for _, o := range p.Objects {
		if o.Source != PruneSource {
			rvs[o.key()] = o.ResourceVersion
		}
	}
	return func(ref Ref, rv string, exists bool) error {
		o := PlanObject{APIVersion: ref.GroupVersion().String(), Kind: ref.Kind, Namespace: ref.Namespace, Name: ref.Name}
		want, ok := rvs[o.key()]
		if !ok || want == rv {
			return nil
		}
		return errors.New("the live object changed since the plan (resourceVersion " + quoteOrNone(want) + " in the plan, " +
			quoteOrNone(rv) + " now); nothing was written")
	}
}

// ExpectPrune returns an Options.ExpectPrune that gives each deletion of
// the plan (action prune) the resourceVersion the plan listed; an object
// the plan does not delete is not planned.
func (p Plan) ExpectPrune() func(ref Ref) (string, bool) {
	rvs := map[string]string{}
	for _, o := range p.Objects {
		if o.Action == PlanPrune {
			rvs[o.key()] = o.ResourceVersion
		}
	}
	return func(ref Ref) (string, bool) {
		o := PlanObject{APIVersion: ref.GroupVersion().String(), Kind: ref.Kind, Namespace: ref.Namespace, Name: ref.Name}
		rv, ok := rvs[o.key()]
		return rv, ok
	}
}
