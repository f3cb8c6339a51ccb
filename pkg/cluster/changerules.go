package cluster

import (
	"errors"
	"sort"
	"strconv"
	"strings"
)

// changeRule is one kapp change rule of an object: "<verb> <when>
// <target> <group>", such as "upsert after upserting db".
type changeRule struct {
	// upsert is true for "upsert ...", false for "delete ...".
	upsert bool
	// after is true for "after", false for "before".
	after bool
	// upserting is true for "upserting", false for "deleting".
	upserting bool
	group     string
	// text is the rule as written, for messages.
	text string
}

// changeRules are the groups and rules of a run's objects.
type changeRules struct {
	// members lists, per group, the indices of its objects.
	members map[string][]int
	// groups lists the groups of each object.
	groups [][]string
	// rules lists the rules of each object.
	rules [][]changeRule
	items []orderItem
}

// expandPlaceholders replaces kapp's placeholders {api-group}, {kind},
// {name} and {namespace} in s by those of r.
func expandPlaceholders(s string, r Ref) string {
	if !strings.Contains(s, "{") {
		return s
	}
	return strings.NewReplacer("{api-group}", r.Group, "{kind}", r.Kind, "{name}", r.Name, "{namespace}", r.Namespace).Replace(s)
}

// isKey reports whether annotation key k is base or base.<suffix>.
func isKey(k, base string) bool {
	return k == base || strings.HasPrefix(k, base+".") && len(k) > len(base)+1
}

// readRules reads the change groups and rules of items. A rule that does
// not parse is an error naming the object; so is one ply cannot honour:
// "upsert after deleting" and "delete before upserting" (ply deletes
// only after every write of the run).
func readRules(items []orderItem) (*changeRules, error) {
	cr := &changeRules{members: map[string][]int{}, groups: make([][]string, len(items)),
		rules: make([][]changeRule, len(items)), items: items}
	for i, it := range items {
		keys := make([]string, 0, len(it.annotations))
		for k := range it.annotations {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			v := strings.TrimSpace(it.annotations[k])
			switch {
			case isKey(k, ChangeGroupAnnotation):
				g := expandPlaceholders(v, it.ref)
				cr.groups[i] = append(cr.groups[i], g)
				cr.members[g] = append(cr.members[g], i)
			case isKey(k, ChangeRuleAnnotation):
				r, err := parseChangeRule(expandPlaceholders(v, it.ref))
				if err != nil {
					return nil, errors.New(it.ref.String() + " (" + it.source + "): metadata.annotations." + k + ": " + err.Error())
				}
				cr.rules[i] = append(cr.rules[i], r)
			}
		}
	}
	return cr, nil
}

// parseChangeRule parses "upsert|delete after|before upserting|deleting
// <group>".
func parseChangeRule(s string) (changeRule, error) {
	f := strings.Fields(s)
	bad := errors.New(strconv.Quote(s) + ` is not a change rule: want "upsert|delete after|before upserting|deleting <group>"`)
	if len(f) < 4 {
		return changeRule{}, bad
	}
	r := changeRule{text: s, group: strings.Join(f[3:], " ")}
	switch f[0] {
	case "upsert":
		r.upsert = true
	case "delete":
	default:
		return changeRule{}, bad
	}
	switch f[1] {
	case "after":
		r.after = true
	case "before":
	default:
		return changeRule{}, bad
	}
	switch f[2] {
	case "upserting":
		r.upserting = true
	case "deleting":
	default:
		return changeRule{}, bad
	}
	if r.upsert && r.after && !r.upserting {
		return changeRule{}, errors.New(strconv.Quote(s) + ": ply deletes (prunes) only after every write of the run, so no write can follow a deletion")
	}
	if !r.upsert && !r.after && r.upserting {
		return changeRule{}, errors.New(strconv.Quote(s) + ": ply deletes (prunes) only after every write of the run, so no deletion can precede a write")
	}
	return r, nil
}

// levels returns the change-rule level of each of the n objects: 0 for an
// object no rule puts after another, else one more than the highest level
// of those it must follow. Writing (deleting false) reads the rules
// "upsert after|before upserting"; deleting reads "delete after|before
// deleting". The rules mixing writes and deletions that ply accepts hold
// by themselves (deletions come last). A rule naming a group without
// objects in the run orders nothing. A cycle is an error naming its groups.
func (cr *changeRules) levels(n int, deleting bool) ([]int, error) {
	after := make([][]int, n) // after[a] lists the objects that must follow a
	indeg := make([]int, n)
	edge := func(first, then int) {
		if first != then {
			after[first] = append(after[first], then)
			indeg[then]++
		}
	}
	for i, rs := range cr.rules {
		for _, r := range rs {
			if r.upsert == deleting || r.upserting == deleting {
				continue
			}
			for _, j := range cr.members[r.group] {
				if r.after {
					edge(j, i)
				} else {
					edge(i, j)
				}
			}
		}
	}
	level := make([]int, n)
	var ready []int
	for i := 0; i < n; i++ {
		if indeg[i] == 0 {
			ready = append(ready, i)
		}
	}
	seen := 0
	for len(ready) > 0 {
		a := ready[0]
		ready = ready[1:]
		seen++
		for _, b := range after[a] {
			level[b] = max(level[b], level[a]+1)
			if indeg[b]--; indeg[b] == 0 {
				ready = append(ready, b)
			}
		}
	}
	if seen < n {
		return nil, cr.cycleError(indeg)
	}
	return level, nil
}

// cycleError names the groups and rules of the objects left in a cycle
// (indeg > 0 after the topological sort).
func (cr *changeRules) cycleError(indeg []int) error {
	groups := map[string]bool{}
	var rules []string
	for i, d := range indeg {
		if d == 0 {
			continue
		}
		for _, g := range cr.groups[i] {
			groups[g] = true
		}
		for _, r := range cr.rules[i] {
			if len(cr.members[r.group]) > 0 {
				rules = append(rules, cr.items[i].ref.String()+" "+strconv.Quote(r.text))
			}
		}
	}
	names := make([]string, 0, len(groups))
	for g := range groups {
		names = append(names, strconv.Quote(g))
	}
	sort.Strings(names)
	return errors.New("the kapp change rules form a cycle among the change groups " + strings.Join(names, ", ") +
		": " + strings.Join(rules, "; "))
}
