package cluster

import (
	"strings"
	"testing"
)

// FuzzStages checks that any sync waves and kapp change groups and rules
// order a run or are an error, never a panic: every object in exactly
// one stage, stages numbered from 1 in the order of their keys, and each
// rule "upsert after upserting G" honoured (its object in a later stage
// than every object of G). The inputs are the annotations of three
// objects: lines of "wave;groups;rule" (groups comma-separated).
func FuzzStages(f *testing.F) {
	f.Add("-1;db;\n0;app;upsert after upserting db\n;;upsert before upserting app")
	f.Add("x;;\n;;\n;;")
	f.Add(";a;upsert after upserting b\n;b;upsert after upserting a\n;;")
	f.Add(";a,b;delete before deleting a\n2;;upsert after upserting {kind}\n;;upsert   after  upserting   a")
	f.Fuzz(func(t *testing.T, spec string) {
		lines := strings.SplitN(spec, "\n", 3)
		items := make([]orderItem, len(lines))
		for i, l := range lines {
			parts := strings.SplitN(l, ";", 3)
			for len(parts) < 3 {
				parts = append(parts, "")
			}
			ann := map[string]string{}
			if parts[0] != "" {
				ann[SyncWaveAnnotation] = parts[0]
			}
			for k, g := range strings.Split(parts[1], ",") {
				if g != "" {
					ann[ChangeGroupAnnotation+"."+string(rune('a'+k%26))] = g
				}
			}
			if parts[2] != "" {
				ann[ChangeRuleAnnotation] = parts[2]
			}
			items[i] = orderItem{ref: ref("", "v1", "ConfigMap", "", "o"+string(rune('0'+i)), ""), annotations: ann, source: "fuzz"}
		}
		for _, deleting := range []bool{false, true} {
			stages, err := stagesOf(items, deleting)
			if err != nil {
				continue
			}
			stageOf := map[int]int{}
			for n, s := range stages {
				if s.Number != n+1 || len(s.Indices) == 0 {
					t.Fatalf("stage %d numbered %d with %d objects", n, s.Number, len(s.Indices))
				}
				for _, i := range s.Indices {
					if _, dup := stageOf[i]; dup {
						t.Fatalf("object %d in two stages", i)
					}
					stageOf[i] = s.Number
				}
			}
			if len(stageOf) != len(items) {
				t.Fatalf("%d of %d objects staged", len(stageOf), len(items))
			}
			if deleting {
				continue
			}
			rules, _ := readRules(items)
			for i, rs := range rules.rules {
				for _, r := range rs {
					if !r.upsert || !r.after || !r.upserting {
						continue
					}
					for _, j := range rules.members[r.group] {
						if j != i && stageOf[j] >= stageOf[i] && waveOf(items[j]) == waveOf(items[i]) {
							t.Fatalf("object %d (%q) not after object %d of group %q", i, r.text, j, r.group)
						}
					}
				}
			}
		}
	})
}

// waveOf is the sync wave of it (0 when it does not parse: such runs
// are errors, never checked).
func waveOf(it orderItem) int {
	w, _ := syncWave(it)
	return w
}
